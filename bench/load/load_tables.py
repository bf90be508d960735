"""A punto banco table as the load bench plays it, in the closed and the open loop: the
world written to the database before the bot starts, the table's setup (opened, joined,
Simulate chosen), and its players' clicks (a wager, the GM's deal), each sent and waited
for through a `Clicker`."""

from __future__ import annotations

import asyncio
import random
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run from a checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_common import DEADLINE_S
from load_fake import BenchFake, FakeChannel, FakeMessage, InteractionResult, World

from bondbot.i18n import t
from bondbot.sheets import validate_sheet
from bondbot.storage import characters
from bondbot.storage.db import Database
from bondbot.storage.settings import update_settings

NOW = "2026-11-21T20:00:00.000+00:00"
SETUP_WAIT_S = 120.0  # a table's message drawn at setup (a small --global-limit is slow)
BETS = ("player", "banker", "tie")
BET_WEIGHTS = (45, 45, 10)

Starter = Callable[[], Awaitable[InteractionResult]]


# -- the fake users ---------------------------------------------------------------------------


@dataclass
class Clicker:
    """Sends interactions as fake users: at most `limit` in flight, each waited for."""

    fake: BenchFake
    limit: asyncio.Semaphore
    sent: Counter[str] = field(default_factory=Counter)
    timeouts: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)
    refusals: Counter[str] = field(default_factory=Counter)

    async def run(
        self, kind: str, start: Starter, expect: str | None = None, *, redraws: bool = False
    ) -> InteractionResult | None:
        """Dispatch with `start()` (a `_wait=False` scripting call) and wait for the answer.

        None when the bot did not answer in time; an answer not starting with `expect`, or
        (`redraws`) one that does not redraw the clicked message, counts as refused (with
        its text, to report).
        """
        async with self.limit:
            result = await start()
            self.sent[kind] += 1
            try:
                await self.fake.wait_ack(result.interaction, DEADLINE_S + 0.25)
            except TimeoutError:
                self.timeouts[kind] += 1
                return None
        content = result.content or ""
        if (expect is not None and not content.startswith(expect)) or (
            redraws and result.response_type != UPDATE_MESSAGE
        ):
            self.refused[kind] += 1
            self.refusals[content[:90]] += 1
        return result


@dataclass
class Player:
    user_id: int
    name: str
    has_wagered: bool = False  # after his first coup he repeats it with "Same again"


@dataclass
class Table:
    world: World
    index: int
    npc: str
    players: list[Player]
    id: int = 0
    dealt: int = 0  # Deal clicks answered with the redrawn table (the coup is on disk)
    spent: int = 0  # spends answered as done

    @property
    def channel(self) -> FakeChannel:
        return self.world.channels[self.index]

    def message(self) -> FakeMessage:
        msg = self.world.fake.public_message(self.channel)
        if msg is None:
            raise RuntimeError(f"table {self.index}: no table message")
        return msg

    def cid(self, action: str, *args: object) -> str:
        return ":".join(["bb", "tbl", str(self.id), action, *map(str, args)])


def has_button(msg: FakeMessage | None, custom_id: str) -> bool:
    return any(b.get("custom_id") == custom_id and not b.get("disabled") for b in _buttons(msg))


def _buttons(msg: FakeMessage | None) -> Iterator[dict]:
    yield from _buttons_of({"components": msg.components if msg is not None else []})


def _buttons_of(drawn: dict) -> Iterator[dict]:
    for row in drawn["components"]:
        yield from row.get("components", [])


UPDATE_MESSAGE = 7  # interaction callback type: the clicked message, redrawn
REBET_RATE = 0.5  # how often a player repeats his last wager rather than choosing anew

# Sends one interaction and waits for its answer: `Clicker.run`'s signature
Send = Callable[..., Awaitable[InteractionResult | None]]


