"""The NPC's automatic play at deux tableaux, from what the NPC may see.

- In an auction: offers its `npc_bank` once, if that beats the best offer; else passes.
- As banker: draws or stands by following the table with more money in play (the engine's
  `weighed_draw`, also the default for a PC banker's timer).
- As ponte: calls banco for the second time when it lost the first (it has priority), or
  when it sits first to the banker's right and the bank is no more than its `npc_bank`;
  otherwise it stakes half its `npc_bank` on each table (as far as the halves and its chips
  go), or passes if that is below the minimum stake.
- Holding a table's hand: draws at 5, the better play against the banker's table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bondbot.games.contract import Move, Option, SeatKey

if TYPE_CHECKING:
    from bondbot.games.deux_tableaux.engine import DeuxTableaux


def decide(game: DeuxTableaux, seat: SeatKey) -> Move:
    """The NPC's move when it is its turn."""
    mine = [option for option in game.options() if option.seat == seat]
    if game.phase == "auction":
        bid = next(option for option in mine if option.kind == "bid")
        amount = game.settings.npc_bank
        if bid.admits(Move(kind="bid", seat=seat, amount=amount)):
            return Move(kind="bid", seat=seat, amount=amount)
        return Move(kind="pass", seat=seat)
    if game.phase == "stakes":
        return _stake(game, seat, {(o.kind, o.targets): o for o in mine})
    if game.phase == "hands":
        return Move(kind="draw", seat=seat)
    return Move(kind="draw" if game.weighed_draw() else "stand", seat=seat)


def _stake(
    game: DeuxTableaux, seat: SeatKey, mine: dict[tuple[str, tuple[str, ...]], Option]
) -> Move:
    if ("banco", ()) in mine:
        again = game.banco_right == "again" and game.banco_loser == seat
        first = game.pontes()[0] == seat and game.bank <= game.settings.npc_bank
        if again or first:
            return Move(kind="banco", seat=seat)
    both = mine.get(("stake", ("both",)))
    if both is not None:
        assert both.min is not None and both.max is not None
        amount = min(both.max, game.settings.npc_bank // 2)
        if amount >= both.min:
            return Move(kind="stake", seat=seat, amount=amount, target="both")
    return Move(kind="pass", seat=seat)
