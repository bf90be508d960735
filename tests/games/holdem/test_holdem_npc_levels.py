"""The NPC by Gambling level: what 15 knows (ranges from actions, known answers), what 0
gets wrong (calls too much) but never illegally, and that no level reads a hidden card."""

from __future__ import annotations

import dataclasses
import random

import pytest
from holdem_helpers import act, auto, deal, table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_holdem_npc import spot

from bondbot.games.contract import Move
from bondbot.games.holdem import ranges
from bondbot.games.holdem.engine import BlindLevel, Holdem, HoldemOptions
from bondbot.games.holdem.npc import decide
from bondbot.games.holdem.npc import equity as random_equity
from bondbot.games.holdem.ranges import COMBOS, INDEX, Seen, range_of
from bondbot.rules.cards import Card, parse_cards
from bondbot.rules.shoe import Shoe

SEEDS = range(40)


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def river_shove(npc_hole: str, bond_hole: str = "Ah Kh") -> Holdem:
    """Heads-up, blinds 10/20, the NPC on the button. Bond re-raises before the flop,
    bets the flop and the turn (the NPC calls everything), then goes all-in on the river
    for exactly the pot: 2,400 into 2,400, the NPC to call a third of what it would win."""
    game = table({"npc": 10_000, "bond": 3_600}, npc="npc")
    deal(game, [bond_hole, npc_hole], "Ac Kd 7s 4h 9c")
    act(game, "npc", "raise", 60)
    act(game, "bond", "raise", 200)
    act(game, "npc", "call")
    act(game, "bond", "bet", 300)
    act(game, "npc", "call")
    act(game, "bond", "bet", 700)
    act(game, "npc", "call")
    act(game, "bond", "all_in")
    assert game.to_call("npc") == 2_400 and game._poker().total_pot_amount == 4_800
    return game


def decisions(game: Holdem, level: int) -> list[str]:
    return [game.npc_move(random.Random(seed), level=level).kind for seed in SEEDS]


def test_level_15_folds_a_dominated_hand_to_a_pot_sized_all_in() -> None:
    """Ace-deuce makes top pair, which beats 85% of random hands (today's NPC called);
    against a player who re-raised, bet twice and shoved, it is beaten: fold."""
    game = river_shove("Ad 2c")
    share = random_equity(cards("Ad 2c"), cards("Ac Kd 7s 4h 9c"), 1, 2000, random.Random(1))
    assert share > 0.8  # why an NPC reading random hands calls
    assert set(decisions(game, 15)) == {"fold"}


def test_level_15_calls_the_same_all_in_with_a_hand_that_beats_the_range() -> None:
    assert set(decisions(river_shove("7c 7d"), 15)) == {"call"}  # a set of sevens


def test_level_0_calls_too_much_and_the_levels_between_mix() -> None:
    game = river_shove("Ad 2c")
    novice = decisions(game, 0)
    assert novice.count("call") >= 30  # he loves his top pair
    # One draw per hand: a fresh hand for each generator.
    mixed = [
        river_shove("Ad 2c").npc_move(random.Random(seed), level=8).kind for seed in range(300)
    ]
    folds = mixed.count("fold") / 300  # the strong policy's 8/15, less the novice's folds
    assert 0.4 < folds < 0.7


def preflop_first_in(hole: str, seats: int) -> Move:
    """The NPC first to act before the flop (under the gun at 4 seats, on the button
    heads-up), nobody in yet."""
    names = [f"p{n}" for n in range(seats - 1)]
    order = [*names[:2], "npc", *names[2:]] if seats > 2 else ["p0", "npc"]
    game = table(dict.fromkeys([order[-1], *order[:-1]], 10_000), npc="npc")
    holes = ["3c 3d", "5c 5d", "6c 6d"][: seats - 1]
    position = order.index("npc")
    holes.insert(position, hole)
    deal(game, holes, "2h 8h 9d Td Qd")
    assert game.turn() == ("npc",)
    move = game.npc_move(random.Random(1), level=15)
    assert move is not None
    return move


@pytest.mark.parametrize(
    ("hole", "seats", "kind"),
    [
        ("As Ah", 4, "raise"),
        ("Ks Qs", 4, "raise"),
        ("7c 2d", 4, "fold"),
        ("Jc 4d", 4, "fold"),  # too weak with three behind
        ("Jc 4d", 2, "raise"),  # on the button heads-up, it opens 80% of hands
        ("7c 2d", 2, "fold"),
    ],
)
def test_level_15_opens_by_position(hole: str, seats: int, kind: str) -> None:
    assert preflop_first_in(hole, seats).kind == kind


def test_level_15_folds_a_weak_ace_to_a_five_bet_all_in_and_calls_with_aces() -> None:
    """The NPC opens, bond re-raises, the NPC re-raises, bond goes all-in (his top 5%,
    about QQ+ and AK): ace-five has about a third of the pot and must call nearly half of
    it; aces call."""
    moves = {}
    for hole in ("Ad 5c", "Ad Ac"):
        game = table({"npc": 10_000, "bond": 10_000}, npc="npc")
        deal(game, ["Kh Ks", hole], "2h 8h 9d Tc Qd")
        act(game, "npc", "raise", 50)
        act(game, "bond", "raise", 160)
        act(game, "npc", "raise", 450)
        act(game, "bond", "all_in")
        moves[hole] = game.npc_move(random.Random(3), level=15)
    assert moves["Ad 5c"].kind == "fold"
    assert moves["Ad Ac"].kind in ("call", "all_in")  # the same: all its chips


