"""Clicks: N simultaneous clicks on every button kind, and the effects they had.

    python bench/faults/clicks.py [--clicks 20] [--seed 7] [--timeout 600]

Everything stays on 127.0.0.1 (the fake Discord of bondbot/local in this process, the real
BondBot in its own, bench/load/load_bot.py); the bot and the temp directory are removed at
the end. For each kind of button (and modal submit) the bot has, one user sends the same
interaction `--clicks` times at once (the same custom id, dispatched back to back with
`_wait=False`, as a user hammering a button or several devices would), then each click is
sorted by what came back within Discord's 3 s: a clear answer (a result, or a translated
refusal), the generic error (the bot's own fault), or none. The effects are counted in the
database, before and after: the target is one effect per intent (none for the buttons that
only show something). Each burst hits the button where a player finds it (the panel it is in
opened by one click first, not measured). An effect is a ledger row (buy-in, award, spend,
cash-out, grant, roll step), a state change (a coup or round dealt, a hand added, a move in
the round's log, a state save) or a deleted sheet; a wager or bet is counted in stakes held,
since a new one replaces the last. Every kind, and what one effect of it is, is in
clicks_report.KINDS.

The scene, in four channels: a blackjack table whose shoe is stacked
(bench/load/load_bot.py's BENCH_SEEDS: the first round deals the dealer an Ace, a pair to
the first PC, a double to the second, a hit to the third; the second round a surrender), a
punto banco table with two simulating PCs and a rulebook one, a rulebook-only table (two
NPCs) for the pot, and a lounge for the GM's ledger pages, a skill roll, a sheet's deletion
(and one kept), and two repeated grants: a `/gm hero` whose answer Discord refused (the
fake's deadline set to nothing, as after a crash just after the commit), run again, asks
"give it again?". Prints a row per button kind (clicks, effects and what an effect is, the
three kinds of answer), what the clicks were told, and the bot's error log lines besides
those about the answers lost on purpose; exit 1 unless every row has its expected effects
and only clear answers, and the bot logged no other error. About 30 seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run from a checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "load"))  # load_bot, load_fake

from clicks_report import report
from clicks_scene import BJ, PB, POT, STAKE, Scene
from load_common import TOKEN, BotProcess
from load_fake import BenchFake
from scripted_users import Cast, Users

from bondbot.games.blackjack.engine import BlackjackOptions, rules_of
from bondbot.rules.blackjack import Action, Blackjack, Phase
from bondbot.rules.shoe import Shoe

PACKS = 6  # a blackjack table's default


# -- the stacked blackjack shoe ----------------------------------------------------------------


def stacked_seed(rng: random.Random, tries: int = 100_000) -> bytes:
    """A seed whose shoe plays the scene's blackjack rounds (searched with the pure rules,
    dealt exactly as the table deals: the first seats in join order, then the dealer)."""
    rules = rules_of(BlackjackOptions(), PACKS)
    for _ in range(tries):
        seed = rng.randbytes(32)
        if _plays_the_scene(Blackjack(Shoe.shuffled(PACKS, seed, rules.penetration), rules)):
            return seed
    raise RuntimeError("no shoe found that deals the blackjack scene")


def _plays_the_scene(game: Blackjack) -> bool:
    """Round 1: the dealer shows an Ace (no blackjack); the first PC insures, splits a pair
    and stands on both hands; the second declines insurance, doubles and loses; the third
    hits (and stands). Round 2: the first PC alone, no Ace up, may surrender."""
    d, e, f = "d", "e", "f"
    for seat in (d, e, f):
        game.place_bet(seat, STAKE)
    game.start_round([d, e, f])
    if not game.insurance_open:
        return False
    for seat, take in ((d, True), (e, False), (f, False)):
        game.insure(seat, take)
    if game.current() != (d, 0) or Action.SPLIT not in game.legal_actions(d):
        return False
    game.act(d, Action.SPLIT)
    for hand in (0, 1):
        if game.current() != (d, hand):
            return False
        game.act(d, Action.STAND)
    if game.current() != (e, 0) or Action.DOUBLE not in game.legal_actions(e):
        return False
    game.act(e, Action.DOUBLE)
    if game.current() != (f, 0):
        return False
    game.act(f, Action.HIT)
    if game.current() == (f, 0):
        game.act(f, Action.STAND)
    if game.phase is not Phase.SETTLED or not game.lost_hands(e):
        return False
    game.next_round()
    game.place_bet(d, STAKE)
    game.start_round([d])
    return game.current() == (d, 0) and Action.SURRENDER in game.legal_actions(d)


async def main_async(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    seed = stacked_seed(rng)
    with tempfile.TemporaryDirectory(prefix="bondbot-clicks-") as tmp:
        workdir = Path(tmp)
        fake = BenchFake(token=TOKEN)
        cast = Cast(
            fake,
            ["blackjack", "punto-banco", "pot", "lounge"],
            [*BJ, *PB, *POT],
            ["Kananga", "Le Chiffre", "Blofeld", "Oddjob"],
        )
        await cast.seed(workdir / "bondbot.sqlite3", cash=1_000_000, hero_points=30)
        await fake.start()
        bot = BotProcess("bondbot", fake, cast.guild.id, workdir)
        scene = Scene(Users(fake), cast, bot, args.clicks)
        failures: list[str] = []
        try:
            await bot.start(extra_env={"BENCH_SEEDS": seed.hex()})
            await bot.wait_connected()
            async with asyncio.timeout(args.timeout):
                for part in (scene.blackjack, scene.punto_banco, scene.pot, scene.lounge):
                    try:
                        await part()
                    except RuntimeError as error:
                        failures.append(f"{part.__name__}: {error}")
        except TimeoutError:
            failures.append(f"the scene did not finish within --timeout {args.timeout:g} s")
        finally:
            errors = bot.log_errors()
            await bot.stop()
            await fake.stop()
    ok = report(scene.rows, failures, args.clicks)
    unexpected = [line for n, line in enumerate(errors) if n not in scene.lost_errors]
    print(
        f"the bot logged {len(scene.lost_errors)} error line(s) about the answers lost on purpose"
        f" and {len(unexpected)} other(s){': ' + unexpected[0][:300] if unexpected else ''}"
    )
    return 0 if ok and not unexpected else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=20, help="simultaneous clicks per kind")
    parser.add_argument("--seed", type=int, default=7, help="the stacked shoe's search")
    parser.add_argument("--timeout", type=float, default=600.0, help="for the whole scene, in s")
    args = parser.parse_args(argv)
    if args.clicks < 1:
        parser.error("--clicks must be at least 1")
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
