"""Crash: kill -9 during a two-game evening, restart on the same database, audit, go on.

    python bench/faults/crash.py [--runs 12] [--coups 4] [--rounds 3] [--seed 7] [--timeout 900]
                                 [--verbose]

Everything stays on 127.0.0.1 (the fake Discord of bondbot/local in this process, the
real BondBot in its own, bench/load/load_bot.py) and the run is bounded (`--runs` evenings,
`--timeout` for all of them); the bot and the temp directory (config, SQLite, log) are
removed at the end.

Each run is one evening in two new channels: the GM opens a punto banco table (Le Chiffre's
bank) and a blackjack table (Kananga's), both with a limited bankroll. Bond and Felix
simulate at punto banco (wagers by the modal or Same again, Hero Point spends on lost
coups); Mathis chooses the rulebook there and plays a contest each coup (he rolls, looks
at his roll for 0.3–1.5 s, sometimes spends a step, settles); Wai Lin and Jinx simulate at
blackjack (bets, insurance, hit / stand / double / split / surrender, spends). The GM
deals; after `--coups` coups and `--rounds` rounds he closes both tables. Every user acts
on what the database says (so a click lost to a crash is simply tried again) and clicks
buttons where a player finds them: on the table message (My seat, which opens the buy-in
form to someone without a seat; Bet; Spend a Hero Point; hit, stand, double; insurance;
the GM's Deal once the table is redrawn with it), the choice of rule under the join's
answer (or, after a crash, in his seat panel), and in the private seat panel opened by My
seat: Same again, Contest, split and surrender.

Once per run the bot gets SIGKILL at a random moment: in odd runs 0–40 ms after the k-th
interaction was dispatched (k uniform up to the last evening's count: mostly while one is
under way), in even runs at a time uniform over the last evening's length; an evening that
ends first is killed just after its close. The bot restarts on the same database and,
before anyone plays on, the audit:

- money and Hero Points: every balance equals the ledger (`ledger.verify_balances`); the
  only movements from or to outside the game are the sheets' opening amounts, each table's
  bankroll (once, as configured) and what its bank took away at the close (once, closed
  tables only), the simulate awards (one per PC who chose to simulate at a table, none for
  others) and Hero Points spent; so cash and points inside the game equal what came in
  less what went out. Spends, contest steps and buy-ins never exceed the clicks sent. No
  chips are left on a closed table, none belong to a PC not seated at an open one.
- every open table's state loads;
- the channels: exactly one table message per table, the one whose id the database
  holds; a closed table's message shows it closed, with no button but Verify the shoes;
- every PC with a pending contest opens My seat, clicks Contest in his panel and is shown
  it again (roll, buttons).

The same audit runs at the end of each evening. Prints a line per run (where the kill
landed, what was in flight, how long the bot took to be back, the pending contests reached
again, audits) and the totals; `--verbose` adds every kind of answer the users got. Exit 1
when an audit failed or a restart was not survived. About 2 minutes with the defaults. The
kills' timing depends on the machine, so two runs with one seed differ.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run from a checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "load"))  # load_bot, load_fake

from crash_audit import ROLLED, Plan, RunReport, audit, cid
from load_common import TOKEN, BotProcess
from load_fake import BenchFake, FakeMessage
from scripted_users import Answer, Cast, Player, Users, has_button, reading, table_messages, until

from bondbot.games.blackjack.engine import BlackjackEngine
from bondbot.games.punto_banco.engine import PuntoBanco
from bondbot.rules.blackjack import Action, Phase
from bondbot.tables.state import TableState

CASH = 1_000_000  # each PC's opening cash: $10,000
HERO_POINTS = 30
BANKROLL = "20000"  # each table's bank, $20,000 (limited: what it takes away is audited)
BUY_IN = "2000"
STAKE = "50"
GUESS, GUESS_S = 60, 10.0  # an evening's interactions and seconds, until one was measured
PONDER_S = (0.3, 1.5)  # how long the rulebook player looks at his roll before he settles
KILL_DELAY_S = 0.04  # the kill lands up to this long after the k-th dispatch: mid-interaction


class Evening:
    """One table's evening, played by its users from what the database says."""

    def __init__(
        self, users: Users, cast: Cast, database: Path, plan: Plan, rng: random.Random
    ) -> None:
        self.users, self.fake, self.cast = users, users.fake, cast
        self.database, self.plan, self.rng = database, plan, rng

    def label(self, what: str) -> str:
        return f"{'pb' if self.plan.game == 'punto_banco' else 'bj'} {what}"

    async def row(self) -> tuple[int, str, str] | None:
        async with reading(self.database) as conn:
            rows = list(
                await conn.execute_fetchall(
                    "SELECT id, status, state FROM card_tables WHERE channel_id = ?"
                    " ORDER BY id DESC LIMIT 1",
                    (self.plan.channel.id,),
                )
            )
        return (rows[0][0], rows[0][1], rows[0][2]) if rows else None

    def message(self, table: int) -> FakeMessage | None:
        found = [m for m in table_messages(self.fake, self.plan.channel) if m.components]
        return next((m for m in found if has_button(m, cid(table, "seat"))), None)

    async def in_panel(
        self, what: str, player: Player, msg: FakeMessage, table: int, custom: str
    ) -> Answer | None:
        """A button of the player's private seat panel: My seat on the table, then it (None
        when the panel does not show it)."""
        panel = await self.users.click(
            self.label("seat panel"), player.user, msg, cid(table, "seat")
        )
        if not (panel.acked and panel.result and has_button(panel.result.message, custom)):
            return None
        return await self.users.click(self.label(what), player.user, panel.result, custom)

    async def run(self) -> None:
        plan = self.plan
        while True:
            await self.users.gate.wait()
            row = await self.row()
            if row is None:
                await self.users.slash(
                    self.label("open"),
                    self.cast.gm,
                    f"table open {plan.game}",
                    plan.channel,
                    npc=plan.npc,
                    minimum="10",
                    maximum="500",
                    bankroll=BANKROLL,
                )
                continue
            table, status, saved = row
            plan.table_id = table
            if status != "open":
                return
            state = TableState.model_validate_json(saved)
            msg = await until(lambda t=table: self.message(t), 5.0)
            if msg is None:
                continue
            if await self.seat_everyone(table, state, msg) or await self.spends(table, state, msg):
                continue
            if self.finished(state):
                await self.users.slash(
                    self.label("close"), self.cast.gm, "table close", plan.channel
                )
                continue
            if plan.game == "punto_banco":
                await self.coup(table, state, msg)
            else:
                await self.blackjack(table, state, msg)

    async def seat_everyone(self, table: int, state: TableState, msg: FakeMessage) -> bool:
        """Joins (button, modal) and choices; True when a click was sent."""
        for player in self.plan.players:
            seat = state.seat_of_character(player.character_id)
            choice = "rulebook" if player.name in self.plan.rulebook else "simulate"
            if seat is None:  # My seat, to someone without a seat: the buy-in form
                modal = await self.users.click(
                    self.label("seat button (join)"), player.user, msg, cid(table, "seat")
                )
                if modal.modal is not None:
                    self.plan.clicks[f"join {player.character_id}"] += 1
                    joined = await self.users.submit(
                        self.label("join"), player.user, modal.result, {"amount": BUY_IN}
                    )
                    custom = cid(table, "choose", choice)  # under the join's private answer
                    if joined.acked and joined.result and has_button(joined.result.message, custom):
                        await self.users.click(
                            self.label(choice), player.user, joined.result, custom
                        )
                return True
            if seat.choice is None:  # the answer lost (a crash): his seat panel offers it
                await self.in_panel(choice, player, msg, table, cid(table, "choose", choice))
                return True
        return False

    def finished(self, state: TableState) -> bool:
        engine = state.engine
        if state.hand_no < self.plan.hands:
            return False
        if isinstance(engine, BlackjackEngine):
            return engine.game.phase in (Phase.SETTLED, Phase.BETTING)
        return True

    def player_of(self, character: int | str) -> Player | None:
        return next((p for p in self.plan.players if p.character_id == int(character)), None)

    async def spends(self, table: int, state: TableState, msg: FakeMessage) -> bool:
        """Once per hand: each PC who lost it clicks the table's Spend a Hero Point button
        (7 times in 10): with one lost hand it spends at once, with several he picks the
        offer in the private answer. True when a click was sent."""
        hand = getattr(state.engine.last, "hand", None)  # the last coup or round dealt
        if hand is None or hand in self.plan.handled:
            return False
        self.plan.handled.add(hand)
        clicked = False
        for offer in state.offers:
            player = self.player_of(offer.character_id)
            if offer.hand != hand or offer.spent or player is None or self.rng.random() >= 0.7:
                continue
            if await until(lambda: has_button(msg, cid(table, "hp")), 2.0):
                self.plan.clicks["spend"] += 1  # the Spend click, or the pick after it
                hp = await self.users.click(self.label("spend"), player.user, msg, cid(table, "hp"))
                custom = cid(table, "spend", offer.id)
                if hp.acked and hp.result and has_button(hp.result.message, custom):
                    await self.users.click(self.label("spend pick"), player.user, hp.result, custom)
                clicked = True
        return clicked

    async def coup(self, table: int, state: TableState, msg: FakeMessage) -> None:
        """A punto banco coup: the rulebook player's contest, the wagers, the GM's deal."""
        engine = state.engine
        assert isinstance(engine, PuntoBanco)
        for player in self.plan.players:
            seat = state.seat_of_character(player.character_id)
            if seat is None:
                continue
            if seat.choice == "rulebook":
                if state.hand_no not in self.plan.contested:
                    self.plan.contested.add(state.hand_no)
                    await self.contest(table, player, msg)
            elif str(player.character_id) not in engine.wagers:
                await self.wager(table, player, msg, engine)
        # Deal is drawn on the table once a wager is in (the redraw is coalesced)
        if await until(lambda: has_button(msg, cid(table, "deal")), 3.0):
            await self.users.click(self.label("deal"), self.cast.gm, msg, cid(table, "deal"))

    async def wager(self, table: int, player: Player, msg: FakeMessage, engine: PuntoBanco) -> None:
        played = engine.last is not None and any(
            r.seat == str(player.character_id) for r in engine.last.results
        )
        again = cid(table, "again")  # Same again is in his seat panel
        if (
            played
            and self.rng.random() < 0.5
            and await self.in_panel("same again", player, msg, table, again)
        ):
            return
        on = self.rng.choice(("player", "banker", "banker", "tie"))
        if not await until(lambda: has_button(msg, cid(table, "bets")), 3.0):
            return
        modal = await self.users.click(
            self.label("bet button"), player.user, msg, cid(table, "bets")
        )
        if modal.modal is not None:
            await self.users.submit(
                self.label("wager"), player.user, modal.result, {"on": [on], "amount": STAKE}
            )

    async def contest(self, table: int, player: Player, msg: FakeMessage) -> None:
        """Contest (in his seat panel): a pending one comes back, else the stake's modal;
        maybe a step; settle."""
        shown = await self.in_panel("contest button", player, msg, table, cid(table, "contest"))
        if shown is None:
            return
        if shown.modal is not None:
            shown = await self.users.submit(
                self.label("contest"), player.user, shown.result, {"amount": STAKE}
            )
        if not shown.content.startswith(ROLLED):
            return
        await asyncio.sleep(self.rng.uniform(*PONDER_S))  # a spend to weigh: the contest waits
        step = shown.button(":cstep:")
        if step is not None and not step.get("disabled") and self.rng.random() < 0.5:
            self.plan.clicks["cstep"] += 1
            await self.users.click(
                self.label("contest step"), player.user, shown.result, step["custom_id"]
            )
        settle = shown.button(":csettle:")
        if settle is not None:
            await self.users.click(
                self.label("contest settle"), player.user, shown.result, settle["custom_id"]
            )

    async def blackjack(self, table: int, state: TableState, msg: FakeMessage) -> None:
        engine = state.engine
        assert isinstance(engine, BlackjackEngine)
        game = engine.game
        if game.phase in (Phase.BETTING, Phase.SETTLED):
            for player in self.plan.players:
                seat = state.seat_of_character(player.character_id)
                betting = game.phase is Phase.BETTING and str(player.character_id) in game.seats
                if seat is None or seat.choice != "simulate" or betting:
                    continue
                if not await until(lambda: has_button(msg, cid(table, "bet")), 3.0):
                    return
                modal = await self.users.click(
                    self.label("bet button"), player.user, msg, cid(table, "bet")
                )
                if modal.modal is not None:
                    await self.users.submit(
                        self.label("bet"), player.user, modal.result, {"amount": STAKE}
                    )
            if await until(lambda: has_button(msg, cid(table, "deal")), 3.0):
                await self.users.click(self.label("deal"), self.cast.gm, msg, cid(table, "deal"))
            return
        if game.phase is Phase.INSURANCE:
            for seat in game.insurance_pending:
                player = self.player_of(seat)
                action = "insure" if self.rng.random() < 0.3 else "noinsure"
                if player is not None and await until(
                    lambda a=action: has_button(msg, cid(table, a)), 3.0
                ):
                    await self.users.click(self.label(action), player.user, msg, cid(table, action))
            return
        current = game.current()
        if current is None:
            return
        player = self.player_of(current[0])
        if player is None:
            return
        hand = game.hands(current[0])[current[1]]
        action = self.choose(hand.total, game.legal_actions(current[0]))
        custom = cid(table, action, state.moves)
        if action in ("split", "surrender"):  # only in his seat panel
            await self.in_panel(action, player, msg, table, custom)
        elif await until(lambda: has_button(msg, custom), 3.0):
            await self.users.click(self.label(action), player.user, msg, custom)

    def choose(self, total: int, legal: list[Action]) -> str:
        """A rough player: splits and doubles when he may, half the time; hits below 17."""
        allowed = {a.value for a in legal}
        for rare, chance in (("split", 0.5), ("double", 0.3), ("surrender", 0.05)):
            if rare in allowed and self.rng.random() < chance:
                return rare
        return "hit" if total < 17 else "stand"


