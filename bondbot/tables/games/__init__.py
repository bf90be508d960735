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

    def needs_new_shoe(self, engine: dict[str, Any]) -> bool:
        """True between hands when the cut card has come out."""
        ...

    def replace_shoe(self, engine: dict[str, Any], shoe: Shoe) -> dict[str, Any]: ...

    def committed(self, engine: dict[str, Any], character_id: int) -> int:
        """Chips this PC has staked on the hand in progress (not yet settled)."""
        ...

    def release(self, engine: dict[str, Any], character_id: int) -> dict[str, Any]:
        """The engine without this PC's unsettled stakes (he left before the deal)."""
        ...

    async def act(
        self, ctx: TableContext, seat: Seat | None, action: str, args: dict[str, Any]
    ) -> dict[str, Any]:
        """Apply one decision; returns a public event for the table message."""
        ...


def game_for(key: str) -> TableGame:
    from bondbot.tables.games.punto_banco import PuntoBancoGame

    games: dict[str, TableGame] = {PuntoBancoGame.key: PuntoBancoGame()}
    try:
        return games[key]
    except KeyError:
        raise ValueError(f"no such game {key}") from None
