"""Chemin de fer and deux tableaux outcomes: the exact odds, and the engines playing them.

    python bench/odds/chemin_de_fer_odds.py [--coups 100000] [--deux-coups 100000] [--seed HEX]

1. Exact enumeration (6 packs, a coup off a full shoe) with the engine's own drawing rules
   (`games.chemin_de_fer.tableau`): fixed drawing against the punto banco figures of
   baccarat.md; classic drawing, the banker following seed 004's table and the ponte
   standing or drawing at 5, against chemin-de-fer.md. PASS when equal to the specs' six
   decimals. Under a second.
2. The `ChemindeFer` engine plays `--coups` coups of each of those three ways, from live
   shoes replaced at their cut card (each from a seed derived from the run's seed): every
   decision goes through `apply`, as at a table (an NPC and a ponte, the bank passing
   between them). PASS when each outcome lies within 3
   standard errors of the exact figure. Coups per second printed.
3. The `DeuxTableaux` engine plays `--deux-coups` coups (3 packs): the NPC banks, one ponte
   stakes 100 on each table (equal stakes), hand-holders draw at 5, the banker weighs the tables
   (equal money: he draws when they pull opposite ways). Prints each table's win, loss and
   tie rates, the banker's edge per unit staked with its standard error, how often the two
   tables pulled opposite ways, and coups per second. No exact reference: figures only.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import random
import secrets
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run from a checkout

from bondbot.games.chemin_de_fer.engine import ChemindeFer
from bondbot.games.chemin_de_fer.engine import Settings as ChemindeFerSettings
from bondbot.games.chemin_de_fer.events import CoupSettled
from bondbot.games.chemin_de_fer.tableau import (
    banker_draws_fixed,
    ponte_draws_fixed,
    ponte_rule,
    recommendation,
)
from bondbot.games.contract import Move
from bondbot.games.deux_tableaux.engine import DeuxTableaux
from bondbot.games.deux_tableaux.engine import Settings as DeuxTableauxSettings
from bondbot.games.deux_tableaux.events import BankerAdvice
from bondbot.games.deux_tableaux.events import CoupSettled as DeuxSettled
from bondbot.rules.baccarat import new_shoe
from bondbot.rules.shoe import Shoe

PACKS = 6
DEUX_PACKS = 3
OUTCOMES = ("banker", "ponte", "tie")
LIMIT_SE = 3.0
STOOD = 10  # index of "the ponte stood" in a banker's drawing row

# (banker, ponte, tie): baccarat.md (6 packs) and chemin-de-fer.md, exact.
WAYS: dict[str, tuple[str, bool, tuple[float, float, float]]] = {
    "fixed drawing (punto banco)": ("fixed", False, (0.458653, 0.446279, 0.095069)),
    "classic, ponte stands at 5": ("classic", False, (0.460768, 0.446221, 0.093011)),
    "classic, ponte draws at 5": ("classic", True, (0.456593, 0.447427, 0.095980)),
}


def drawing_rules(
    drawing: str, draws_at_5: bool
) -> tuple[Callable[[int], bool], Callable[[int, int | None], bool]]:
    """Who draws, from the engine's tableau: (ponte's total) and (banker's total, ponte's 3rd)."""
    if drawing == "fixed":
        return ponte_draws_fixed, banker_draws_fixed

    def ponte(total: int) -> bool:
        rule = ponte_rule(total)
        return rule == "draw" or (rule == "choose" and draws_at_5)

    return ponte, recommendation


def exact_odds(packs: int, drawing: str, draws_at_5: bool) -> dict[str, float]:
    """Every coup off a full shoe of `packs` packs, weighted by its probability."""
    ponte_rule_of, banker_rule_of = drawing_rules(drawing, draws_at_5)
    ponte_draws = [ponte_rule_of(total) for total in range(8)]
    banker_draws = [
        [banker_rule_of(total, None if third == STOOD else third) for third in range(11)]
        for total in range(8)
    ]
    left = [16 * packs] + [4 * packs] * 9  # cards of each value 0–9 still in the shoe
    odds = dict.fromkeys(OUTCOMES, 0.0)

    def settle(ponte: int, banker: int, p: float) -> None:
        odds["ponte" if ponte > banker else "banker" if banker > ponte else "tie"] += p

    def banker_turn(ponte: int, banker: int, third: int, remaining: int, p: float) -> None:
        if not banker_draws[banker][third]:
            settle(ponte, banker, p)
            return
        for value in range(10):
            if left[value]:
                settle(ponte, (banker + value) % 10, p * left[value] / remaining)

    def deal(cards: list[int], remaining: int, p: float) -> None:
        if len(cards) < 4:
            for value in range(10):
                if left[value]:
                    chance = p * left[value] / remaining
                    left[value] -= 1
                    deal([*cards, value], remaining - 1, chance)
                    left[value] += 1
            return
        ponte, banker = (cards[0] + cards[2]) % 10, (cards[1] + cards[3]) % 10
        if ponte >= 8 or banker >= 8:
            settle(ponte, banker, p)
        elif not ponte_draws[ponte]:
            banker_turn(ponte, banker, STOOD, remaining, p)
        else:
            for value in range(10):
                if left[value]:
                    chance = p * left[value] / remaining
                    left[value] -= 1
                    banker_turn((ponte + value) % 10, banker, value, remaining - 1, chance)
                    left[value] += 1

    deal([], 52 * packs, 1.0)
    return odds


class Shoes:
    """Live shoes for a run, each from a seed derived from the run's seed."""

    def __init__(self, seed: bytes, packs: int) -> None:
        self.seed, self.packs, self.count = seed, packs, 0

    def next(self) -> Shoe:
        self.count += 1
        return new_shoe(
            self.packs, hashlib.sha256(self.seed + self.count.to_bytes(8, "big")).digest()
        )


