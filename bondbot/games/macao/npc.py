"""The NPC's automatic play at a Macao table (macao.md, step 5), by its Gambling level.

Each decision is the strong policy's or the novice's by `skill.plays_strong`.

- The strong wager (a player, at a rotating bank): the table minimum on the target worth
  most for its two cards, by the exact odds (`odds.best_wager`).
- The strong draw, as banker or as player: the choice with the best expectation of the
  money on the table, under the table's counting. The banker weighs every live wager (its
  target and stake: a wager on the banker's hand wins when his hand wins, so with money
  there he would rather lose); a player weighs his own. The cards: the packs less those
  the NPC sees (its own two, the third cards dealt face up, the hands shown); the others'
  two cards are enumerated, never read, conditioned on what is public (no natural was
  shown, nor a player's two-card bust under `bust`, while a banker's stays hidden until
  the showdown; the hand drew this card or stood), assuming each plays as the bot advises
  (a player draws on 0–4 and stands on 5, a banker as `recommended_banker_draw`). Per
  player, exact for his hand; the players still to draw after the NPC are not foreseen.
- The novice bets on his own hand and draws on a threshold drawn by feel every time.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from bondbot.games.contract import GAMBLING_MAX, Move, SeatKey
from bondbot.games.macao.counting import Counting, card_value, count, is_bust, natural_of
from bondbot.games.macao.drawing import (
    player_may_draw,
    recommended_banker_draw,
    recommended_draw,
)
from bondbot.games.macao.odds import best_wager, pack_counts
from bondbot.games.macao.settlement import Target, showdown_verdict, wager_net
from bondbot.games.skill import plays_strong
from bondbot.rules.cards import Card

if TYPE_CHECKING:
    from bondbot.games.macao.engine import Macao, PlayerHand

# The novice draws on his total up to one of these, drawn each time (within his rule).
NOVICE_THRESHOLDS = tuple(range(8))
EPSILON = 1e-9


def npc_target(cards: Sequence[Card], counting: Counting, packs: int, tie_pays: int) -> Target:
    """What an NPC player holding `cards` (its first two) wagers on."""
    first, second = (card_value(card) for card in cards[:2])
    return best_wager(counting, packs, first, second, tie_pays)[0]


def decide(game: Macao, seat: SeatKey, rng: random.Random, level: int = GAMBLING_MAX) -> Move:
    """The NPC's move when it is its turn, as a player of Gambling `level` makes it."""
    strong = plays_strong(level, rng)
    if game.phase == "wagers":
        hand = game._player(seat)
        if strong:
            packs = game.shoe.packs or game.packs  # a stacked shoe says nothing of its packs
            target = npc_target(hand.cards, game.rules.counting, packs, game.rules.tie_pays)
        else:
            target = Target.OWN
        move = Move(kind="wager", seat=seat, amount=game.rules.min_stake, target=str(target))
        return move if game.can(move) else Move(kind="pass", seat=seat)
    mine = game.bank_cards if game.phase == "banker" else game._player(seat).cards
    total = game._total(mine)
    if game.phase == "draws" and not player_may_draw(total):
        return Move(kind="stand", seat=seat)
    if strong:
        gain = banker_gain(game) if game.phase == "banker" else player_gain(game, seat)
        draw = _advised(game, seat) if abs(gain) < EPSILON else gain > 0
    else:
        draw = total <= rng.choice(NOVICE_THRESHOLDS)
    return Move(kind="draw" if draw else "stand", seat=seat)


def _advised(game: Macao, seat: SeatKey) -> bool:
    move = game.timeout_move(seat)
    return move is not None and move.kind == "draw"


def _values(cards: Iterable[Card]) -> list[int]:
    return [card_value(card) for card in cards]


def _unseen(game: Macao, own: Sequence[Card]) -> list[int]:
    """The cards of each value the NPC can still meet: its own two, the face-up third cards
    and the hands shown are out; the others' hidden two cards are not."""
    counts = list(pack_counts(game.shoe.packs or game.packs))
    seen = _values(own[:2])
    for hand in game.players:
        seen += _values(hand.cards if hand.shown else hand.cards[2:])
    if game.bank_shown:
        seen += _values(game.bank_cards)
    elif len(game.bank_cards) > 2:
        seen += _values(game.bank_cards[2:])
    for value in seen:
        counts[value] = max(0, counts[value] - 1)
    return counts


