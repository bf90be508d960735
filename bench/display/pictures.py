"""Card pictures: how long a hand's PNG takes to make and how big it is.

    python bench/display/pictures.py [--hands 2000] [--seed 1]

First the very first hand (every card it shows drawn for the first time), then the 52 cards
and the back drawn once (what the bot does once per process, as hands come), then `--hands`
random hands of 2, 5, 7 and 13 cards that were never made before (the common case: each deal
is a new hand), then the latest 512 of them again (the cache), then hands' results (the
picture posted in a table's thread when a hand ends: a baccarat coup's two rows, a blackjack
dealer's and four boxes' five rows), then a punto banco result as the bot posts it
(`result_png`: a heading, and each row under its label, whose text strips cost as much as
the cards; CPU too). Prints time per picture (median and p99), PNG size (median and largest)
and the cached lookup; PASS when a 5-card hand takes at most 10 ms (p99) and 8 KB.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run from a checkout

from bondbot.pictures.cards import (
    HAND_CACHE,
    card_image,
    hand_png,
    hand_size,
    result_png,
    rows_png,
    rows_size,
)
from bondbot.rules.cards import Card

TARGET_MS = 10.0
TARGET_BYTES = 8 * 1024


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    start = time.perf_counter()
    hand_png(rng.sample(Card.ALL, 5))
    print(f"first hand ever (5 cards drawn): {_ms(start):.1f} ms")
    start = time.perf_counter()
    for card in (*Card.ALL, None):
        card_image(card)
    print(f"every card and the back drawn once: {_ms(start):.1f} ms")

    verdicts = []
    for count in (2, 5, 7, 13):
        hands = [tuple(rng.sample(Card.ALL, count)) for _ in range(args.hands)]
        times, sizes = [], []
        for hand in hands:
            start = time.perf_counter()
            sizes.append(len(hand_png(hand)))
            times.append(_ms(start))
        recent = hands[-HAND_CACHE // 2 :]  # still in the cache
        start = time.perf_counter()
        for hand in recent:
            hand_png(hand)
        cached_us = _ms(start) * 1000 / len(recent)
        p99 = statistics.quantiles(times, n=100)[98]
        w, h = hand_size(count)
        print(
            f"{count:2d} cards ({w}×{h} px): {statistics.median(times):.2f} ms median,"
            f" {p99:.2f} ms p99; {statistics.median(sizes):.0f} B median, {max(sizes)} B"
            f" largest; cached {cached_us:.1f} µs"
        )
        if count == 5:
            verdicts.append(("5-card hand time p99", p99 <= TARGET_MS, f"{p99:.2f} ms"))
            verdicts.append(("5-card hand size", max(sizes) <= TARGET_BYTES, f"{max(sizes)} B"))
    for shape in ((3, 3), (3, 2, 2, 3, 2)):  # a baccarat coup; a dealer and four boxes
        results = [[rng.sample(Card.ALL, n) for n in shape] for _ in range(args.hands)]
        times, sizes = [], []
        for rows in results:
            start = time.perf_counter()
            sizes.append(len(rows_png(rows)))
            times.append(_ms(start))
        p99 = statistics.quantiles(times, n=100)[98]
        w, h = rows_size(shape)
        print(
            f"result of {len(shape)} rows {shape} ({w}×{h} px): {statistics.median(times):.2f} ms"
            f" median, {p99:.2f} ms p99; {statistics.median(sizes):.0f} B median,"
            f" {max(sizes)} B largest"
        )
    # What the bot posts after a punto banco coup: a heading over the two rows, each under
    # its label (who, what), every hand new (its own heading: never from the cache).
    times, cpu = [], []
    for n in range(args.hands):
        cards = rng.sample(Card.ALL, 6)
        rows = [cards[: rng.choice((2, 3))], cards[3 : 3 + rng.choice((2, 3))]]
        labels = [
            ("Le Chiffre 01", f"Banker ({rng.randint(0, 9)})"),
            ("", f"Player ({rng.randint(0, 9)})"),
        ]
        start, cpu_start = time.perf_counter(), time.process_time()
        result_png(rows, labels, f"Punto banco, hand {n + 1}")
        times.append(_ms(start))
        cpu.append((time.process_time() - cpu_start) * 1000)
    print(
        f"punto banco result with its heading and labels (result_png):"
        f" {statistics.median(times):.2f} ms median, {statistics.quantiles(times, n=100)[98]:.2f}"
        f" ms p99; CPU {statistics.fmean(cpu):.2f} ms mean"
    )
    for name, ok, figure in verdicts:
        print(f"{'PASS' if ok else 'FAIL'} {name}: {figure}")
    return 0 if all(ok for _, ok, _ in verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
