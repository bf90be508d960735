"""Count the category of every seven-card hand with the evaluator hold'em uses.

    python bench/odds/holdem_categories.py [--workers N] [--first-cards K] [--python]

All 133,784,560 hands (C(52, 7)), split by their lowest card over `--workers` processes;
each category's count must equal holdem.md's reference figure exactly (exit code 1
otherwise). `--first-cards K` counts only the hands whose lowest card is one of the first
K cards of the pack (a quick check of the script; the figures are then not compared).
`--python` counts with the pure-Python evaluator that stands in for eval7 where eval7 is
not installed (the default is the one hold'em uses here: eval7 when installed). The
evaluator is the one that names hold'em hands and that the NPC's Monte Carlo uses. About 3
to 5 minutes on one core (486,000 hands/s on a busy machine).
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from itertools import combinations
from math import comb
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run from a checkout

from bondbot.games.holdem import evaluator, names
from bondbot.games.holdem.names import CATEGORIES
from bondbot.rules.cards import Card

# holdem.md, "Reference figures".
EXPECTED = {
    "straight_flush": 41_584,
    "four_of_a_kind": 224_848,
    "full_house": 3_473_184,
    "flush": 4_047_644,
    "straight": 6_180_020,
    "three_of_a_kind": 6_461_620,
    "two_pair": 31_433_400,
    "pair": 58_627_800,
    "high_card": 23_294_460,
}
# The evaluator's cards and function (set by main before the workers fork).
PACK = names.eval7_cards(Card.ALL)
EVALUATE = names.evaluate


def count_from(first: int) -> list[int]:
    """Category counts of the hands whose lowest card (in pack order) is PACK[first]."""
    counts = [0] * len(CATEGORIES)
    evaluate = EVALUATE
    lead = [PACK[first]]
    for rest in combinations(PACK[first + 1 :], 6):
        counts[evaluate(lead + list(rest)) >> 24] += 1
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--first-cards", type=int, default=46, help="46: every hand")
    parser.add_argument("--python", action="store_true", help="the pure-Python evaluator")
    args = parser.parse_args(argv)
    global PACK, EVALUATE
    if args.python:
        PACK, EVALUATE = evaluator.cards(Card.ALL), evaluator.evaluate
    print(f"evaluator: {'python' if args.python else names.EVALUATOR}")
    if not 1 <= args.first_cards <= 46:
        parser.error("--first-cards must be 1 to 46")

    started = time.perf_counter()
    totals = [0] * len(CATEGORIES)
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for counts in pool.map(count_from, range(args.first_cards)):
            totals = [a + b for a, b in zip(totals, counts, strict=True)]
    elapsed = time.perf_counter() - started

    hands = sum(totals)
    complete = hands == comb(52, 7)
    print(f"{hands:,} seven-card hands in {elapsed:.0f} s ({hands / elapsed:,.0f} hands/s)")
    print(f"{'category':<18}{'counted':>14}{'holdem.md':>14}")
    failed = False
    for category, counted in reversed(list(zip(CATEGORIES, totals, strict=True))):
        expected = EXPECTED[category]
        failed |= complete and counted != expected
        print(f"{category:<18}{counted:>14,}{expected:>14,}")
    if not complete:
        print("PARTIAL: counts not compared (run without --first-cards for every hand)")
        return 0
    print("FAIL: a count differs from holdem.md" if failed else "PASS: every count is exact")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
