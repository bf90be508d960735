"""bench/faults/crash.py's audit after each restart and at the end of each evening: money
and Hero Points against the ledger and what came in and went out, each table's state, the
channels' table messages, the pending contests reached again; and the tables it audits
(`Plan`), the run's report (`RunReport`)."""

from __future__ import annotations

import asyncio
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run from a checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "load"))  # load_bot, load_fake

from load_fake import BenchFake, FakeChannel
from scripted_users import Cast, Player, Users, buttons, has_button, reading, table_messages

from bondbot.i18n import t
from bondbot.storage import ledger
from bondbot.storage.characters import CREATE_REASON
from bondbot.tables.state import TableState

SETTLE_S = 8.0  # how long the channel may take to show the right messages after a start
CLOSED = t("table.closed_banner", "en")
ROLLED = "Your Gambling roll"
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