async def wager(
    send: Send, fake: BenchFake, table: Table, player: Player, rng: random.Random
) -> bool:
    """A PC's wager on the next coup, as the closed and the open loop both click it: once he
    has wagered, half the time Same again (My seat, then the button in his seat panel);
    otherwise the table's Bet button, then its form with a bet and an amount (answered by
    the table redrawn). Whether a wager was placed."""
    if player.has_wagered and rng.random() < REBET_RATE:
        panel = await send(
            "seat panel",
            lambda: fake.click(player.user_id, table.message(), table.cid("seat"), _wait=False),
        )
        if panel is not None and has_button(panel.message, table.cid("again")):
            again = await send(
                "wager",
                lambda: fake.click(player.user_id, panel, table.cid("again"), _wait=False),
                expect="Wager placed",
            )
            return again is not None
    on = rng.choices(BETS, BET_WEIGHTS)[0]
    amount = str(rng.randint(10, 100))
    modal = await send(
        "bet button",
        lambda: fake.click(player.user_id, table.message(), table.cid("bets"), _wait=False),
    )
    if modal is None or modal.modal is None:
        return False
    placed = await send(
        "wager",
        lambda: fake.submit_modal(
            player.user_id, modal, {"on": [on], "amount": amount}, _wait=False
        ),
        redraws=True,  # the table's form: answered by the table redrawn
    )
    player.has_wagered = placed is not None
    return placed is not None


async def deal(
    send: Send, fake: BenchFake, table: Table, gm_id: int, timeouts: Counter[str]
) -> list[Player] | None:
    """The GM deals where he finds Deal: on the table once it is redrawn with a wager in
    (at once after a wager from the table's form, else coalesced, up to the bot's message
    interval after the last edit). The players who may spend a Hero Point: those whose
    line on the redrawn table says they lost ("X loses $n (bet)"), while it shows Spend;
    None when no coup was dealt."""
    try:
        await fake.wait_channel(
            table.channel.id,
            lambda: has_button(table.message(), table.cid("deal")),
            timeout=DEADLINE_S + 2,
        )
    except TimeoutError:
        timeouts["deal button drawn"] += 1
        return None
    dealt = await send(
        "deal",
        lambda: fake.click(gm_id, table.message(), table.cid("deal"), _wait=False),
        redraws=True,  # the Deal click is answered with the redrawn table message
    )
    if dealt is None or dealt.response_type != UPDATE_MESSAGE:
        return None
    table.dealt += 1
    drawn = table.message()
    if not has_button(drawn, table.cid("hp")):
        return []
    shown = str(drawn.embeds)
    return [p for p in table.players if f"{p.name} loses " in shown]


# -- the database -----------------------------------------------------------------------------


async def seed_database(path: str | Path, world: World, tables: int) -> list[Table]:
    """One NPC per table, one PC per player (his active character), the GM role."""
    db = await Database.open(path)  # type: ignore[arg-type]  # a URL on PostgreSQL
    try:
        await db.migrate()
        # one transaction for the whole world: a slow one on a busy machine is no refusal
        async with db.transaction(deadline=time.monotonic() + 300) as conn:
            for guild, role in zip(world.guilds, world.gm_roles, strict=True):
                await update_settings(
                    conn, guild.id, default_locale="en", gm_role_id=role.id, locale="en"
                )
            cast = []
            for index in range(tables):
                guild_id = world.guild_of(index).id
                npc = f"Le Chiffre {index + 1:02d}"
                sheet = {"name": npc, "kind": "NPC", "skills": {"gambling": 12}}
                await characters.create_character(
                    conn,
                    guild_id,
                    validate_sheet({"characteristics": {"PER": 10}, **sheet}),
                    now=NOW,
                )
                players = []
                for user in world.players[3 * index : 3 * index + 3]:
                    name = user.global_name or user.name
                    pc = {
                        "name": name,
                        "kind": "PC",
                        "owner_id": user.id,
                        "skills": {"gambling": 8},
                        "cash": 100_000_000,
                        "hero_points": 1_000,
                    }
                    created = await characters.create_character(
                        conn,
                        guild_id,
                        validate_sheet({"characteristics": {"PER": 10}, **pc}),
                        now=NOW,
                    )
                    await characters.set_active_character(conn, guild_id, user.id, created.id)
                    players.append(Player(user.id, name))
                cast.append(Table(world, index, npc, players))
    finally:
        await db.close()
    return cast


