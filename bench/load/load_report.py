"""bench/load/load.py's closed-loop report: a row per run, the game's interactions by kind,
the REST calls and the token's budget, the targets; and what --trace, --gc and --profile
found in the game bot."""

from __future__ import annotations

import pstats
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run from a checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_closed import PICTURES_S, Phase, budget_line
from load_common import DEADLINE_S, percentile, print_table
from load_tables import Clicker

TARGET_RATIO = 0.25
TARGET_P99_MS = 100.0
OTHERS_WARN = 0.10  # of one core


def report(
    floor: Phase,
    game: Phase,
    clickers: dict[str, Clicker],
    errors: dict[str, list[str]],
    table_floor: Phase | None = None,
) -> bool:
    header = [
        "run",
        "interactions",
        "actions",
        "time s",
        "actions/s",
        "p50 ms",
        "p99 ms",
        "max ms",
        "misses",
        "in flight",
        "bot CPU",
        "CPU/action",
        "bench CPU",
        "others CPU",
        "bot peak RSS",
    ]
    rows = [header]
    phases = [floor, *([table_floor] if table_floor else []), game]
    for phase in phases:
        rows.append(
            [
                phase.name,
                str(phase.interactions),
                str(phase.actions),
                f"{phase.seconds:.1f}",
                f"{phase.rate:.1f}",
                f"{phase.pct(0.50):.1f}",
                f"{phase.pct(0.99):.1f}",
                f"{phase.pct(1.0):.1f}",
                str(phase.misses),
                f"{sum(phase.latencies) / phase.seconds:.1f}",
                f"{100 * phase.bot_cpu:.0f}%",
                f"{1000 * phase.bot_cpu * phase.seconds / max(1, phase.actions):.2f} ms",
                f"{100 * phase.bench_cpu:.0f}%",
                f"{100 * phase.others_cpu:.0f}%",
                f"{phase.peak_rss_mib:.1f} MiB",
            ]
        )
    print_table(rows)
    print()
    print("game interactions by kind:")
    rows = [["kind", "count", "p50 ms", "p99 ms", "max ms"]]
    for kind, values in sorted(game.by_kind.items()):
        rows.append(
            [
                kind,
                str(len(values)),
                f"{percentile(values, 0.5):.1f}",
                f"{percentile(values, 0.99):.1f}",
                f"{percentile(values, 1.0):.1f}",
            ]
        )
    print_table(rows)
    if table_floor is not None:
        print(
            f"table floor (a click on a copy of the table message, answered by drawing it"
            f" again, nothing behind it): {table_floor.rate / floor.rate:.1%} of the floor's"
            f" rate, p99 {table_floor.pct(0.99) / floor.pct(0.99):.2f}x the floor's"
        )
    busy = [p.name for p in phases if p.others_cpu > OTHERS_WARN]
    if busy:
        print(
            f"WARNING: other processes used the CPU during the {' and '.join(busy)} run "
            "(others CPU): this machine has 2 cores, so the figures are low; run it again "
            "on a quiet machine"
        )
    for phase in phases:
        calls = ", ".join(f"{n} {kind}" for kind, n in phase.rest.most_common())
        print(f"{phase.name} bot REST calls: {calls}")
        if phase.coups:
            print(f"{phase.name}: {budget_line(phase.budget, phase.coups, phase.limited)}")
            if phase.limited_by:
                routes = ", ".join(f"{n} {route}" for route, n in phase.limited_by.items())
                print(f"{phase.name}: the 429s: {routes}")
            if phase.pictures is not None:
                posted, coups = phase.pictures
                print(
                    f"{phase.name}: {posted} pictures posted for {coups} coups dealt, the last"
                    f" {phase.pictures_late:.1f} s after the play (at most {PICTURES_S:g} s"
                    " waited)"
                )
        elif phase.limited:
            print(f"{phase.name}: {phase.limited} 429s received")
    for name, clicker in clickers.items():
        if clicker.refused or clicker.timeouts:
            print(
                f"{name}: refused {dict(clicker.refused)}, no answer in time "
                f"{dict(clicker.timeouts)}; answers: {dict(clicker.refusals.most_common(3))}"
            )
    for name, lines in errors.items():
        if lines:
            print(f"{name} bot logged {len(lines)} error line(s), first: {lines[0][:200]}")

    floor_share = TARGET_RATIO * floor.rate
    checks = [
        (
            f"game actions/s >= {TARGET_RATIO:.0%} of the floor's: {game.rate:.1f} vs "
            f"{floor_share:.1f} (the game's rate is {game.rate / floor.rate:.1%} of the floor's)",
            game.rate >= floor_share,
        ),
        (
            f"game p99 < {TARGET_P99_MS:g} ms: {game.pct(0.99):.1f} ms",
            game.pct(0.99) < TARGET_P99_MS,
        ),
        (
            f"no interaction misses the {DEADLINE_S:g} s deadline: {game.misses} missed",
            game.misses == 0,
        ),
    ]
    print()
    for text, ok in checks:
        print(f"{'PASS' if ok else 'FAIL'}  {text}")
    return all(ok for _, ok in checks)


