"""The Discord layer: thin cogs, views and embeds over the services; no rule lives here."""
