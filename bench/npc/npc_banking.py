"""The NPC banker's expectation per coup by Gambling level: chemin de fer, deux tableaux, Macao.

    python bench/npc/npc_banking.py [--coups 40000] [--seed TEXT] [--games cdf,deux,macao-own,macao]

Each coup is dealt from the top of a freshly shuffled shoe (the game's packs: 6, 3, and
Macao's one pack for three hands) and played once per banker policy from the same cards:
"today" (the play before Gambling levels: seed 004's table; deux tableaux's table with
more money; Macao's recommended banker draw, all the engines' `timeout_move`) and the NPC
at levels 0, 5, 10 and 15 (`npc_move`, its generator seeded per coup). The same fixed
players every time, playing as the bot advises them:

- chemin de fer (classic drawing, no commission): one ponte stakes the whole bank of 1,000
  and draws at 5 (seed 004's advice);
- deux tableaux: a bank of 2,000; one ponte stakes 1,000 on the right table, another 300 on
  the left; both hand-holders draw at 5;
- Macao (minus9, tie pays 8): two players stake 100 each and draw on 0–4, stand on 5;
  "macao-own": both wager on their own hands (macao.md's player); "macao": one on his own
  hand, the other on the target `odds.best_wager` names for his two cards (so often on
  the banker's hand, which a banker who weighs the wagers would rather see lose).

Printed per policy: the banker's mean net per coup, per unit staked (chemin de fer, deux
tableaux) or per stake (Macao), with its 95% interval; then the paired difference to
"today" (same cards), with its 95% interval, which is much narrower (the policies differ
on few coups). Seconds per game: about 5 minutes of one core with the defaults.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run from a checkout

from bondbot.games.chemin_de_fer.engine import ChemindeFer
from bondbot.games.chemin_de_fer.engine import Settings as CdfSettings
from bondbot.games.contract import Engine, Move, Record
from bondbot.games.deux_tableaux.engine import DeuxTableaux
from bondbot.games.deux_tableaux.engine import Settings as DeuxSettings
from bondbot.games.macao.counting import card_value
from bondbot.games.macao.engine import Macao, MacaoRules
from bondbot.games.macao.odds import best_wager
from bondbot.rules.cards import Card
from bondbot.rules.shoe import Shoe

NPC = "npc"
POLICIES: tuple[str | int, ...] = ("today", 0, 5, 10, 15)
Z95 = 1.96
CARDS = 16  # more than any coup here deals


def banker_net(record: Record, banker: str = NPC) -> int:
    """What the banker gained (+) or lost (−) by a record's transfers."""
    account = f"seat:{banker}"
    return sum(t.amount for t in record.transfers if t.dst == account) - sum(
        t.amount for t in record.transfers if t.src == account
    )


def run(engine: Engine, decide_npc: Callable[[], Move], decide_other: Callable[[str], Move]) -> int:
    """Play until the hand is over; the NPC banker's net."""
    net = 0
    for _ in range(100):
        move = engine.automation()
        if move is None:
            turn = engine.turn()
            if not turn:
                break
            move = decide_npc() if turn[0] == NPC else decide_other(turn[0])
        record = engine.apply(move)
        net += banker_net(record)
        if record.hand_over:
            return net
    raise RuntimeError("the coup did not end")


def npc_decider(engine: Engine, policy: str | int, rng: random.Random) -> Callable[[], Move]:
    def decide() -> Move:
        move = engine.timeout_move(NPC) if policy == "today" else engine.npc_move(rng, policy)
        assert move is not None
        return move

    return decide


def cdf_coup(cards: list[Card], policy: str | int, rng: random.Random) -> float:
    engine = ChemindeFer.new(
        Shoe.stacked(cards), [NPC, "a"], NPC, npc=NPC, settings=CdfSettings(drawing="classic")
    )
    engine.stacks = {NPC: None, "a": 10**9}
    engine.apply(Move(kind="bank", seat=NPC, amount=1_000))
    engine.apply(Move(kind="stake", seat="a", amount=1_000))

    def ponte(seat: str) -> Move:
        move = engine.timeout_move(seat)  # at 5: draws, seed 004's advice
        assert move is not None
        return move

    return run(engine, npc_decider(engine, policy, rng), ponte) / 1_000


