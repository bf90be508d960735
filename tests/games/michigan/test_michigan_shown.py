"""The picture of a Michigan round's result (`shown_hands`): the first out's cards, as he
played them, and the widow; never a card left in another player's hand."""

from __future__ import annotations

from test_michigan_engine import (
    SCRIPT_WIDOW,
    deal,
    finish_round,
    lead,
    play_script,
    scripted,
    table,
)

from bondbot.games.contract import Move, ShownHand
from bondbot.games.michigan.engine import Michigan
from bondbot.rules.cards import Card, parse_cards

# The scripted round: npc (Z) plays 7c 8c Qc in the clubs run, 5s 6s, 2d-6d, then Qs Ks As.
WENT_OUT = "7c 8c Qc 5s 6s 2d 3d 4d 5d 6d Qs Ks As"
WIDOW = f"{SCRIPT_WIDOW} 7d 8d 9d Td Jd Qd Kd Ad"


def row(whose: str, cards: str) -> ShownHand:
    return ShownHand(whose, tuple(parse_cards(cards)))


def sorted_cards(cards: str) -> str:
    return " ".join(card.code for card in sorted(parse_cards(cards), key=lambda c: c.index))


def test_nothing_is_shown_before_a_round_ends() -> None:
    game = table(["a", "b", "npc"])
    assert game.shown_hands() == ()
    game = scripted("a", "b", "npc")
    assert game.shown_hands() == ()
    for suit in "css":
        records = lead(game, suit)
        assert not any(record.hand_over for record in records)
        assert game.shown_hands() == ()


def test_the_first_out_shows_the_cards_he_played_and_the_widow_is_shown() -> None:
    game = scripted("a", "b", "npc")
    rounds = play_script(game)
    assert rounds[-1][-1].hand_over
    assert game.shown_hands() == (
        ShownHand("npc", tuple(parse_cards(WENT_OUT)), role="went_out"),
        row("widow", sorted_cards(WIDOW)),
    )
    assert game.shown_hands()[1].cards[0] == Card.parse("2s")  # sorted as hands are
    assert all(hand.total is None for hand in game.shown_hands())


def test_the_cards_left_in_the_losers_hands_are_never_shown() -> None:
    game = scripted("a", "b", "npc")
    dealt = set(game.shoe.dealt)
    for suit in "cssd":
        lead(game, suit)
    left = {card for seat in ("a", "b") for card in game.private_cards(seat)}
    assert len(left) == 8 + 5
    records = lead(game, "s")  # npc goes out
    assert records[-1].hand_over
    shown = [card for hand in game.shown_hands() for card in hand.cards]
    assert len(shown) == len(set(shown)) == 26
    assert set(shown) <= dealt
    assert not set(shown) & left
    assert not set(shown) & game.hidden_cards()
    assert {hand.whose for hand in game.shown_hands()} == {"npc", "widow"}


def test_the_picture_stays_until_the_next_deal_and_survives_a_restart() -> None:
    game = scripted("a", "b", "npc")
    play_script(game)
    shown = game.shown_hands()
    game.apply(Move(kind="won_back", target="a"))
    assert game.shown_hands() == shown
    assert Michigan.model_validate_json(game.model_dump_json()).shown_hands() == shown
    deal(game, {})
    assert game.shown_hands() == ()
    finish_round(game)
    assert game.last is not None
    (first_out, widow) = game.shown_hands()
    assert first_out.whose == game.last.seat and widow.whose == "widow"


def test_a_round_the_gm_abandons_shows_nothing() -> None:
    game = scripted("a", "b", "npc")
    play_script(game)
    deal(game, {})
    (leader,) = game.turn()
    game.apply(Move(kind="lead", seat=leader, target=game.hands[leader][0][1]))
    assert game.in_hand()
    record = game.apply(Move(kind="end"))
    assert record.hand_over
    assert game.shown_hands() == ()


def test_an_old_state_without_the_field_loads_and_shows_nothing() -> None:
    game = scripted("a", "b", "npc")
    play_script(game)
    saved = game.model_dump(mode="json")
    del saved["went_out"]
    assert Michigan.model_validate(saved).shown_hands() == ()
