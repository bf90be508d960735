"""Hold'em through the engine: hands per second, and how long the NPC takes to decide.

    python bench/npc/holdem_speed.py [--hands 2000] [--decisions 3000] [--seed 1]
                                     [--levels 15] [--npc-only]

Hands/s: six seats, 100 big blinds each at every deal, a fresh shuffled pack per hand,
every move through `Holdem.apply` (its legality check included); once with players who
check and call down to the showdown (the longest hands), once with players who pick any
legal move at random; each
again with the state saved to JSON and loaded back after every move, as the table does
(the load rebuilds pokerkit's state from the hand's actions).
NPC: its decisions (`npc_move`) at tables of 2, 6 and 10 seats against players who call,
at each Gambling level of `--levels`, its notes on the players carried from hand to hand
as at a table (after a few hands it reads them sticky); p50, p99 and the longest on
the clock, and p50 and p99 of the thread's CPU time (what the decision itself costs, on a
machine others share), against the target of a decision well under 50 ms (PASS when p99
is under 50 ms). `--npc-only` skips the hands per second.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run from a checkout

from bondbot.games.contract import Move
from bondbot.games.holdem.engine import BlindLevel, Holdem, HoldemOptions
from bondbot.rules.shoe import Shoe

BIG = 100
STACK = 100 * BIG
TARGET_MS = 50.0
PLAYS = {"fold", "check", "call", "bet", "raise", "all_in"}

Policy = Callable[[Holdem, str, random.Random], Move]


def calls(game: Holdem, seat: str, rng: random.Random) -> Move:
    kinds = {o.kind for o in game.options() if o.seat == seat}
    if "check" in kinds:
        return Move(kind="check", seat=seat)
    return Move(kind="call", seat=seat, amount=game.to_call(seat))


def anything(game: Holdem, seat: str, rng: random.Random) -> Move:
    options = [o for o in game.options() if o.seat == seat and o.kind in PLAYS]
    option = rng.choice(options)
    amount = None if option.min is None else rng.randint(option.min, option.max or option.min)
    return Move(kind=option.kind, seat=seat, amount=amount)


def pack_seed(seed: bytes, hand: int) -> bytes:
    return hashlib.sha256(seed + hand.to_bytes(8, "big")).digest()


def new_table(seats: int, npc: bool = False) -> Holdem:
    names = [f"p{n}" for n in range(seats - 1)] + ["npc" if npc else f"p{seats - 1}"]
    return Holdem(
        shoe=Shoe.stacked([]),
        seats=names,
        npc="npc" if npc else None,
        stacks=dict.fromkeys(names, STACK),
        rules=HoldemOptions(levels=(BlindLevel(small=BIG // 2, big=BIG),)),
        chip=1,  # the amounts are chips
    )


def play(game: Holdem, policy: Policy, rng: random.Random, seed: bytes, save: bool) -> Holdem:
    """One hand from a fresh pack; returns the game (a new object when saved and loaded)."""
    game.stacks = dict.fromkeys(game.seats, STACK)
    game.replace_shoe(Shoe.shuffled(1, seed))
    move: Move | None = Move(kind="deal")
    while move is not None:
        game.apply(move)
        if save:
            game = Holdem.model_validate_json(game.model_dump_json())
        move = game.automation()
        if move is None and game.in_hand():
            [seat] = game.turn()
            move = policy(game, seat, rng)
    return game


def hands_per_second(hands: int, policy: Policy, seed: bytes, save: bool) -> tuple[float, float]:
    game = new_table(6)
    rng = random.Random(seed)
    moves = 0
    started = time.perf_counter()
    for hand in range(hands):
        game = play(game, policy, rng, pack_seed(seed, hand), save)
        moves += len(game.history)
    elapsed = time.perf_counter() - started
    return hands / elapsed, moves / elapsed


def npc_times(decisions: int, seed: bytes, level: int = 15) -> tuple[list[float], list[float]]:
    """Seconds per NPC decision over `decisions` decisions at 2, 6 and 10 seats: on the
    clock, and of the thread's CPU (what a busy machine's other processes do not add)."""
    times: list[float] = []
    cpu: list[float] = []
    rng = random.Random(seed)
    hand = 0
    notes: dict[str, list[str]] = {}
    while len(times) < decisions:
        game = new_table((2, 6, 10)[hand % 3], npc=True)
        game.notes = {seat: kept for seat, kept in notes.items() if seat in game.seats}
        game.stacks = dict.fromkeys(game.seats, STACK)
        game.replace_shoe(Shoe.shuffled(1, pack_seed(seed, hand)))
        hand += 1
        move: Move | None = Move(kind="deal")
        while move is not None:
            game.apply(move)
            move = game.automation()
            if move is None and game.in_hand():
                [seat] = game.turn()
                if seat == "npc":
                    started, used = time.perf_counter(), time.thread_time()
                    move = game.npc_move(rng, level=level)
                    times.append(time.perf_counter() - started)
                    cpu.append(time.thread_time() - used)
                else:
                    move = calls(game, seat, rng)
        notes.update(game.notes)
    return times[:decisions], cpu[:decisions]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--decisions", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", default="15", help="Gambling levels, comma-separated")
    parser.add_argument("--npc-only", action="store_true")
    args = parser.parse_args(argv)
    seed = args.seed.to_bytes(8, "big")

    if not args.npc_only:
        print(f"{'players':<22}{'saved':>7}{'hands/s':>10}{'moves/s':>10}")
        for name, policy in (("check and call down", calls), ("random legal moves", anything)):
            for save in (False, True):
                hands, moves = hands_per_second(args.hands, policy, seed, save)
                print(f"{name:<22}{'yes' if save else 'no':>7}{hands:>10,.0f}{moves:>10,.0f}")

    passed = True
    for level in (int(level) for level in args.levels.split(",")):
        times, cpu = (sorted(figures) for figures in npc_times(args.decisions, seed, level))
        p50 = statistics.median(times) * 1000
        p99 = times[int(0.99 * (len(times) - 1))] * 1000
        longest = times[-1] * 1000
        print(f"NPC level {level}: {len(times):,} decisions, p50 {p50:.2f} ms, ", end="")
        print(f"p99 {p99:.2f} ms, max {longest:.2f} ms; ", end="")
        cpu_p99 = cpu[int(0.99 * (len(cpu) - 1))] * 1000
        print(f"CPU p50 {statistics.median(cpu) * 1000:.2f} ms, p99 {cpu_p99:.2f} ms")
        passed &= p99 < TARGET_MS
    print(f"{'PASS' if passed else 'FAIL'}: p99 {'under' if passed else 'over'} {TARGET_MS:g} ms")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