def test_ranges_narrow_with_the_actions() -> None:
    """A re-raiser holds aces far more often than seven-deuce; a bettor on an ace-high flop
    holds an ace more often than a checker."""
    history = (Seen(1, 0, "raise", 60, 30, 50), Seen(0, 0, "raise", 200, 90, 180))
    weights = range_of(0, history, ())
    aces = [w for w, (a, b) in zip(weights, COMBOS, strict=True) if _ranks(a, b) == "AA"]
    junk = [w for w, (a, b) in zip(weights, COMBOS, strict=True) if _ranks(a, b) == "72"]
    assert min(aces) > 5 * max(junk)
    board = cards("Ac 8d 3s")
    flop = (Seen(1, 0, "raise", 60, 30, 50), Seen(0, 0, "call", 0, 90))
    bet = range_of(0, (*flop, Seen(0, 1, "raise", 80, 120, 80)), board)
    check = range_of(0, (*flop, Seen(0, 1, "check", 0, 120)), board)
    assert _share_with_ace(bet, board) > _share_with_ace(check, board) + 0.1


def _ranks(a: int, b: int) -> str:
    return "".join(sorted((Card.ALL[a].rank, Card.ALL[b].rank), key="AKQJT98765432".index))


def _share_with_ace(weights: list[float], board: list[Card]) -> float:
    known = {INDEX[card] for card in board}
    fits = [(w, a, b) for w, (a, b) in zip(weights, COMBOS, strict=True) if not {a, b} & known]
    aces = sum(w for w, a, b in fits if "A" in (Card.ALL[a].rank, Card.ALL[b].rank))
    return aces / sum(w for w, _, _ in fits)


def test_equity_against_a_range() -> None:
    """Aces against kings only: 82% (the known figure); against random hands: 85%."""
    kings = [1.0 if _ranks(a, b) == "KK" else 0.0 for a, b in COMBOS]
    share = ranges.equity(cards("As Ah"), (), [kings], 3000, random.Random(1))
    assert 0.79 <= share <= 0.85
    share = ranges.equity(cards("As Ah"), (), [[1.0] * len(COMBOS)], 3000, random.Random(1))
    assert 0.82 <= share <= 0.88


@pytest.mark.parametrize("hole", ["As Ah", "Ks Qs", "7c 2d", "5h 5d", "Jc Tc", "Kd 2h"])
def test_the_preflop_table_matches_a_fresh_count(hole: str) -> None:
    """The shipped pre-flop equities agree with a new Monte Carlo count (3,000 deals)."""
    row, column = ranges.preflop_cell(cards(hole))
    table_value = int(ranges.PREFLOP.split()[13 * row + column]) / 1000
    share = random_equity(cards(hole), (), 1, 3000, random.Random(7))
    assert abs(share - table_value) < 0.03


def swapped_tables(level: int, seed: int) -> list[Move | None]:
    """Three players; the NPC faces a bet on the flop. The two others' hole cards (and the
    cards still to come) differ between the two tables; the NPC's decision may not."""
    moves = []
    for holes, rest in (
        (["Ks Kd", "Qh Qc"], "Jd 8c 2s 3c 4c"),
        (["Qh Qc", "Ks Kd"], "Ad 2c 2s 9c 5c"),
    ):
        game = table({"npc": 10_000, "bond": 10_000, "felix": 10_000}, npc="npc")
        deal(game, [holes[0], holes[1], "Ts 9s"], "Jh 7h 3d " + rest)  # bond, felix, npc
        act(game, "npc", "call")
        act(game, "bond", "call")
        act(game, "felix", "check")
        act(game, "bond", "bet", 40)
        act(game, "felix", "call")
        moves.append(game.npc_move(random.Random(seed), level=level))
    return moves


@pytest.mark.parametrize("level", [0, 7, 15])
def test_no_level_reads_a_hidden_card(level: int) -> None:
    for seed in range(5):
        first, second = swapped_tables(level, seed)
        assert first is not None and first == second


