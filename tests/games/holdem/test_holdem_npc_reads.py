"""The NPC's notes across hands (public actions only), the reads it takes from them, how
level 15 exploits a wild, sticky or tight player, and the level's mix drawn once a hand."""

from __future__ import annotations

import dataclasses
import random

from holdem_helpers import act, auto, deal, table
from test_holdem_npc import spot
from test_holdem_npc_levels import preflop_first_in, river_shove

from bondbot.games.contract import Move
from bondbot.games.holdem import ranges
from bondbot.games.holdem.npc import decide, loose
from bondbot.games.holdem.ranges import STICKY, TIGHT, WILD, Seen, hand_note, read_of
from bondbot.rules.shoe import Shoe


def test_a_hand_note_says_what_the_public_actions_said() -> None:
    """Blinds 100, pot 150 before the first action. Player 0 shoves 100 big blinds (an
    overbet); player 1 folds to it: "w" for one, "f" for the other. A call of a bet is
    "c"; a limp and a free check face nothing and say nothing."""
    shove = (Seen(0, 0, "raise", 10_000, 150, 9_950), Seen(1, 0, "fold", pot=10_100))
    assert (hand_note(0, shove), hand_note(1, shove)) == ("w", "f")
    called = (
        Seen(0, 0, "call", 0, 150),
        Seen(1, 0, "check", 0, 200),
        Seen(1, 1, "raise", 100, 200, 100),
        Seen(0, 1, "call", 0, 300),
    )
    assert (hand_note(0, called), hand_note(1, called)) == ("c", "")
    limped = (Seen(0, 0, "call", 0, 150), Seen(1, 0, "check", 0, 200))
    assert (hand_note(0, limped), hand_note(1, limped)) == ("", "")
    # Called a bet on the flop, folded to one on the turn: he did fold.
    folded = (*called, Seen(1, 2, "raise", 200, 400, 200), Seen(0, 2, "fold", pot=600))
    assert hand_note(0, folded) == "f"


def test_reads_from_the_last_hands() -> None:
    assert read_of(["", "w", "", "w", "w"]) == ""  # three overbets: a shover with cards, maybe
    assert read_of(["", "w", "", "w", "w", "w"]) == WILD  # four: he cannot hold them all
    assert read_of(["w", "", "", "", "", "w", "w", "w"]) == WILD
    assert read_of(["w", "", "", "", "", "", "w", "w", "w"]) == ""  # the first is forgotten
    assert read_of(["wx"]) == WILD  # he showed a wild hand after an overbet
    assert read_of(["ws", "w", "w", "w"]) == WILD  # one strong hand: not all of them
    assert read_of(["ws", "w", "w"]) == ""
    assert read_of(["wx", "ws"]) == WILD
    assert read_of(["wx", "ws", "wcs"]) == ""
    assert read_of(["c", "", "c", "c"]) == STICKY
    assert read_of(["c", "c", "c", "f"]) == ""  # one fold: not sticky, not yet tight
    assert read_of(["c", "c", "f", "", "f"]) == TIGHT  # two folds to bets
    assert read_of(["wf", "f"]) == TIGHT
    assert read_of([]) == ""


def test_the_table_takes_notes_from_each_hand_on_the_others_only() -> None:
    """Two hands where Bond shoves 250 big blinds whenever he acts and the others fold:
    Felix (who folded to him twice) reads tight, Bond not yet wild (two shoves may be two
    big hands; four, or a wild hand shown, would make him so), the NPC keeps no notes
    on itself, and the notes are the same whatever cards were dealt."""
    notes = []
    for holes in (["Ks Kd", "2c 7d", "9h 9s"], ["2s 3d", "Ac Ad", "Th Jh"]):
        game = table({"npc": 50_000, "bond": 50_000, "felix": 50_000}, npc="npc")
        for _ in range(2):
            deal(game, holes, "2h 8h 9d Td Qd")
            while game.in_hand():
                [seat] = game.turn()
                act(game, seat, "all_in" if seat == "bond" else "fold")
        notes.append(game.notes)
    assert notes[0] == notes[1] == {"bond": ["w", "w"], "felix": ["f", "f"]}
    assert (read_of(notes[0]["bond"]), read_of(notes[0]["felix"])) == ("", TIGHT)
    game.notes["bond"] += ["w", "w"]  # two more shoves: four in his last hands
    # The next hand's situation carries the reads, by the order of play.
    deal(game, ["4c 4d", "5c 5d", "6c 6d"], "2h 8h 9d Td Qd")
    situation = game._situation("npc")
    assert {game.players[i]: r for i, r in enumerate(situation.reads)} == {
        "npc": "",
        "bond": WILD,
        "felix": TIGHT,
    }


def shoved_into(game_notes: dict[str, list[str]], hole: str) -> str:
    game = river_shove(hole)
    game.notes = game_notes
    return game.npc_move(random.Random(1), level=15).kind


def test_level_15_calls_a_wild_players_shove_with_what_beats_random_hands() -> None:
    """The river shove that ace-deuce folds against a sane player's line is a call against
    a player whose notes show he overbets: his line says nothing, and top pair beats 85%
    of random hands."""
    assert shoved_into({}, "Ad 2c") == "fold"
    assert shoved_into({"bond": ["w", "", "w", "w", "w"]}, "Ad 2c") == "call"
    assert shoved_into({"bond": ["w", "", "w", "w", "w"]}, "3d 2c") == "fold"  # no pair: still not


