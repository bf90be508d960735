"""Michigan and Makao engines: rounds per second, and the Makao NPC's bidding against chance.

    python bench/npc/michigan_makao.py [--michigan-rounds N] [--makao-cycles N] [--players 4]
                                       [--seed HEX]

Michigan: rounds played through the engine (`apply`, `automation`), every lead the automatic
one (the NPC's and the timeout's), forced plays from `automation()`, on a fresh shuffled
pack per round; prints rounds/s overall and without shuffling, and moves/s. Makao: whole
cycles; the NPC bids with its automatic bid, every other seat bids uniformly at random from
0 to k, and every seat plays the automatic player's cards (win while short, shed once made),
so only the bids differ. Prints cycles/s and deals/s (the automatic decisions included), and
the exact-bid rates side by side, with standard errors; PASS when the NPC's beats the random
bidders' by more than 4 standard errors. Packs are shuffled from seeds derived from the
run's seed, which is printed so a run can be replayed. About 2.5 minutes of CPU, most of it
the 10,000 Makao cycles.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import random
import secrets
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run from a checkout

from bondbot.games.contract import Move
from bondbot.games.makao.engine import Makao
from bondbot.games.michigan.engine import Michigan
from bondbot.rules.shoe import Shoe

LIMIT_SE = 4.0


class Packs:
    """Fresh packs from seeds derived from the run's seed; times the shuffling apart."""

    def __init__(self, seed: bytes, label: bytes) -> None:
        self.seed = seed + label
        self.count = 0
        self.seconds = 0.0

    def next(self) -> Shoe:
        started = time.perf_counter()
        shoe = Shoe.shuffled(1, hashlib.sha256(self.seed + self.count.to_bytes(8, "big")).digest())
        self.count += 1
        self.seconds += time.perf_counter() - started
        return shoe


def michigan(rounds: int, players: int, seed: bytes) -> tuple[float, float, int]:
    """Seconds in all, seconds shuffling, moves applied."""
    seats = [*(f"pc{i}" for i in range(players - 1)), "npc"]
    packs = Packs(seed, b"michigan")
    started = time.perf_counter()
    game = Michigan(shoe=packs.next(), seats=seats, npc="npc")
    moves = 0
    for _ in range(rounds):
        game.stacks = dict.fromkeys(seats, None)  # unlimited: the game never ends
        if game.needs_new_shoe:
            game.replace_shoe(packs.next())
        game.apply(Move(kind="deal"))
        moves += 1
        while game.phase in ("lead", "run"):
            move = game.automation() or game.timeout_move(game.turn()[0])
            assert move is not None
            game.apply(move)
            moves += 1
    return time.perf_counter() - started, packs.seconds, moves


def makao(cycles: int, players: int, seed: bytes) -> tuple[float, float, int, dict[str, list[int]]]:
    """Seconds in all, seconds shuffling, deals, and [exact bids, bids] for npc / random."""
    seats = [*(f"pc{i}" for i in range(players - 1)), "npc"]
    packs = Packs(seed, b"makao")
    chance = random.Random(seed)
    exact = {"npc": [0, 0], "random": [0, 0]}
    deals = 0
    started = time.perf_counter()
    for _ in range(cycles):
        game = Makao(shoe=packs.next(), seats=seats, npc="npc")
        while game.phase == "idle":
            if game.needs_new_shoe:
                game.replace_shoe(packs.next())
            game.apply(Move(kind="deal"))
            deal = game.deals[-1]
            while turn := game.turn():
                (seat,) = turn
                if game.phase == "bidding" and seat != "npc":
                    move = Move(kind="bid", seat=seat, amount=chance.randint(0, deal.number))
                else:
                    move = game.auto_move(seat)
                    assert move is not None
                game.apply(move)
            deals += 1
            for seat in deal.players:
                tally = exact["npc" if seat == "npc" else "random"]
                tally[0] += deal.made(seat)
                tally[1] += 1
    return time.perf_counter() - started, packs.seconds, deals, exact


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--michigan-rounds", type=int, default=20_000)
    parser.add_argument("--makao-cycles", type=int, default=10_000)
    parser.add_argument("--players", type=int, choices=range(3, 9), default=4)
    parser.add_argument("--seed", help="the run's seed in hex (default: fresh randomness)")
    args = parser.parse_args(argv)
    if args.michigan_rounds < 1 or args.makao_cycles < 1:
        parser.error("--michigan-rounds and --makao-cycles must be at least 1")
    seed = bytes.fromhex(args.seed) if args.seed else secrets.token_bytes(16)
    print(f"seed {seed.hex()}, {args.players} players (the NPC among them)")

    elapsed, shuffling, moves = michigan(args.michigan_rounds, args.players, seed)
    rounds = args.michigan_rounds
    print(
        f"Michigan: {rounds:,} rounds, {moves:,} moves in {elapsed:.1f} s: "
        f"{rounds / elapsed:,.0f} rounds/s overall, "
        f"{rounds / (elapsed - shuffling):,.0f} rounds/s without shuffling "
        f"({moves / (elapsed - shuffling):,.0f} moves/s)"
    )

    elapsed, shuffling, deals, exact = makao(args.makao_cycles, args.players, seed)
    cycles = args.makao_cycles
    print(
        f"Makao: {cycles:,} cycles, {deals:,} deals in {elapsed:.1f} s: "
        f"{cycles / elapsed:,.1f} cycles/s, {deals / (elapsed - shuffling):,.0f} deals/s "
        f"without shuffling (automatic play's decisions included)"
    )
    rates = {}
    print(f"{'bidder':<8}{'exact bids':>14}{'rate':>9}{'SE':>8}")
    for who, (made, total) in exact.items():
        rate = made / total
        rates[who] = (rate, math.sqrt(rate * (1 - rate) / total))
        print(f"{who:<8}{f'{made:,}/{total:,}':>14}{rate:>9.4f}{rates[who][1]:>8.4f}")
    gap = rates["npc"][0] - rates["random"][0]
    se = math.hypot(rates["npc"][1], rates["random"][1])
    if gap > LIMIT_SE * se:
        print(f"PASS: the NPC's exact-bid rate beats random bids by {gap:.4f} ({gap / se:.0f} SE)")
        return 0
    print(f"FAIL: the NPC's exact-bid rate is not {LIMIT_SE:g} SE above random bids ({gap:+.4f})")
    return 1


if __name__ == "__main__":
    sys.exit(main())
