"""Deal many punto banco coups from live shoes and compare the outcomes with the exact odds.

    python bench/odds/baccarat_odds.py [--coups N] [--packs 8] [--seed HEX]

Each shoe is shuffled the way a table shuffles it (bondbot.rules.shoe, from a fresh seed
derived from the run's seed) and replaced once past the cut card, 6 cards from the end.
Each outcome's frequency must land within 4 standard errors of baccarat.md's figures;
the exit code is 1 otherwise. The run's seed is printed so a failure can be replayed.
Prints, for Banker, Player and Tie, the observed frequency, the exact one, its standard
error and how many SE apart they are; then coups/s overall and dealing alone (shuffling
time apart).
"""

from __future__ import annotations

import argparse
import hashlib
import math
import secrets
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run from a checkout

from bondbot.rules.baccarat import Bet, deal_coup, new_shoe

# baccarat.md, "Reference figures (exact, by enumeration)".
EXACT = {
    8: {Bet.BANKER: 0.458597, Bet.PLAYER: 0.446247, Bet.TIE: 0.095156},
    6: {Bet.BANKER: 0.458653, Bet.PLAYER: 0.446279, Bet.TIE: 0.095069},
}
CUT_FROM_END = 6
LIMIT_SE = 4.0


def simulate(coups: int, packs: int, seed: bytes) -> tuple[dict[Bet, int], int, float]:
    """Winner counts over `coups` coups, with the number of shoes used and time shuffling."""
    counts = dict.fromkeys(Bet, 0)
    shoes = 0
    shuffling = 0.0
    shoe = None
    for _ in range(coups):
        if shoe is None or shoe.past_cut:
            started = time.perf_counter()
            shoe_seed = hashlib.sha256(seed + shoes.to_bytes(8, "big")).digest()
            shoe = new_shoe(packs, shoe_seed, cut_from_end=CUT_FROM_END)
            shuffling += time.perf_counter() - started
            shoes += 1
        counts[deal_coup(shoe).winner] += 1
    return counts, shoes, shuffling


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--coups", type=int, default=1_000_000)
    parser.add_argument("--packs", type=int, choices=sorted(EXACT), default=8)
    parser.add_argument("--seed", help="the run's seed in hex (default: fresh randomness)")
    args = parser.parse_args(argv)
    if args.coups < 1:
        parser.error("--coups must be at least 1")
    seed = bytes.fromhex(args.seed) if args.seed else secrets.token_bytes(16)

    started = time.perf_counter()
    counts, shoes, shuffling = simulate(args.coups, args.packs, seed)
    elapsed = time.perf_counter() - started

    n = args.coups
    print(f"{n:,} coups, {args.packs} packs, {shoes:,} shoes, seed {seed.hex()}")
    print(f"{'outcome':<8}{'observed':>10}{'exact':>10}{'SE':>10}{'off (SE)':>10}")
    failed = False
    for bet in (Bet.BANKER, Bet.PLAYER, Bet.TIE):
        p = EXACT[args.packs][bet]
        observed = counts[bet] / n
        se = math.sqrt(p * (1 - p) / n)
        off = (observed - p) / se
        failed |= abs(off) > LIMIT_SE
        print(f"{bet.value:<8}{observed:>10.6f}{p:>10.6f}{se:>10.6f}{off:>+10.2f}")
    print(
        f"{n / elapsed:,.0f} coups/s overall ({elapsed:.1f} s, of which {shuffling:.1f} s "
        f"shuffling; {n / (elapsed - shuffling):,.0f} coups/s dealing alone)"
    )
    if failed:
        print(f"FAIL: an outcome is more than {LIMIT_SE:g} SE from the exact figure")
    else:
        print(f"PASS: every outcome within {LIMIT_SE:g} SE of the exact figure")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
