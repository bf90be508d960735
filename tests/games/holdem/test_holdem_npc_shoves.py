"""The NPC facing a 100-big-blind shove after it opened (issue 29, item 4): without notes a
shove is a shover's hand, so level 15 calls only what beats one; notes of wild shoves
(shown at showdown, or too many to be all strong) widen it; the levels keep their order."""

from __future__ import annotations

import random
from functools import cache

from holdem_helpers import act, deal, table

from bondbot.games.holdem import ranges
from bondbot.rules.cards import Card, parse_cards

ORDER = ranges.ORDER
BLINDS = ((50, 100),)
STACK = 10_000  # 100 big blinds
OPEN, CALL = 250, STACK - 250
PRICE = CALL / (STACK + 100 + CALL)  # 9,750 to call into 10,350: 48.5% of the pot
TIGHT = frozenset({"AA", "KK", "QQ", "JJ", "TT", "99", "AK"})  # the shover
SPARE = ("2c", "3d", "4c", "5d", "7h", "8d", "9c", "Td", "Jc")  # Bond's cards, the board
MARGIN = 0.02  # the Monte Carlo error of the reference equities (4,000 deals: ±0.016)


def hand_types() -> list[tuple[str, str]]:
    """The 169 starting hands: a name (K2o) and two cards of that type."""
    types = []
    for row in range(13):
        for column in range(13):
            high, low = sorted((ORDER[row], ORDER[column]), key=ORDER.index)
            suited = row < column
            kind = "" if row == column else "s" if suited else "o"
            types.append((high + low + kind, f"{high}s {low}{'s' if suited else 'h'}"))
    return types


def facing_shove(hole: str, notes: tuple[str, ...] = (), level: int = 15, seed: int = 1) -> str:
    """Heads-up, blinds 50/100, 100 big blinds each: the NPC on the button raises to 250,
    Bond (whose notes are `notes`) moves all-in; the NPC's answer."""
    game = table({"npc": STACK, "bond": STACK}, npc="npc", blinds=BLINDS)
    game.notes = {"bond": list(notes)}
    spare = [card for card in SPARE if card not in hole.split()]
    deal(game, [" ".join(spare[:2]), hole], " ".join(spare[2:7]))
    act(game, "npc", "raise", OPEN)
    act(game, "bond", "all_in")
    assert game.to_call("npc") == CALL
    move = game.npc_move(random.Random(seed), level=level)
    assert move is not None
    return "call" if move.kind in ("call", "all_in") else move.kind


def calls(notes: tuple[str, ...] = ()) -> set[str]:
    return {name for name, hole in hand_types() if facing_shove(hole, notes) == "call"}


@cache
def tight_equity(name: str) -> float:
    """The hand's equity against a player who shoves only nines or better and ace-king."""
    hole = dict(hand_types())[name]
    weights = [1.0 if _ranks(a, b) in TIGHT else 0.0 for a, b in ranges.COMBOS]
    return ranges.equity(parse_cards(hole), (), [weights], 4000, random.Random(name))


def _ranks(a: int, b: int) -> str:
    return "".join(sorted((Card.ALL[a].rank, Card.ALL[b].rank), key=ORDER.index))


def test_without_notes_level_15_calls_a_shove_only_with_what_beats_a_shovers_range() -> None:
    """Today's NPC read the shove as a weak player's and called with 81 types (K2o, Q6o,
    97s...). A shover holds nines or better and ace-king: only what has the price against
    that calls (aces and kings surely)."""
    called = calls()
    assert {"AA", "KK"} <= called
    short = {name: round(tight_equity(name), 3) for name in called}
    assert all(share >= PRICE - MARGIN for share in short.values()), short
    assert "K2o" not in called


def test_notes_of_wild_shoves_widen_his_range() -> None:
    """After he showed a wild hand behind a shove (or shoved in four of his last eight
    hands), his shoves are any hand: queen-six has 52% against random hands and calls;
    three shoves, one of them shown strong, leave him a shover."""
    tight = calls()
    for notes in (("wcx",), ("w", "", "w", "w", "w")):
        wide = calls(notes)
        assert tight < wide and {"Q6o", "K5o", "97s"} <= wide
        assert len(wide) > 3 * len(tight)
    assert calls(("wcs", "w", "w")) == tight


def showdown_note(bond: str) -> list[str]:
    """The NPC (aces) calls Bond's shove over its open; his cards are turned up."""
    game = table({"npc": STACK, "bond": STACK}, npc="npc", blinds=BLINDS)
    deal(game, [bond, "Ad Ac"], "2h 8h 9d Td Qd")
    act(game, "npc", "raise", OPEN)
    act(game, "bond", "all_in")
    act(game, "npc", "call")
    assert not game.in_hand()
    return game.notes["bond"]


def test_a_shove_shown_at_showdown_is_noted_wild_or_strong() -> None:
    """Shown after a shove: seven-deuce is a wild hand, kings a strong one; one wild
    hand shown makes him wild, as many strong ones shown keep him a shover."""
    assert showdown_note("7c 2s") == ["wcx"]
    assert showdown_note("Kc Ks") == ["wcs"]
    assert ranges.read_of(["wcx"]) == ranges.WILD
    assert ranges.read_of(["wcx", "wcs"]) == ranges.WILD
    assert ranges.read_of(["wx", "ws", "ws"]) == ""


def test_the_levels_keep_their_order_against_a_shover() -> None:
    """Against the shover of nines or better and ace-king, every level's calls of the
    shove over the 169 types (each weighed by its combinations, four hands each, a
    level between drawing its player each hand): the expected chips rise with the level,
    and level 15 loses nothing to him (it folds what loses)."""
    expected = {}
    for level in (0, 5, 10, 15):
        total = 0.0
        for number, (name, hole) in enumerate(hand_types()):
            combos = 6 if len(name) == 2 else 4 if name.endswith("s") else 12
            for seed in range(4 * number, 4 * number + 4):
                if facing_shove(hole, level=level, seed=seed) == "call":
                    share = tight_equity(name)
                    total += combos * (share * (STACK * 2 + 100) - CALL) / 4
        expected[level] = total / 1326
    assert expected[0] < expected[5] < expected[10] < expected[15], expected
    assert expected[15] >= 0
