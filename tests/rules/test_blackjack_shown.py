"""The picture of a blackjack round's result (`BlackjackEngine.shown_hands`), and what the
table keeps face down until then (`hidden_cards`).

Stacked shoes hold exactly the cards a round needs (top first). American deal order for
seats a, b: a1 b1 up a2 b2 hole; European: a1 b1 up a2 b2 (the dealer's second card comes
after the players).
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bondbot.games.blackjack.engine import BlackjackEngine, Settled, Voided
from bondbot.games.contract import Move, Record, ShownHand
from bondbot.rules.blackjack import Blackjack, BlackjackRules, hand_total
from bondbot.rules.cards import parse_cards
from bondbot.rules.shoe import Shoe

NPC = "99"
AMERICAN = BlackjackRules()
EUROPEAN = BlackjackRules(deal="european")
BET = 1_000


def engine(cards: str, seats: tuple[str, ...] = ("a", "b"), rules: BlackjackRules = AMERICAN):
    game = BlackjackEngine(
        game=Blackjack(Shoe.stacked(cards.split()), rules),
        seats=list(seats),
        npc=NPC,
        min_bet=100,
        max_bet=10_000,
    )
    game.stacks = dict.fromkeys(seats, 100_000) | {NPC: None}
    return game


def play(game: BlackjackEngine, *moves: tuple[str, str | None]) -> list[Record]:
    records = []
    for kind, seat in moves:
        amount = BET if kind == "wager" else None
        records.append(game.apply(Move(kind=kind, seat=seat, amount=amount)))
    return records


def row(whose: str, cards: str, total: int) -> ShownHand:
    return ShownHand(whose, tuple(parse_cards(cards)), total)


def dealer(whose: str, cards: str, total: int) -> ShownHand:
    return ShownHand(whose, tuple(parse_cards(cards)), total, "dealer")


def test_nothing_is_shown_before_a_round_has_settled():
    game = engine("5c Ts 9d 6d 7h 7c 9s Ks")
    assert game.shown_hands() == ()
    play(game, ("wager", "a"), ("wager", "b"), ("deal", None))
    assert game.shown_hands() == ()
    play(game, ("double", "a"))
    assert game.shown_hands() == ()


def test_the_dealer_first_then_each_seat_with_its_total_once_the_round_settles():
    game = engine("5c Ts 9d 6d 7h 7c 9s Ks")
    play(game, ("wager", "a"), ("wager", "b"), ("deal", None))
    assert game.hidden_cards() == set(parse_cards("7c"))  # the hole card
    play(game, ("double", "a"))  # 5 6 + 9 = 20, dealt face down (American)
    assert game.hidden_cards() == set(parse_cards("7c 9s"))
    records = play(game, ("stand", "b"))  # dealer 9 7 = 16 draws K: 26
    assert records[-1].hand_over
    assert game.shown_hands() == (
        dealer(NPC, "9d 7c Ks", 26),
        row("a", "5c 6d 9s", 20),
        row("b", "Ts 7h", 17),
    )
    assert game.hidden_cards() == set()
    assert game.current_shoe().remaining == 0


def test_a_split_gives_its_seat_two_rows_in_seat_order():
    game = engine("8s Ts 9d 8h 8c 7c 3d Th 9s 2c")
    play(game, ("wager", "b"), ("wager", "a"), ("deal", None))  # a plays first all the same
    play(game, ("split", "a"), ("double", "a"))  # 8 3 T = 21, its last card face down
    assert game.hidden_cards() == set(parse_cards("7c Th"))
    play(game, ("stand", "a"))  # 8 9 = 17
    assert game.shown_hands() == ()
    records = play(game, ("stand", "b"))  # dealer 9 7 draws 2: 18
    assert records[-1].hand_over and game.current_shoe().remaining == 0
    assert game.shown_hands() == (
        dealer(NPC, "9d 7c 2c", 18),
        row("a", "8s 3d Th", 21),
        row("a", "8h 9s", 17),
        row("b", "Ts 8c", 18),
    )
    assert not {card for hand in game.shown_hands() for card in hand.cards} & game.hidden_cards()


def test_a_dealer_blackjack_shows_its_hole_card():
    game = engine("Ts As 9h Kd", seats=("a",))
    play(game, ("wager", "a"), ("deal", None))
    assert game.hidden_cards() == set(parse_cards("Kd"))
    records = play(game, ("no_insurance", "a"))  # the peek finds the blackjack
    assert records[-1].hand_over
    assert game.shown_hands() == (dealer(NPC, "As Kd", 21), row("a", "Ts 9h", 19))
    assert game.hidden_cards() == set()


def test_a_european_dealer_who_never_drew_shows_his_one_card():
    game = engine("Ts 9d 6d Kc", seats=("a",), rules=EUROPEAN)
    play(game, ("wager", "a"), ("deal", None))
    assert game.hidden_cards() == set()  # no hole card in the European deal
    records = play(game, ("hit", "a"))  # 26: bust, the dealer takes no second card
    assert records[-1].hand_over
    assert game.shown_hands() == (dealer(NPC, "9d", 9), row("a", "Ts 6d Kc", 26))


def test_the_last_round_stays_shown_through_the_next_one_and_a_restore():
    game = engine("Ts As 9h Kd 9s 8d 7c 6h", seats=("a",))
    play(game, ("wager", "a"), ("deal", None), ("no_insurance", "a"))
    first = game.shown_hands()
    play(game, ("wager", "a"), ("deal", None))  # 9 7 against 8, hole 6
    assert game.shown_hands() == first
    restored = BlackjackEngine.model_validate_json(game.model_dump_json())
    assert restored.shown_hands() == first and restored.hidden_cards() == game.hidden_cards()
    play(game, ("stand", "a"))  # dealer 8 6 = 14 … the shoe runs dry: the round is void
    assert isinstance(game.last, Voided)
    assert game.shown_hands() == ()


# -- any play --------------------------------------------------------------------------


def check_round(game: BlackjackEngine) -> None:
    """Right after a settled round: the dealer's hand, then every hand of the round in
    seat order, as the game holds them; every card dealt, none still face down."""
    rows = game.shown_hands()
    assert isinstance(game.last, Settled)
    bj = game.game
    dealer = (NPC, bj.dealer_cards, hand_total(bj.dealer_cards)[0])
    hands = [(seat, hand.cards, hand.total) for seat in bj.seats for hand in bj.hands(seat)]
    assert [(r.whose, r.cards, r.total) for r in rows] == [dealer, *hands]
    assert list(dict.fromkeys(seat for seat, _, _ in hands)) == [
        seat for seat in game.seats if seat in bj.seats
    ]
    shown = Counter(card for r in rows for card in r.cards)
    assert shown <= Counter(bj.shoe.dealt)
    assert not set(shown) & game.hidden_cards()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    deal=st.sampled_from(["american", "european"]),
    packs=st.sampled_from([1, 2]),
    seed=st.binary(min_size=16, max_size=16),
    choices=st.integers(0, 2**32),
)
def test_any_settled_round_shows_every_dealt_hand_and_nothing_hidden(
    deal: str, packs: int, seed: bytes, choices: int
):
    rules = BlackjackRules(packs=packs, deal=deal, max_hands=4)  # type: ignore[arg-type]
    rng = random.Random(choices)
    game = BlackjackEngine(
        game=Blackjack(Shoe.shuffled(packs, seed, rules.penetration), rules),
        seats=["a", "b", "c"],
        npc=NPC,
        min_bet=100,
        max_bet=10_000,
    )
    game.stacks = {"a": 10**7, "b": 10**7, "c": 10**7, NPC: None}
    shoes, settled = 0, 0
    before = game.shown_hands()
    for _ in range(300):
        if game.needs_new_shoe:
            shoes += 1
            game.replace_shoe(Shoe.shuffled(packs, seed + bytes([shoes]), rules.penetration))
        options = game.options()
        deals = [o for o in options if o.kind == "deal"]
        option = deals[0] if deals and rng.random() < 0.4 else rng.choice(options)
        amount = None if option.min is None else rng.randint(option.min, option.max or option.min)
        record = game.apply(Move(kind=option.kind, seat=option.seat, amount=amount))
        if not record.hand_over:
            assert game.shown_hands() == before  # still the last round's
        elif isinstance(game.last, Voided):
            assert game.shown_hands() == ()
        else:
            check_round(game)
            settled += 1
        before = game.shown_hands()
    assert settled > 0
