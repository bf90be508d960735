"""An evening of any game played through the fake Discord by the real bot, counting what
the bot spends of its token's budget: every request outside an interaction's answer (its
callback, its token's follow-ups), by kind, per coup (issue 32).

Two players and the GM play as people do, at a human pace: each click waits until the
bot has done all it does after it (its answer, its redraws, its posts), so nothing is
coalesced by chance and the count is the most a coup costs. The players' moves are the
buttons they find, on the table message first or in their own panels (My seat, the
hand panel of the trick games), with the least amount a form allows; wagers go half from
the table's form and half by the seat panel's Same again where a game has it; the GM
deals from the table (else his panel); the NPC plays by itself. After each coup, a loser
spends a Hero Point from the table's Spend button, and time passes until the Hero Point
windows close (the bot's timers run when the evening's clock says so: `SteppedScheduler`).

Used by `test_requests_per_coup.py` (the budget, counted) and by
`bench/load/requests_per_game.py` (the per-game table, Discord's buckets on).
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import re
from collections import Counter
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from e2e_env import BotEnv
from table_flow import create_cast, le_chiffre, table_message

import bondbot.services
from bondbot.bot.client import BondBot
from bondbot.local.client import MODAL, InteractionResult
from bondbot.local.models import FakeUser
from bondbot.scheduler import Scheduler
from bondbot.tables.context import iso
from bondbot.tables.service import TableSnapshot

KINDS = ("posts", "edits", "threads", "others")
GAMES = (
    "punto_banco",
    "chemin_de_fer",
    "deux_tableaux",
    "blackjack",
    "holdem",
    "macao",
    "michigan",
    "makao",
)
OPEN: dict[str, dict[str, str]] = {
    "blackjack": {"minimum": "10", "maximum": "500"},
    "chemin_de_fer": {"minimum": "10", "maximum": "500", "bankroll": "100000"},
    "deux_tableaux": {"minimum": "10", "maximum": "500", "bankroll": "100000"},
    "holdem": {"minimum": "50", "maximum": "500", "big_blind": "10"},
    "macao": {"minimum": "10", "maximum": "500", "bankroll": "100000"},
    "makao": {"minimum": "10", "maximum": "100", "stake": "10"},
    "michigan": {"minimum": "10", "maximum": "100", "chip": "2"},
    "punto_banco": {"minimum": "10", "maximum": "500"},
}
SPEND_WINDOW_S = 30
# Buttons that are no game move: panels, the GM's controls, reading, leaving, the end.
NOT_MOVES = {
    "seat", "gm", "hp", "spend", "mine", "hint", "hist", "verify", "leave", "sit", "contest",
    "choose", "end", "cstep", "csettle", "psettle", "gpot", "npc", "gpause", "gseat",
    "gunseat", "gout", "gclose", "join", "withdraw", "hand",
}  # fmt: skip
GM_MOVES = {"deal", "newhand", "start", "auction", "close"}  # the GM's, on the table
HAND_PANEL = "hand"  # the trick games' button that opens a player's hand and its moves
STEPS_MAX = 400


def budget_kind(method: str, path: str) -> str | None:
    """What a request spends of the bot token's budget: a post, an edit, a thread (started,
    or edited: archived) or another; None for an interaction's answer (its callback, or its
    token's webhook), which Discord does not count. As `bench/load.py` counts."""
    if path.startswith(("/interactions/", "/webhooks/")):
        return None
    if "/threads" in path or (method == "PATCH" and re.fullmatch(r"/channels/\d+", path)):
        return "threads"
    if method == "POST" and re.fullmatch(r"/channels/\d+/messages", path):
        return "posts"
    if method == "PATCH" and re.fullmatch(r"/channels/\d+/messages/\d+", path):
        return "edits"
    return "others"


