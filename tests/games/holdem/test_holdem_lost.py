"""Hands a PC lost to the NPC (holdem.md, "A lost hand"), and what a Hero Point wins back."""

from __future__ import annotations

import pytest
from holdem_helpers import act, deal, events, table

from bondbot.games.contract import Move, Record
from bondbot.games.holdem.engine import (
    Holdem,
    HoldemLostHand,
    PotClaim,
    WonBack,
    pot_claims,
    totals,
    winback_pay,
)
from bondbot.rules.errors import IllegalAction


def check_down(game: Holdem) -> list[Record]:
    records = []
    while game.in_hand():
        seat = game.turn()[0]
        records += act(game, seat, "call" if game.to_call(seat) else "check")
    return records


def lost(records: list[Record]) -> dict[str, HoldemLostHand]:
    hands = [hand for record in records for hand in record.lost]
    assert all(isinstance(hand, HoldemLostHand) for hand in hands)
    return {hand.seat: hand for hand in hands}  # type: ignore[misc]


BOARD = "2c 5h 9d Jc 4s"


def test_a_pc_who_loses_the_showdown_to_the_npc_has_lost_the_pot() -> None:
    game = table({"bond": 1000, "npc": 1000}, npc="npc")
    records = deal(game, ["As Ad", "7s 6d"], BOARD) + check_down(game)  # npc's AA beats 7-6
    assert lost(records) == {
        "bond": HoldemLostHand(
            seat="bond", label="pot:0=40", pay=40, pots=(PotClaim(pot=0, amount=40),)
        )
    }
    assert winback_pay(list(lost(records).values()), {"bond"}) == {"bond": 40}


def test_a_pc_who_wins_or_ties_has_lost_nothing() -> None:
    game = table({"bond": 1000, "npc": 1000}, npc="npc")
    records = deal(game, ["7s 6d", "As Ad"], BOARD) + check_down(game)
    assert lost(records) == {}
    game = table({"bond": 1000, "npc": 1000}, npc="npc")
    records = deal(game, ["As 6d", "Ad 6s"], BOARD) + check_down(game)
    assert events(records, "pot_awarded")[0].winners == ("npc", "bond")
    assert lost(records) == {}


def test_two_pcs_who_lose_one_pot_split_it_when_both_spend() -> None:
    game = table({"bond": 1000, "leiter": 1000, "npc": 1000}, npc="npc", blinds=((5, 10),))
    records = deal(game, ["Qs Qd", "As Ad", "7s 6d"], BOARD)  # npc's AA beats both
    records += act(game, "bond", "raise", 25)
    records += check_down(game)  # a pot of 3 × 25
    claims = lost(records)
    assert {seat: hand.pots for seat, hand in claims.items()} == {
        "bond": (PotClaim(pot=0, amount=75),),
        "leiter": (PotClaim(pot=0, amount=75),),
    }
    assert claims["bond"].pay == claims["leiter"].pay == 75
    # In the engine's order (first left of the button first): leiter, then bond.
    assert list(claims) == ["leiter", "bond"]
    assert winback_pay(list(claims.values()), {"bond", "leiter"}) == {"leiter": 38, "bond": 37}
    assert winback_pay(list(claims.values()), {"bond"}) == {"bond": 75}
    # A record stored and read back keeps the pots in the label.
    stored = [Record.model_validate_json(r.model_dump_json()) for r in records]
    plain = [hand for record in stored for hand in record.lost]
    assert [pot_claims(hand) for hand in plain] == [claims["leiter"].pots, claims["bond"].pots]
    assert winback_pay(plain, {"bond", "leiter"}) == {"leiter": 38, "bond": 37}