def play_chemin_de_fer(drawing: str, draws_at_5: bool, coups: int, shoes: Shoes) -> Counter[str]:
    """The engine at a table of two (the NPC and a ponte, chips unlimited), bank passing."""
    settings = ChemindeFerSettings(drawing=drawing)  # type: ignore[arg-type]
    engine = ChemindeFer.new(shoes.next(), ["npc", "ponte"], "npc", npc="npc", settings=settings)
    engine.stacks = {"npc": None, "ponte": None}
    outcomes: Counter[str] = Counter()
    while outcomes.total() < coups:
        move = engine.automation()
        if move is None:
            if engine.needs_new_shoe:
                engine.replace_shoe(shoes.next())
                continue
            (seat,) = engine.turn()
            if engine.phase == "bank":
                kind = "keep" if engine.bank else "bank"
                move = Move(kind=kind, seat=seat, amount=None if engine.bank else 10**9)
            elif engine.phase == "stakes":
                move = Move(kind="stake", seat=seat, amount=100)
            elif engine.phase == "ponte":
                move = Move(kind="draw" if draws_at_5 else "stand", seat=seat)
            else:
                move = engine.timeout_move(seat)  # the banker follows the table
                assert move is not None
        for event in engine.apply(move).events:
            if isinstance(event, CoupSettled):
                outcomes[event.winner] += 1
    return outcomes


