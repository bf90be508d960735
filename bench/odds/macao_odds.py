"""Macao's odds, exact by enumeration, then checked by playing coups through the engine.

    python bench/odds/macao_odds.py [--coups 20000] [--packs 1] [--seed HEX]

1. For each counting scheme, with one and two packs, the exact chance that one player's
   hand beats the banker's, loses, or ties, and what a one-stake wager on each target is
   worth to the player (naturals' multiples included), under the recommended play, which
   is also the NPC's (player draws on 0–4; banker draws on 0–4 when his rule lets him), and
   under the free choices taken the other way (player draws on 5 too; banker draws on 5
   and 6 whenever allowed). "informed" is a player who picks his wager after looking at his
   two cards. PASS when the minus9 figures equal macao.md's, as printed there (one and two
   packs). The enumeration is `bondbot/games/macao/odds.py`: every deal weighed by how many
   ordered deals give it, in integers; three schemes (minus9, modulo10, bust), tie 8:1,
   equal naturals counted as ties; the wagers on his own hand, the banker's and a tie.
2. `--coups` coups per scheme through the real engine (one PC wagering on his own hand with
   the recommended play, the NPC banking on automatic play, a fresh shoe shuffled as a
   table shuffles it for every coup, as in the enumeration): each outcome's frequency
   against the exact figure, in standard errors (PASS within 4), the own-hand wager's
   mean net per stake ("net") against its exact value, and coups per second (wall clock,
   without the shuffles, and per CPU second, which other processes on the machine do not
   lower).
"""

from __future__ import annotations

import argparse
import hashlib
import math
import random
import secrets
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run from a checkout

from bondbot.games.contract import Move
from bondbot.games.macao.counting import Counting
from bondbot.games.macao.engine import Macao, MacaoRules
from bondbot.games.macao.events import Settled
from bondbot.games.macao.odds import Odds, bank_expectation, coup_odds
from bondbot.games.macao.settlement import Target, Winner
from bondbot.rules.shoe import Shoe

# macao.md, step 5: minus9, one player drawing on 0–4 against the NPC banker.
PUBLISHED = {
    1: {"banker": "0.448436", "player": "0.459692", "tie": "0.091872", "own": "+1.13%"},
    2: {"banker": "0.447618", "player": "0.459161", "tie": "0.093220", "own": "+1.15%"},
}
PLAYS = {  # name: (player draws up to, banker draws up to)
    "recommended (= NPC)": (4, 4),
    "player also on 5": (5, 4),
    "banker also on 5-6": (4, 6),
}
TIE_PAYS = 8
LIMIT_SE = 4.0
PC, NPC = "pc", "npc"


def exact_table() -> bool:
    """Print the exact figures; True when macao.md's are reproduced."""
    print(f"Exact, one player against the banker, tie {TIE_PAYS}:1; edges are the player's:")
    header = f"{'counting':<9}{'packs':>6}  {'play':<20}{'player':>9}{'banker':>9}{'tie':>9}"
    print(header + f"{'own':>9}{'banker':>9}{'tie':>9}{'informed':>10}")
    started = time.perf_counter()
    passed = True
    for counting in Counting:
        for packs in (1, 2):
            informed = -bank_expectation(counting, packs, TIE_PAYS).informed
            for play, (player_to, banker_to) in PLAYS.items():
                odds = coup_odds(counting, packs, player_to, banker_to)
                print(
                    f"{counting.value:<9}{packs:>6}  {play:<20}"
                    f"{float(odds.player):>9.6f}{float(odds.banker):>9.6f}{float(odds.tie):>9.6f}"
                    + "".join(
                        f"{float(odds.edge(t, TIE_PAYS)):>+9.2%}"
                        for t in (Target.OWN, Target.BANKER, Target.TIE)
                    )
                    + (f"{float(informed):>+10.2%}" if play.startswith("recommended") else "")
                )
                if counting is Counting.MINUS9 and (player_to, banker_to) == (4, 4):
                    passed &= matches_published(odds, packs)
    print(f"(enumerated in {time.perf_counter() - started:.1f} s)")
    print(
        "PASS: minus9 reproduces macao.md exactly (one and two packs)"
        if passed
        else "FAIL: minus9 differs from macao.md"
    )
    return passed


def matches_published(odds: Odds, packs: int) -> bool:
    ours = {
        "banker": f"{float(odds.banker):.6f}",
        "player": f"{float(odds.player):.6f}",
        "tie": f"{float(odds.tie):.6f}",
        "own": f"{float(odds.own):+.2%}",
    }
    if ours != PUBLISHED[packs]:
        print(f"  {packs} pack(s): ours {ours}, macao.md {PUBLISHED[packs]}")
        return False
    return True