@dataclass
class Spent:
    """What an evening cost outside interaction answers."""

    game: str
    coups: int = 0
    by_kind: Counter[str] = field(default_factory=Counter)
    by_cause: Counter[str] = field(default_factory=Counter)  # the step each followed
    limited: int = 0  # 429s received
    pictures: int = 0  # hands pictured (on an answer or posted)
    shown: int = 0  # hands that ended with cards to show (hold'em's won by folds: none)
    private_moves: int = 0  # moves made in a private panel: their answer cannot redraw the table
    windows_closed: int = 0  # Hero Point windows that ran out with the table's Spend shown
    stale_spend: int = 0  # ... and whose Spend button the table still showed afterwards

    @property
    def total(self) -> int:
        return sum(self.by_kind.values())

    def per_coup(self, kind: str | None = None) -> float:
        spent = self.total if kind is None else self.by_kind[kind]
        return spent / max(1, self.coups)

    def line(self) -> str:
        kinds = ", ".join(f"{self.per_coup(k):.2f} {k}" for k in KINDS)
        causes = ", ".join(f"{c} {n}" for c, n in self.by_cause.most_common())
        return (
            f"{self.game}: {self.per_coup():.2f} a coup ({kinds}; {self.coups} coups),"
            f" {self.limited} 429s; {self.windows_closed} Hero Point windows ran out;"
            f" after: {causes or 'nothing'}"
        )


class SteppedScheduler(Scheduler):
    """The bot's timers, run only when the evening moves its clock on (`advance`): a Hero
    Point window closes when the evening says time has passed, not by the wall clock."""

    def __init__(self, clock: Callable[[], datetime]) -> None:
        super().__init__(clock)
        self.due: dict[Hashable, tuple[datetime, Callable[[], object]]] = {}

    def at(self, key: Hashable, when: datetime, job: Callable[[], object]) -> None:
        self.due[key] = (when, job)

    def cancel(self, key: Hashable) -> None:
        self.due.pop(key, None)

    def cancel_all(self) -> None:
        self.due.clear()

    def pending(self, key: Hashable) -> bool:
        return key in self.due

    def run_due(self) -> int:
        """Run every job whose time has come, in their order; how many ran."""
        now, ran = self.clock(), 0
        for key, (when, job) in sorted(self.due.items(), key=lambda item: item[1][0]):
            if when <= now and self.due.get(key, (None,))[0] == when:
                del self.due[key]
                job()
                ran += 1
        return ran


@contextmanager
def stepped_timers() -> Iterator[None]:
    """The next bot started takes `SteppedScheduler` for its timers."""
    kept = bondbot.services.Scheduler
    bondbot.services.Scheduler = SteppedScheduler  # type: ignore[misc]
    try:
        yield
    finally:
        bondbot.services.Scheduler = kept  # type: ignore[misc]


def action_of(custom: str) -> str:
    parts = custom.split(":")
    return parts[3] if len(parts) > 3 else ""


async def cast(env: BotEnv) -> None:
    """Le Chiffre, and two players with the means of a long evening and Hero Points."""
    world = env.world
    rich = {"cash": 10_000_000, "hero_points": 50, "skills": {"gambling": 8}, "kind": "PC"}
    await create_cast(
        env,
        {
            "npc": le_chiffre(),
            "bond": {"name": "James Bond", "owner_id": world.player.id, **rich},
            "mathis": {"name": "René Mathis", "owner_id": world.player_fr.id, **rich},
        },
        {"bond": world.player, "mathis": world.player_fr},
    )


