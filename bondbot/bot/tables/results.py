"""The picture of a hand's result, shown when the hand ends: on the table message when a
click there ended it (that click's answer carries it, outside Discord's budget: issue 32),
else posted in the table's thread (`messages`).

The cards everyone saw at the end of a hand (`Engine.shown_hands`: a baccarat coup's two
hands, a blackjack dealer's and each box's, a hold'em board and the hands shown down, a
Makao deal's trump and the cards each player played, with his bid and tricks taken) are
drawn one row each and posted once per hand. The picture says what each row is — whose
hand, the part it plays (banker, player, right or left tableau, the board) and its total —
under the heading the table uses for its hands ("Coup 12", "Round 3"); the attachment's
description (alt text) and the embed give the same rows in words for those who read rather
than look. Tables playing in the channel get no picture: a message per hand there would
drown the channel's conversation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bondbot.bot.tables.common import names
from bondbot.games.contract import ShownHand
from bondbot.i18n import Lang, has, t
from bondbot.pictures.cards import SEPARATOR, Label
from bondbot.rules.cards import cards_pretty
from bondbot.tables.events import Played
from bondbot.tables.service import TableSnapshot

PICTURE = "hand.png"
# The parts a row may play, as `ShownHand.whose` (no seat holds it) or `ShownHand.role`.
ROLES = ("player", "banker", "board", "left", "right", "widow", "dealer", "went_out", "trump")
ALT_MAX = 1024  # Discord's limit for an attachment's description


def ended_hand(snapshot: TableSnapshot) -> Sequence[ShownHand]:
    """The rows to draw when the action behind `snapshot` ended a hand; () otherwise."""
    event = snapshot.event
    if not isinstance(event, Played) or not any(r.hand_over for r in event.records):
        return ()
    return snapshot.state.engine.shown_hands()


@dataclass(frozen=True)
class ResultPicture:
    """What a hand's result says, in one language: its heading and each row's label."""

    heading: str
    labels: tuple[Label, ...]  # (who, what) a row: ("Le Chiffre", "Banker (7)")
    lines: tuple[str, ...]  # each row in words, for the embed ("**Le Chiffre · Banker (7)**: …")
    alt: str  # the attachment's description: the heading, then every row in plain words


def result_picture(snapshot: TableSnapshot, rows: Sequence[ShownHand], lang: Lang) -> ResultPicture:
    who = names(snapshot)
    game = snapshot.state.config.game
    key = f"games.result_heading.{game}"
    heading = t(key if has(key, lang) else "table.shown_title", lang, hand=snapshot.state.hand_no)

    def label_of(row: ShownHand) -> Label:
        name = who.get(int(row.whose), "") if row.whose.isdigit() else ""
        role = row.role or (row.whose if row.whose in ROLES else None)
        what = "" if role is None else t(f"table.shown_{role}", lang, **dict(row.params))
        if row.total is not None:
            what = f"{what} ({row.total})" if what else str(row.total)
        return name, what

    labels = tuple(label_of(row) for row in rows)
    words = [
        (_joined(label), cards_pretty(row.cards)) for label, row in zip(labels, rows, strict=True)
    ]
    alt = t(
        "table.shown_alt",
        lang,
        heading=heading,
        rows="; ".join(t("table.shown_alt_row", lang, whose=w, cards=c) for w, c in words),
    )
    return ResultPicture(
        heading,
        labels,
        tuple(t("table.shown_row", lang, whose=w, cards=c) for w, c in words),
        alt if len(alt) <= ALT_MAX else alt[: ALT_MAX - 1] + "…",
    )


def result_embed(picture: ResultPicture) -> discord.Embed:
    """The hand's rows in words, top to bottom as the picture shows them."""
    embed = discord.Embed(title=picture.heading, description="\n".join(picture.lines))
    embed.set_image(url=f"attachment://{PICTURE}")
    return embed


def _joined(label: Label) -> str:
    return SEPARATOR.join(part for part in label if part)
