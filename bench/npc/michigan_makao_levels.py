"""Michigan and Makao: the NPC at Gambling 0, 5, 10 and 15 against baseline players.

    python bench/npc/michigan_makao_levels.py [--michigan-rounds N] [--makao-cycles N]
                                              [--players 4] [--seed HEX]

Each row is the NPC at one level (or by today's policy, the automatic play before levels:
the greedy Michigan lead, Makao's rounded bid and its card rules) at a table of
`--players`, the other seats all one baseline player: `today` (that same policy) or
`random` (any legal lead, bid or card). Every row plays the same packs (seeds derived from
the run's seed, printed), so rows differ only by the NPC's play. Michigan: the share of
rounds the NPC goes out first, and his chips won per round. Makao: the share of his bids
made, and his score per deal. Each with its 95% interval, then the paired difference from
today's policy over the same packs (95% interval), and the milliseconds per NPC decision
(the engine's moves included). About 1.5 minutes of CPU. PASS when level 15 is at least today's
policy (difference >= 0) and level 0 is below it (interval under 0), for each game and
baseline.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import random
import secrets
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run from a checkout

from bondbot.games.contract import Move
from bondbot.games.makao.engine import Makao
from bondbot.games.michigan.engine import Michigan
from bondbot.games.michigan.npc import best_lead
from bondbot.rules.shoe import Shoe

LEVELS: tuple[int | None, ...] = (None, 0, 5, 10, 15)  # None: today's policy
Z95 = 1.96


def pack(seed: bytes, label: bytes, n: int) -> Shoe:
    return Shoe.shuffled(1, hashlib.sha256(seed + label + n.to_bytes(8, "big")).digest())


def name(level: int | None) -> str:
    return "today" if level is None else f"level {level}"


# -- Michigan ------------------------------------------------------------------------------


def michigan_lead(game: Michigan, seat: str, who: str, rng: random.Random) -> Move:
    if who == "today":
        return Move(kind="lead", seat=seat, target=best_lead(game.hands[seat], game.dead_cards()))
    suits = sorted({code[1] for code in game.hands[seat]})
    return Move(kind="lead", seat=seat, target=rng.choice(suits))


def michigan(
    rounds: int, players: int, seed: bytes, level: int | None, baseline: str
) -> tuple[list[float], list[float], float, int]:
    """Per round: 1 if the NPC went out first, his chips won; seconds, NPC decisions."""
    seats = [*(f"pc{i}" for i in range(players - 1)), "npc"]
    rng = random.Random(seed + b"michigan" + baseline.encode())
    wins: list[float] = []
    chips: list[float] = []
    decisions = 0
    started = time.perf_counter()
    for n in range(rounds):
        # A fresh game on each round's pack, the NPC dealing first: rows replay the deal.
        game = Michigan(shoe=pack(seed, b"michigan", n), seats=seats, npc="npc")
        game.stacks = dict.fromkeys(seats, None)
        game.apply(Move(kind="deal", target=seats[n % players]))
        while game.in_hand():
            move = game.automation()
            if move is None:
                (seat,) = game.turn()
                if seat != "npc":
                    move = michigan_lead(game, seat, baseline, rng)
                elif level is None:
                    move = michigan_lead(game, seat, "today", rng)
                else:
                    move = game.npc_move(rng, level)
                decisions += seat == "npc"
            assert move is not None
            game.apply(move)
        assert game.last is not None
        wins.append(float(game.last.seat == "npc"))
        chips.append(game.net.get("npc", 0) / game.settings.chip)
    return wins, chips, time.perf_counter() - started, decisions


# -- Makao ---------------------------------------------------------------------------------


def makao_move(game: Makao, seat: str, who: str, rng: random.Random) -> Move:
    if who == "today":
        move = game.baseline_move(seat)
        assert move is not None
        return move
    option = next(o for o in game.options() if o.seat == seat)
    if option.kind == "bid":
        assert option.max is not None
        return Move(kind="bid", seat=seat, amount=rng.randint(0, option.max))
    return Move(kind="play", seat=seat, target=rng.choice(option.targets))


def makao(
    cycles: int, players: int, seed: bytes, level: int | None, baseline: str
) -> tuple[list[float], list[float], float, int]:
    """Per deal: 1 if the NPC made his bid, his score; seconds, NPC decisions."""
    seats = [*(f"pc{i}" for i in range(players - 1)), "npc"]
    rng = random.Random(seed + b"makao" + baseline.encode())
    made: list[float] = []
    scores: list[float] = []
    decisions = 0
    started = time.perf_counter()
    for cycle in range(cycles):
        game = Makao(shoe=pack(seed, b"makao%d" % cycle, 0), seats=seats, npc="npc")
        game.stacks = dict.fromkeys(seats, None)
        while game.phase == "idle":
            if game.needs_new_shoe:
                game.replace_shoe(pack(seed, b"makao%d" % cycle, len(game.deals) + 1))
            game.apply(Move(kind="deal", target=None if game.deals else seats[cycle % players]))
            deal = game.deals[-1]
            while turn := game.turn():
                (seat,) = turn
                if seat != "npc":
                    move = makao_move(game, seat, baseline, rng)
                elif level is None:
                    move = makao_move(game, seat, "today", rng)
                else:
                    found = game.npc_move(rng, level)
                    assert found is not None
                    move = found
                decisions += seat == "npc"
                game.apply(move)
            made.append(float(deal.made("npc")))
            scores.append(float(deal.score("npc") or 0))
    return made, scores, time.perf_counter() - started, decisions


# -- figures -------------------------------------------------------------------------------


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, Z95 * math.sqrt(var / n)


def table(
    title: str,
    labels: tuple[str, str],
    play: Callable[[int | None, str], tuple[list[float], list[float], float, int]],
) -> bool:
    ok = True
    for baseline in ("today", "random"):
        print(f"\n{title}, against {baseline} players")
        print(
            f"{'NPC':<10}{labels[0]:>18}{'vs today':>18}{labels[1]:>18}{'vs today':>18}"
            f"{'ms/decision':>13}"
        )
        rows = {level: play(level, baseline) for level in LEVELS}
        base_a, base_b = rows[None][0], rows[None][1]
        diffs = {}
        for level, (a, b, seconds, decisions) in rows.items():
            ma, ha = interval(a)
            mb, hb = interval(b)
            da = interval([x - y for x, y in zip(a, base_a, strict=True)])
            db = interval([x - y for x, y in zip(b, base_b, strict=True)])
            diffs[level] = da
            vs_a = "" if level is None else f"{da[0]:+.4f} ± {da[1]:.4f}"
            vs_b = "" if level is None else f"{db[0]:+.3f} ± {db[1]:.3f}"
            print(
                f"{name(level):<10}{f'{ma:.4f} ± {ha:.4f}':>18}{vs_a:>18}"
                f"{f'{mb:.3f} ± {hb:.3f}':>18}{vs_b:>18}"
                f"{1000 * seconds / max(decisions, 1):>13.2f}"
            )
        top, low = diffs[15], diffs[0]
        top_ok = top[0] >= 0
        low_ok = low[0] + low[1] < 0
        ok = ok and top_ok and low_ok
        print(
            f"{'PASS' if top_ok else 'FAIL'}: level 15 at least today's policy "
            f"({labels[0]} {top[0]:+.4f} ± {top[1]:.4f})"
        )
        print(
            f"{'PASS' if low_ok else 'FAIL'}: level 0 below today's policy "
            f"({labels[0]} {low[0]:+.4f} ± {low[1]:.4f})"
        )
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--michigan-rounds", type=int, default=4_000)
    parser.add_argument("--makao-cycles", type=int, default=300)
    parser.add_argument("--players", type=int, choices=range(3, 9), default=4)
    parser.add_argument("--seed", help="the run's seed in hex (default: fresh randomness)")
    args = parser.parse_args(argv)
    if args.michigan_rounds < 2 or args.makao_cycles < 1:
        parser.error("--michigan-rounds must be at least 2, --makao-cycles at least 1")
    seed = bytes.fromhex(args.seed) if args.seed else secrets.token_bytes(16)
    print(f"seed {seed.hex()}, {args.players} players (the NPC among them)")
    ok = table(
        f"Michigan, {args.michigan_rounds:,} rounds",
        ("out first", "chips/round"),
        lambda level, who: michigan(args.michigan_rounds, args.players, seed, level, who),
    )
    ok = (
        table(
            f"Makao, {args.makao_cycles:,} cycles",
            ("bids made", "score/deal"),
            lambda level, who: makao(args.makao_cycles, args.players, seed, level, who),
        )
        and ok
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