def test_a_pc_all_in_short_cannot_win_back_the_side_pot_he_was_not_in() -> None:
    game = table({"bond": 100, "leiter": 1000, "npc": 1000}, npc="npc")
    records = deal(game, ["Qs Qd", "As Ad", "7s 6d"], BOARD)  # leiter, npc, bond (button)
    records += act(game, "bond", "all_in")
    records += act(game, "leiter", "call")
    records += act(game, "npc", "call")
    records += act(game, "leiter", "bet", 300)
    records += act(game, "npc", "call")
    records += check_down(game)
    claims = lost(records)
    assert claims["bond"].pots == (PotClaim(pot=0, amount=300),)
    assert claims["leiter"].pots == (PotClaim(pot=0, amount=300), PotClaim(pot=1, amount=600))
    assert claims["leiter"].pay == 900
    assert winback_pay(list(claims.values()), {"bond", "leiter"}) == {"leiter": 750, "bond": 150}


def test_a_pot_lost_to_another_pc_cannot_be_won_back() -> None:
    # bond (short, all-in) has the best hand: he wins the main pot from leiter; the npc
    # beats leiter for the side pot. leiter lost only the side pot to the npc.
    game = table({"bond": 100, "leiter": 1000, "npc": 1000}, npc="npc")
    records = deal(game, ["7s 6d", "Qs Qd", "As Ad"], BOARD)
    records += act(game, "bond", "all_in")
    records += act(game, "leiter", "call")
    records += act(game, "npc", "call")
    records += act(game, "leiter", "bet", 300)
    records += act(game, "npc", "call")
    records += check_down(game)
    pots = [(e.pot, e.winners) for e in events(records, "pot_awarded")]
    assert pots == [(0, ("bond",)), (1, ("npc",))]
    claims = lost(records)
    assert set(claims) == {"leiter"}
    assert claims["leiter"].pots == (PotClaim(pot=1, amount=600),)


def test_a_pc_who_folded_did_not_lose_a_hand() -> None:
    game = table({"bond": 1000, "leiter": 1000, "npc": 1000}, npc="npc")
    records = deal(game, ["2d 7h", "As Ad", "Ks Kd"], BOARD)  # leiter, npc, bond
    records += act(game, "bond", "raise", 100)
    records += act(game, "leiter", "fold")
    records += act(game, "npc", "raise", 300)
    records += act(game, "bond", "fold")
    assert not game.in_hand()
    assert lost(records) == {}
    [pot] = events(records, "pot_awarded")
    assert (pot.winners, pot.shown) == (("npc",), False)


def test_a_pc_who_folds_after_the_flop_did_not_lose_a_hand_but_one_who_called_did() -> None:
    game = table({"bond": 1000, "leiter": 1000, "npc": 1000}, npc="npc")
    records = deal(game, ["2d 7h", "As Ad", "Ks Kd"], BOARD)
    records += act(game, "bond", "call")
    records += act(game, "leiter", "call")
    records += act(game, "npc", "check")
    records += act(game, "leiter", "check")
    records += act(game, "npc", "bet", 100)
    records += act(game, "bond", "call")
    records += act(game, "leiter", "fold")
    records += check_down(game)
    assert set(lost(records)) == {"bond"}
    assert lost(records)["bond"].pay == 260


# -- spending: the table plays `won_back` and moves what `won_back_pays` says -----------


def spend(game: Holdem, seat: str) -> dict[str, int]:
    """A Hero Point spent by `seat`: what it moves, checked against the played move."""
    pays = game.won_back_pays(seat)
    assert pays is not None
    record = game.apply(Move(kind="won_back", target=seat))
    [event] = record.events
    assert isinstance(event, WonBack) and event.pays == pays and not record.transfers
    restored = Holdem.model_validate_json(game.model_dump_json())
    assert restored == game and restored.won_back_pays(seat) is None
    return pays


def shared_pot() -> Holdem:
    """The npc's aces beat leiter and bond, who put 25 each in a pot of 75."""
    game = table({"bond": 1000, "leiter": 1000, "npc": 1000}, npc="npc", blinds=((5, 10),))
    deal(game, ["Qs Qd", "As Ad", "7s 6d"], BOARD)
    act(game, "bond", "raise", 25)
    check_down(game)
    return game


