"""High card, a toy game that exists only to prove the recipe for a new game.

Everything a game needs is in this one module (and its words in `high_card_locales/`):
the engine on the contract, the spec (its `/table open` is built from it), and the
Discord part. Each PC antes into the pot, the table deals one card to each of them and
to the NPC, face down; the GM shows the cards and the highest takes the pot (the first in
seat order on a tie). A PC who lost the pot to the NPC may spend a Hero Point to win his
ante back and as much again.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from bondbot.bot.context import bot_of, require_gm
from bondbot.bot.reply import Reply
from bondbot.bot.router import ButtonSpec
from bondbot.bot.tables.actions import Click, TableActions
from bondbot.bot.tables.common import table_button
from bondbot.games.contract import (
    Engine,
    Event,
    LostHand,
    Move,
    Option,
    Record,
    SeatKey,
    ShoeField,
    ShownHand,
    Transfer,
    pot_account,
    seat_account,
)
from bondbot.games.registry import GameSpec, NewTable
from bondbot.i18n import Lang, t
from bondbot.rules.cards import RANKS, Card, cards_pretty
from bondbot.rules.errors import IllegalAction
from bondbot.rules.shoe import Shoe
from bondbot.tables.service import TableSnapshot

POT = pot_account("main")


class Shown(Event):
    kind: Literal["shown"] = "shown"
    cards: dict[SeatKey, str]
    winner: SeatKey
    pot: int


class HighCard(Engine):
    key = "high_card"
    moves = frozenset({"ante", "deal", "show"})

    shoe: ShoeField
    ante: int
    anted: list[SeatKey] = Field(default_factory=list)
    hands: dict[SeatKey, str] = Field(default_factory=dict)  # dealt, not yet shown
    last: Shown | None = None

    def options(self) -> list[Option]:
        if self.hands:
            return [Option(kind="show")]
        found = [Option(kind="ante", seat=s) for s in self.seats if s not in self.anted]
        return [*found, Option(kind="deal")] if self.anted else found

    def check(self, move: Move) -> None:
        if move.kind == "ante" and (self.stacks.get(str(move.seat)) or 0) < self.ante:
            raise IllegalAction("table.wager_over_chips")

    def play(self, move: Move) -> Record:
        if move.kind == "ante":
            self.anted.append(str(move.seat))
            ante = Transfer(
                src=seat_account(str(move.seat)), dst=POT, amount=self.ante, reason="high_card.ante"
            )
            return Record(move=move, transfers=(ante,))
        if move.kind == "deal":
            self.hand += 1
            npc = Transfer(
                src=seat_account(str(self.npc)), dst=POT, amount=self.ante, reason="high_card.ante"
            )
            self.hands = {seat: self.shoe.deal().code for seat in [*self.anted, str(self.npc)]}
            return Record(move=move, transfers=(npc,))
        shown = {seat: Card.parse(code) for seat, code in self.hands.items()}
        winner = max(shown, key=lambda seat: RANKS.index(shown[seat].rank))
        pot = self.ante * len(shown)
        lost = tuple(
            LostHand(seat=seat, label=f"ante:{self.ante}", pay=2 * self.ante)
            for seat in self.anted
            if winner == self.npc
        )
        self.last = Shown(cards=dict(self.hands), winner=winner, pot=pot)
        self.anted, self.hands = [], {}
        win = Transfer(src=POT, dst=seat_account(winner), amount=pot, reason="high_card.pot")
        return Record(move=move, events=(self.last,), transfers=(win,), lost=lost, hand_over=True)

    def in_hand(self) -> bool:
        return bool(self.hands)

    def committed(self, seat: SeatKey) -> int:
        return 0  # an ante goes into the pot at once

    def private_cards(self, seat: SeatKey) -> list[Card]:
        return [Card.parse(self.hands[seat])] if seat in self.hands else []

    def shown_hands(self) -> tuple[ShownHand, ...]:
        cards = self.last.cards if self.last else {}
        return tuple(ShownHand(seat, (Card.parse(code),)) for seat, code in cards.items())

    def current_shoe(self) -> Shoe:
        return self.shoe


class HighCardOptions(BaseModel):
    pass


def _new_engine(table: NewTable, shoe: Shoe) -> HighCard:
    return HighCard(shoe=shoe, npc=table.npc, ante=table.min_bet)


SPEC = GameSpec(
    key=HighCard.key,
    engine=HighCard,
    options=HighCardOptions,
    packs_allowed=(1,),
    default_packs=1,
    new_engine=_new_engine,
    live_shoe=lambda table, seed: Shoe.shuffled(1, seed),
    ui=__name__,
    private_hands=True,
    locales=Path(__file__).parent / "high_card_locales",
    open_description="Open a high card table (GM)",  # its options: the common ones
)


actions = TableActions()


@actions.on("ante")
async def _ante(click: Click) -> None:
    await bot_of(click.interaction).services.tables.act(click.table, click.user_id, "ante")
    await click.reply.say("high_card.anted")


@actions.on("show")
async def _show(click: Click) -> None:
    await require_gm(click.interaction)
    await bot_of(click.interaction).services.tables.act(
        click.table, click.user_id, "show", as_gm=True
    )
    await click.reply.say("high_card.shown")


class HighCardUI:
    actions = actions

    def seat_extra(
        self, snapshot: TableSnapshot, character_id: int, lang: Lang, money: str
    ) -> str | None:
        engine = snapshot.state.engine
        assert isinstance(engine, HighCard)
        return t("high_card.anted_line", lang) if str(character_id) in engine.anted else None

    def public_fields(
        self, snapshot: TableSnapshot, lang: Lang, money: str
    ) -> list[tuple[str, str]]:
        engine = snapshot.state.engine
        assert isinstance(engine, HighCard)
        if engine.last is None:
            return []
        shown = ", ".join(cards_pretty([Card.parse(code)]) for code in engine.last.cards.values())
        return [(t("high_card.last", lang), shown)]

    COMMON_PHASES = ("in hand", "between hands")

    def buttons(self, snapshot: TableSnapshot, lang: Lang, money: str) -> list[ButtonSpec]:
        """The players ante between hands; nobody else has a move."""
        if snapshot.state.engine.in_hand():
            return []
        return [table_button(lang, snapshot.id, "high_card.btn_ante", "ante")]

    def gm_waits(self, snapshot: TableSnapshot, lang: Lang, money: str) -> ButtonSpec:
        """The table waits for the GM: to deal, then to show the cards."""
        if snapshot.state.engine.in_hand():
            return table_button(lang, snapshot.id, "high_card.btn_show", "show")
        return table_button(lang, snapshot.id, "table.btn_deal", "deal")

    def gm_buttons(self, snapshot: TableSnapshot, lang: Lang, money: str) -> list[ButtonSpec]:
        """Show in the GM's panel too: a hand ended there (a private answer) is pictured in
        the table's thread, which the tests of the thread's mending need (issue 32: a hand
        ended on the table message is pictured on its answer)."""
        if not snapshot.state.engine.in_hand():
            return []
        return [table_button(lang, snapshot.id, "high_card.btn_show", "show")]

    async def bet(self, reply: Reply, table: int, on: str | None, amount: str) -> None:
        await reply.say("high_card.no_bets")

    async def deal(self, reply: Reply, table: int) -> None:
        await require_gm(reply.interaction)
        await bot_of(reply.interaction).services.tables.act(
            table, reply.interaction.user.id, "deal", as_gm=True
        )
        await reply.say("high_card.dealt")


UI = HighCardUI()
