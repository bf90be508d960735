"""A table read at a glance (issue 34): a long log cut to its latest lines.

The table message says what the table waits for and the latest moves; what came before
is one line ("… 7 earlier moves"): the hand's picture and `/table history` keep the rest.
"""

from __future__ import annotations

from bondbot import i18n
from bondbot.i18n import Lang

LOG_LINES = 5  # the latest moves a log shows


def latest(lines: list[str], lang: Lang, keep: int = LOG_LINES) -> list[str]:
    """The last `keep` lines, after one line counting those left out."""
    if len(lines) <= keep + 1:  # a line saying one was left out would save nothing
        return lines
    earlier = len(lines) - keep
    return [i18n.plural("table.earlier_moves", lang, earlier), *lines[-keep:]]


def by_hand_word(key: str, game: str, lang: Lang) -> str:
    """`table.<key>.<word>`: the phrase naming a hand as the game does ("Coup 3" at
    baccarat, "Main 3" at a French hold'em table; `games.hand_word.<game>`)."""
    from bondbot.tables.summary import hand_word

    return f"table.{key}.{hand_word(game, lang)}"
