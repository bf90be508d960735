"""Michigan engine: every rule of michigan.md from stacked packs.

`pack_for` stacks a pack that deals each seat the cards a test names (the rest of the pack
fills the hands in `Card.ALL` order), so each scenario names only the suits it plays.
The scripted round (seats X, Y, Z clockwise, Z deals, so X leads):

    clubs:  widow 2c 3c | X 4c 9c Kc | Y 5c 6c Tc Jc Ac | Z 7c 8c Qc
    spades: widow 2s 3s Js | X 4s Ts | Y 7s 8s 9s | Z 5s 6s Qs Ks As
    filler: X 2h-9h | Y Th-Ah | Z 2d-6d | widow 7d-Ad

X leads clubs (4c … Ac, a run to the Ace, X wins K♣), Y leads spades (7s 8s 9s, X's Ts,
stopped by J♠ in the widow), X leads spades (4s, Z's 5s 6s, stopped by 7s played
earlier), Z leads diamonds (2d-6d, stopped by 7d in the widow), Z leads spades (Qs Ks As)
and is out: X still holds 8 cards, Y 5.
"""

from __future__ import annotations

import random

import pytest

from bondbot.games.contract import LostHand, Move, Record, Transfer, replay
from bondbot.games.michigan.engine import (
    PAY_CARDS,
    Dealt,
    GameOver,
    Michigan,
    MichiganOptions,
    PayCardWon,
    Played,
    RoundOver,
    Stop,
)
from bondbot.games.michigan.npc import best_lead, lead_value
from bondbot.rules.cards import Card, parse_cards
from bondbot.rules.errors import IllegalAction
from bondbot.rules.shoe import Shoe

CHIP = 100
STACK = 10_000

SCRIPT_X = "4c 9c Kc 4s Ts"
SCRIPT_Y = "5c 6c Tc Jc Ac 7s 8s 9s"
SCRIPT_Z = "7c 8c Qc 5s 6s Qs Ks As"
SCRIPT_WIDOW = "2c 3c 2s 3s Js"
# Round 2 (X deals, so Y leads): Y runs spades to J♠, Z's Qs Ks As stop; Z runs hearts to
# X's Th…Ah (A♥); X runs diamonds 5d…Qd (Q♦) and is out: Y keeps 3 cards, Z 2.
ROUND2_X = "Th Jh Qh Kh Ah 5d 6d 7d 8d 9d Td Jd Qd"
ROUND2_Y = "2s 3s 4s 5s 6s 7s 8s 9s Ts Js 2d 3d 4d"
ROUND2_Z = "Qs Ks As 2h 3h 4h 5h 6h 7h 8h 9h 2c 3c"


