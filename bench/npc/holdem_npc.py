"""The hold'em NPC at Gambling 0, 5, 10 and 15 (and today's policy) against five baselines.

    python bench/npc/holdem_npc.py [--scale 1] [--workers 1] [--seed 1] [--only tag]
                                   [--npcs 0,5,10,15,today] [--seats 2,4]

Heads-up and at a 4-seat table (the NPC and three copies of the baseline), every hand
through the engine, everyone 100 big blinds deep at every hand. Duplicate deals: each
shuffled pack is played once with the NPC in each seat (2 or 4 times), the cards going to
the same seats each time, so the NPC holds every hand of the deal once and luck mostly
cancels; the players' generators are seeded alike for every NPC, so the levels meet the
same choices as long as their hands run alike. The deals run in sequences of 100 (the
jobs the workers share: the figures do not depend on `--workers`), the NPC's notes on the
baselines (`Holdem.notes`, public actions only) carried from hand to hand within one as at
a table, so after a few hands it reads them (wild, sticky, tight). The baselines:
- station: checks when he can, calls anything;
- random: any legal move, an amount uniform in the option's bounds;
- tag: tight-aggressive rules: opens the top 50% heads-up (40%, 30%, 20% with 1, 2, 3
  players behind), re-raises the top 5%, calls a raise with the top 15% (6% when it costs
  a tenth of his chips), the top 4% against a re-raise; after the flop bets two thirds of
  the pot with 1.3 fair shares of equity against random hands, raises with 1.7, calls
  with the pot odds plus 10% and at least his fair share;
- shover: moves all-in with nines or better and ace-king whenever he acts before the
  flop, else checks when he can and folds (after the flop too);
- overbet: the TAG, but his strong hands overbet: before the flop the top 10% raise by
  five times the pot, after it 1.5 fair shares of equity bet (or raise) three times the
  pot; the rest he plays as the TAG.
"today" is the policy before the Gambling levels (equity against random hands), kept
here for comparison. Prints the NPC's big blinds per 100 hands with a 95% interval (1.96
standard errors of the per-deal means), and the p50 and p99 of its decision times (CPU).
`DEALS` sets how many deals each pairing plays (`--scale` multiplies them; today's
policy plays the same deals). After each table and baseline, "paired by deal": each level
minus the one below it, and level 15 minus today's policy, deal by deal with a 95%
interval (the same deals and generators: much of the luck cancels). DEALS gives more
deals against the random player, whose all-ins make the widest results; the notes come
from public actions and the cards shown at showdown. PASS lines: bb/100 rises with the
level against each baseline at each size; level 15 beats the TAG player, the shover and
the overbettor, and level 0 loses to the TAG, intervals excluding 0. A full run takes
about 15 minutes with `--workers 2` on a loaded 2-core machine (`--workers` changes the
clock's time, not the figures); `--scale 0.3` for a quicker look, `--only shover,overbet
--npcs 0,5,10,15` for two baselines.
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
from itertools import pairwise
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run from a checkout

from bondbot.games.contract import Move
from bondbot.games.holdem import npc, ranges
from bondbot.games.holdem.engine import BlindLevel, Holdem, HoldemOptions
from bondbot.games.holdem.npc import Situation
from bondbot.rules.shoe import Shoe

BIG = 100
STACK = 100 * BIG
PLAYS = {"fold", "check", "call", "bet", "raise", "all_in"}
NPCS = ("0", "5", "10", "15", "today")

Policy = Callable[[Holdem, str, random.Random], Move]


def station(game: Holdem, seat: str, rng: random.Random) -> Move:
    kinds = {o.kind for o in game.options() if o.seat == seat}
    if "check" in kinds:
        return Move(kind="check", seat=seat)
    return Move(kind="call", seat=seat, amount=game.to_call(seat))


def random_player(game: Holdem, seat: str, rng: random.Random) -> Move:
    options = [o for o in game.options() if o.seat == seat and o.kind in PLAYS]
    option = rng.choice(options)
    amount = None if option.min is None else rng.randint(option.min, option.max or option.min)
    return Move(kind=option.kind, seat=seat, amount=amount)


def tag(game: Holdem, seat: str, rng: random.Random) -> Move:
    """Tight-aggressive rules (the module's docstring)."""
    spot = game._situation(seat)
    big, facing = spot.big, spot.bet + spot.to_call
    if not spot.board:
        pct = ranges.percentile(spot.hole)
        raises = sum(s.kind == "raise" for s in spot.history if s.street == 0)
        if raises == 0:
            if spot.to_call == 0:
                return _to(spot, 4 * big) if pct <= 0.08 else npc._pick(spot, "check")
            if spot.players == 2:
                width = 0.5
            else:
                order = npc._preflop_order(spot.players)
                width = {1: 0.4, 2: 0.3}.get(spot.players - 1 - order.index(spot.me), 0.2)
            return _to(spot, 3 * big) if pct <= width else npc._pick(spot, "fold")
        if raises == 1 and pct <= 0.05:
            return _to(spot, 3 * facing)
        calls = 0.04 if raises > 1 else 0.06 if spot.to_call > spot.chips / 10 else 0.15
        return npc._pick(spot, "call" if pct <= calls else "fold")
    share = npc.equity(spot.hole, spot.board, spot.opponents, 300, rng)
    strength = share * (spot.opponents + 1)
    if spot.to_call == 0:
        return npc._bet(spot, spot.pot * 2 // 3) if strength >= 1.3 else npc._pick(spot, "check")
    if strength >= 1.7:
        return _to(spot, 3 * facing)
    odds = spot.to_call / (spot.pot + spot.to_call)
    return npc._pick(spot, "call" if share >= odds + 0.1 and strength >= 1 else "fold")


SHOVES = frozenset({"AA", "KK", "QQ", "JJ", "TT", "99", "AK"})


def shover(game: Holdem, seat: str, rng: random.Random) -> Move:
    """All-in with nines or better and ace-king before the flop, else check or fold."""
    spot = game._situation(seat)
    ranks = "".join(sorted((card.rank for card in spot.hole), key=ranges.ORDER.index))
    if not spot.board and ranks in SHOVES:
        return npc._pick(spot, "all_in")
    return npc._pick(spot, "check" if spot.to_call == 0 else "fold")


def overbettor(game: Holdem, seat: str, rng: random.Random) -> Move:
    """The TAG whose strong hands overbet (the module's docstring)."""
    spot = game._situation(seat)
    if not spot.board:
        if ranges.percentile(spot.hole) <= 0.10:
            return npc._bet(spot, spot.to_call + 5 * (spot.pot + spot.to_call))
        return tag(game, seat, rng)
    share = npc.equity(spot.hole, spot.board, spot.opponents, 300, rng)
    if share * (spot.opponents + 1) >= 1.5:
        return npc._bet(spot, spot.to_call + 3 * (spot.pot + spot.to_call))
    return tag(game, seat, rng)


def _to(spot: Situation, target: int) -> Move:
    return npc._raise_to(spot, target)


def today(spot: Situation, rng: random.Random) -> Move:
    """The NPC's policy before the Gambling levels (commit 2fd42c9), verbatim in effect."""
    trials = max(100, 2400 // (spot.opponents + 1))
    share = npc.equity(spot.hole, spot.board, spot.opponents, trials, rng)
    strength = share * (spot.opponents + 1)
    pot = spot.pot
    if spot.to_call == 0:
        if strength >= 2.0:
            return npc._bet(spot, pot)
        if strength >= 1.3:
            return npc._bet(spot, pot * 2 // 3)
        if rng.random() < (0.06 if spot.in_position else 0.02):
            return npc._bet(spot, pot // 2)
        return npc._pick(spot, "check")
    if strength >= 1.6:
        return npc._bet(spot, spot.to_call + (pot + spot.to_call) // 2)
    odds = spot.to_call / (pot + spot.to_call)
    if share + (0.03 if spot.in_position else 0.0) >= odds:
        return npc._pick(spot, "call")
    if rng.random() < 0.01:
        return npc._bet(spot, spot.to_call + pot)
    return npc._pick(spot, "fold")


BASELINES: dict[str, Policy] = {
    "station": station,
    "random": random_player,
    "tag": tag,
    "shover": shover,
    "overbet": overbettor,
}


def hand(
    seats: int,
    position: int,
    baseline: Policy,
    who: str,
    pack: bytes,
    seed: bytes,
    notes: dict[str, list[str]],
) -> tuple[float, list[float]]:
    """The NPC's result in big blinds with the NPC `position`-th in the order of play,
    and its decision times (ms of CPU: other processes on a busy machine not counted).
    `notes`: the NPC's notes on the baselines from the hands before, updated in place."""
    order = [f"b{n}" for n in range(seats - 1)]
    order.insert(position, "npc")
    game = Holdem(
        shoe=Shoe.shuffled(1, pack),
        seats=[order[-1], *order[:-1]],  # the button first: the first hand's button
        npc="npc",
        stacks=dict.fromkeys(order, STACK),
        rules=HoldemOptions(levels=(BlindLevel(small=BIG // 2, big=BIG),)),
        chip=1,  # the amounts are chips
        notes=notes,
    )
    npc_rng = random.Random(seed + b"npc")
    their_rng = random.Random(seed + b"them")
    move: Move | None = Move(kind="deal")
    net, times = 0, []
    while move is not None:
        record = game.apply(move)
        for transfer in record.transfers:
            net += transfer.amount * ((transfer.dst == "seat:npc") - (transfer.src == "seat:npc"))
        move = game.automation()
        if move is None and game.in_hand():
            [seat] = game.turn()
            if seat != "npc":
                move = baseline(game, seat, their_rng)
            else:
                started = time.thread_time()
                if who == "today":
                    move = today(game._situation("npc"), npc_rng)
                else:
                    move = game.npc_move(npc_rng, level=int(who))
                times.append((time.thread_time() - started) * 1000)
    notes.update(game.notes)
    return net / BIG, times


def play(job: tuple[int, str, str, int, int, bytes]) -> tuple[list[float], list[float]]:
    """Per deal, the NPC's mean result over its seats; and its decision times."""
    seats, baseline, who, first, last, seed = job
    means, times = [], []
    notes: dict[str, list[str]] = {}  # across the job's hands, as at a table
    for deal in range(first, last):
        pack = hashlib.sha256(seed + bytes([seats]) + deal.to_bytes(8, "big")).digest()
        results = []
        for position in range(seats):
            # The same generators whoever the NPC is: the baseline's choices stay alike
            # across levels as long as the hands do (common random numbers).
            rngs = pack + baseline.encode() + bytes([position])
            result, spent = hand(seats, position, BASELINES[baseline], who, pack, rngs, notes)
            results.append(result)
            times += spent
        means.append(statistics.fmean(results))
    return means, times


# Duplicate deals per table size and baseline: the random player's all-ins make his
# results the widest, the station's and the TAG's hands are the slowest to play.
DEALS = {
    2: {"station": 200, "random": 3000, "tag": 1500, "shover": 1500, "overbet": 1500},
    4: {"station": 250, "random": 2000, "tag": 800, "shover": 800, "overbet": 800},
}
SEQUENCE = 100  # deals per job, played in one sequence (the notes carried), any workers
TODAY_SHARE = 1.0  # the share of the deals today's policy plays (the first ones)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="times the default deals")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default="", help="baselines, comma-separated")
    parser.add_argument("--npcs", default=",".join(NPCS))
    parser.add_argument("--seats", default="2,4")
    args = parser.parse_args(argv)
    seed = args.seed.to_bytes(8, "big")
    baselines = args.only.split(",") if args.only else list(BASELINES)
    whos = args.npcs.split(",")

    print(f"duplicate deals, 100 big blinds deep, seed {args.seed}, scale {args.scale:g}")
    print(
        f"{'table':<10}{'baseline':<9}{'NPC':<10}{'hands':>6}{'bb/100':>9}{'95% interval':>19}"
        f"{'CPU p50':>8}{'p99 ms':>8}{'time':>6}"
    )
    every: list[float] = []
    found: dict[tuple[int, str, str], tuple[float, float]] = {}  # mean, half interval
    per_deal: dict[str, list[float]] = {}  # the NPC's result on each deal, by NPC
    started_all = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for seats in (int(seats) for seats in args.seats.split(",")):
            for baseline in baselines:
                per_deal.clear()
                for who in whos:
                    count = max(2, round(DEALS[seats][baseline] * args.scale))
                    if who == "today":
                        count = max(2, round(count * TODAY_SHARE))
                    started = time.perf_counter()
                    chunk = SEQUENCE
                    jobs = [
                        (seats, baseline, who, first, min(first + chunk, count), seed)
                        for first in range(0, count, chunk)
                    ]
                    means, times = [], []
                    for part, spent in pool.map(play, jobs):
                        means += part
                        times += spent
                    every += times
                    per_deal[who] = means
                    mean = statistics.fmean(means) * 100
                    half = 1.96 * statistics.stdev(means) / math.sqrt(len(means)) * 100
                    quantiles = statistics.quantiles(times, n=100)
                    found[seats, baseline, who] = mean, half
                    name = "level " + who if who != "today" else "today"
                    interval = f"[{mean - half:+.0f}, {mean + half:+.0f}]"
                    print(
                        f"{('heads-up' if seats == 2 else f'{seats} seats'):<10}{baseline:<9}"
                        f"{name:<10}{count * seats:>6}{mean:>+9.0f}{interval:>19}"
                        f"{quantiles[49]:>8.1f}{quantiles[98]:>8.1f}"
                        f"{time.perf_counter() - started:>5.0f}s",
                        flush=True,
                    )
                paired(per_deal, whos)
    quantiles = statistics.quantiles(every, n=100)
    print(
        f"NPC decisions: {len(every):,}, CPU p50 {quantiles[49]:.1f} ms, p99 "
        f"{quantiles[98]:.1f} ms, longest {max(every):.1f} ms; "
        f"{time.perf_counter() - started_all:.0f} s in all"
    )
    return 0 if targets(found) else 1


def paired(per_deal: dict[str, list[float]], whos: list[str]) -> None:
    """Each level against the one below it (and level 15 against today's policy) deal by
    deal: the same deals and the baselines' same generators, so most of the luck cancels
    and the interval of the difference is far narrower than the two intervals."""
    levels = [who for who in ("0", "5", "10", "15") if who in per_deal and who in whos]
    pairs = list(pairwise(levels))
    if "15" in per_deal and "today" in per_deal and "today" in whos:
        pairs.append(("today", "15"))
    parts = []
    for low, high in pairs:
        count = min(len(per_deal[low]), len(per_deal[high]))
        if count < 2:
            continue
        gaps = [h - lo for lo, h in zip(per_deal[low][:count], per_deal[high][:count], strict=True)]
        mean = statistics.fmean(gaps) * 100
        half = 1.96 * statistics.stdev(gaps) / math.sqrt(count) * 100
        name = "today" if low == "today" else low
        parts.append(f"{high}-{name} {mean:+.0f} [{mean - half:+.0f}, {mean + half:+.0f}]")
    if parts:
        print("  paired by deal: " + ", ".join(parts), flush=True)


def targets(found: dict[tuple[int, str, str], tuple[float, float]]) -> bool:
    """PASS/FAIL per target: bb/100 rises with the level against each baseline; level 15
    beats the TAG player, the shover and the overbettor (interval above 0), level 0 loses
    to the TAG (interval below 0)."""
    passed = True
    for seats, baseline in sorted({(seats, baseline) for seats, baseline, _ in found}):
        levels = [
            found[seats, baseline, who][0]
            for who in ("0", "5", "10", "15")
            if (seats, baseline, who) in found
        ]
        if len(levels) > 1:
            ok = all(low < high for low, high in pairwise(levels))
            passed &= ok
            print(f"{'PASS' if ok else 'FAIL'}: {seats} seats, {baseline}: rises with the level")
        if baseline not in ("tag", "shover", "overbet"):
            continue
        checks = (("15", 1, "beats"), ("0", -1, "loses to"))[: 2 if baseline == "tag" else 1]
        for who, sign, verb in checks:
            if (seats, baseline, who) in found:
                mean, half = found[seats, baseline, who]
                ok = sign * mean - half > 0
                passed &= ok
                name = {"tag": "the TAG", "shover": "the shover"}.get(baseline, "the overbettor")
                print(f"{'PASS' if ok else 'FAIL'}: {seats} seats, level {who} {verb} {name}")
    return passed


if __name__ == "__main__":
    sys.exit(main())