# -- the setup --------------------------------------------------------------------------------


SETUP_TRIES = 5
BUSY = t("errors.busy", "en")[:40]


async def setup_table(
    table: Table, clicker: Clicker, fake: BenchFake, gm_id: int, *, thread: bool = True
) -> None:
    """The GM opens the table; its three PCs join with $100,000 and choose Simulate."""
    opened = await clicker.run(
        "open",
        lambda: fake.slash(
            gm_id,
            "table open punto_banco",
            _channel=table.channel,
            npc=table.npc,
            minimum="10",
            maximum="500",
            bankroll="100000000",
            thread=thread,
            _wait=False,
        ),
        expect="Table opened",
    )
    if opened is None:
        raise RuntimeError(f"table {table.index}: /table open got no answer")

    def has_message() -> bool:
        msg = fake.public_message(table.channel)
        return msg is not None and any(
            b.get("custom_id", "").endswith(":seat") for b in _buttons(msg)
        )

    await fake.wait_channel(table.channel.id, has_message, timeout=SETUP_WAIT_S)
    seat_id = next(
        b["custom_id"] for b in _buttons(table.message()) if b["custom_id"].endswith(":seat")
    )
    table.id = int(seat_id.split(":")[2])

    async def seat(player: Player) -> None:
        for _ in range(SETUP_TRIES):  # "busy, try again" (hundreds of tables opening): again
            modal = await clicker.run(  # My seat, to someone without a seat: the buy-in form
                "seat button (opens join modal)",
                lambda: fake.click(player.user_id, table.message(), table.cid("seat"), _wait=False),
            )
            if modal is None or modal.modal is None:
                raise RuntimeError(f"table {table.index}: no join modal for {player.name}")
            joined = await clicker.run(
                "join",
                lambda m=modal: fake.submit_modal(
                    player.user_id, m, {"amount": "100000"}, _wait=False
                ),
            )
            if joined is None or not (joined.content or "").startswith(BUSY):
                break
            await asyncio.sleep(0.5)
        if joined is None or not (joined.content or "").startswith("You sit down"):
            raise RuntimeError(f"table {table.index}: {player.name} not seated: {joined!r}")
        await clicker.run(  # the choice is under the join's private answer
            "simulate",
            lambda: fake.click(
                player.user_id, joined, table.cid("choose", "simulate"), _wait=False
            ),
            expect="You simulate",
        )

    await asyncio.gather(*(seat(p) for p in table.players))
    # the Bet button is drawn once someone plays (the table's redraw is coalesced)
    await fake.wait_channel(
        table.channel.id,
        lambda: has_button(table.message(), table.cid("bets")),
        timeout=SETUP_WAIT_S,
    )


async def spend_hero_point(
    send: Send, fake: BenchFake, table: Table, player: Player, clicker: Clicker
) -> bool:
    """The table's one Spend a Hero Point button (with one lost hand it spends at once):
    answered by redrawing the table, the words in a private follow-up (issue 32), or by
    the words alone; True when they say it was spent (else counted as refused by
    `clicker`, with the words)."""
    result = await send(
        "spend",
        lambda: fake.click(player.user_id, table.message(), table.cid("hp"), _wait=False),
    )
    if result is None:
        return False
    words = result.content or ""
    if result.response_type == UPDATE_MESSAGE:
        try:
            words = (await result.wait_followup(timeout=DEADLINE_S + 2)).content or ""
        except TimeoutError:
            words = "(the table redrawn, no words followed)"
    if words.startswith("You spend a Hero Point"):
        return True
    clicker.refused["spend"] += 1
    clicker.refusals[words[:90]] += 1
    return False