def pack_for(order: list[str], hands: dict[str, str], widow: str = "") -> list[Card]:
    """A 52-card stack that deals `hands` (by seat, `order` from the dealer's left) and the
    widow, completed with the cards nobody named."""
    piles = [parse_cards(hands.get(seat, "")) for seat in order] + [parse_cards(widow)]
    named = [card for pile in piles for card in pile]
    assert len(set(named)) == len(named), "a card named twice"
    rest = [card for card in Card.ALL if card not in named]
    for index, pile in enumerate(piles):
        size = 52 // len(piles) + (index < 52 % len(piles))
        assert len(pile) <= size, f"pile {index} holds more than {size} cards"
        while len(pile) < size:
            pile.append(rest.pop(0))
    return [piles[i % len(piles)][i // len(piles)] for i in range(52)]


def table(
    seats: list[str], npc: str = "npc", stacks: dict[str, int | None] | None = None
) -> Michigan:
    return Michigan(
        shoe=Shoe.stacked([]),
        seats=list(seats),
        npc=npc,
        stacks=dict(stacks) if stacks is not None else dict.fromkeys(seats, STACK),
        settings=MichiganOptions(chip=CHIP),
    )


def deal(
    game: Michigan, hands: dict[str, str], widow: str = "", dealer: str | None = None
) -> Record:
    """Stack a pack for `hands` and deal it (naming the dealer on a first deal)."""
    if game.dealer is None:
        assert dealer is not None
        upcoming = dealer
    else:
        upcoming = game.seats[(game.seats.index(game.dealer) + 1) % len(game.seats)]
        assert dealer in (None, upcoming)
    start = game.seats.index(upcoming) + 1
    order = game.seats[start:] + game.seats[:start]
    game.replace_shoe(Shoe.stacked(pack_for(order, hands, widow)))
    return game.apply(Move(kind="deal", target=dealer if game.hand == 0 else None))


def lead(game: Michigan, suit: str) -> list[Record]:
    """The leader leads `suit`; then every forced play, until a decision or the round's end."""
    (leader,) = game.turn()
    records = [game.apply(Move(kind="lead", seat=leader, target=suit))]
    while (step := game.automation()) is not None and step.kind == "follow":
        records.append(game.apply(step))
    return records


def events(records: list[Record], kind: type) -> list:
    return [event for record in records for event in record.events if isinstance(event, kind)]


def transfers(records: list[Record]) -> list[Transfer]:
    return [transfer for record in records for transfer in record.transfers]


def scripted(x: str, y: str, z: str, stacks: dict[str, int | None] | None = None) -> Michigan:
    """The scripted round dealt by Z (seats X, Y, Z clockwise); nothing played yet."""
    game = table([x, y, z], stacks=stacks)
    deal(game, {x: SCRIPT_X, y: SCRIPT_Y, z: SCRIPT_Z}, SCRIPT_WIDOW, dealer=z)
    return game


def play_script(game: Michigan) -> list[list[Record]]:
    return [lead(game, suit) for suit in "cssds"]


def finish_round(game: Michigan) -> None:
    """Play the round to its end with the recommended leads."""
    while game.phase in ("lead", "run"):
        step = game.automation() or game.timeout_move(game.turn()[0])
        assert step is not None
        game.apply(step)


def refused(game: Michigan, move: Move, code: str) -> None:
    before = game.model_dump_json()
    with pytest.raises(IllegalAction) as caught:
        game.apply(move)
    assert caught.value.code == code
    assert game.model_dump_json() == before


# -- the deal ------------------------------------------------------------------------------


def test_pack_helper_deals_the_named_hands() -> None:
    game = scripted("a", "b", "npc")
    assert set(parse_cards(SCRIPT_X)) <= set(game.private_cards("a"))
    assert set(parse_cards(SCRIPT_Z)) <= set(game.private_cards("npc"))
    assert [len(game.hands[seat]) for seat in ("a", "b", "npc")] == [13, 13, 13]
    assert len(game.widow) == 13


def test_antes_two_chips_from_the_dealer_one_from_the_others_on_each_pay_card() -> None:
    game = table(["a", "b", "npc"])
    record = deal(game, {}, dealer="npc")
    (dealt,) = record.events
    assert isinstance(dealt, Dealt)
    assert dealt.dealer == "npc"
    assert dealt.antes == {"a": 4, "b": 4, "npc": 8}
    assert game.layout == dict.fromkeys(PAY_CARDS, 4)
    from_npc = [t for t in record.transfers if t.src == "seat:npc"]
    assert sorted(t.dst for t in from_npc) == sorted(f"layout:{card}" for card in PAY_CARDS)
    assert {t.amount for t in from_npc} == {2 * CHIP}
    assert game.stacks == {"a": STACK - 4 * CHIP, "b": STACK - 4 * CHIP, "npc": STACK - 8 * CHIP}
    assert game.turn() == ("a",)  # the dealer's left leads


def test_deal_one_card_at_a_time_with_a_widow_odd_cards_first() -> None:
    seats = [f"p{i}" for i in range(7)] + ["npc"]
    game = table(seats)
    cards = Card.ALL
    game.replace_shoe(Shoe.stacked(cards))
    game.apply(Move(kind="deal", target="npc"))
    # 8 players and the widow: 9 piles, the first 7 (p0 … p6) get 6 cards, npc and widow 5.
    assert [len(game.hands[seat]) for seat in seats] == [6] * 7 + [5]
    assert len(game.widow) == 5
    assert game.hands["p0"] == [card.code for card in cards[0::9]]
    assert game.widow == [card.code for card in cards[8::9]]


def test_dealer_rotates_to_the_left() -> None:
    game = table(["a", "b", "npc"])
    dealers = []
    for _ in range(4):
        deal(game, {}, dealer=None if game.hand else "b")
        dealers.append(game.dealer)
        finish_round(game)
    assert dealers == ["b", "npc", "a", "b"]


def test_first_deal_defaults_to_the_first_seat_and_later_deals_cannot_name_one() -> None:
    game = table(["a", "b", "npc"])
    game.replace_shoe(Shoe.stacked(Card.ALL))
    refused(game, Move(kind="deal", target="z"), "michigan.bad_dealer")
    game.apply(Move(kind="deal"))
    assert game.dealer == "a"
    finish_round(game)
    game.replace_shoe(Shoe.stacked(Card.ALL))
    refused(game, Move(kind="deal", target="a"), "michigan.bad_dealer")


@pytest.mark.parametrize(
    ("seats", "npc", "code"),
    [
        (["a", "npc"], "npc", "michigan.players"),
        ([f"p{i}" for i in range(8)] + ["npc"], "npc", "michigan.players"),
        (["a", "b", "c"], "npc", "michigan.no_npc"),
    ],
)
def test_deal_refused_without_three_to_eight_players_and_the_npc(
    seats: list[str], npc: str, code: str
) -> None:
    game = table(seats, npc=npc)
    game.replace_shoe(Shoe.stacked(Card.ALL))
    refused(game, Move(kind="deal"), code)


def test_a_ninth_player_is_refused_when_he_sits_not_at_the_deal() -> None:
    game = table([f"p{i}" for i in range(7)] + ["npc"])
    with pytest.raises(IllegalAction) as caught:
        game.sit("late")
    assert (caught.value.code, caught.value.params) == (
        "michigan.full",
        {"seat": "late", "seats": 8},
    )
    assert "late" not in game.seats
    game.stand_up("p0")
    game.sit("late")  # a seat came free
    assert len(game.seats) == 8


def test_deal_refused_for_a_player_without_chips_or_without_a_pack() -> None:
    game = table(["a", "b", "npc"], stacks={"a": CHIP - 1, "b": STACK, "npc": None})
    game.replace_shoe(Shoe.stacked(Card.ALL))
    refused(game, Move(kind="deal"), "michigan.no_chips")
    game = table(["a", "b", "npc"])
    game.replace_shoe(Shoe.stacked(Card.ALL[:51]))
    assert game.needs_new_shoe
    refused(game, Move(kind="deal"), "michigan.needs_new_shoe")
    game.replace_shoe(Shoe.stacked([*Card.ALL[:51], Card.ALL[0]]))
    refused(game, Move(kind="deal"), "michigan.bad_pack")


def test_a_short_player_antes_what_he_has_over_the_pay_cards_in_turn() -> None:
    game = table(["a", "b", "npc"], stacks={"a": 3 * CHIP + 50, "b": STACK, "npc": 5 * CHIP})
    record = deal(game, {}, dealer="npc")
    assert record.events[0].antes == {"a": 3, "b": 4, "npc": 5}
    assert game.layout == {"Js": 4, "Qd": 3, "Kc": 3, "Ah": 2}
    assert game.stacks["a"] == 50
    assert game.stacks["npc"] == 0


# -- leads, runs and stops -----------------------------------------------------------------


def test_the_leader_chooses_among_the_suits_he_holds() -> None:
    game = scripted("a", "b", "npc")
    (option,) = [o for o in game.options() if o.kind == "lead"]
    assert option.seat == "a"
    assert set(option.targets) == {"c", "s", "h"}
    refused(game, Move(kind="lead", seat="a", target="d"), "games.illegal_move")
    refused(game, Move(kind="lead", seat="b", target="c"), "games.illegal_move")


def test_the_lead_is_the_lowest_card_of_the_suit() -> None:
    game = scripted("a", "b", "npc")
    record = game.apply(Move(kind="lead", seat="a", target="c"))
    assert record.events == (Played(seat="a", card="4c", lead=True),)
    assert "9c" in game.hands["a"]


def test_forced_plays_run_to_the_ace_and_the_ace_leads_again() -> None:
    game = scripted("a", "b", "npc")
    game.apply(Move(kind="lead", seat="a", target="c"))
    assert game.turn() == ()  # nobody decides a forced play
    assert game.automation() == Move(kind="follow", target="5c")
    records = []
    while (step := game.automation()) is not None:
        records.append(game.apply(step))
    played = [(event.seat, event.card) for event in events(records, Played)]
    assert played == [
        ("b", "5c"), ("b", "6c"), ("npc", "7c"), ("npc", "8c"), ("a", "9c"),
        ("b", "Tc"), ("b", "Jc"), ("npc", "Qc"), ("a", "Kc"), ("b", "Ac"),
    ]  # fmt: skip
    assert not any(event.lead for event in events(records, Played))
    assert events(records, Stop) == [Stop(seat="b", card="Ac", reason="ace")]
    assert game.turn() == ("b",)


def test_a_stop_by_a_card_in_the_widow_shows_it() -> None:
    game = scripted("a", "b", "npc")
    lead(game, "c")
    records = lead(game, "s")
    played = [(event.seat, event.card) for event in events(records, Played)]
    assert played == [("b", "7s"), ("b", "8s"), ("b", "9s"), ("a", "Ts")]
    assert events(records, Stop) == [Stop(seat="a", card="Ts", reason="widow", widow_card="Js")]
    assert Card.parse("Js") not in game.hidden_cards()
    assert Card.parse("2s") in game.hidden_cards()  # the rest of the widow stays hidden
    assert game.turn() == ("a",)


def test_a_stop_by_a_card_played_earlier() -> None:
    game = scripted("a", "b", "npc")
    lead(game, "c")
    lead(game, "s")
    records = lead(game, "s")
    played = [(event.seat, event.card) for event in events(records, Played)]
    assert played == [("a", "4s"), ("npc", "5s"), ("npc", "6s")]
    assert events(records, Stop) == [Stop(seat="npc", card="6s", reason="played")]
    assert game.turn() == ("npc",)


def test_a_pay_card_played_wins_its_chips() -> None:
    game = scripted("a", "b", "npc")
    records = lead(game, "c")
    assert events(records, PayCardWon) == [PayCardWon(seat="a", card="Kc", chips=4)]
    assert transfers(records) == [
        Transfer(src="layout:Kc", dst="seat:a", amount=4 * CHIP, reason="michigan.pay_card")
    ]
    assert game.layout == {"Js": 4, "Qd": 4, "Kc": 0, "Ah": 4}
    assert game.stacks["a"] == STACK - 4 * CHIP + 4 * CHIP


# -- going out -----------------------------------------------------------------------------


def test_the_first_out_is_paid_one_chip_per_card_left() -> None:
    game = scripted("a", "b", "npc")
    rounds = play_script(game)
    last = rounds[-1][-1]
    assert last.hand_over
    (over,) = events([last], RoundOver)
    assert over.seat == "npc"
    assert over.cards_left == {"a": 8, "b": 5}
    assert over.paid == {"a": 8, "b": 5}
    assert over.widow == (*SCRIPT_WIDOW.split(), "7d", "8d", "9d", "Td", "Jd", "Qd", "Kd", "Ad")
    assert list(last.transfers) == [
        Transfer(src="seat:a", dst="seat:npc", amount=8 * CHIP, reason="michigan.round"),
        Transfer(src="seat:b", dst="seat:npc", amount=5 * CHIP, reason="michigan.round"),
    ]
    assert game.phase == "idle"
    assert game.last == over  # kept for the table message until the next round ends
    assert game.hidden_cards() == set()
    assert game.private_cards("a") == []


def test_a_player_short_pays_the_chips_he_has() -> None:
    # a: 7 chips and 50 cents; antes 4, K♣ wins him 4 back: he pays 7 chips of the 8 owed.
    game = scripted("a", "b", "npc", stacks={"a": 7 * CHIP + 50, "b": STACK, "npc": None})
    rounds = play_script(game)
    (over,) = events(rounds[-1], RoundOver)
    assert over.paid == {"a": 7, "b": 5}
    assert game.stacks["a"] == 50
    (lost_a,) = [lost for lost in rounds[-1][-1].lost if lost.seat == "a"]
    assert lost_a.pay == (7 + 8) * CHIP  # what he paid back, plus a chip per card held


def test_npc_out_first_every_pc_lost_the_round_to_it() -> None:
    game = scripted("a", "b", "npc")
    last = play_script(game)[-1][-1]
    assert last.lost == (
        LostHand(seat="a", label="8 cards", pay=(8 + 8) * CHIP),
        LostHand(seat="b", label="5 cards", pay=(5 + 5) * CHIP),
    )
    assert game.offers == {"a": 16 * CHIP, "b": 10 * CHIP}


def test_a_pc_out_first_gives_no_lost_hand() -> None:
    game = scripted("a", "npc", "b")  # the same cards: b (a PC) goes out first
    rounds = play_script(game)
    last = rounds[-1][-1]
    (over,) = events([last], RoundOver)
    assert over.seat == "b"
    assert over.paid == {"a": 8, "npc": 5}
    assert last.lost == ()
    assert game.offers == {}
    assert not any(option.kind == "won_back" for option in game.options())


def test_won_back_counts_the_spend_once_until_the_next_deal() -> None:
    game = scripted("a", "b", "npc")
    play_script(game)
    net_before = dict(game.net)
    record = game.apply(Move(kind="won_back", target="a"))
    assert record.transfers == ()  # the table pays the spend
    assert game.net["a"] == net_before["a"] + 16 * CHIP
    assert game.net["npc"] == net_before["npc"] - 16 * CHIP
    refused(game, Move(kind="won_back", target="a"), "games.illegal_move")
    deal(game, {})
    refused(game, Move(kind="won_back", target="b"), "games.illegal_move")


# -- rounds after rounds, and the end ------------------------------------------------------


def second_round(game: Michigan, x: str, y: str, z: str) -> list[list[Record]]:
    deal(game, {x: ROUND2_X, y: ROUND2_Y, z: ROUND2_Z})
    return [lead(game, suit) for suit in "shd"]


def test_unwon_chips_stay_on_the_pay_cards_for_the_next_round() -> None:
    game = scripted("a", "b", "npc")
    play_script(game)
    # J♠ and Q♦ were in the widow, A♥ stayed in b's hand: their chips stay.
    assert game.layout == {"Js": 4, "Qd": 4, "Kc": 0, "Ah": 4}
    deal(game, {"a": ROUND2_X, "b": ROUND2_Y, "npc": ROUND2_Z})
    assert game.dealer == "a"
    assert game.layout == {"Js": 8, "Qd": 8, "Kc": 4, "Ah": 8}


def test_each_pay_card_is_won_by_the_one_who_plays_it() -> None:
    game = scripted("a", "b", "npc")
    won = events([record for step in play_script(game) for record in step], PayCardWon)
    steps = second_round(game, "a", "b", "npc")
    won += events([record for step in steps for record in step], PayCardWon)
    assert won == [
        PayCardWon(seat="a", card="Kc", chips=4),
        PayCardWon(seat="b", card="Js", chips=8),
        PayCardWon(seat="a", card="Ah", chips=8),
        PayCardWon(seat="a", card="Qd", chips=8),
    ]
    last = steps[-1][-1]
    (over,) = events([last], RoundOver)
    assert (over.seat, over.cards_left) == ("a", {"b": 3, "npc": 2})
    assert last.lost == ()
    assert game.layout == {"Js": 0, "Qd": 0, "Kc": 4, "Ah": 0}


def test_the_game_ends_by_itself_when_a_player_has_no_chips_left() -> None:
    # b antes his 4 chips and pays his last 1 chip for 5 cards: broke after round 1.
    game = scripted("a", "b", "npc", stacks={"a": STACK, "b": 5 * CHIP, "npc": None})
    play_script(game)
    assert game.out_of_chips() == ["b"]
    end = game.automation()
    assert end == Move(kind="end")
    record = game.apply(end)
    (over,) = record.events
    assert isinstance(over, GameOver)
    assert over.reason == "no_chips"
    # The 12 chips left on J♠ Q♦ A♥ go out one at a time from the dealer's (npc's) left.
    assert over.shares == {"a": 4, "b": 4, "npc": 4}
    assert game.layout == dict.fromkeys(PAY_CARDS, 0)
    assert sum(t.amount for t in record.transfers) == 12 * CHIP
    assert game.phase == "over"
    assert game.options() == [o for o in game.options() if o.kind == "won_back"]
    # a: ante 4, K♣ +4, paid 8, share +4; b: ante 4, paid 1, share +4; npc: ante 8, +9, +4.
    assert game.net == {"a": -4 * CHIP, "b": -1 * CHIP, "npc": 5 * CHIP}
    assert over.winners == ("npc",) == game.winners()
    # The spend window of the last round stays open after the end.
    game.apply(Move(kind="won_back", target="a"))
    assert game.winners() == ("a",)


def test_the_gm_ends_the_game_mid_round_without_settling_it() -> None:
    game = scripted("a", "b", "npc")
    lead(game, "c")
    record = game.apply(Move(kind="end"))
    (over,) = record.events
    assert over.reason == "gm"
    assert record.hand_over
    assert record.lost == ()
    # 12 chips on J♠ Q♦ A♥ shared from a (the dealer's left): a, b, npc, a, …
    assert over.shares == {"a": 4, "b": 4, "npc": 4}
    assert game.hidden_cards() == set()
    refused(game, Move(kind="deal"), "games.illegal_move")


def test_odd_chips_at_the_end_go_first_to_the_dealers_left() -> None:
    game = table(["a", "b", "npc"])
    deal(game, {}, dealer="b")  # antes: npc 4, a 4, b 8: 16 chips for 3 players
    (over,) = game.apply(Move(kind="end")).events
    assert over.shares == {"npc": 6, "a": 5, "b": 5}
    assert game.layout == dict.fromkeys(PAY_CARDS, 0)
    assert game.net == {"npc": 2 * CHIP, "a": 1 * CHIP, "b": -3 * CHIP}


def test_the_dealer_standing_up_passes_the_deal_on() -> None:
    game = table(["a", "b", "c", "npc"])
    deal(game, {}, dealer="b")
    with pytest.raises(IllegalAction) as caught:
        game.stand_up("a")
    assert caught.value.code == "games.in_hand"
    finish_round(game)
    game.stand_up("b")
    assert game.dealer == "a"
    game.replace_shoe(Shoe.stacked(Card.ALL))
    game.apply(Move(kind="deal"))
    assert game.dealer == "c"  # the seat that was on b's left


# -- automatic leads -----------------------------------------------------------------------


def test_best_lead_sheds_the_longest_run_and_counts_keeping_the_lead() -> None:
    # Spades 2-4 (3 cards, 5s unknown); hearts Q K A (3 cards and the lead back).
    assert lead_value({"2s", "3s", "4s"}, "s", set()) == (3, 0)
    assert lead_value({"Qh", "Kh", "Ah"}, "h", set()) == (4, -10)
    assert best_lead(["2s", "3s", "4s", "Qh", "Kh", "Ah"], set()) == "h"
    # A run ending below a card already played keeps the lead too.
    assert best_lead(["2s", "3s", "4s", "Qh", "Kh", "Ah"], {"5s"}) == "s"
    # Equal value: the suit with the lowest card goes first.
    assert best_lead(["9d", "5c"], set()) == "c"


def test_timeout_and_npc_lead_the_best_suit_only_on_their_turn() -> None:
    game = scripted("a", "b", "npc")
    assert game.timeout_move("b") is None
    assert game.npc_move(random.Random(0)) is None
    # a holds 4c 9c Kc 4s Ts 2h-9h: hearts shed 8 cards at once.
    assert game.timeout_move("a") == Move(kind="lead", seat="a", target="h")
    lead(game, "c")
    lead(game, "s")
    lead(game, "s")
    # npc holds Qs Ks As (3 and the lead back, 4) and 2d-6d (5, 7d unknown to it): the
    # greedy lead sheds the diamonds first; looking ahead, the spades keep the lead for
    # sure and the diamonds then take him out: a certain win.
    assert set(game.hands["npc"]) == {"Qs", "Ks", "As", "2d", "3d", "4d", "5d", "6d"}
    assert best_lead(game.hands["npc"], game.dead_cards()) == "d"
    move = game.npc_move(random.Random(0))
    assert move == Move(kind="lead", seat="npc", target="s")
    while game.in_hand():
        step = game.automation() or game.npc_move(random.Random(0))
        assert step is not None, "the lead went to another seat"
        game.apply(step)
    assert game.last is not None and game.last.seat == "npc"  # out first


def test_a_hand_replays_from_its_start_and_round_trips_through_json() -> None:
    game = table(["a", "b", "npc"])
    game.replace_shoe(Shoe.stacked(pack_for(["a", "b", "npc"], {})))
    start = game.model_copy(deep=True)
    game.apply(Move(kind="deal", target="npc"))
    while game.phase != "idle":
        step = game.automation() or game.timeout_move(game.turn()[0])
        assert step is not None
        game.apply(step)
        assert Michigan.model_validate_json(game.model_dump_json()) == game
    assert game.history[0] == Move(kind="deal", target="npc")
    assert replay(start, game.history) == game
