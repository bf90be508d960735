"""Game adapters: each runs one pure rules engine at a table.

An adapter knows its engine's state (a dict inside the table state), which actions a
seat may take, how a hand settles into chips through the table context, and which lost
hands open a Hero Point offer. The table service does everything common to all games.
"""

from __future__ import annotations

from typing import Any, Protocol

from bondbot.rules.shoe import Shoe
from bondbot.tables.context import TableContext
from bondbot.tables.state import Seat, TableConfig


class TableGame(Protocol):
    key: str
    packs_allowed: tuple[int, ...]
    default_packs: int

    def new_engine(self, config: TableConfig, shoe: Shoe) -> dict[str, Any]:
        """The engine's state for a new table dealt from `shoe`."""
        ...

    def shoe(self, engine: dict[str, Any]) -> Shoe:
        """The live shoe inside the engine's state."""
        ...

    def live_shoe(self, config: TableConfig, seed: bytes) -> Shoe:
        """A new live shoe for this table from a secret seed (its cut card placed)."""
        ...

    def needs_new_shoe(self, engine: dict[str, Any]) -> bool:
        """True only between hands, once the cut card has come out."""
        ...

    def replace_shoe(self, engine: dict[str, Any], shoe: Shoe) -> dict[str, Any]: ...

    def exposure(self, engine: dict[str, Any]) -> int:
        """The most the bank could have to pay on the stakes it has accepted so far."""
        ...

    def committed(self, engine: dict[str, Any], character_id: int) -> int:
        """Chips this PC has staked on the hand in progress (not yet settled)."""
        ...

    def release(self, engine: dict[str, Any], character_id: int) -> dict[str, Any]:
        """The engine without this PC's unsettled stakes (he left before the deal)."""
        ...

    async def act(
        self, ctx: TableContext, seat: Seat | None, action: str, args: dict[str, Any]
    ) -> dict[str, Any]:
        """Apply one decision; returns a public event for the table message.

        `seat` is None for the GM's and the timer's decisions. A new hand increments
        `ctx.state.hand_no` (which closes the previous hand's Hero Point offers); a lost
        hand opens one with `ctx.offer`. Timed decisions: set `ctx.state.deadline` and
        `deadline_action`; the timer calls `act` with that action and
        `args["deadline"]`, which must be refused if it no longer matches.
        """
        ...


def game_for(key: str) -> TableGame:
    from bondbot.tables.games.blackjack import BlackjackGame
    from bondbot.tables.games.punto_banco import PuntoBancoGame

    games: dict[str, TableGame] = {
        PuntoBancoGame.key: PuntoBancoGame(),
        BlackjackGame.key: BlackjackGame(),
    }
    try:
        return games[key]
    except KeyError:
        raise ValueError(f"no such game {key}") from None
