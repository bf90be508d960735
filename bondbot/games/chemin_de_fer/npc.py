"""The NPC's automatic play at chemin de fer, from what the NPC may see.

- As banker: puts up the required bank if it can, else its `npc_bank` (bounded by its
  chips); keeps a bank it won (the rule's default).
- As ponte: calls banco when it holds banco suivi (it chases the banco it lost), or when it
  sits first to the banker's right (the seat that would hold the hand) and the bank is no
  more than its `npc_bank`; otherwise it stakes up to `npc_bank`. Calling banco from any
  seat would shut the PCs out of every small bank, so it does not.
- Drawing (classic drawing only; under the fixed tableau nobody decides) follows its
  Gambling level (`skill.plays_strong`): the strong play takes the choice with the best
  exact expectation (`expectation`) from its own cards, the ponte's face-up third card and
  the commission; the novice draws by feel, on a threshold drawn afresh every time and
  blind to the ponte's card, and at 5 as ponte tosses a coin. The bank and the stakes are
  money management, with no expectation to gain: every level handles them alike.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from bondbot.games.baccarat_bank.expectation import banker_outlook, composition, ponte_outlook
from bondbot.games.baccarat_bank.npc import EPSILON, drawing, values
from bondbot.games.contract import GAMBLING_MAX, Move, SeatKey
from bondbot.rules.baccarat import codes_value

if TYPE_CHECKING:
    from bondbot.games.chemin_de_fer.engine import ChemindeFer


def decide(game: ChemindeFer, seat: SeatKey, rng: random.Random, level: int = GAMBLING_MAX) -> Move:
    """The NPC's move when it is its turn, as a player of Gambling `level` makes it."""
    if game.phase == "bank":
        return _bank(game, seat)
    if game.phase == "stakes":
        return _stake(game, seat)
    assert game.coup is not None
    at_five = game.phase == "ponte"
    return drawing(seat, level, rng, lambda: strong_draw(game), game.coup.banker, at_five)


def strong_draw(game: ChemindeFer) -> bool:
    """The draw or stand with the best exact expectation for the one deciding now."""
    coup = game.coup
    assert coup is not None
    advice = bool(game.advice())
    if game.phase == "ponte":
        counts = composition(game.settings.packs, values(coup.ponte[:2]))
        outlook = ponte_outlook(counts, codes_value(coup.ponte[:2]))
        gain = outlook[True].value() - outlook[False].value()
    else:
        third = values(coup.ponte[2:3])
        counts = composition(game.settings.packs, values(coup.banker[:2]) + third)
        outlook = banker_outlook(counts, codes_value(coup.banker[:2]), (third or [None])[0])
        pays = 1 - game.settings.commission / 100
        gain = outlook[True].value(pays) - outlook[False].value(pays)
    return advice if abs(gain) < EPSILON else gain > 0


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
