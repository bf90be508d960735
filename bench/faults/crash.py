"""Crash: kill -9 during a two-game evening, restart on the same database, audit, go on.

    python bench/crash.py [--runs 12] [--coups 4] [--rounds 3] [--seed 7] [--timeout 900]
                          [--verbose]

Everything stays on 127.0.0.1 (the fake Discord of bondbot/local in this process, the
real BondBot in its own, bench/load_bot.py) and the run is bounded (`--runs` evenings,
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
when an audit failed or a restart was not survived.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import TOKEN, BotProcess
from load_fake import BenchFake, FakeChannel, FakeMessage
from scripted_users import (
    Answer,
    Cast,
    Player,
    Users,
    buttons,
    has_button,
    reading,
    table_messages,
    until,
)

from bondbot.games.blackjack.engine import BlackjackEngine
from bondbot.games.punto_banco.engine import PuntoBanco
from bondbot.i18n import t
from bondbot.rules.blackjack import Action, Phase
from bondbot.storage import ledger
from bondbot.storage.characters import CREATE_REASON
from bondbot.tables.state import TableState

CASH = 1_000_000  # each PC's opening cash: $10,000
HERO_POINTS = 30
BANKROLL = "20000"  # each table's bank, $20,000 (limited: what it takes away is audited)
BUY_IN = "2000"
STAKE = "50"
GUESS, GUESS_S = 60, 10.0  # an evening's interactions and seconds, until one was measured
KILL_DELAY_S = 0.04  # the kill lands up to this long after the k-th dispatch: mid-interaction
SETTLE_S = 8.0  # how long the channel may take to show the right messages after a start
CLOSED = t("table.closed_banner", "en")
ROLLED = "Your Gambling roll"
PONDER_S = (0.3, 1.5)  # how long the rulebook player looks at his roll before he settles
OUTSIDE_IN = {("cash", CREATE_REASON), ("hero", CREATE_REASON), ("cash", "table.bankroll")}
OUTSIDE_IN |= {("hero", "award.simulate")}
OUTSIDE_OUT = {("cash", "table.bank_close"), ("hero", "spend.win_hand")}
OUTSIDE_OUT |= {("hero", "spend.contest_step")}


def cid(table: int, action: str, *args: object) -> str:
    return ":".join(["bb", "tbl", str(table), action, *map(str, args)])


@dataclass
class Plan:
    """One table of the evening: its game, channel, NPC, players and how long it plays."""

    game: str
    channel: FakeChannel
    npc: str
    players: list[Player]
    rulebook: set[str]
    hands: int
    handled: set[int] = field(default_factory=set)  # hands whose spends were offered a click
    contested: set[int] = field(default_factory=set)  # hands the rulebook player contested
    clicks: Counter[str] = field(default_factory=Counter)  # effect-bearing clicks sent
    table_id: int = 0


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


@dataclass
class RunReport:
    number: int
    kill: str = "no kill"
    flying: str = ""
    unanswered: int = 0
    restart_s: float = 0.0
    survived: bool = False
    audits: list[tuple[str, list[str]]] = field(default_factory=list)
    interactions: int = 0
    seconds: float = 0.0
    contests: int = 0  # pending contests the audit reached again


# -- the audit ---------------------------------------------------------------------------------


async def audit_money(database: Path, cast: Cast, plans: list[Plan]) -> list[str]:
    """Money and Hero Points against the ledger and what came in and went out of the game."""
    problems: list[str] = []
    async with reading(database) as conn:
        for (account, kind), (stored, computed) in (await ledger.verify_balances(conn)).items():
            problems.append(f"balance {account} {kind} is {stored}, its ledger rows say {computed}")
        tables: dict[int, tuple[str, TableState | None]] = {}
        for table, status, saved in await conn.execute_fetchall(
            "SELECT id, status, state FROM card_tables"
        ):
            try:
                tables[table] = (status, TableState.model_validate_json(saved))
            except ValueError as error:
                tables[table] = (status, None)
                problems.append(f"table {table}: its state does not load: {error}"[:300])
        outside = list(
            await conn.execute_fetchall(
                "SELECT kind, amount, src, dst, reason, table_id FROM ledger"
                " WHERE src IS NULL OR dst IS NULL"
            )
        )
        balances = list(await conn.execute_fetchall("SELECT account, kind, balance FROM balances"))
        buy_ins = Counter(
            (table, dst)
            for table, dst in await conn.execute_fetchall(
                "SELECT table_id, dst FROM ledger WHERE reason = 'table.buy_in'"
            )
        )
    came_in: Counter[str] = Counter()
    went_out: Counter[str] = Counter()
    seen: Counter[tuple[str, str, str, int | None]] = Counter()
    spent: Counter[tuple[int | None, str]] = Counter()
    for kind, amount, src, dst, reason, table in outside:
        account = dst if src is None else src
        seen[(kind, reason, account, table)] += 1
        if (kind, reason) in OUTSIDE_IN and src is None:
            came_in[kind] += amount
        elif (kind, reason) in OUTSIDE_OUT and dst is None:
            went_out[kind] += amount
            spent[(table, reason)] += 1
        else:
            problems.append(f"{amount} {kind} moved {src} → {dst} for {reason}: not expected")
        if reason == CREATE_REASON:
            expected = cast.seeded.get(int(account.split(":")[1]), (0, 0))
            if amount != expected[0 if kind == "cash" else 1]:
                problems.append(f"{account} opened with {amount} {kind}, seeded {expected}")
        if reason == "table.bankroll":
            state = tables.get(table, ("", None))[1]
            if state is not None and amount != state.config.bankroll:
                problems.append(f"table {table}: bankroll {amount}, configured differently")
        if reason == "table.bank_close" and tables.get(table, ("open",))[0] != "closed":
            problems.append(f"table {table}: its bank left the game but the table is open")
    for (kind, reason, account, table), n in seen.items():
        once = reason in (CREATE_REASON, "table.bankroll", "table.bank_close", "award.simulate")
        if once and n > 1:
            problems.append(f"{reason} ({kind}) of {account} (table {table}) booked {n} times")
    for table, (_, state) in tables.items():
        if state is None:
            continue
        simulating = {c for c, choice in state.chosen.items() if choice == "simulate"}
        awarded = {
            int(account.split(":")[1])
            for (_, reason, account, where) in seen
            if reason == "award.simulate" and where == table
        }
        if awarded != simulating:
            problems.append(f"table {table}: awards to {awarded}, simulating {simulating}")
    clicks = {plan.table_id: plan.clicks for plan in plans if plan.table_id}
    for table, sent in clicks.items():
        for reason, kind in (("spend.win_hand", "spend"), ("spend.contest_step", "cstep")):
            if spent[(table, reason)] > sent[kind]:
                problems.append(
                    f"table {table}: {spent[(table, reason)]} {reason} rows for {sent[kind]} clicks"
                )
        for (where, account), n in buy_ins.items():
            character = account.split(":")[2]
            if where == table and n > sent[f"join {character}"]:
                problems.append(f"table {table}: {n} buy-ins of {character}, fewer join submits")
    inside: Counter[str] = Counter()
    for account, kind, balance in balances:
        inside[kind] += balance
        parts = account.split(":")
        if parts[0] in ("chips", "bank", "pot", "layout") and balance:
            status, state = tables.get(int(parts[1]), ("?", None))
            if status == "closed":
                problems.append(f"closed table {parts[1]}: {account} still holds {balance}")
            elif parts[0] == "chips" and state and not state.seat_of_character(int(parts[2])):
                problems.append(f"table {parts[1]}: {account} holds {balance}, not seated")
    for kind in ("cash", "hero"):
        if inside[kind] != came_in[kind] - went_out[kind]:
            problems.append(
                f"{kind} inside the game {inside[kind]}, came in {came_in[kind]},"
                f" went out {went_out[kind]}"
            )
    return problems


def channel_problems(fake: BenchFake, database_rows: list[tuple], plans: list[Plan]) -> list[str]:
    """One table message per table, the one the database names; closed ones drawn closed."""
    problems = []
    channels = {plan.channel.id: plan.channel for plan in plans}
    by_channel: dict[int, list[tuple]] = {}
    for row in database_rows:
        by_channel.setdefault(row[1], []).append(row)
    for channel_id, channel in channels.items():
        messages = table_messages(fake, channel)
        rows = by_channel.get(channel_id, [])
        if len(messages) != len(rows):
            problems.append(
                f"#{channel.name}: {len(messages)} table messages for {len(rows)} tables"
            )
        for table, _, status, message_id in rows:
            shown = next((m for m in messages if m.id == message_id), None)
            if shown is None:
                problems.append(
                    f"table {table}: its message {message_id} is not in #{channel.name}"
                )
            elif status == "closed" and (
                any(not b["custom_id"].endswith(":verify") for b in buttons(shown))
                or CLOSED not in str(shown.embeds[0].get("description"))
            ):
                problems.append(f"table {table} is closed, its message shows it open")
            elif status == "open" and not shown.components:
                problems.append(f"table {table} is open, its message has no buttons")
    return problems


async def audit_channels(fake: BenchFake, database: Path, plans: list[Plan]) -> list[str]:
    """The channel problems that remain after the bot had SETTLE_S to redraw what it must."""
    problems: list[str] = []

    async def settled() -> bool:
        nonlocal problems
        async with reading(database) as conn:
            rows = list(
                await conn.execute_fetchall(
                    "SELECT id, channel_id, status, message_id FROM card_tables"
                )
            )
        problems = channel_problems(fake, rows, plans)
        return not problems

    deadline = time.monotonic() + SETTLE_S
    while not await settled() and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    return problems


async def audit_contests(
    users: Users, database: Path, plans: list[Plan], report: RunReport
) -> list[str]:
    """Every PC with a pending contest gets it back from the Contest button."""
    problems = []
    for plan in plans:
        async with reading(database) as conn:
            rows = list(
                await conn.execute_fetchall(
                    "SELECT id, state FROM card_tables WHERE channel_id = ? AND status = 'open'",
                    (plan.channel.id,),
                )
            )
        for table, saved in rows:
            state = TableState.model_validate_json(saved)
            for contest in (c for c in state.contests if not c.settled):
                seat = state.seat_of_character(contest.pc.character_id)
                msg = next(
                    (m for m in table_messages(users.fake, plan.channel) if m.components), None
                )
                if seat is None or msg is None:
                    problems.append(f"table {table}: contest {contest.id} has no seat or message")
                    continue
                user = users.fake.users[seat.user_id]
                panel = await users.click(  # Contest is in his seat panel
                    "audit seat panel", user, msg, cid(table, "seat"), gated=False
                )
                custom = cid(table, "contest")
                if not (panel.acked and panel.result and has_button(panel.result.message, custom)):
                    problems.append(
                        f"table {table}: {seat.name}'s seat panel shows no Contest: "
                        f"{panel.verdict}, {panel.content[:80]!r}"
                    )
                    continue
                shown = await users.click("audit contest", user, panel.result, custom, gated=False)
                step = shown.button(f":cstep:{contest.id}:")
                report.contests += 1
                if not shown.content.startswith(ROLLED) or step is None:
                    problems.append(
                        f"table {table}: {seat.name} cannot reach contest {contest.id}: "
                        f"{shown.verdict}, {shown.content[:80]!r}"
                    )
    return problems


async def audit(
    users: Users, database: Path, cast: Cast, plans: list[Plan], report: RunReport
) -> list[str]:
    problems = await audit_money(database, cast, plans)
    problems += await audit_channels(users.fake, database, plans)
    return problems + await audit_contests(users, database, plans, report)


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
