"""The hold'em NPC's automatic play heads-up against an always-call player and a random one.

    python bench/holdem_npc.py [--hands 10000] [--workers 2] [--seed 1]

Each hand is dealt from a fresh shuffled pack through the engine, both players starting
it with 100 big blinds (the button alternates). The always-call player checks when he can
and calls anything; the random player picks any legal move, an amount uniformly in its
bounds. Prints the NPC's result in big blinds per 100 hands with its standard error;
PASS when it beats both opponents by more than two standard errors.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from bondbot.games.contract import Move
from bondbot.games.holdem.engine import BlindLevel, Holdem, HoldemOptions
from bondbot.rules.shoe import Shoe

BIG = 100
STACK = 100 * BIG
PLAYS = {"fold", "check", "call", "bet", "raise", "all_in"}

Policy = Callable[[Holdem, str, random.Random], Move]


def always_call(game: Holdem, seat: str, rng: random.Random) -> Move:
    kinds = {o.kind for o in game.options() if o.seat == seat}
    if "check" in kinds:
        return Move(kind="check", seat=seat)
    return Move(kind="call", seat=seat, amount=game.to_call(seat))


def random_player(game: Holdem, seat: str, rng: random.Random) -> Move:
    options = [o for o in game.options() if o.seat == seat and o.kind in PLAYS]
    option = rng.choice(options)
    amount = None if option.min is None else rng.randint(option.min, option.max or option.min)
    return Move(kind=option.kind, seat=seat, amount=amount)


OPPONENTS: dict[str, Policy] = {"always-call": always_call, "random": random_player}


def play(job: tuple[str, int, int, bytes]) -> list[float]:
    """The NPC's result, in big blinds, of hands `first` to `last` (excluded)."""
    opponent, first, last, seed = job
    policy = OPPONENTS[opponent]
    game = Holdem(
        shoe=Shoe.stacked([]),
        seats=["npc", "villain"],
        npc="npc",
        rules=HoldemOptions(levels=(BlindLevel(small=BIG // 2, big=BIG),)),
    )
    npc_rng = random.Random(seed + b"npc" + first.to_bytes(8, "big"))
    their_rng = random.Random(seed + b"villain" + first.to_bytes(8, "big"))
    results = []
    for hand in range(first, last):
        game.stacks = {"npc": STACK, "villain": STACK}
        pack = hashlib.sha256(seed + hand.to_bytes(8, "big")).digest()
        game.replace_shoe(Shoe.shuffled(1, pack))
        move: Move | None = Move(kind="deal")
        net = 0
        while move is not None:
            record = game.apply(move)
            for transfer in record.transfers:
                net += transfer.amount * (
                    (transfer.dst == "seat:npc") - (transfer.src == "seat:npc")
                )
            move = game.automation()
            if move is None and game.in_hand():
                [seat] = game.turn()
                move = game.npc_move(npc_rng) if seat == "npc" else policy(game, seat, their_rng)
        results.append(net / BIG)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    seed = args.seed.to_bytes(8, "big")
    chunk = math.ceil(args.hands / args.workers)

    print(f"{args.hands:,} hands heads-up against each, 100 big blinds deep, seed {args.seed}")
    print(f"{'opponent':<14}{'bb/100':>10}{'SE':>9}{'SD/hand':>9}{'time':>8}")
    failed = False
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for opponent in OPPONENTS:
            started = time.perf_counter()
            jobs = [
                (opponent, first, min(first + chunk, args.hands), seed)
                for first in range(0, args.hands, chunk)
            ]
            results = [bb for part in pool.map(play, jobs) for bb in part]
            mean = statistics.fmean(results) * 100
            sd = statistics.stdev(results)
            se = sd / math.sqrt(len(results)) * 100
            failed |= mean - 2 * se <= 0
            elapsed = time.perf_counter() - started
            print(f"{opponent:<14}{mean:>+10.1f}{se:>9.1f}{sd:>9.1f}{elapsed:>7.0f}s")
    print("FAIL: the NPC does not beat both" if failed else "PASS: the NPC beats both (> 2 SE)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
