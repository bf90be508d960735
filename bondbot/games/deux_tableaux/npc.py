"""The NPC's automatic play at deux tableaux, from what the NPC may see.

- In an auction: offers its `npc_bank` once, if that beats the best offer; else passes.
- Drawing follows its Gambling level (`skill.plays_strong`). The strong banker takes the
  choice with the best exact expectation over both tables at once, each weighed by the
  money covered on it (`baccarat_bank.expectation`, from his cards, the third cards and
  naturals shown); on a tie, the table with more money in play (the engine's
  `weighed_draw`, also the default for a PC banker's timer). The strong hand-holder at 5
  takes the better expectation against a banker following seed 004's table. The novice
  banker draws by feel (a threshold drawn afresh, blind to the third cards), the novice
  hand-holder tosses a coin at 5. Auction and stakes are alike at every level.
- As ponte: calls banco for the second time when it lost the first (it has priority), or
  when it sits first to the banker's right and the bank is no more than its `npc_bank`;
  otherwise it stakes half its `npc_bank` on each table (as far as the halves and its chips
  go), or passes if that is below the minimum stake.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from bondbot.games.baccarat_bank.expectation import banker_outlook, composition, ponte_outlook
from bondbot.games.baccarat_bank.npc import EPSILON, drawing, values
from bondbot.games.contract import GAMBLING_MAX, Move, Option, SeatKey
from bondbot.rules.baccarat import codes_value

if TYPE_CHECKING:
    from bondbot.games.deux_tableaux.engine import DeuxTableaux


def decide(
    game: DeuxTableaux, seat: SeatKey, rng: random.Random, level: int = GAMBLING_MAX
) -> Move:
    """The NPC's move when it is its turn, as a player of Gambling `level` makes it."""
    mine = [option for option in game.options() if option.seat == seat]
    if game.phase == "auction":
        bid = next(option for option in mine if option.kind == "bid")
        amount = game.settings.npc_bank
        if bid.admits(Move(kind="bid", seat=seat, amount=amount)):
            return Move(kind="bid", seat=seat, amount=amount)
        return Move(kind="pass", seat=seat)
    if game.phase == "stakes":
        return _stake(game, seat, {(o.kind, o.targets): o for o in mine})
    assert game.coup is not None
    at_five = game.phase == "hands"
    return drawing(seat, level, rng, lambda: strong_draw(game), game.coup.banker, at_five)


def _seen(game: DeuxTableaux, own: list[str]) -> list[int]:
    """What the one deciding sees: his own two cards, every face-up third card and the
    naturals shown; never the two cards of another table still in play."""
    assert game.coup is not None
    codes = list(own)
    for hand in game.coup.hands.values():
        codes += hand.cards if hand.winner is not None else hand.cards[2:]
    if len(game.coup.banker) > 2:
        codes += game.coup.banker[2:]
    return values(codes)


def strong_draw(game: DeuxTableaux) -> bool:
    """The draw or stand with the best exact expectation for the one deciding now."""
    coup = game.coup
    assert coup is not None
    if game.phase == "hands":
        assert coup.waiting is not None
        mine = coup.hands[coup.waiting].cards[:2]
        counts = composition(game.settings.packs, _seen(game, mine))
        outlook = ponte_outlook(counts, codes_value(mine))
        gain = outlook[True].value() - outlook[False].value()
        return True if abs(gain) < EPSILON else gain > 0
    own = coup.banker[:2]
    counts = composition(game.settings.packs, _seen(game, own))
    gain = 0.0
    for hand in coup.hands.values():
        if hand.winner is not None:
            continue
        money = sum(item.covered for item in hand.covers)
        third = values(hand.cards[2:3])
        outlook = banker_outlook(counts, codes_value(own), (third or [None])[0])
        gain += money * (outlook[True].value() - outlook[False].value())
    scale = max(1, coup.bank)
    return game.weighed_draw() if abs(gain) / scale < EPSILON else gain > 0


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