def play_coups(
    counting: Counting, packs: int, coups: int, seed: bytes
) -> tuple[dict[Winner, int], list[int], float, float]:
    """Outcome counts, each coup's own-hand net in stakes, and the time taken (of which
    shuffling) for `coups` coups through the engine."""
    rules = MacaoRules(counting=counting, packs=packs, min_stake=1, max_stake=1)
    game = Macao(
        shoe=Shoe.shuffled(packs, seed),
        seats=[NPC, PC],
        npc=NPC,
        rules=rules,
        stacks={NPC: None, PC: 10**12},
    )
    rng = random.Random(0)  # the NPC banker's play is fixed: never drawn on
    counts = dict.fromkeys(Winner, 0)
    nets: list[int] = []
    shuffling = 0.0
    started = time.perf_counter()
    for coup in range(coups):
        before = time.perf_counter()
        shoe_seed = hashlib.sha256(seed + counting.encode() + coup.to_bytes(8, "big")).digest()
        game.replace_shoe(Shoe.shuffled(packs, shoe_seed))
        shuffling += time.perf_counter() - before
        game.apply(Move(kind="deal"))
        game.apply(Move(kind="wager", seat=PC, amount=1, target="own"))
        while True:
            move = game.automation()
            if move is None:
                (seat,) = game.turn()
                move = game.npc_move(rng) if seat == NPC else game.timeout_move(seat)
            assert move is not None
            record = game.apply(move)
            for event in record.events:
                if isinstance(event, Settled):
                    counts[event.winner] += 1
                    nets.append(event.net)
            if record.hand_over:
                break
    return counts, nets, time.perf_counter() - started, shuffling


def engine_check(coups: int, packs: int, seed: bytes) -> bool:
    print(f"\nThrough the engine: {coups:,} coups per counting, {packs} pack(s), seed {seed.hex()}")
    print(f"{'counting':<9}{'outcome':<8}{'observed':>10}{'exact':>10}{'SE':>10}{'off (SE)':>10}")
    passed = True
    total_coups = 0
    total_time = total_shuffling = 0.0
    cpu_started = time.process_time()
    for counting in Counting:
        exact = coup_odds(counting, packs)
        counts, nets, elapsed, shuffling = play_coups(counting, packs, coups, seed)
        total_coups += coups
        total_time += elapsed
        total_shuffling += shuffling
        for winner, p in (
            (Winner.PLAYER, exact.player),
            (Winner.BANKER, exact.banker),
            (Winner.TIE, exact.tie),
        ):
            observed = counts[winner] / coups
            se = math.sqrt(float(p) * (1 - float(p)) / coups)
            off = (observed - float(p)) / se
            passed &= abs(off) <= LIMIT_SE
            print(
                f"{counting.value:<9}{winner.value:<8}{observed:>10.6f}{float(p):>10.6f}"
                f"{se:>10.6f}{off:>+10.2f}"
            )
        mean = statistics.fmean(nets)
        se = statistics.stdev(nets) / math.sqrt(coups)
        off = (mean - float(exact.own)) / se
        print(f"{'':<9}{'net':<8}{mean:>+10.4f}{float(exact.own):>+10.4f}{se:>10.4f}{off:>+10.2f}")
    print(
        f"{total_coups / total_time:,.0f} coups/s overall ({total_time:.1f} s, of which "
        f"{total_shuffling:.1f} s shuffling; "
        f"{total_coups / (total_time - total_shuffling):,.0f} coups/s playing alone); "
        f"{total_coups / (time.process_time() - cpu_started):,.0f} per CPU second"
    )
    print(
        f"PASS: every outcome within {LIMIT_SE:g} SE of the exact figure"
        if passed
        else f"FAIL: an outcome is more than {LIMIT_SE:g} SE from the exact figure"
    )
    return passed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--coups", type=int, default=20_000, help="per counting scheme")
    parser.add_argument("--packs", type=int, choices=(1, 2), default=1)
    parser.add_argument("--seed", help="the run's seed in hex (default: fresh randomness)")
    args = parser.parse_args(argv)
    if args.coups < 1:
        parser.error("--coups must be at least 1")
    seed = bytes.fromhex(args.seed) if args.seed else secrets.token_bytes(16)
    exact_ok = exact_table()
    engine_ok = engine_check(args.coups, args.packs, seed)
    return 0 if exact_ok and engine_ok else 1


if __name__ == "__main__":
    sys.exit(main())