def deux_coup(cards: list[Card], policy: str | int, rng: random.Random) -> float:
    engine = DeuxTableaux.new(
        Shoe.stacked(cards), [NPC, "a", "b"], npc=NPC, settings=DeuxSettings(npc_bank=2_000)
    )
    engine.stacks = {NPC: None, "a": 10**9, "b": 10**9}
    engine.apply(Move(kind="default_bank"))
    engine.apply(Move(kind="stake", seat="a", amount=1_000, target="right"))
    engine.apply(Move(kind="stake", seat="b", amount=300, target="left"))

    def ponte(seat: str) -> Move:
        move = engine.timeout_move(seat)  # at 5: draws
        assert move is not None
        return move

    return run(engine, npc_decider(engine, policy, rng), ponte) / 1_300


MACAO_RULES = MacaoRules()


def macao_coup(
    cards: list[Card], policy: str | int, rng: random.Random, informed: bool = True
) -> float:
    """Two players against the NPC banker: "own" always on his own hand, the other on the
    target `odds.best_wager` names for his cards (`informed`) or on his own hand too."""
    engine = Macao(
        shoe=Shoe.stacked(cards),
        seats=[NPC, "own", "other"],
        npc=NPC,
        rules=MACAO_RULES,
        stacks={NPC: None, "own": 10**9, "other": 10**9},
    )
    engine.apply(Move(kind="deal"))

    def player(seat: str) -> Move:
        if engine.phase != "wagers":
            move = engine.timeout_move(seat)  # draws on 0–4, stands on 5
            assert move is not None
            return move
        target = "own"
        if seat == "other" and informed:
            hand = next(hand for hand in engine.players if hand.seat == seat)
            first, second = (card_value(card) for card in hand.cards[:2])
            target = str(best_wager(MACAO_RULES.counting, 1, first, second, 8)[0])
        return Move(kind="wager", seat=seat, amount=100, target=target)

    return run(engine, npc_decider(engine, policy, rng), player) / 100


def macao_own_coup(cards: list[Card], policy: str | int, rng: random.Random) -> float:
    return macao_coup(cards, policy, rng, informed=False)


GAMES: dict[str, tuple[str, int, Callable[[list[Card], str | int, random.Random], float]]] = {
    "cdf": ("chemin de fer (per unit staked)", 6, cdf_coup),
    "deux": ("deux tableaux (per unit staked)", 3, deux_coup),
    "macao-own": ("Macao, both players on their own hands (per stake)", 1, macao_own_coup),
    "macao": ("Macao, one player on his own hand, one informed (per stake)", 1, macao_coup),
}


def interval(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, Z95 * math.sqrt(var / n)


def bench(key: str, coups: int, seed: str) -> None:
    title, packs, coup = GAMES[key]
    deck = list(Card.ALL) * packs
    nets: dict[str | int, list[float]] = {policy: [] for policy in POLICIES}
    started = time.process_time()
    for i in range(coups):
        cards = random.Random(f"{seed}:{key}:{i}").sample(deck, CARDS)
        for policy in POLICIES:
            nets[policy].append(coup(cards, policy, random.Random(f"{seed}:{key}:{i}:npc")))
    spent = time.process_time() - started
    print(f"\n{title}: {coups} coups, each played by every policy ({spent:.0f} CPU s)")
    print(f"  {'policy':>8}  {'banker per coup':>22}  {'minus today (paired)':>24}")
    today = nets["today"]
    for policy in POLICIES:
        mean, half = interval(nets[policy])
        diff, dhalf = interval([a - b for a, b in zip(nets[policy], today, strict=True)])
        name = policy if policy == "today" else f"level {policy}"
        print(
            f"  {name:>8}  {100 * mean:+8.3f}% ± {100 * half:.3f}%"
            f"  {100 * diff:+10.3f}% ± {100 * dhalf:.3f}%"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--coups", type=int, default=40_000)
    parser.add_argument("--seed", default="bondbot")
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args()
    for key in args.games.split(","):
        bench(key, args.coups, args.seed)


if __name__ == "__main__":
    main()