class Evening:
    """One table of `game`, played through the fake Discord (see the module's doc)."""

    def __init__(self, env: BotEnv, bot: BondBot, game: str, seed: int = 1) -> None:
        self.env, self.bot, self.game = env, bot, game
        self.fake, self.world = env.fake, env.world
        self.tables = bot.services.tables
        self.rng = random.Random(seed)
        self.players = [self.world.player, self.world.player_fr]
        self.table = 0
        self.cause = "setup"
        self.causes: list[tuple[int, str]] = []  # (first request index, the step's name)
        self.spent_on: set[int] = set()  # offers a player tried to spend on
        self.wagered: dict[int, int] = {}  # user → the hand he last wagered before
        self.same_again = False  # the next wager from the seat panel's Same again
        self.shown = 0  # hands that ended with cards shown
        self.private_moves = 0  # moves made in a private panel (a hand, a seat, a pick)
        self.windows_closed = 0  # windows that ran out while the table showed Spend
        self.stale_spend = 0  # the table's Spend still shown after its window ran out

    @property
    def scheduler(self) -> SteppedScheduler:
        scheduler = self.bot.services.scheduler
        assert isinstance(scheduler, SteppedScheduler), "start the bot in stepped_timers()"
        return scheduler

    async def snapshot(self) -> TableSnapshot:
        return await self.tables.snapshot(self.table)

    async def quiet(self) -> None:
        """Until the bot has done all it does after the last click or timer."""
        messages = self.bot.get_cog("Tables").messages  # type: ignore[union-attr]
        still = 0
        for _ in range(2000):
            busy = self.bot._in_flight or messages._running or messages._posting
            still = 0 if busy else still + 1
            if still >= 3:
                return
            await asyncio.sleep(0.01)
        raise TimeoutError(f"{self.game}: the bot never went quiet")

    def mark(self, cause: str) -> None:
        self.cause = cause
        self.causes.append((len(self.fake.requests), cause))

    async def open(self) -> None:
        world = self.world
        await self.bot.services.guilds.update(
            world.guild.id,
            gm_role_id=world.gm_role.id,
            turn_timer_s=3600,
            spend_window_s=SPEND_WINDOW_S,
        )
        opened = await self.fake.slash(
            world.gm, f"table open {self.game}", npc="Le Chiffre", **OPEN[self.game]
        )
        assert "opened" in (opened.content or "").lower(), opened.content
        await self.fake.wait_until(
            lambda: any(
                c.endswith(":gm") for m in self.fake.channel_messages() for c in m.custom_ids()
            )
        )
        self.table = int(table_message(self.fake).custom_ids()[0].split(":")[2])
        await self.quiet()
        for player in self.players:
            await self.sit_down(player)
            await self.quiet()

    async def sit_down(self, player: FakeUser) -> None:
        snapshot = await self.snapshot()
        state = snapshot.state
        least = max(state.engine.least_stack(), 1)
        buy_in = max(state.config.max_bet, 4 * least, least)
        form = await self.fake.click(player, table_message(self.fake), self.id("seat"))
        assert form.modal is not None, form.content
        joined = await self.fake.submit_modal(player, form, {"amount": f"{buy_in // 100}"})
        simulate = f"bb:tbl:{self.table}:choose:simulate"
        assert simulate in joined.custom_ids(), joined.content
        await self.fake.click(player, joined, simulate)

    def id(self, action: str) -> str:
        return f"bb:tbl:{self.table}:{action}"

    async def play(self, coups: int) -> Spent:
        """Play `coups` coups from here and count what they cost outside answers."""
        first, moves_before = len(self.fake.requests), self.private_moves
        windows_before, stale_before = self.windows_closed, self.stale_spend
        self.mark("start")
        start = (await self.snapshot()).state.hand_no
        done = start
        for _ in range(STEPS_MAX):
            snapshot = await self.snapshot()
            engine = snapshot.state.engine
            if not engine.in_hand() and snapshot.state.hand_no > done:
                done = snapshot.state.hand_no
                self.shown += bool(engine.shown_hands())
                await self.after_coup()
                if done - start >= coups:
                    break
                continue
            await self.step(snapshot)
            await self.quiet()
        else:
            raise AssertionError(f"{self.game}: {done - start} coups in {STEPS_MAX} steps")
        await self.quiet()
        spent = self.count(first, done - start, moves_before)
        spent.windows_closed = self.windows_closed - windows_before
        spent.stale_spend = self.stale_spend - stale_before
        return spent

    def count(self, first: int, coups: int, moves_before: int = 0) -> Spent:
        spent = Spent(self.game, coups)
        marks = [m for m in self.causes if m[0] >= first]
        for index in range(first, len(self.fake.requests)):
            request = self.fake.requests[index]
            if request.status == 429:
                spent.limited += 1
                continue
            kind = budget_kind(request.method, request.path)
            if kind is None:
                continue
            spent.by_kind[kind] += 1
            cause = next((c for at, c in reversed(marks) if at <= index), "start")
            spent.by_cause[f"{cause}:{kind}"] += 1
        spent.pictures, spent.shown = len(self.pictured()), self.shown
        spent.private_moves = self.private_moves - moves_before
        return spent

    def pictured(self) -> set[str]:
        """The hands pictured so far, by their picture's title ("Coup 3"): on the table
        message (in any of its versions) or posted in its thread."""
        table = table_message(self.fake)
        titles = {
            str(version.embeds[1].get("title"))
            for version in [*table.history, table.snapshot()]
            if len(version.embeds) > 1
        }
        for channel in self.fake.channels.values():
            if channel.is_thread:
                titles |= {
                    str(m.embeds[0].get("title"))
                    for m in self.fake.channel_messages(channel)
                    if m.embeds and any(a.filename == "hand.png" for a in m.attachments)
                }
        return titles

    async def after_coup(self) -> None:
        """Losers spend a Hero Point from the table's Spend button (one each, half the
        time), then time passes until the coup's Hero Point windows close."""
        snapshot = await self.snapshot()
        now = iso(self.bot.services.clock())
        for player in self.players:
            seat = snapshot.state.seat_of_user(player.id)
            mine = [
                o
                for o in snapshot.spendable_offers(now)
                if seat is not None and o.character_id == seat.character_id
            ]
            fresh = [o for o in mine if o.id not in self.spent_on]
            if not fresh or self.rng.random() < 0.5:
                self.spent_on.update(o.id for o in fresh)
                continue
            self.spent_on.update(o.id for o in fresh)
            table = table_message(self.fake)
            if self.id("hp") not in table.custom_ids():
                continue
            self.mark("spend")
            answer = await self.fake.click(player, table, self.id("hp"))
            picks = [c for c in answer.custom_ids() if action_of(c) == "spend"]
            if picks:  # several lost hands: he picks one, in a private answer
                self.mark("spend pick")
                await self.fake.click(player, answer, picks[0])
                self.private_moves += 1
            await self.quiet()
        showing = self.id("hp") in table_message(self.fake).custom_ids()
        await self.pass_time(SPEND_WINDOW_S + 1)
        if showing:  # the window ran out unspent: the table must lose its Spend button
            self.windows_closed += 1
            self.stale_spend += self.id("hp") in table_message(self.fake).custom_ids()

    async def pass_time(self, seconds: float) -> None:
        """The evening's clock moves on; the bot's timers then due run."""
        self.mark("timer")
        self.env.clock.advance(seconds)
        while self.scheduler.run_due():
            await self.quiet()
        await self.quiet()

    async def buttons(self, player: FakeUser) -> list[tuple[Any, str]]:
        """The move buttons a player finds: on the table message, in his seat panel, in
        his hand's panel (trick games)."""
        table = table_message(self.fake)
        found: list[tuple[Any, str]] = [
            (table, c) for c in table.custom_ids() if action_of(c) not in NOT_MOVES | GM_MOVES
        ]
        panels = [await self.fake.click(player, table, self.id("seat"))]
        opener = [c for c in table.custom_ids() if action_of(c) == HAND_PANEL]
        if opener:
            panels.append(await self.fake.click(player, table, opener[0]))
        for panel in panels:
            if panel.response_type == MODAL:
                continue
            found += [(panel, c) for c in panel.custom_ids() if action_of(c) not in NOT_MOVES]
        return found

    async def step(self, snapshot: TableSnapshot) -> None:
        engine = snapshot.state.engine
        waiting = set(engine.turn())
        mine = [
            p
            for p in self.players
            if (seat := snapshot.state.seat_of_user(p.id)) is not None
            and str(seat.character_id) in waiting
        ]
        self.rng.shuffle(mine)
        for player in mine:
            if await self.move(player, snapshot):
                return
        if not waiting:  # between coups: wagers, then the GM
            for player in self.players:
                if self.wagered.get(player.id) == snapshot.state.hand_no:
                    continue
                self.wagered[player.id] = snapshot.state.hand_no
                if await self.move(player, snapshot, wager=True):
                    return
        if await self.gm_move():
            return
        if self.scheduler.due:
            await self.pass_time(
                (min(w for w, _ in self.scheduler.due.values()) - self.env.clock()).total_seconds()
                + 0.1
            )
            return
        raise AssertionError(
            f"{self.game}: stuck: {[c for c in table_message(self.fake).custom_ids()]}"
        )

    async def move(self, player: FakeUser, snapshot: TableSnapshot, wager: bool = False) -> bool:
        """One move of `player` (True if one was played): a button he finds, at random;
        from the table when it has his move, else from his panel; Same again every other
        wager where a game offers it."""
        found = await self.buttons(player)
        if not found:
            return False
        again = [entry for entry in found if action_of(entry[1]) == "again"]
        if wager and again and self.same_again:
            choices = again
        else:
            on_table = [e for e in found if hasattr(e[0], "edit_count")]  # a FakeMessage
            others = [e for e in found if action_of(e[1]) != "again"]
            choices = on_table or others or found
        self.same_again = not self.same_again if wager else self.same_again
        before = snapshot.version
        for where, custom in self.rng.sample(choices, len(choices)):
            self.mark(f"{'table' if hasattr(where, 'edit_count') else 'panel'} {action_of(custom)}")
            answer = await self.fake.click(player, where, custom)
            if answer.response_type == MODAL:
                answer = await self.submit(player, answer)
            await self.quiet()
            if (await self.snapshot()).version != before:
                self.private_moves += not hasattr(where, "edit_count")
                return True
        return False

    async def submit(self, player: FakeUser, form: InteractionResult) -> InteractionResult:
        """A form filled with the least amount its hint allows (and a side at random)."""
        modal = form.modal
        assert modal is not None
        hint = modal.field("amount").get("placeholder") or "" if "amount" in modal.field_ids else ""
        digits = re.search(r"\d[\d,. \u202f\u00a0]*", hint)
        amount = re.sub(r"[^\d]", "", digits.group(0).rstrip(",. ")) if digits else "10"
        if digits and re.search(r"[.,]\d\d$", digits.group(0).rstrip()):
            amount = amount[:-2] or "0"
        values: dict[str, Any] = {}
        if "amount" in modal.field_ids:
            values["amount"] = amount
        if "on" in modal.field_ids:
            options = modal.field("on").get("options", [])
            values["on"] = [self.rng.choice(options)["value"]]
        return await self.fake.submit_modal(player, form, values)

    async def gm_move(self) -> bool:
        """The GM's move of the moment: on the table, else in his panel."""
        gm = self.world.gm
        table = table_message(self.fake)
        before = (await self.snapshot()).version
        candidates: list[tuple[Any, str]] = [
            (table, c) for c in table.custom_ids() if action_of(c) in GM_MOVES
        ]
        if not candidates:
            panel = await self.fake.click(gm, table, self.id("gm"))
            candidates = [(panel, c) for c in panel.custom_ids() if action_of(c) in GM_MOVES]
        for where, custom in candidates:
            self.mark(
                f"{'table' if hasattr(where, 'edit_count') else 'gm panel'} {action_of(custom)}"
            )
            answer = await self.fake.click(gm, where, custom)
            if answer.response_type == MODAL:
                await self.submit(gm, answer)
            await self.quiet()
            if (await self.snapshot()).version != before:
                return True
        return False


async def measure(env: BotEnv, game: str, coups: int, seed: int = 1) -> Spent:
    """Open a table of `game` and play `coups` coups: what they cost outside answers. The
    cast must be written (`cast`) before."""
    # The same shoes every run (the tables' seeds), so that two runs of one game, before
    # and after a change, deal the same cards.
    env.seeds[:] = [hashlib.sha256(f"{game}:{seed}:{n}".encode()).digest() for n in range(500)]
    with stepped_timers():
        async with env.run() as bot:
            evening = Evening(env, bot, game, seed)
            await evening.open()
            return await evening.play(coups)