# -- the runs ----------------------------------------------------------------------------------


def make_plans(cast: Cast, run: int, args: argparse.Namespace) -> list[Plan]:
    p = cast.players
    return [
        Plan(
            "punto_banco",
            cast.channels[f"pb-{run}"],
            "Le Chiffre",
            [p["James Bond"], p["Felix Leiter"], p["René Mathis"]],
            {"René Mathis"},
            args.coups,
        ),
        Plan(
            "blackjack",
            cast.channels[f"bj-{run}"],
            "Kananga",
            [p["Wai Lin"], p["Jinx Johnson"]],
            set(),
            args.rounds,
        ),
    ]


@dataclass
class Estimate:
    """How long the last evening played: where a random kill may land in the next one."""

    interactions: int = GUESS
    seconds: float = GUESS_S


async def one_run(
    number: int,
    users: Users,
    bot: BotProcess,
    cast: Cast,
    plans: list[Plan],
    every_plan: list[Plan],
    rng: random.Random,
    estimate: Estimate,
) -> RunReport:
    """One evening and one kill: after the k-th interaction (odd runs) or at a random time
    (even runs); just after the close if the evening ends first."""
    report = RunReport(number)
    started, first, unanswered = time.monotonic(), users.dispatched, users.unanswered
    by_time = number % 2 == 0
    k = rng.randint(1, estimate.interactions)
    delay = rng.uniform(0, estimate.seconds if by_time else KILL_DELAY_S)
    trigger = asyncio.Event()
    closed_first = False
    paused = 0.0

    def watch(dispatched: int) -> None:
        if dispatched - first >= k:
            trigger.set()

    if by_time:
        trigger.set()
    else:
        users.watchers.append(watch)
    database = bot.database
    evenings = asyncio.gather(
        *(Evening(users, cast, database, plan, random.Random(rng.random())).run() for plan in plans)
    )

    async def kill_and_restart() -> None:
        nonlocal paused
        await trigger.wait()
        await asyncio.sleep(delay)
        users.gate.clear()
        killed = time.monotonic()
        report.flying = users.flying()
        at = users.dispatched - first
        where = (
            "just after the close"
            if closed_first
            else f"at {delay:.2f} s"
            if by_time
            else f"{1000 * delay:.0f} ms after interaction {k}"
        )
        report.kill = f"{where} (interaction {at}, {killed - started:.1f} s in)"
        await bot.kill()
        fake = users.fake
        await until(lambda: all(s.connection is None for s in fake.sessions.values()), 10)
        for session_id in [s for s, v in fake.sessions.items() if v.connection is None]:
            fake.sessions.pop(session_id)
        await bot.start()
        await bot.wait_connected()
        report.restart_s = time.monotonic() - killed
        report.audits.append(
            ("after restart", await audit(users, database, cast, every_plan, report))
        )
        paused = time.monotonic() - killed
        users.gate.set()

    killing = asyncio.ensure_future(kill_and_restart())
    done, _ = await asyncio.wait({killing, evenings}, return_when=asyncio.FIRST_COMPLETED)
    if evenings in done and not killing.done():
        delay, closed_first = 0.0, True  # the evening ended first: kill just after its close
        trigger.set()
    await killing
    await evenings
    if not by_time:
        users.watchers.remove(watch)
    report.survived = True
    report.unanswered = users.unanswered - unanswered
    report.interactions = users.dispatched - first
    report.seconds = time.monotonic() - started
    report.audits.append(("end of evening", await audit(users, database, cast, every_plan, report)))
    estimate.interactions = max(report.interactions, 10)
    estimate.seconds = max(report.seconds - paused, 1.0)
    return report


