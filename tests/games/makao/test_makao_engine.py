"""Makao engine: every rule of makao.md from stacked packs.

Four seats a, b, c, npc in the direction of play; npc deals first, so a starts deal 1,
b deals 2 … `stack` deals each seat the cards a test names, then turns the trump card.

Deal 1 (trump 9s): a 5h, b Kh, c 2s, npc Ah. a leads 5h, b Kh, c trumps with 2s, npc Ah:
c takes the trick over the Ace of the suit led.
Deal 2 (trump Td): b Ah 3c, c 4h Kd, npc 2h 9h, a 5c Qd. b leads Ah: c must follow with
4h (not trump with Kd), npc need not overtake (2h), a, void, need not trump (5c): b takes
it. b leads 3c: c trumps Kd, npc throws 9h, a Qd: c takes it.
"""

from __future__ import annotations

import random

import pytest

from bondbot.games.contract import LostHand, Move, Record, Transfer, replay
from bondbot.games.makao.cards import beats, legal_cards, trick_winner
from bondbot.games.makao.engine import (
    Bid,
    Dealt,
    GameOver,
    Makao,
    MakaoOptions,
    Scored,
    TrickTaken,
    cycle_length,
)
from bondbot.games.makao.npc import choose_bid, choose_card
from bondbot.rules.cards import Card, parse_cards
from bondbot.rules.errors import IllegalAction
from bondbot.rules.shoe import Shoe

SEATS = ["a", "b", "c", "npc"]
DEAL1 = {"a": "5h", "b": "Kh", "c": "2s", "npc": "Ah"}
DEAL2 = {"b": "Ah 3c", "c": "4h Kd", "npc": "2h 9h", "a": "5c Qd"}


