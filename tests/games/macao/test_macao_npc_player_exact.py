"""The Macao NPC player's weighing of a draw against brute forces (issue 29, item 5): every
ordered deal of a small shoe, card by card, for every counting; and the coup of the issue,
played through the engine for every card the banker may hold.

Under `bust` the banker's two-card bust stays hidden until the showdown: the player must
count it among the hands the banker may hold (it loses to every hand that has not bust).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import permutations, product

import pytest
from macao_helpers import card

from bondbot.games.contract import GAMBLING_MAX, Move
from bondbot.games.macao import npc
from bondbot.games.macao.counting import Counting, count, is_bust, natural_of
from bondbot.games.macao.drawing import player_may_draw, recommended_banker_draw
from bondbot.games.macao.engine import Bank, Macao, MacaoRules, Phase
from bondbot.games.macao.events import Settled
from bondbot.games.macao.odds import pack_counts
from bondbot.games.macao.settlement import Target, showdown_verdict, wager_net
from bondbot.rules.shoe import Shoe

STAKE, TIE_PAYS = 100, 8
# Cards of each value the player has not seen (13): 9 + 9, 9 + 8, 8 + 8… bust.
SMALL = [2, 1, 1, 1, 1, 1, 1, 1, 2, 2]
# (his two cards' points, the third cards drawn before him)
SPOTS = [(0, ()), (3, ()), (4, ()), (5, ()), (13, ()), (2, (6,)), (4, (8,))]


def brute(counts: list[int], mine: int, others: tuple[int, ...], target: Target, c: Counting):
    """Drawing's worth to the player over standing: the banker's two cards, the next card
    and the one after dealt every way. A deal where the banker shows a natural never
    reaches the player's choice; every other one does, a banker's bust included. Standing,
    the next card is the banker's if he draws; drawing, it is the player's and the one
    after is the banker's."""
    deck = [value for value, n in enumerate(counts) for _ in range(n)]
    total = gain = 0
    for a, b, x, y in (tuple(deck[i] for i in d) for d in permutations(range(len(deck)), 4)):
        if natural_of(count(a + b, c), 2) is not None:
            continue
        total += 1
        stand = _net(target, c, count(mine, c), a + b, [*others], x)
        drawn = _net(target, c, count(mine + x, c), a + b, [*others, x], y)
        gain += drawn - stand
    return gain / total


def _net(target: Target, c: Counting, player: int, bank: int, thirds: list[int], third: int):
    """The player's net once the banker, on `bank` points, played as the bot advises."""
    final = count(bank, c)
    if recommended_banker_draw(final, thirds):
        final = count(bank + third, c)
    return wager_net(target, STAKE, showdown_verdict(player, final), TIE_PAYS)


def spots() -> Iterator[tuple[Counting, int, tuple[int, ...]]]:
    for counting, (mine, others) in product(Counting, SPOTS):
        total = count(mine, counting)
        if natural_of(total, 2) is None and not is_bust(total) and player_may_draw(total):
            yield counting, mine, others


@pytest.mark.parametrize(
    ("counting", "mine", "others"),
    [pytest.param(*spot, id=f"{spot[0]}-{spot[1]}pts-after{list(spot[2])}") for spot in spots()],
)
@pytest.mark.parametrize("target", list(Target))
def test_the_players_gain_is_the_brute_forces(
    counting: Counting, mine: int, others: tuple[int, ...], target: Target
):
    exact = npc._draw_gain(list(SMALL), mine, list(others), target, STAKE, counting, TIE_PAYS)
    assert exact == pytest.approx(brute(SMALL, mine, others, target, counting), abs=1e-9)


# -- the coup of the issue --------------------------------------------------------------


def issue_coup(target: str, banker: str, thirds: str = "") -> Macao:
    """The issue's coup: A banks (rotating bank, `bust`), the NPC holds 3♥ A♣ = 4 and
    wagers 100 on `target`; the banker holds `banker`; `thirds` come next."""
    first, second = banker.split()
    game = Macao(
        shoe=Shoe.stacked(["3h", first, "Ac", second, *thirds.split(), *["Qc"] * 8]),
        seats=["A", "N"],
        npc="N",
        rules=MacaoRules(counting=Counting.BUST, bank=Bank.ROTATE),
        stacks={"A": 1_000_000, "N": None},
    )
    _run(game, Move(kind="deal"))
    assert game.banker == "A" and game.turn() == ("N",)
    _run(game, Move(kind="wager", seat="N", amount=STAKE, target=target))
    return game


def _run(game: Macao, move: Move) -> list[Settled]:
    settled = [e for e in game.apply(move).events if isinstance(e, Settled)]
    while (step := game.automation()) is not None:
        settled += [e for e in game.apply(step).events if isinstance(e, Settled)]
    return settled


def played(choice: str) -> float:
    """The NPC's expected net on an own-hand wager when he makes `choice`, in cents: the
    engine plays the coup out for every banker's two cards and the cards dealt after them
    (values, weighted by how many of each the NPC has not seen: one pack less his 3 and
    ace), the banker playing as the bot advises. Standing, one card after them can be
    dealt (the banker's); drawing, two."""
    left = list(pack_counts(1))
    for seen in (3, 1):  # his 3♥ and A♣
        left[seen] -= 1
    worth = whole = 0.0
    for values in product(range(10), repeat=3 if choice == "stand" else 4):
        weight, rest = 1, list(left)
        for value in values:
            weight *= rest[value]
            rest[value] -= 1
        if weight <= 0:
            continue
        banker, thirds = " ".join(map(card, values[:2])), " ".join(map(card, values[2:]))
        game = issue_coup("own", banker, thirds)
        if game.phase is not Phase.DRAWS:
            continue  # the banker's natural settled the coup: no choice to make
        whole += weight
        settled = _run(game, Move(kind=choice, seat="N"))
        if game.phase is Phase.BANKER:
            timeout = game.timeout_move("A")
            assert timeout is not None
            settled += _run(game, timeout)
        (mine,) = [e for e in settled if e.seat == "N"]
        worth += weight * mine.net
    return worth / whole


def test_level_15_stands_on_4_under_bust_where_standing_is_worth_more():
    """The issue's repro: standing +0.209 a unit, drawing +0.049 (exact enumeration); and
    with the wager on the banker's hand, which nets the opposite, he draws."""
    stand, draw = played("stand"), played("draw")
    assert (round(stand / STAKE, 3), round(draw / STAKE, 3)) == (0.209, 0.049)
    own, banker = issue_coup("own", "3d Ts"), issue_coup("banker", "3d Ts")
    assert npc.player_gain(own, "N") == pytest.approx(draw - stand, abs=1e-9)
    assert npc.player_gain(banker, "N") == pytest.approx(stand - draw, abs=1e-9)
    assert own.npc_move(random.Random(4), GAMBLING_MAX) == Move(kind="stand", seat="N")
    assert banker.npc_move(random.Random(4), GAMBLING_MAX) == Move(kind="draw", seat="N")