def print_answers(users: Users) -> None:
    print("\nwhat the users were answered (--verbose), by kind:")
    for (label, text), n in sorted(users.answers.items()):
        print(f"  {n:5d}  {label}: {text}")
    for text, n in users.rejected.most_common():
        print(f"  {n:5d}  not sent (the client refused it): {text}")


def print_report(reports: list[RunReport], args: argparse.Namespace, log_errors: list[str]) -> bool:
    print(
        f"BondBot crash: {len(reports)} evenings (punto banco {args.coups} coups and blackjack "
        f"{args.rounds} rounds, GM and 5 PCs), one SIGKILL each, seed {args.seed}"
    )
    print()
    failed: list[str] = []
    for r in reports:
        passed = sum(not problems for _, problems in r.audits)
        print(
            f"run {r.number}: killed {r.kill}; in flight: {r.flying}; {r.unanswered} unanswered;"
            f" up again in {r.restart_s:.1f} s; pending contests reached again:"
            f" {r.contests}; {r.interactions} interactions in {r.seconds:.0f} s;"
            f" audits {passed} passed, {len(r.audits) - passed} failed"
        )
        for when, problems in r.audits:
            failed += [f"run {r.number}, {when}: {p}" for p in problems]
    audits = sum(len(r.audits) for r in reports)
    bad = sum(1 for r in reports for _, problems in r.audits if problems)
    survived = sum(r.survived for r in reports)
    print()
    print(
        f"total: {len(reports)} kills, {survived} restarts survived, audits {audits - bad} passed,"
        f" {bad} failed; {sum(r.interactions for r in reports)} interactions, of which"
        f" {sum(r.unanswered for r in reports)} went unanswered (under way at a kill);"
        f" {sum(r.contests for r in reports)} pending contests reached again"
    )
    for line in failed:
        print(f"  {line}")
    if log_errors:
        print(f"the bot logged {len(log_errors)} error line(s), first: {log_errors[0][:200]}")
    ok = not failed and survived == args.runs
    print(f"{'PASS' if ok else 'FAIL'}  every restart survived and every audit passed")
    return ok