def play_deux_tableaux(coups: int, shoes: Shoes) -> tuple[dict[str, Counter[str]], list[int], int]:
    """Per table outcomes, the banker's net per coup, and how often the tables disagreed."""
    settings = DeuxTableauxSettings(packs=DEUX_PACKS, npc_bank=10**12)
    engine = DeuxTableaux.new(shoes.next(), ["npc", "right", "left"], npc="npc", settings=settings)
    engine.stacks = {"npc": None, "right": None, "left": None}
    rng = random.Random(0)  # the NPC's play draws nothing from it
    tables: dict[str, Counter[str]] = {"right": Counter(), "left": Counter()}
    nets: list[int] = []
    conflicts = 0
    while len(nets) < coups:
        move = engine.automation()
        if move is None:
            if engine.needs_new_shoe:
                engine.replace_shoe(shoes.next())
                continue
            seat = engine.turn()[0]  # the pontes answer one after the other
            if engine.phase == "stakes":
                move = Move(kind="stake", seat=seat, amount=100, target=seat)
            elif seat == "npc":
                move = engine.npc_move(rng)
            else:
                move = engine.timeout_move(seat)  # the hand-holder draws at 5
            assert move is not None
        for event in engine.apply(move).events:
            if isinstance(event, BankerAdvice):
                conflicts += event.conflict
            elif isinstance(event, DeuxSettled):
                for result in event.tables:
                    tables[result.table][result.winner] += 1
                nets.append(-sum(r.net for result in event.tables for r in result.results))
    return tables, nets, conflicts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--coups", type=int, default=100_000, help="per way of drawing")
    parser.add_argument("--deux-coups", type=int, default=100_000)
    parser.add_argument("--seed", help="the run's seed in hex (default: fresh randomness)")
    args = parser.parse_args(argv)
    if args.coups < 1 or args.deux_coups < 1:
        parser.error("--coups and --deux-coups must be at least 1")
    seed = bytes.fromhex(args.seed) if args.seed else secrets.token_bytes(16)
    failed = False

    print(f"Chemin de fer, exact ({PACKS} packs, a coup off a full shoe)")
    print(f"{'way':<30}{'banker':>10}{'ponte':>10}{'tie':>10}{'edge':>9}  spec")
    exact: dict[str, dict[str, float]] = {}
    started = time.perf_counter()
    for way, (drawing, draws_at_5, spec) in WAYS.items():
        odds = exact[way] = exact_odds(PACKS, drawing, draws_at_5)
        same = all(round(odds[o], 6) == s for o, s in zip(OUTCOMES, spec, strict=True))
        failed |= not same
        edge = 100 * (odds["banker"] - odds["ponte"])
        figures = "".join(f"{odds[o]:>10.6f}" for o in OUTCOMES)
        print(f"{way:<30}{figures}{edge:>8.3f}%  {'PASS' if same else 'FAIL'}")
    print(f"({time.perf_counter() - started:.1f} s for the three enumerations)")

    print(f"\nChemin de fer, the engine ({args.coups:,} coups each, seed {seed.hex()})")
    print(f"{'way':<30}{'outcome':<8}{'observed':>10}{'exact':>10}{'off (SE)':>10}")
    for index, (way, (drawing, draws_at_5, _)) in enumerate(WAYS.items()):
        shoes = Shoes(seed + bytes([index]), PACKS)
        started = time.perf_counter()
        outcomes = play_chemin_de_fer(drawing, draws_at_5, args.coups, shoes)
        elapsed = time.perf_counter() - started
        n = outcomes.total()
        label = way
        for outcome in OUTCOMES:
            p = exact[way][outcome]
            observed = outcomes[outcome] / n
            off = (observed - p) / math.sqrt(p * (1 - p) / n)
            failed |= abs(off) > LIMIT_SE
            print(f"{label:<30}{outcome:<8}{observed:>10.6f}{p:>10.6f}{off:>+10.2f}")
            label = ""
        print(f"{'':<30}{n / elapsed:,.0f} coups/s ({elapsed:.1f} s, {shoes.count} shoes)")

    print(f"\nBaccara à deux tableaux, the engine ({args.deux_coups:,} coups, {DEUX_PACKS} packs)")
    shoes = Shoes(seed + b"deux", DEUX_PACKS)
    started = time.perf_counter()
    tables, nets, conflicts = play_deux_tableaux(args.deux_coups, shoes)
    elapsed = time.perf_counter() - started
    n = len(nets)
    print(f"{'table':<8}{'ponte wins':>12}{'bank wins':>12}{'tie':>10}")
    for name, counts in tables.items():
        played = counts.total()
        rates = [counts[o] / played for o in ("ponte", "banker", "tie")]
        print(f"{name:<8}{rates[0]:>12.6f}{rates[1]:>12.6f}{rates[2]:>10.6f}")
    staked = 2 * 100  # one stake of 100 on each table, every coup
    mean = sum(nets) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in nets) / (n - 1))
    print(
        f"banker's edge, equal stakes on both tables: {100 * mean / staked:.3f}% "
        f"± {100 * sd / math.sqrt(n) / staked:.3f}% (1 SE) of the money staked"
    )
    print(f"the tables pulled opposite ways on {conflicts / n:.2%} of the coups")
    print(f"{n / elapsed:,.0f} coups/s ({elapsed:.1f} s, {shoes.count} shoes)")

    print(
        "FAIL: a figure is off"
        if failed
        else f"PASS: exact figures equal, engine within {LIMIT_SE:g} SE"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
