"""The Discord side of card tables: the public message, and each game's buttons and lines."""