def test_loose_is_every_opponent_in() -> None:
    base = dataclasses.replace(spot("7c 2d", "Ks Qh 9s"), me=2, live=(0, 1))
    assert loose(dataclasses.replace(base, reads=(WILD, WILD, ""))) == WILD
    assert loose(dataclasses.replace(base, reads=(WILD, STICKY, ""))) == STICKY
    assert loose(dataclasses.replace(base, reads=(WILD, "", ""))) == ""
    assert loose(dataclasses.replace(base, reads=(TIGHT, TIGHT, ""))) == ""
    overbet = (Seen(1, 0, "raise", 10_000, 150, 9_950),)  # a shove without notes: strong
    assert loose(dataclasses.replace(base, reads=(WILD, "", ""), history=overbet)) == ""


def test_level_15_bets_thin_for_value_into_a_sticky_player_and_never_bluffs_him() -> None:
    """He called a raise, a flop bet and a turn bet, and checks the river to the NPC.
    From a sane player those calls mean a pair or better: a small pair checks. From a
    sticky player they mean nothing: the same pair is ahead of most of his hands and
    bets. With air it bluffs the sane player at times, the sticky one never."""
    history = (
        Seen(1, 0, "raise", 250, 150, 200),
        Seen(0, 0, "call", 0, 400),
        Seen(0, 1, "check", 0, 500),
        Seen(1, 1, "raise", 300, 500, 300),
        Seen(0, 1, "call", 0, 800),
        Seen(0, 2, "check", 0, 1100),
        Seen(1, 2, "raise", 700, 1100, 700),
        Seen(0, 2, "call", 0, 1800),
        Seen(0, 3, "check", 0, 2500),
    )

    def moves(hole: str, reads: tuple[str, ...]) -> list[str]:
        situation = dataclasses.replace(
            spot(hole, "Ks 9h 5d 4c 2h", in_position=True, pot=2500),
            me=1,
            live=(0,),
            history=history,
            reads=reads,
        )
        return [decide(situation, random.Random(seed)).kind for seed in range(60)]

    for pair in ("5c 3c", "Ah 5c"):
        assert set(moves(pair, ("",))) == {"check"}
        assert set(moves(pair, (STICKY,))) == {"bet"}
    assert "bet" in moves("Qc Jc", ("",))  # air: a balanced bluff now and then
    assert set(moves("Qc Jc", (STICKY,))) == {"check"}


def test_level_15_steals_wider_from_tight_players() -> None:
    """Ten-eight offsuit under the gun at four seats folds (top 30%), and opens when the
    three players behind have folded to raises in their last hands."""
    assert preflop_first_in("Td 8c", 4).kind == "fold"
    game = table({name: 10_000 for name in ("p2", "p0", "p1", "npc")}, npc="npc")
    game.notes = {seat: ["f", "", "f"] for seat in ("p0", "p1", "p2")}
    deal(game, ["3c 3d", "5c 5d", "Td 8c", "6c 6d"], "2h 8h 9d Td Qd")
    assert game.turn() == ("npc",)
    assert game.npc_move(random.Random(1), level=15).kind == "raise"


def test_a_level_between_plays_one_player_for_the_whole_hand() -> None:
    """At Gambling 7 the NPC draws its line once, at its first decision of a hand, from the
    table's generator, keeps it for every later decision, and draws anew next hand; the
    same generator replays the same lines; 0 and 15 draw nothing."""
    lines = []
    for _ in range(2):
        game = table({"npc": 4_000, "bond": 4_000, "felix": 4_000}, npc="npc")
        rng, seen = random.Random(5), []
        for number in range(6):
            game.replace_shoe(Shoe.shuffled(1, bytes([number])))
            game.apply(Move(kind="deal"))
            auto(game)
            assert game.npc_line is None
            hand = set()
            while game.in_hand():
                [seat] = game.turn()
                if seat == "npc":
                    move = game.npc_move(rng, level=7)
                    hand.add(game.npc_line)
                else:
                    move = game.timeout_move(seat)
                assert move is not None
                act(game, seat, move.kind, move.amount)
            assert len(hand) <= 1 and None not in hand  # one line a hand
            seen.append(next(iter(hand), None))
        lines.append(seen)
    assert lines[0] == lines[1]
    drawn = [line for line in lines[0] if line is not None]
    assert len(set(drawn)) == len(drawn) >= 2  # a new draw each hand it played
    for level in (0, 15):
        game = river_shove("Ad 2c")
        game.npc_move(random.Random(1), level=level)
        assert game.npc_line is None


def test_the_line_decides_strong_or_novice_for_the_level() -> None:
    """Gambling 8: a line drawn under 8/15 plays the strong policy (folds ace-deuce to
    the shove), a line over it the novice (calls with his top pair)."""
    kinds = {}
    for line in (0.1, 0.9):
        game = river_shove("Ad 2c")
        game.npc_line = line
        kinds[line] = {game.npc_move(random.Random(seed), level=8).kind for seed in range(10)}
    assert kinds[0.1] == {"fold"}
    assert "call" in kinds[0.9]


def test_ranges_of_wild_and_sticky_players() -> None:
    """A wild player's range is every hand whatever he did; a sticky one's calls narrow
    nothing, his raises still do."""
    open_call = (Seen(1, 0, "raise", 300, 150, 250), Seen(0, 0, "call", 0, 400))
    assert ranges.range_of(1, open_call, (), WILD) == ranges.UNIFORM
    assert ranges.range_of(0, open_call, (), STICKY) == ranges.UNIFORM
    assert ranges.range_of(0, open_call, ()) != ranges.UNIFORM
    assert ranges.range_of(1, open_call, (), STICKY) == ranges.range_of(1, open_call, ())