def print_trace(data: dict) -> None:
    """Where the game bot's time went during the measured phase (from load_bot.py's Trace)."""
    wall, seconds, calls = data["wall"], data["seconds"], data["calls"]

    def share(s: float) -> str:
        return f"{s:.2f} s ({s / wall:.0%})"

    print(f"\nwhere the game bot's time went (--trace, over {wall:.1f} s; tracing slows it):")
    print(f"  event loop thread CPU {share(data['loop_cpu'])}")
    held = sum(sum(v) for v in data["holds"].values())
    print(f"  database lock held {share(held)}, one holder at a time:")
    for kind, holds in sorted(data["holds"].items()):
        statements = calls.get(f"{kind} statements", 0)
        print(
            f"    {kind:<12} {len(holds):6d} holds, {sum(holds):6.2f} s, mean "
            f"{1000 * sum(holds) / len(holds):.2f} ms, p99 {percentile(holds, 0.99):.1f} ms, "
            f"{statements / len(holds):.1f} statements each"
        )
    waits = data["waits"]
    if waits:
        print(
            f"  waiting for the lock: mean {1000 * sum(waits) / len(waits):.1f} ms, "
            f"p99 {percentile(waits, 0.99):.1f} ms"
        )
    count, spent = calls.get("statement", 0), seconds.get("statement", 0.0)
    if count:
        print(f"  SQLite statements (inline): {count}, mean {1000 * spent / count:.3f} ms each")
    lags = data["lags"]
    if lags:
        print(
            f"  event loop lag (a 5 ms sleep wakes late by): mean "
            f"{1000 * sum(lags) / len(lags):.1f} ms, p99 {percentile(lags, 0.99):.1f} ms"
        )
    print("  pure-Python steps on the event loop (they block it):")
    for key, total in sorted(seconds.items(), key=lambda kv: -kv[1]):
        if key == "statement":
            continue
        n = calls[key]
        print(f"    {key:<38} {n:6d} calls, {share(total)}, {1000 * total / n:.3f} ms each")


def print_gc(data: dict) -> None:
    wall = data["wall"]
    print(
        f"\ngarbage collector and loop stalls (--gc {data['tune']}; thresholds"
        f" {tuple(data['threshold'])}, {data['frozen']:,} objects frozen; over {wall:.1f} s):"
    )
    total = 0.0
    for generation, pauses in data["pauses"].items():
        total += sum(pauses)
        cpu = data["cpu"][generation]
        if pauses:
            print(
                f"  gen {generation}: {len(pauses):>6} collections, {1000 * sum(pauses):8.1f} ms"
                f" in all, longest {1000 * max(pauses):6.1f} ms; CPU: mean"
                f" {1000 * sum(cpu) / len(cpu):6.2f} ms, longest {1000 * max(cpu):6.1f} ms"
            )
    print(f"  time in GC: {100 * total / wall:.1f}% of the phase")
    print_loop(data)
    tracked = dict(data["tracked"])
    everything = tracked.pop("all")
    commonest = ", ".join(f"{name} {count:,}" for name, count in tracked.items())
    print(f"  objects in the collector's care at the end: {everything:,} ({commonest})")


def print_loop(data: dict) -> None:
    """How long the loop was held: a heartbeat's lateness (the queue ahead of it included),
    and the longest single callbacks (what held it by itself)."""
    stalls = data["stalls"]
    if stalls:
        print(
            f"  loop stalls (a 1 ms heartbeat wakes late by): longest {1000 * stalls[0]:.1f} ms,"
            f" 10th longest {1000 * stalls[min(9, len(stalls) - 1)]:.1f} ms,"
            f" {sum(s > 0.05 for s in stalls)} over 50 ms"
        )
    callbacks = data["callbacks"]
    if callbacks:
        longest = ", ".join(f"{1000 * spent:.1f} ms {name}" for spent, name in callbacks[:3])
        print(
            f"  callbacks: {data['callback_count']:,} run; {sum(c[0] > 0.05 for c in callbacks)}"
            f" over 50 ms; 10th longest {1000 * callbacks[min(9, len(callbacks) - 1)][0]:.1f}"
            f" ms; longest {longest}"
        )


def print_floor_loop(data: dict) -> None:
    print(f"\nthe floor bot's loop, under its own load (over {data['wall']:.1f} s):")
    print_loop(data)


def print_profile(path: Path) -> None:
    print(f"\ncProfile of the game bot ({path}); the figures above are slowed by it:")
    stats = pstats.Stats(str(path))
    stats.sort_stats("tottime").print_stats(25)
    stats.sort_stats("cumulative").print_stats(r"bondbot|sqlite|pydantic|discord", 40)
