"""The Discord part Michigan and Makao share: games played in turns from private hands.

Only the player whose turn it is decides, from his seat panel (his cards, and only his
legal moves as buttons, each carrying the table's move count so a double click plays
once). The table message shows one button for him, which plays at once a move with
nothing to choose (`only_move`) or else opens his panel; the GM gets the NPC's panel
from the table's "… for <NPC>" when its automatic play is off. Deal (when the table
waits for it) is the table's; the GM panel has Deal while the table cannot (refused with
the reason) and End the game.

A game subclasses `TrickTakingUI` with its engine, its `Words` and its hooks (`moves`,
`events_text`, `dealt`, `npc_note`), and its own part of the table message; the core
registers the actions "hand", "newhand" and "end" on the game's `actions`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar, Generic, TypeVar, cast

import discord

from bondbot.bot.context import bot_of, require_gm
from bondbot.bot.reply import Reply
from bondbot.bot.router import ButtonSpec, view_of
from bondbot.bot.tables import turns
from bondbot.bot.tables.actions import Click, TableActions
from bondbot.bot.tables.common import names, short, table_button
from bondbot.bot.tables.panels import show_seat_panel
from bondbot.bot.tables.turns import Turn
from bondbot.errors import Refusal
from bondbot.games.contract import Engine, Record
from bondbot.games.trick_taking.engine import TrickTakingEngine
from bondbot.i18n import Lang, t
from bondbot.rules.cards import Card, cards_pretty
from bondbot.tables.service import TableSnapshot

BLUE = discord.ButtonStyle.primary
COMPACT = 24  # characters of a name in the per-player lines: eight players fit a field

G = TypeVar("G", bound=TrickTakingEngine)


def seat_name(snapshot: TableSnapshot, seat: str) -> str:
    """A seat's name, short enough for the per-player lines."""
    return short(names(snapshot).get(int(seat), "?"), COMPACT)


def when(deadline: str | None) -> str:
    """A turn's deadline as Discord's relative time ("in 2 minutes"), or a dash."""
    if deadline is None:
        return "—"
    return f"<t:{int(datetime.fromisoformat(deadline).timestamp())}:R>"


def only_move(game: Engine, seat: str) -> tuple[str, str] | None:
    """`seat`'s move when there is nothing to choose: his one option names one target
    (Michigan's leader holding one suit, Makao's player with one legal card)."""
    mine = [option for option in game.options() if option.seat == seat]
    if len(mine) == 1 and len(mine[0].targets) == 1:
        return mine[0].kind, mine[0].targets[0]
    return None


@dataclass(frozen=True, slots=True)
class Words:
    """The game's catalog keys for what the core draws and says."""

    turn: Mapping[str, str]  # by phase: the table's button for the player to move
    for_npc: Mapping[str, str]  # by phase: the GM's, for the NPC ({name})
    npc_hand: str  # the NPC's hand, atop the GM's panel ({name}, {cards})
    deal: str  # the GM panel's Deal, while the table cannot deal
    end: str  # the GM panel's End the game
    ended: str  # said to the GM who ended it
    no_bets: str  # `/table bet`'s answer

    def named(self) -> tuple[str, ...]:
        """Every key named here (each must be in both catalogs)."""
        return (
            *self.turn.values(),
            *self.for_npc.values(),
            self.npc_hand,
            self.deal,
            self.end,
            self.ended,
            self.no_bets,
        )