def test_one_spender_takes_what_the_npc_won_from_him() -> None:
    game = table({"bond": 1000, "npc": 1000}, npc="npc")
    deal(game, ["As Ad", "7s 6d"], BOARD)
    check_down(game)
    assert kinds_of_targets(game) == ("bond",)
    assert spend(game, "bond") == {"bond": 40}
    assert not game.can(Move(kind="won_back", target="bond"))  # once
    assert game.won_back == {0: {"bond": 40}}


def kinds_of_targets(game: Holdem) -> tuple[str, ...]:
    return next((o.targets for o in game.options() if o.kind == "won_back"), ())


def test_two_spenders_on_one_pot_split_it_whoever_spends_first() -> None:
    game = shared_pot()
    assert spend(game, "bond") == {"bond": 75}
    # Leiter spends too: the pot is split, odd chip to the first left of the button
    # (leiter), and bond gives back to the npc what leiter now takes of it.
    assert spend(game, "leiter") == {"bond": -38, "leiter": 38}
    assert totals(game.won_back) == winback_pay(game.lost, {"bond", "leiter"})

    game = shared_pot()
    assert spend(game, "leiter") == {"leiter": 75}
    assert spend(game, "bond") == {"leiter": -37, "bond": 37}
    assert totals(game.won_back) == {"leiter": 38, "bond": 37}


def test_a_shared_pot_and_a_side_pot_only_one_spender_was_in() -> None:
    game = table({"bond": 100, "leiter": 1000, "npc": 1000}, npc="npc")
    deal(game, ["Qs Qd", "As Ad", "7s 6d"], BOARD)  # leiter, npc, bond (button)
    act(game, "bond", "all_in")
    act(game, "leiter", "call")
    act(game, "npc", "call")
    act(game, "leiter", "bet", 300)
    act(game, "npc", "call")
    check_down(game)
    assert spend(game, "leiter") == {"leiter": 900}  # the main pot's 300 and the side pot
    assert spend(game, "bond") == {"leiter": -150, "bond": 150}  # half the main pot only
    assert game.won_back == {0: {"leiter": 150, "bond": 150}, 1: {"leiter": 600}}


def test_a_spender_who_left_keeps_what_he_took() -> None:
    game = shared_pot()
    spend(game, "leiter")
    game.stand_up("leiter")
    assert kinds_of_targets(game) == ("bond",)
    with pytest.raises(IllegalAction) as nothing:
        game.verify(Move(kind="won_back", target="bond"))
    assert nothing.value.code == "holdem.nothing_to_win_back"
    game.sit("leiter")  # coming back changes nothing: his share left with him
    with pytest.raises(IllegalAction):
        game.verify(Move(kind="won_back", target="bond"))


def test_folded_hands_and_pots_lost_to_a_pc_are_never_won_back() -> None:
    game = table({"bond": 1000, "leiter": 1000, "npc": 1000}, npc="npc")
    deal(game, ["2d 7h", "As Ad", "Ks Kd"], BOARD)
    act(game, "bond", "raise", 100)
    act(game, "leiter", "fold")
    act(game, "npc", "raise", 300)
    act(game, "bond", "fold")
    assert kinds_of_targets(game) == ()
    assert game.won_back_pays("bond") is None and game.won_back_pays("leiter") is None
    assert not game.can(Move(kind="won_back", target="bond"))

    game = table({"bond": 100, "leiter": 1000, "npc": 1000}, npc="npc")
    deal(game, ["7s 6d", "Qs Qd", "As Ad"], BOARD)  # bond wins the main pot from leiter
    act(game, "bond", "all_in")
    act(game, "leiter", "call")
    act(game, "npc", "call")
    act(game, "leiter", "bet", 300)
    act(game, "npc", "call")
    check_down(game)
    assert kinds_of_targets(game) == ("leiter",)
    assert spend(game, "leiter") == {"leiter": 600}  # the side pot only


def test_the_next_deal_forgets_the_last_hands_spends() -> None:
    game = shared_pot()
    spend(game, "bond")
    deal(game, ["2c 3d", "4h 5s", "8c 9d"], BOARD)
    assert (game.lost, game.spent, game.won_back, game.gone) == ([], [], {}, [])
    assert game.won_back_pays("leiter") is None
