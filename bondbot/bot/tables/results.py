"""The picture of a hand's result, posted in the table's thread when the hand ends.

The table message stays text (it is edited often and never carries an attachment); the
cards everyone saw at the end of a hand (`Engine.shown_hands`: a baccarat coup's two
hands, a blackjack dealer's and each box's, a hold'em board and the hands shown down) are
drawn one row each and posted once per hand, with the same rows in words for those who
read rather than look. Tables playing in the channel get no picture: a message per hand
there would drown the channel's conversation.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bondbot.bot.tables.common import names
from bondbot.games.contract import ShownHand
from bondbot.i18n import Lang, t
from bondbot.rules.cards import cards_pretty
from bondbot.tables.events import Played
from bondbot.tables.service import TableSnapshot

PICTURE = "hand.png"
ROLES = ("player", "banker", "board", "left", "right", "widow")  # rows no seat holds


def ended_hand(snapshot: TableSnapshot) -> Sequence[ShownHand]:
    """The rows to draw when the action behind `snapshot` ended a hand; () otherwise."""
    event = snapshot.event
    if not isinstance(event, Played) or not any(r.hand_over for r in event.records):
        return ()
    return snapshot.state.engine.shown_hands()


def result_embed(snapshot: TableSnapshot, rows: Sequence[ShownHand], lang: Lang) -> discord.Embed:
    """The hand's rows in words, top to bottom as the picture shows them."""
    who = names(snapshot)

    def label(whose: str) -> str:
        if whose in ROLES:
            return t(f"table.shown_{whose}", lang)
        return who.get(int(whose), "?") if whose.isdigit() else "?"

    lines = [
        t(
            "table.shown_row" if row.total is None else "table.shown_row_total",
            lang,
            whose=label(row.whose),
            cards=cards_pretty(row.cards),
            total=row.total,
        )
        for row in rows
    ]
    embed = discord.Embed(
        title=t("table.shown_title", lang, hand=snapshot.state.hand_no),
        description="\n".join(lines),
    )
    embed.set_image(url=f"attachment://{PICTURE}")
    return embed
