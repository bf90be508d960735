"""Recomputes `ranges.PREFLOP`, the pre-flop equity of each hand class against one random hand.

    python bench/odds/holdem_preflop.py [--deals 30000] [--seed 2026]

For each of the 169 classes (pairs, suited, offsuit), `--deals` random deals of the other
hand and the board, evaluated with `names.evaluate`; prints the 13×13 table in the layout
`ranges.PREFLOP` ships (per mille, rows and columns A to 2, suited above the diagonal) and
the largest difference from the shipped table. The shipped table: 30,000 deals a class,
seed 2026, about 15 s on one core; the largest difference is 0 with the defaults (the
table was made so).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run from a checkout

from bondbot.games.holdem.names import eval7_cards, evaluate
from bondbot.games.holdem.ranges import ORDER, PREFLOP
from bondbot.rules.cards import Card


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=30_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    shipped = [[int(v) for v in row.split()] for row in PREFLOP.strip().splitlines()]
    worst = 0
    for row, high in enumerate(ORDER):
        values = []
        for column, other in enumerate(ORDER):
            if row == column:
                hole = [Card(high, "s"), Card(other, "h")]
            elif row < column:  # suited: the row's rank high
                hole = [Card(high, "s"), Card(other, "s")]
            else:  # offsuit: the column's rank high
                hole = [Card(other, "s"), Card(high, "h")]
            deck = eval7_cards(card for card in Card.ALL if card not in hole)
            mine = eval7_cards(hole)
            won = 0.0
            for _ in range(args.deals):
                draw = rng.sample(deck, 7)
                board = draw[2:]
                value, theirs = evaluate(mine + board), evaluate(draw[:2] + board)
                won += 1.0 if value > theirs else 0.5 if value == theirs else 0.0
            values.append(round(won / args.deals * 1000))
            worst = max(worst, abs(values[-1] - shipped[row][column]))
        print(" ".join(f"{value:3d}" for value in values), flush=True)
    print(f"largest difference from the shipped table: {worst} per mille")
    return 0


if __name__ == "__main__":
    sys.exit(main())
