"""The rules the bot plays by, shipped with it: `/rules` sends a topic's full text.

The files are copies of the project's specification (`shared/rules/`, in English); a test
keeps them equal to it.
"""

from __future__ import annotations

from importlib.resources import files

# What `/rules` and `/help` explain, in the order they list them: the games, then the
# alternative rule and the rulebook's contest. Each topic's text is in its file.
TOPICS: dict[str, str] = {
    "punto_banco": "baccarat.md",
    "blackjack": "blackjack.md",
    "chemin_de_fer": "chemin-de-fer.md",
    "deux_tableaux": "deux-tableaux.md",
    "holdem": "holdem.md",
    "macao": "macao.md",
    "michigan": "michigan.md",
    "makao": "makao.md",
    "alternative": "alternative-rule.md",
    "rulebook": "rulebook.md",
}
GAMES = tuple(key for key in TOPICS if key not in ("alternative", "rulebook"))


def full_text(topic: str) -> bytes:
    """The topic's whole rules file (Markdown, UTF-8)."""
    return files(__name__).joinpath(TOPICS[topic]).read_bytes()