def _pairs(
    left: list[int], counting: Counting, *, busts: bool = False
) -> Iterable[tuple[int, int, int, float]]:
    """Every two cards a hidden hand may hold: (first, second, points, ways); `left` is
    lowered by the pair while its caller looks at it. Never a natural (it would have been
    shown); a bust only with `busts`: a player's two-card bust is shown and settled with
    the naturals, a banker's stays hidden until the showdown."""
    for a in range(10):
        if not left[a]:
            continue
        ways_a = left[a]
        left[a] -= 1
        for b in range(10):
            if not left[b]:
                continue
            points = a + b
            total = count(points, counting)
            if natural_of(total, 2) is not None or (is_bust(total) and not busts):
                continue
            ways = ways_a * left[b]
            left[b] -= 1
            yield a, b, points, float(ways)
            left[b] += 1
        left[a] += 1


def banker_gain(game: Macao) -> float:
    """What drawing is worth to the banker over standing, in cents, over every live wager."""
    counting, tie_pays = game.rules.counting, game.rules.tie_pays
    own = sum(_values(game.bank_cards[:2]))
    counts = _unseen(game, game.bank_cards)
    gain = 0.0
    for hand in game.players:
        if hand.live and hand.wager is not None:
            gain += _wager_gain(hand, counts, own, counting, tie_pays)
    return gain


def _wager_gain(
    hand: PlayerHand, counts: list[int], own: int, counting: Counting, tie_pays: int
) -> float:
    assert hand.wager is not None
    target, stake = hand.wager.target, hand.wager.stake
    third = card_value(hand.cards[2]) if len(hand.cards) > 2 else None
    left = list(counts)
    if third is not None:
        left[third] += 1  # his two cards came before his third: it was still there
    bank = count(own, counting)
    whole = acc = 0.0
    for _a, _b, points, ways in _pairs(left, counting):
        two = count(points, counting)
        if third is None:
            if recommended_draw(two):
                continue  # he would have drawn
            weight, final = ways, two
        else:
            if not recommended_draw(two):
                continue
            final = count(points + third, counting)
            if is_bust(final):
                continue  # he would have been settled already
            weight = ways * left[third]  # one of the cards of its value left after the pair
            if not weight:
                continue
            left[third] -= 1
        whole += weight
        stand = -wager_net(target, stake, showdown_verdict(final, bank), tie_pays)
        rest = sum(left)
        drawn = sum(
            left[x]
            * -wager_net(target, stake, showdown_verdict(final, count(own + x, counting)), tie_pays)
            for x in range(10)
            if left[x]
        )
        acc += weight * (drawn / rest - stand)
        if third is not None:
            left[third] += 1
    return acc / whole if whole else 0.0


def player_gain(game: Macao, seat: SeatKey) -> float:
    """What drawing is worth to the NPC player over standing, in cents, on his wager, against
    a banker whose two cards he cannot see and who plays as the bot advises."""
    hand = game._player(seat)
    if hand.wager is None:
        return 0.0
    return _draw_gain(
        _unseen(game, hand.cards),
        sum(_values(hand.cards[:2])),
        [card_value(h.cards[2]) for h in game.players if len(h.cards) > 2],
        hand.wager.target,
        hand.wager.stake,
        game.rules.counting,
        game.rules.tie_pays,
    )


def _draw_gain(
    left: list[int],
    mine: int,
    others: list[int],
    target: Target,
    stake: int,
    counting: Counting,
    tie_pays: int,
) -> float:
    """`player_gain` on the cards the player has not seen (`left`), his two cards' points
    and the third cards drawn before him (`others`): the banker's two cards every way he
    may hold them, a hidden bust included."""
    whole = acc = 0.0

    def banker_plays(player: int, banker_points: int, thirds: list[int]) -> float:
        """The NPC's expected net once the banker has played on his two cards."""
        bank = count(banker_points, counting)
        if not recommended_banker_draw(bank, thirds):
            return wager_net(target, stake, showdown_verdict(player, bank), tie_pays)
        rest = sum(left)
        return sum(
            left[y]
            / rest
            * wager_net(
                target,
                stake,
                showdown_verdict(player, count(banker_points + y, counting)),
                tie_pays,
            )
            for y in range(10)
            if left[y]
        )

    for _a, _b, points, ways in _pairs(left, counting, busts=True):
        whole += ways
        stand = banker_plays(count(mine, counting), points, others)
        rest = sum(left)
        drawn = 0.0
        for x in range(10):
            if not left[x]:
                continue
            share = left[x] / rest
            left[x] -= 1
            drawn += share * banker_plays(count(mine + x, counting), points, [*others, x])
            left[x] += 1
        acc += ways * (drawn - stand)
    return acc / whole if whole else 0.0