@pytest.mark.parametrize("level", [0, 7, 15])
def test_a_replay_with_the_same_generator_decides_the_same(level: int) -> None:
    game = river_shove("Jd Jc")
    assert [game.npc_move(random.Random(s), level=level) for s in range(10)] == [
        game.npc_move(random.Random(s), level=level) for s in range(10)
    ]
    # A whole hand played twice from the same generator: the same moves.
    hands = []
    for _ in range(2):
        game = table({"npc": 4_000, "bond": 4_000, "felix": 4_000}, npc="npc")
        game.replace_shoe(Shoe.shuffled(1, b"replay"))
        game.apply(Move(kind="deal"))
        auto(game)
        rng, moves = random.Random(11), []
        while game.in_hand():
            [seat] = game.turn()
            move = game.npc_move(rng, level=level) if seat == "npc" else game.timeout_move(seat)
            assert move is not None
            moves.append(move)
            act(game, seat, move.kind, move.amount)
        hands.append(moves)
    assert hands[0] == hands[1]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    players=st.integers(2, 6),
    level=st.sampled_from([0, 0, 3, 15]),
    pack=st.binary(min_size=8, max_size=8),
)
def test_every_level_stays_legal_in_random_play(
    data: st.DataObject, players: int, level: int, pack: bytes
) -> None:
    """Level 0 (and others) against players who pick any legal move: every NPC move is
    one of its options, hand after hand, stacks of any depth."""
    seats = [f"p{n}" for n in range(players - 1)] + ["npc"]
    stacks = {seat: data.draw(st.integers(1, 3000)) for seat in seats}
    game = Holdem(
        shoe=Shoe.stacked([]),
        seats=seats,
        npc="npc",
        stacks=stacks,
        rules=HoldemOptions(levels=(BlindLevel(small=5, big=10),)),
        chip=1,
    )
    rng = random.Random(pack)
    for number in range(3):
        if len([s for s in seats if game.stacks[s]]) < 2:
            break
        game.replace_shoe(Shoe.shuffled(1, pack + bytes([number])))
        game.apply(Move(kind="deal"))
        auto(game)
        while game.in_hand():
            [seat] = game.turn()
            if seat == "npc":
                move = game.npc_move(rng, level=level)
            else:
                options = [o for o in game.options() if o.seat == seat and o.kind in KINDS]
                option = data.draw(st.sampled_from(options))
                amount = (
                    None if option.min is None else data.draw(st.integers(option.min, option.max))
                )
                move = Move(kind=option.kind, seat=seat, amount=amount)
            assert move is not None and game.can(move), move
            act(game, seat, move.kind, move.amount)


KINDS = {"fold", "check", "call", "bet", "raise", "all_in"}


def test_an_overbet_reads_as_a_shovers_range_unless_his_notes_read_him_wild() -> None:
    """An open to 3 big blinds keeps mostly good hands; an open shove of 100 big blinds
    (twenty pots) from a player without notes keeps a shover's hands (aces a hundred
    times likelier than seven-deuce); from a player the notes read wild, any hand."""

    def aces_to_junk(seen: Seen, read: str = "") -> float:
        weights = range_of(1, (seen,), (), read)
        pairs = list(zip(weights, COMBOS, strict=True))
        aces = max(w for w, (a, b) in pairs if _ranks(a, b) == "AA")
        junk = max(w for w, (a, b) in pairs if _ranks(a, b) == "72")
        return aces / junk

    assert not Seen(1, 0, "raise", 300, 150, 250).overbet
    shove = Seen(1, 0, "raise", 10_000, 150, 9_950)
    assert shove.overbet
    assert aces_to_junk(Seen(1, 0, "raise", 300, 150, 250)) > 5
    assert aces_to_junk(shove) >= 50
    assert aces_to_junk(shove, ranges.WILD) == 1


def test_it_never_bluffs_a_player_who_overbet_this_hand() -> None:
    """Air on the river, checked to, in position: 24% bluffs against a player who opened
    for 3 big blinds, none against one who shoved 100 (he does not fold as he should)."""
    bluffs = {}
    for opened in (300, 10_000):
        situation = dataclasses.replace(
            spot("7c 2d", "Ks Qh 9s 4h 3c", in_position=True),
            me=1,
            live=(0,),
            history=(
                Seen(1, 0, "call", 0, 150),
                Seen(0, 0, "raise", opened, 200, opened - 100),
                Seen(1, 0, "call", 0, opened + 100),
                Seen(0, 1, "check", 0, 2 * opened),
                Seen(1, 1, "check", 0, 2 * opened),
                Seen(0, 2, "check", 0, 2 * opened),
                Seen(1, 2, "check", 0, 2 * opened),
                Seen(0, 3, "check", 0, 2 * opened),
            ),
        )
        moves = [decide(situation, random.Random(seed)).kind for seed in range(200)]
        bluffs[opened] = moves.count("bet")
    assert bluffs[10_000] == 0 and 25 <= bluffs[300] <= 75


def test_the_history_the_npc_reads_is_the_public_actions_with_their_sizes() -> None:
    game = table({"npc": 10_000, "bond": 10_000}, npc="npc")  # blinds 10/20, npc button
    deal(game, ["Ks Kd", "Ts 9s"], "2c 3c 4c 5c 6c")
    act(game, "npc", "raise", 60)
    act(game, "bond", "call")
    act(game, "bond", "bet", 100)
    assert game._history() == (
        Seen(1, 0, "raise", 60, 30, 50),
        Seen(0, 0, "call", 0, 80),
        Seen(0, 1, "raise", 100, 120, 100),
    )
    situation = game._situation("npc")
    assert (situation.me, situation.live, situation.bet, situation.to_call) == (1, (0,), 0, 100)
