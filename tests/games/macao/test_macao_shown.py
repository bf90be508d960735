"""The picture of a Macao coup's result (`shown_hands`): the hands its settlement revealed.

The stacked shoes deal the players (seat order from the banker's left) then the banker,
one card at a time, then the third cards in the order they are drawn.
"""

from __future__ import annotations

from macao_helpers import (
    BOND,
    MATHIS,
    NPC,
    act,
    coup_shoe,
    deal,
    draw,
    stand,
    table,
    wager,
)

from bondbot.games.contract import Move, ShownHand
from bondbot.games.macao.counting import Counting
from bondbot.games.macao.engine import Bank, Macao, MacaoRules
from bondbot.rules.cards import parse_cards


def row(whose: str, cards: str, total: int) -> ShownHand:
    return ShownHand(whose, tuple(parse_cards(cards)), total)


def bank(whose: str, cards: str, total: int) -> ShownHand:
    """The banker's row: his seat, playing the bank."""
    return ShownHand(whose, tuple(parse_cards(cards)), total, "banker")


def assert_public(game: Macao) -> None:
    """No card of the picture is still private to anyone."""
    shown = {card for hand in game.shown_hands() for card in hand.cards}
    assert not shown & game.hidden_cards()
    for seat in game.seats:
        assert not shown & set(game.private_cards(seat))


def test_nothing_is_shown_before_a_coup_has_ended():
    game = table(coup_shoe(["2s 3h", "4d 2c"], "Kd 6c", "8c"), players=(BOND, MATHIS))
    assert game.shown_hands() == ()
    deal(game)
    assert game.shown_hands() == ()
    act(game, wager(BOND, "own"), Move(kind="pass", seat=MATHIS))
    assert game.shown_hands() == ()  # drawing: nothing shown yet


def test_the_showdown_shows_the_bank_then_each_player_who_wagered_never_a_pass():
    game = table(coup_shoe(["2s 3h", "4d 2c"], "Kd 6c", "8c"), players=(BOND, MATHIS))
    deal(game)
    act(game, wager(BOND, "own"), Move(kind="pass", seat=MATHIS))
    records = act(game, draw(BOND))  # 2 + 3 + 8 = 13 → 4; the banker's 6 may not draw on 8
    assert records[-1].move.kind == "showdown" and records[-1].hand_over
    assert game.shown_hands() == (bank(NPC, "Kd 6c", 6), row(BOND, "2s 3h 8c", 4))
    assert game.hidden_cards() == set(parse_cards("4d 2c"))  # Mathis passed: never shown
    assert_public(game)


def test_the_totals_are_the_tables_counting():
    shoe = coup_shoe(["2s 3h", "5d Ac"], "Kd 6c", "9c")
    game = table(shoe, players=(BOND, MATHIS), rules=MacaoRules(counting=Counting.MODULO10))
    deal(game)
    act(game, wager(BOND, "own"), wager(MATHIS, "banker"), draw(BOND), stand(MATHIS))
    # 2 + 3 + 9 = 14 → 4 (minus9 would say 5); the banker's 6 may not draw on a 9.
    assert game.shown_hands() == (
        bank(NPC, "Kd 6c", 6),
        row(BOND, "2s 3h 9c", 4),
        row(MATHIS, "5d Ac", 6),
    )
    assert_public(game)


def test_a_banker_natural_shows_the_bank_and_the_naturals_it_met_only():
    game = table(coup_shoe(["2s 3h", "5d 3c"], "Kd 9c"), players=(BOND, MATHIS))
    deal(game)
    records = act(game, wager(BOND, "own"), wager(MATHIS, "own"))
    assert records[-1].move.kind == "naturals" and records[-1].hand_over
    # Bond's 5 lost to the natural 9 unseen; Mathis showed his natural 8.
    assert game.shown_hands() == (bank(NPC, "Kd 9c", 9), row(MATHIS, "5d 3c", 8))
    assert game.hidden_cards() == set(parse_cards("2s 3h"))
    assert_public(game)


def test_a_players_natural_is_shown_without_the_bank_it_never_met():
    game = table(coup_shoe(["9s Kh", "2s 3h"], "2d 3c"), players=(BOND, MATHIS))
    deal(game)
    act(game, wager(BOND, "own"), Move(kind="pass", seat=MATHIS))
    assert game.shown_hands() == (row(BOND, "9s Kh", 9),)  # paid at once, the coup ends
    assert game.hidden_cards() == set(parse_cards("2s 3h 2d 3c"))
    assert_public(game)


def test_a_bust_shows_its_cards_and_its_total_over_nine():
    game = table(coup_shoe(["9s 5h"], "Kd 6c"), rules=MacaoRules(counting=Counting.BUST))
    deal(game)
    records = act(game, wager(BOND, "own"))
    assert records[-1].hand_over
    assert game.shown_hands() == (row(BOND, "9s 5h", 14),)
    assert_public(game)


def test_a_coup_everybody_passed_shows_nothing():
    game = table(coup_shoe(["2s 3h", "4d 2c"], "Kd 6c"), players=(BOND, MATHIS))
    deal(game)
    records = act(game, Move(kind="pass", seat=BOND), Move(kind="pass", seat=MATHIS))
    assert records[-1].hand_over
    assert game.shown_hands() == ()


def test_a_player_banker_is_shown_under_his_own_seat():
    game = table(
        coup_shoe(["2s 3h", "4d 2c"], "Kd 6c", "8c"),
        players=(BOND, MATHIS),
        rules=MacaoRules(bank=Bank.ROTATE),
    )
    game.banker = NPC  # Bond banks: Mathis, then the NPC play
    deal(game)
    assert game.banker == BOND
    act(game, wager(MATHIS, "own"), Move(kind="pass", seat=NPC), draw(MATHIS))
    assert game.shown_hands() == (bank(BOND, "Kd 6c", 6), row(MATHIS, "2s 3h 8c", 4))
    assert_public(game)


def test_the_picture_lasts_until_the_next_deal_and_survives_a_restore():
    shoe = coup_shoe(["2s 3h", "4d 2c"], "Kd 6c", "8c")
    game = table(shoe, players=(BOND, MATHIS))
    deal(game)
    act(game, wager(BOND, "own"), Move(kind="pass", seat=MATHIS), draw(BOND))
    shown = game.shown_hands()
    game.stand_up(MATHIS)  # between coups
    restored = Macao.model_validate_json(game.model_dump_json())
    assert restored.shown_hands() == shown
    act(game, Move(kind="end"))
    assert game.shown_hands() == shown  # the evening is over: still the last coup's