def stack(order: list[str], hands: dict[str, str], trump: str | None) -> Shoe:
    """A shoe dealing `hands` one card at a time from `order[0]`, then turning `trump`."""
    cards = [parse_cards(hands[seat]) for seat in order]
    size = len(cards[0])
    assert all(len(hand) == size for hand in cards)
    dealt = [cards[i % len(order)][i // len(order)] for i in range(size * len(order))]
    return Shoe.stacked(dealt + ([Card.parse(trump)] if trump else []))


def table(seats: list[str] = SEATS, stake: int = 0, stacks: dict | None = None) -> Makao:
    return Makao(
        shoe=Shoe.stacked([]),
        seats=list(seats),
        npc="npc",
        stacks=dict.fromkeys(seats, 10_000) if stacks is None else stacks,
        settings=MakaoOptions(stake=stake),
    )


def deal(
    game: Makao, hands: dict[str, str], trump: str | None, dealer: str | None = None
) -> Record:
    if game.deals:
        starter = game.deals[-1].players[1 % len(game.seats)]
    else:
        assert dealer is not None
        starter = game.seats[(game.seats.index(dealer) + 1) % len(game.seats)]
    start = game.seats.index(starter)
    game.replace_shoe(stack(game.seats[start:] + game.seats[:start], hands, trump))
    return game.apply(Move(kind="deal", target=dealer))


def bids(game: Makao, **by_seat: int) -> None:
    for seat in game.deals[-1].players:
        game.apply(Move(kind="bid", seat=seat, amount=by_seat[seat]))


def play(game: Makao, cards: str) -> list[Record]:
    """Play the cards in turn (each by the seat whose turn it is)."""
    records = []
    for card in cards.split():
        (seat,) = game.turn()
        records.append(game.apply(Move(kind="play", seat=seat, target=card)))
    return records


def events(records: list[Record], kind: type) -> list:
    return [event for record in records for event in record.events if isinstance(event, kind)]


def refused(game: Makao, move: Move, code: str) -> None:
    before = game.model_dump_json()
    with pytest.raises(IllegalAction) as caught:
        game.apply(move)
    assert caught.value.code == code
    assert game.model_dump_json() == before


def deal1(game: Makao) -> list[Record]:
    deal(game, DEAL1, "9s", dealer="npc")
    bids(game, a=0, b=1, c=1, npc=1)
    return play(game, "5h Kh 2s Ah")


def deal2(game: Makao) -> list[Record]:
    deal(game, DEAL2, "Td")
    bids(game, b=1, c=1, npc=0, a=1)
    return play(game, "Ah 4h 2h 5c 3c Kd 9h Qd")


def play_out(game: Makao, rng: random.Random) -> None:
    """Play deals on fresh shuffled packs to the end of the cycle, with the timeout moves."""
    while game.phase == "idle":
        if game.needs_new_shoe:
            game.replace_shoe(Shoe.shuffled(1, rng.randbytes(16)))
        game.apply(Move(kind="deal"))
        while game.turn():
            move = game.timeout_move(game.turn()[0])
            assert move is not None
            game.apply(move)


# -- the cycle -------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "deals"), [(3, 17), (4, 13), (5, 10), (6, 8), (7, 7), (8, 6)])
def test_the_cycle_deals_one_card_more_each_time_and_ends_without_trump(
    players: int, deals: int
) -> None:
    assert cycle_length(players) == deals
    seats = [*(f"p{i}" for i in range(players - 1)), "npc"]
    game = table(seats)
    rng = random.Random(players)
    seen = []
    while game.phase == "idle":
        game.replace_shoe(Shoe.shuffled(1, rng.randbytes(16)))
        (dealt,) = game.apply(Move(kind="deal")).events
        assert isinstance(dealt, Dealt)
        seen.append((dealt.number, dealt.trump is None))
        assert all(len(game.private_cards(seat)) == dealt.number for seat in seats)
        while game.turn():
            game.apply(game.timeout_move(game.turn()[0]))
    assert seen == [(k, k == deals) for k in range(1, deals + 1)]
    assert game.phase == "done"
    assert not any(option.kind == "deal" for option in game.options())


def test_the_deal_passes_to_the_right_and_the_dealers_right_starts() -> None:
    game = table()
    first = deal(game, DEAL1, "9s", dealer="c")
    assert (first.events[0].dealer, first.events[0].starter) == ("c", "npc")
    assert game.turn() == ("npc",)
    assert game.deals[-1].players == ["npc", "a", "b", "c"]
    bids(game, npc=0, a=0, b=0, c=0)
    play(game, "Ah 5h Kh 2s")
    second = deal(game, {"a": "2h 3h", "b": "4h 5h", "c": "6h 7h", "npc": "8h 9h"}, "Ts")
    assert (second.events[0].dealer, second.events[0].starter) == ("npc", "a")


def test_the_turned_card_gives_trump_and_stays_out_of_play() -> None:
    game = table()
    record = deal(game, DEAL1, "9s", dealer="npc")
    assert record.events == (Dealt(number=1, dealer="npc", starter="a", trump="9s"),)
    assert game.deals[-1].trump_suit == "s"
    assert game.hidden_cards() == set(parse_cards("5h Kh 2s Ah"))
    assert game.private_cards("c") == parse_cards("2s")
    assert game.needs_new_shoe  # the rest of that pack is never dealt


def test_deal_refused_outside_three_to_eight_players_without_npc_or_pack() -> None:
    game = table(["a", "npc"])
    game.replace_shoe(Shoe.stacked(Card.ALL))
    refused(game, Move(kind="deal"), "makao.players")
    game = table([*(f"p{i}" for i in range(8)), "npc"])
    game.replace_shoe(Shoe.stacked(Card.ALL))
    refused(game, Move(kind="deal"), "makao.players")
    game = table(["a", "b", "c"])
    game.replace_shoe(Shoe.stacked(Card.ALL))
    refused(game, Move(kind="deal"), "makao.no_npc")
    game = table()
    game.replace_shoe(Shoe.stacked(Card.ALL[:4]))  # one card short of the trump
    refused(game, Move(kind="deal"), "makao.needs_new_shoe")
    game.replace_shoe(Shoe.stacked([*Card.ALL[:4], Card.ALL[0]]))
    refused(game, Move(kind="deal"), "makao.bad_pack")
    game.replace_shoe(Shoe.stacked(Card.ALL))
    refused(game, Move(kind="deal", target="zz"), "makao.bad_dealer")


def test_a_ninth_player_is_refused_when_he_sits_not_at_the_deal() -> None:
    game = table([*(f"p{i}" for i in range(7)), "npc"])
    with pytest.raises(IllegalAction) as caught:
        game.sit("late")
    assert (caught.value.code, caught.value.params) == ("makao.full", {"seat": "late", "seats": 8})
    assert "late" not in game.seats
    game.stand_up("p0")
    game.sit("late")  # a seat came free
    assert len(game.seats) == 8


def test_seats_are_fixed_for_the_cycle() -> None:
    game = table()
    deal1(game)
    for call in (game.sit, game.stand_up):
        with pytest.raises(IllegalAction) as caught:
            call("a" if call == game.stand_up else "d")
        assert caught.value.code == "makao.cycle_under_way"


# -- bids --------------------------------------------------------------------------------------


def test_the_one_card_deal_takes_bids_of_0_or_1_starting_from_the_starter() -> None:
    game = table()
    deal(game, DEAL1, "9s", dealer="npc")
    (option,) = [o for o in game.options() if o.kind == "bid"]
    assert (option.seat, option.min, option.max) == ("a", 0, 1)
    refused(game, Move(kind="bid", seat="a", amount=2), "games.illegal_move")
    refused(game, Move(kind="bid", seat="b", amount=0), "games.illegal_move")
    record = game.apply(Move(kind="bid", seat="a", amount=1))
    assert record.events == (Bid(seat="a", bid=1),)
    assert game.turn() == ("b",)


def test_bids_run_0_to_k_and_the_last_bid_may_make_the_tricks_add_up() -> None:
    game = table()
    deal1(game)
    deal(game, DEAL2, "Td")
    for seat, amount in (("b", 1), ("c", 1), ("npc", 0)):
        (option,) = [o for o in game.options() if o.kind == "bid"]
        assert (option.seat, option.min, option.max) == (seat, 0, 2)
        game.apply(Move(kind="bid", seat=seat, amount=amount))
    assert game.can(Move(kind="bid", seat="a", amount=0))  # 1 + 1 + 0 + 0 = 2 tricks: no hook
    game.apply(Move(kind="bid", seat="a", amount=0))
    assert game.phase == "playing"
    assert game.turn() == ("b",)


# -- play --------------------------------------------------------------------------------------


def test_follow_suit_without_having_to_overtake_or_trump() -> None:
    game = table()
    deal1(game)
    deal(game, DEAL2, "Td")
    bids(game, b=1, c=1, npc=0, a=1)
    assert [o.targets for o in game.options() if o.kind == "play"] == [("Ah", "3c")]
    play(game, "Ah")
    assert [o.targets for o in game.options() if o.kind == "play"] == [("4h",)]
    refused(game, Move(kind="play", seat="c", target="Kd"), "games.illegal_move")
    play(game, "4h")
    assert game.legal("npc") == ["2h", "9h"]
    play(game, "2h")  # may stay under the Ace
    assert sorted(game.legal("a")) == ["5c", "Qd"]  # void: anything, trump or not
    records = play(game, "5c")
    assert events(records, TrickTaken) == [TrickTaken(seat="b", cards=("Ah", "4h", "2h", "5c"))]
    assert game.turn() == ("b",)  # the winner leads


def test_the_highest_trump_wins_else_the_highest_of_the_suit_led() -> None:
    game = table()
    records = deal1(game)
    assert events(records, TrickTaken) == [TrickTaken(seat="c", cards=("5h", "Kh", "2s", "Ah"))]
    game = table()
    deal1(game)
    records = deal2(game)
    tricks = events(records, TrickTaken)
    assert [trick.seat for trick in tricks] == ["b", "c"]  # Kd over Qd, both trumps
    assert trick_winner(["3c", "Kd", "9h", "Qd"], "d") == 1
    assert trick_winner(["3c", "Kd", "9h", "Qd"], None) == 0  # no trump: the suit led
    assert trick_winner(["3c", "Kd", "9h", "Ac"], None) == 3
    assert beats("2s", "Ah", "h", "s") and not beats("Ah", "2s", "h", "s")
    assert legal_cards(["2h", "3s"], "d") == ["2h", "3s"]


def test_the_last_deal_is_played_without_trump() -> None:
    # 8 players: the cycle's 6th deal has no trump, so a void player cannot win by ruffing.
    game = table([*(f"p{i}" for i in range(7)), "npc"])
    rng = random.Random(3)
    for _ in range(5):
        game.replace_shoe(Shoe.shuffled(1, rng.randbytes(16)))
        game.apply(Move(kind="deal"))
        while game.turn():
            game.apply(game.timeout_move(game.turn()[0]))
    hands = {
        seat: " ".join(f"{rank}{suit}" for rank in "234567")
        for seat, suit in zip(game.seats, "shdc", strict=False)
    }
    hands |= {"p4": "8s 9s Ts Js Qs Ks", "p5": "8h 9h Th Jh Qh Kh"}
    hands |= {"p6": "8d 9d Td Jd Qd Kd", "npc": "8c 9c Tc Jc Qc Kc"}
    (dealt,) = deal(game, hands, None).events
    assert (dealt.number, dealt.trump, game.deals[-1].trump_suit) == (6, None, None)
    assert game.turn() == ("p6",)  # p0 dealt first: the sixth deal starts at p6
    for seat in game.deals[-1].players:
        game.apply(Move(kind="bid", seat=seat, amount=0))
    # p6 leads 8d; p2 follows low, the others are void and throw higher cards: no trump.
    records = play(game, "8d 8c 2s 2h 2d 2c Ks Kh")
    assert events(records, TrickTaken) == [
        TrickTaken(seat="p6", cards=("8d", "8c", "2s", "2h", "2d", "2c", "Ks", "Kh"))
    ]


# -- scores ------------------------------------------------------------------------------------


def test_exact_bids_score_bid_plus_10_missed_bids_score_0() -> None:
    game = table()
    records = deal1(game)
    (scored,) = events(records, Scored)
    assert scored.bids == {"a": 0, "b": 1, "c": 1, "npc": 1}
    assert scored.taken == {"a": 0, "b": 0, "c": 1, "npc": 0}
    assert scored.scores == {"a": 10, "b": 0, "c": 11, "npc": 0}  # a: bid 0 and took none
    assert records[-1].hand_over
    records = deal2(game)
    (scored,) = events(records, Scored)
    assert scored.taken == {"b": 1, "c": 1, "npc": 0, "a": 0}
    assert scored.scores == {"b": 11, "c": 11, "npc": 10, "a": 0}
    assert scored.totals == {"a": 10, "b": 11, "c": 22, "npc": 10} == game.totals()


def test_a_bid_of_0_missed_scores_0() -> None:
    game = table()
    deal(game, DEAL1, "9s", dealer="npc")
    bids(game, a=0, b=0, c=0, npc=0)
    (scored,) = events(play(game, "5h Kh 2s Ah"), Scored)
    assert scored.scores == {"a": 10, "b": 10, "c": 0, "npc": 10}


def test_a_pc_who_missed_his_bid_lost_the_deal_and_a_hero_point_scores_it_as_made() -> None:
    game = table()
    last = deal1(game)[-1]
    # b bid 1 and took none; npc missed too, but the NPC has no Hero Points to spend.
    assert last.lost == (LostHand(seat="b", label="bid 1, took 0", score=11),)
    assert [o.targets for o in game.options() if o.kind == "won_back"] == [("b",)]
    record = game.apply(Move(kind="won_back", target="b"))
    assert record.transfers == ()
    assert game.deals[0].score("b") == 11
    assert game.totals() == {"a": 10, "b": 11, "c": 11, "npc": 0}  # nobody else changes
    refused(game, Move(kind="won_back", target="b"), "games.illegal_move")


def test_the_offer_closes_with_the_next_deal() -> None:
    game = table()
    deal1(game)
    deal(game, DEAL2, "Td")
    refused(game, Move(kind="won_back", target="b"), "games.illegal_move")
    assert game.deals[0].score("b") == 0


def test_npc_timeouts_and_choices_only_on_its_turn() -> None:
    game = table()
    deal(game, DEAL1, "9s", dealer="npc")
    assert game.timeout_move("b") is None
    assert game.npc_move(random.Random(0)) is None
    assert game.timeout_move("a") == Move(kind="bid", seat="a", amount=0)
    bids(game, a=0, b=0, c=0, npc=0)
    assert game.timeout_move("a") == Move(kind="play", seat="a", target="5h")


def test_timeout_plays_the_lowest_legal_card_a_plain_one_before_a_trump() -> None:
    game = table()
    deal1(game)
    deal(game, {"b": "5d 5c", "c": "4h Kd", "npc": "2h 9h", "a": "3c Qd"}, "Td")
    bids(game, b=0, c=0, npc=0, a=0)
    assert game.timeout_move("b") == Move(kind="play", seat="b", target="5c")


def test_a_deal_replays_from_its_start_and_round_trips_through_json() -> None:
    game = table(stake=100)
    game.replace_shoe(stack(SEATS, DEAL1, "9s"))
    start = game.model_copy(deep=True)
    records = [game.apply(Move(kind="deal", target="npc"))]
    for seat in SEATS:
        records.append(game.apply(Move(kind="bid", seat=seat, amount=0)))
        assert Makao.model_validate_json(game.model_dump_json()) == game
    records += play(game, "5h Kh 2s Ah")
    assert Makao.model_validate_json(game.model_dump_json()) == game
    assert game.history == [record.move for record in records]
    assert replay(start, game.history) == game


# -- the pot -----------------------------------------------------------------------------------


def test_stakes_go_into_the_pot_with_the_first_deal_and_must_be_covered() -> None:
    game = table(stake=250, stacks={"a": 10_000, "b": 249, "c": 10_000, "npc": None})
    game.replace_shoe(stack(["a", "b", "c", "npc"], DEAL1, "9s"))
    refused(game, Move(kind="deal", target="npc"), "makao.cannot_stake")
    game.stacks["b"] = 250
    record = game.apply(Move(kind="deal", target="npc"))
    assert record.transfers == tuple(
        Transfer(src=f"seat:{seat}", dst="pot:makao", amount=250, reason="makao.stake")
        for seat in ("a", "b", "c", "npc")
    )
    assert game.pot == 1000
    assert game.stacks == {"a": 9750, "b": 0, "c": 9750, "npc": None}


def test_the_gm_ending_an_unfinished_cycle_gives_the_stakes_back() -> None:
    game = table(stake=250)
    deal1(game)
    deal(game, DEAL2, "Td")
    record = game.apply(Move(kind="end"))
    (over,) = record.events
    assert over == GameOver(
        complete=False,
        winners=(),
        totals={"a": 10, "b": 0, "c": 11, "npc": 0},
        paid=dict.fromkeys(SEATS, 250),
    )
    assert record.hand_over  # the deal in play was abandoned
    assert game.pot == 0 and game.hidden_cards() == set()
    assert game.deals[-1].score("a") is None  # unscored, still on the sheet
    assert game.options() == []


def dominated_cycle(deal6_bid: int) -> Makao:
    """Eight players, six deals: in each deal one player holds the top spades (trump in
    deals 1-5, turned 2s; he starts deal 6) and takes every trick. p0 takes deals 1 and 4,
    p1 deals 2 and 3, p4 deal 5, p5 deal 6. Each bids what he takes (p5 bids `deal6_bid`),
    everyone else 0, and cards are played by the timeout rule."""
    seats = [*(f"p{i}" for i in range(7)), "npc"]
    game = table(seats, stake=100, stacks=dict.fromkeys(seats, 1000))
    takers = {1: "p0", 2: "p1", 3: "p1", 4: "p0", 5: "p4", 6: "p5"}
    for number, taker in takers.items():
        dealer = "npc" if number == 1 else None
        start = 0 if number == 1 else game.seats.index(game.deals[-1].players[1])
        order = game.seats[start:] + game.seats[:start]
        pool = [c.code for c in Card.ALL if c.suit != "s"] + [f"{r}s" for r in "345678"]
        hands = {taker: " ".join(f"{rank}s" for rank in "AKQJT9"[:number])}
        for seat in order:
            if seat != taker:
                hands[seat] = " ".join(pool.pop(0) for _ in range(number))
        deal(game, hands, "2s" if number < 6 else None, dealer=dealer)
        for seat in game.deals[-1].players:
            want = (deal6_bid if number == 6 else number) if seat == taker else 0
            game.apply(Move(kind="bid", seat=seat, amount=want))
        while game.turn():
            game.apply(game.timeout_move(game.turn()[0]))
        assert game.deals[-1].taken(taker) == number
    return game


def test_the_highest_total_takes_the_pot() -> None:
    game = dominated_cycle(deal6_bid=6)
    # 10 a deal for a bid of 0 made; p0 1+4, p1 2+3, p4 5, p5 6 more.
    assert game.totals() == {
        "p0": 65, "p1": 65, "p2": 60, "p3": 60, "p4": 65, "p5": 66, "p6": 60, "npc": 60
    }  # fmt: skip
    assert game.phase == "done"
    record = game.apply(Move(kind="end"))
    assert record.transfers == (
        Transfer(src="pot:makao", dst="seat:p5", amount=800, reason="makao.pot"),
    )
    assert record.events[0].winners == ("p5",)
    assert game.pot == 0 and game.phase == "over"


def test_equal_totals_share_the_pot_odd_cents_in_seat_order() -> None:
    game = dominated_cycle(deal6_bid=0)  # p5 took 6 after bidding 0: 0 for that deal
    assert game.winners() == ("p0", "p1", "p4")
    (over,) = game.apply(Move(kind="end")).events
    assert over.paid == {"p0": 267, "p1": 267, "p4": 266}
    assert sum(over.paid.values()) == 800
    assert game.stacks["p0"] == 1000 - 100 + 267


def test_a_spend_after_the_last_deal_counts_before_the_pot_is_paid() -> None:
    game = dominated_cycle(deal6_bid=5)  # p5 took 6 after bidding 5: 50 in all
    assert game.offers == {"p5": 15}
    # The table ends the cycle once these offers close, not as an automatic step.
    assert game.automation() is None and game.after_offers() == Move(kind="end")
    game.apply(Move(kind="won_back", target="p5"))  # 50 + 15 = 65: a four-way tie
    assert game.winners() == ("p0", "p1", "p4", "p5")
    (over,) = game.apply(Move(kind="end")).events
    assert over.paid == dict.fromkeys(("p0", "p1", "p4", "p5"), 200)


# -- the automatic player ----------------------------------------------------------------------


def test_npc_bids_its_sure_tricks() -> None:
    assert choose_bid(["As", "Ks", "Qs"], "2s", players=4) == 3
    assert choose_bid(["2h", "3d", "4c"], "2s", players=4) == 0
    assert choose_bid(["Ah"], None, players=8) == 1
    assert choose_bid(["Kh"], "2s", players=8) == 0  # the Ace and 6 trumps are out there


def test_npc_wins_while_short_and_sheds_once_made() -> None:
    legal = ["4h", "Th", "Ah"]
    # short of its bid: the cheapest winner when last, the strongest winner otherwise
    assert choose_card(legal, ["9h", "Jh", "2h"], "s", need=1, last=True) == "Ah"
    assert choose_card(legal, ["9h", "2h"], "s", need=1, last=True) == "Th"
    assert choose_card(legal, ["9h"], "s", need=1, last=False) == "Ah"
    # bid made: the strongest card that loses; if every card wins, the weakest (or the
    # strongest when the trick is taken anyway)
    assert choose_card(legal, ["Jh"], "s", need=0, last=False) == "Th"
    assert choose_card(legal, ["3h"], "s", need=0, last=False) == "4h"
    assert choose_card(legal, ["3h"], "s", need=0, last=True) == "Ah"
    # leading: the highest card while short, the lowest once made
    assert choose_card(["4h", "Ah", "2s"], [], "s", need=1, last=False) == "Ah"
    assert choose_card(["4h", "Ah", "2s"], [], "s", need=0, last=False) == "4h"


def test_npc_move_bids_and_plays_on_its_turn() -> None:
    game = table()
    deal(game, DEAL1, "9s", dealer="npc")
    game.apply(Move(kind="bid", seat="a", amount=0))
    game.apply(Move(kind="bid", seat="b", amount=0))
    game.apply(Move(kind="bid", seat="c", amount=0))
    assert game.npc_move(random.Random(0)) == Move(kind="bid", seat="npc", amount=1)
    game.apply(Move(kind="bid", seat="npc", amount=1))
    play(game, "5h Kh 2s")
    assert game.npc_move(random.Random(0)) == Move(kind="play", seat="npc", target="Ah")


def test_can_stand_up_asks_the_game_and_changes_nothing() -> None:
    game = table()
    seats = list(game.seats)
    assert game.can_stand_up(seats[0])  # before the cycle: he may go (the seat panel's Leave)
    assert game.seats == seats  # tried on a copy
    deal1(game)
    assert not game.can_stand_up(seats[0])  # seats are fixed for the cycle: no Leave
    assert game.seats == seats
