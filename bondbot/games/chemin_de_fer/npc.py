"""The NPC's automatic play at chemin de fer, from what the NPC may see.

- As banker: puts up the required bank if it can, else its `npc_bank` (bounded by its
  chips); keeps a bank it won (the rule's default); draws or stands by seed 004's table.
- As ponte: calls banco when it holds banco suivi (it chases the banco it lost), or when it
  sits first to the banker's right (the seat that would hold the hand) and the bank is no
  more than its `npc_bank`; otherwise it stakes up to `npc_bank`. Calling banco from any
  seat would shut the PCs out of every small bank, so it does not.
- Holding the hand: draws at 5, the better play against the banker's table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bondbot.games.contract import Move, SeatKey

if TYPE_CHECKING:
    from bondbot.games.chemin_de_fer.engine import ChemindeFer


def decide(game: ChemindeFer, seat: SeatKey) -> Move | None:
    """The NPC's move when it is its turn."""
    if game.phase == "bank":
        return _bank(game, seat)
    if game.phase == "stakes":
        return _stake(game, seat)
    return Move(kind="draw" if game.advice() else "stand", seat=seat)


def _bank(game: ChemindeFer, seat: SeatKey) -> Move:
    if game.bank > 0:
        return Move(kind="keep", seat=seat)
    option = next((o for o in game.options() if o.kind == "bank" and o.seat == seat), None)
    if option is None or option.min is None:
        return Move(kind="refuse", seat=seat)
    amount = max(option.min, game.settings.npc_bank)
    if option.max is not None:
        amount = min(amount, option.max)
    return Move(kind="bank", seat=seat, amount=amount)


def _stake(game: ChemindeFer, seat: SeatKey) -> Move:
    kinds = {option.kind: option for option in game.options() if option.seat == seat}
    if "banco" in kinds:
        first = game.pontes()[0] == seat
        if game.banco_suivi == seat or (first and game.bank <= game.settings.npc_bank):
            return Move(kind="banco", seat=seat)
    stake = kinds.get("stake")
    if stake is None or stake.max is None or stake.min is None:
        return Move(kind="pass", seat=seat)
    amount = min(stake.max, game.settings.npc_bank)
    if amount < stake.min:
        return Move(kind="pass", seat=seat)
    return Move(kind="stake", seat=seat, amount=amount)