class TrickTakingUI(Generic[G]):
    """A game's `UI` (bot/tables/games.py's `GameUI`) less its own part of the table
    message (`seat_extra`, `public_fields`, `phase`, `hand_note`) and its hooks."""

    engine: ClassVar[type[TrickTakingEngine]]
    words: ClassVar[Words]
    actions: TableActions  # the game's own, which the core adds its actions to

    def __init__(self) -> None:
        self.actions.on("hand", int)(self._hand)
        self.actions.on("newhand")(self._newhand)
        self.actions.on("end")(self._end)

    def game(self, snapshot: TableSnapshot) -> G:
        engine = snapshot.state.engine
        assert isinstance(engine, self.engine)
        return cast(G, engine)

    # -- the game's hooks ----------------------------------------------------------------

    def moves(self, snapshot: TableSnapshot, seat: str, lang: Lang) -> list[ButtonSpec]:
        """`seat`'s legal moves as buttons carrying the table's move count; nothing
        unless it is his turn."""
        raise NotImplementedError

    def events_text(self, snapshot: TableSnapshot, records: tuple[Record, ...], lang: Lang) -> str:
        """What a move set off, for the panel that made it."""
        raise NotImplementedError

    async def dealt(self, reply: Reply, snapshot: TableSnapshot) -> None:
        """The answer to the GM who dealt."""
        raise NotImplementedError

    def npc_note(self, snapshot: TableSnapshot, seat: str, lang: Lang) -> str | None:
        """What the GM's panel says under the NPC's hand."""
        return None

    # -- the panels ----------------------------------------------------------------------

    def npc_panel(
        self, snapshot: TableSnapshot, turn: Turn, lang: Lang
    ) -> tuple[str, list[ButtonSpec]]:
        """The NPC's hand and its legal moves, for the GM who plays for it."""
        game = self.game(snapshot)
        hand = cards_pretty([Card.parse(code) for code in game.hands.get(turn.seat, [])])
        text = t(self.words.npc_hand, lang, name=turn.name, cards=hand)
        if (note := self.npc_note(snapshot, turn.seat, lang)) is not None:
            text += "\n" + note
        return text, self.moves(snapshot, turn.seat, lang)

    async def answer(
        self, click: Click, snapshot: TableSnapshot, turn: Turn, text: str, *, edit: bool
    ) -> None:
        """What a move set off, with the panel it was made from drawn again: the player's
        seat panel (his cards now, his moves if it is his turn again), or the NPC's for
        the GM."""
        seat = snapshot.state.seat_of_user(click.user_id)
        if turn.for_npc or seat is None:
            buttons: list[ButtonSpec] = []
            if turn.seat in snapshot.state.engine.turn():  # its turn again: it leads again
                more, buttons = self.npc_panel(snapshot, turn, click.reply.lang)
                text = f"{text}\n\n{more}" if text else more
            if edit:
                await click.interaction.response.edit_message(content=text, view=view_of(buttons))
            else:
                await click.reply.send(text, view=view_of(buttons))
            return
        await show_seat_panel(click, snapshot, seat, text, edit=edit)

    # -- the actions ---------------------------------------------------------------------

    async def act(
        self,
        click: Click,
        kind: str,
        moves: int,
        *,
        amount: int | None = None,
        target: str | None = None,
    ) -> None:
        """A move from a panel's button, for whoever's turn it is (his own, or the NPC's
        for the GM), answered in place of the panel."""
        tables = bot_of(click.interaction).services.tables
        turn = await turns.whose_turn(click.reply, await tables.snapshot(click.table))
        await self._play(click, turn, kind, moves, amount=amount, target=target, edit=True)

    async def _play(
        self,
        click: Click,
        turn: Turn,
        kind: str,
        moves: int,
        *,
        amount: int | None = None,
        target: str | None = None,
        edit: bool,
    ) -> None:
        snapshot = await turns.act(
            click.reply, click.table, turn, kind, moves=moves, amount=amount, target=target
        )
        text = self.events_text(snapshot, snapshot.records, click.reply.lang)
        await self.answer(click, snapshot, turn, text, edit=edit)

    async def _hand(self, click: Click, moves: int) -> None:
        """The table's button for the player to move (the GM's, for the NPC): a move with
        nothing to choose is played at once; otherwise his seat panel with his legal
        moves (the NPC's hand to the GM)."""
        snapshot = await bot_of(click.interaction).services.tables.snapshot(click.table)
        if moves != snapshot.state.moves:  # drawn before the last move: its move may be done
            raise Refusal("table.stale_button")
        turn = await turns.whose_turn(click.reply, snapshot)
        forced = only_move(self.game(snapshot), turn.seat)
        if forced is not None:
            kind, target = forced
            await self._play(click, turn, kind, moves, target=target, edit=False)
            return
        await self.answer(click, snapshot, turn, "", edit=False)

    async def _newhand(self, click: Click) -> None:
        await self.dealt(click.reply, await turns.deal(click.reply, click.table))

    async def _end(self, click: Click) -> None:
        """The GM ends the game (a hand in play is abandoned)."""
        await require_gm(click.interaction)
        await bot_of(click.interaction).services.tables.act(
            click.table, click.user_id, "end", as_gm=True
        )
        await click.reply.say(self.words.ended)

    # -- GameUI --------------------------------------------------------------------------

    def buttons(self, snapshot: TableSnapshot, lang: Lang, money: str) -> list[ButtonSpec]:
        """The button for a player to move: it plays a move with nothing to choose, or
        opens his seat panel (anyone else is told whose turn it is)."""
        state, game = snapshot.state, self.game(snapshot)
        turn = game.turn()
        if not turn or turn[0] == state.npc_key:
            return []  # the NPC plays by itself, or the GM for it (`gm_waits`)
        key = self.words.turn[game.phase]
        return [table_button(lang, snapshot.id, key, "hand", state.moves, style=BLUE)]

    def gm_waits(self, snapshot: TableSnapshot, lang: Lang, money: str) -> ButtonSpec | None:
        """The deal between hands, once enough players sit; the NPC's move when the GM
        plays it."""
        state, game = snapshot.state, self.game(snapshot)
        if game.phase == "idle" and game.seated_to_deal():
            return table_button(lang, snapshot.id, "table.btn_deal", "newhand", style=BLUE)
        if game.turn() == (state.npc_key,) and not state.npc_auto:
            key, name = self.words.for_npc[game.phase], short(state.npc_name, COMPACT)
            return table_button(lang, snapshot.id, key, "hand", state.moves, style=BLUE, name=name)
        return None

    def gm_buttons(self, snapshot: TableSnapshot, lang: Lang, money: str) -> list[ButtonSpec]:
        """Deal while the table cannot (it is refused with the reason), and End the game."""
        game = self.game(snapshot)
        specs = []
        if game.phase == "idle" and not game.seated_to_deal():
            specs.append(table_button(lang, snapshot.id, self.words.deal, "newhand"))
        if game.phase != "over":
            specs.append(table_button(lang, snapshot.id, self.words.end, "end"))
        return specs

    def panel_buttons(
        self, snapshot: TableSnapshot, seat: str, lang: Lang, money: str
    ) -> list[ButtonSpec]:
        return self.moves(snapshot, seat, lang)

    async def bet(self, reply: Reply, table: int, on: str | None, amount: str) -> None:
        await reply.say(self.words.no_bets)

    async def deal(self, reply: Reply, table: int) -> None:
        await self.dealt(reply, await turns.deal(reply, table))
