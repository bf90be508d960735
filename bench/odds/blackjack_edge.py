"""House edge of basic strategy under the default blackjack rules, by simulation.

It drives the real engine (`Blackjack`) with the real chart (`basic_strategy`): one
player, flat one-unit bets, never insuring, 6-pack shoes shuffled by the live recipe and
replaced at the cut card. The edge (expected loss per initial unit) must overlap the
published 0.30%–0.40% within 3 standard errors; exit status 1 otherwise. The rounds are
split over `--workers` processes. Prints the seed, the rounds played, the house edge with
its SE and the SD per round, the edge ± 3 SE against the published range, and rounds/s.

    python bench/odds/blackjack_edge.py [--rounds N] [--workers K] [--seed HEX]
"""

from __future__ import annotations

import argparse
import hashlib
import math
import multiprocessing
import os
import secrets
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bondbot.rules.blackjack import Blackjack, BlackjackRules
from bondbot.rules.blackjack_strategy import basic_strategy
from bondbot.rules.shoe import Shoe

BAND = (0.0030, 0.0040)
UNIT = 100  # one unit in cents: blackjack's 3:2 and surrender's half are exact
CHUNK = 50_000  # rounds per task: each task has its own seed
SEAT = "player"


def play(seed: bytes, rounds: int) -> tuple[int, int, int]:
    """Play `rounds` rounds from shoes derived from `seed`: (rounds, sum, sum of squares)."""
    rules = BlackjackRules()
    shoes = 0

    def fresh_shoe() -> Shoe:
        nonlocal shoes
        shoes += 1
        shoe_seed = hashlib.sha256(seed + shoes.to_bytes(8, "big")).digest()
        return Shoe.shuffled(rules.packs, shoe_seed, rules.penetration)

    game = Blackjack(fresh_shoe(), rules)
    total = squares = 0
    for _ in range(rounds):
        if game.needs_shuffle:
            game.replace_shoe(fresh_shoe())
        game.place_bet(SEAT, UNIT)
        game.start_round()
        if game.insurance_open:
            game.insure(SEAT, False)
        up = game.dealer_up
        assert up is not None
        while (turn := game.current()) is not None:
            cards = game.hands(SEAT)[turn[1]].cards
            game.act(SEAT, basic_strategy(cards, up, game.legal_actions(SEAT)))
        net = game.seat_net(SEAT)
        total += net
        squares += net * net
        game.next_round()
    return rounds, total, squares


def _task(args: tuple[bytes, int]) -> tuple[int, int, int]:
    return play(*args)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10_000_000)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", help="hex seed, for a reproducible run (default: random)")
    args = parser.parse_args(argv)
    base = bytes.fromhex(args.seed) if args.seed else secrets.token_bytes(16)
    tasks = []
    for index, start in enumerate(range(0, args.rounds, CHUNK)):
        task_seed = hashlib.sha256(base + index.to_bytes(8, "big")).digest()
        tasks.append((task_seed, min(CHUNK, args.rounds - start)))

    began = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        parts = pool.map(_task, tasks, chunksize=1)
    elapsed = time.perf_counter() - began

    rounds = sum(p[0] for p in parts)
    mean = sum(p[1] for p in parts) / rounds / UNIT
    mean_sq = sum(p[2] for p in parts) / rounds / UNIT**2
    sd = math.sqrt(max(mean_sq - mean * mean, 0.0))
    edge, se = -mean, sd / math.sqrt(rounds)
    low, high = edge - 3 * se, edge + 3 * se
    ok = low <= BAND[1] and high >= BAND[0]
    print(f"seed          {base.hex()}")
    print(f"rounds        {rounds:,}")
    print(f"house edge    {edge:.4%}  (SE {se:.4%}, SD per round {sd:.4f} units)")
    print(
        f"edge ± 3 SE   {low:.4%} … {high:.4%}  vs reference {BAND[0]:.2%}–{BAND[1]:.2%}: "
        f"{'PASS' if ok else 'FAIL'}"
    )
    print(
        f"speed         {rounds / elapsed:,.0f} rounds/s ({args.workers} workers, {elapsed:.1f} s)"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