async def main_async(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="bondbot-crash-") as tmp:
        workdir = Path(tmp)
        fake = BenchFake(token=TOKEN)
        channels = [f"{game}-{run}" for run in range(1, args.runs + 1) for game in ("pb", "bj")]
        players = ["James Bond", "Felix Leiter", "René Mathis", "Wai Lin", "Jinx Johnson"]
        cast = Cast(fake, channels, players, ["Le Chiffre", "Kananga"])
        await cast.seed(workdir / "bondbot.sqlite3", cash=CASH, hero_points=HERO_POINTS)
        await fake.start()
        bot = BotProcess("bondbot", fake, cast.guild.id, workdir)
        users = Users(fake)
        reports: list[RunReport] = []
        every_plan: list[Plan] = []
        try:
            await bot.start()
            await bot.wait_connected()
            estimate = Estimate()
            async with asyncio.timeout(args.timeout):
                for run in range(1, args.runs + 1):
                    plans = make_plans(cast, run, args)
                    every_plan += plans
                    report = await one_run(run, users, bot, cast, plans, every_plan, rng, estimate)
                    reports.append(report)
        except TimeoutError:
            print(f"FAIL  the runs did not finish within --timeout {args.timeout:g} s")
        finally:
            errors = bot.log_errors()
            await bot.stop()
            await fake.stop()
    ok = print_report(reports, args, errors) and len(reports) == args.runs
    if args.verbose:
        print_answers(users)
    return 0 if ok else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=12, help="evenings, one kill each")
    parser.add_argument("--coups", type=int, default=4, help="punto banco coups an evening")
    parser.add_argument("--rounds", type=int, default=3, help="blackjack rounds an evening")
    parser.add_argument("--seed", type=int, default=7, help="the users' choices and the kills")
    parser.add_argument("--timeout", type=float, default=900.0, help="for all runs, in s")
    parser.add_argument("--verbose", action="store_true", help="print every kind of answer")
    args = parser.parse_args(argv)
    if min(args.runs, args.coups, args.rounds) < 1:
        parser.error("--runs, --coups and --rounds must be at least 1")
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
