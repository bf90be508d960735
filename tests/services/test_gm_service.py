"""GmService: grants and takes as single ledger rows, ledger pages both ways, house rules."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bondbot.config import Settings
from bondbot.errors import Refusal
from bondbot.money import Cents
from bondbot.services.gm import GmService, Grant, Sent, award_table_of
from bondbot.services.guilds import GuildSettingsService
from bondbot.services.sheets import Actor, SheetService
from bondbot.storage import ledger
from bondbot.storage.db import Database
from bondbot.storage.settings import SettingsInvalid

GUILD, PLAYER, GM = 10, 111, 999
gm, player = Actor(GUILD, GM, is_gm=True), Actor(GUILD, PLAYER)


@contextlib.contextmanager
def refused(key: str) -> Iterator[None]:
    """The block raises the Refusal `key` (exactly that key)."""
    with pytest.raises(Refusal) as caught:
        yield
    assert caught.value.key == key, caught.value


def clock() -> datetime:
    return datetime(2026, 1, 2, tzinfo=UTC)


def services(db: Database) -> tuple[GmService, SheetService]:
    guilds = GuildSettingsService(db, Settings(token="t", default_locale="en"))
    return GmService(db, guilds, clock), SheetService(db, clock)


async def test_grants_and_takes_are_one_ledger_row_each(db: Database) -> None:
    service, sheets = services(db)
    bond = await sheets.create(player, name="James Bond")
    moved = await service.move(gm, bond.id, "hero", 3, give=True, reason="  saved   M ")
    assert (moved.balance, moved.amount) == (3, 3)
    moved = await service.move(gm, bond.id, "cash", 1250, give=True, reason="per diem")
    assert moved.balance == 1250
    moved = await service.move(gm, bond.id, "hero", 2, give=False, reason="cheated")
    assert moved.balance == 1
    async with db.read() as conn:
        page = await ledger.ledger_page(conn, GUILD)
    assert [(e.kind, e.amount, e.src, e.dst, e.reason, e.note) for e in page.entries] == [
        ("hero", 2, bond.account, None, "gm.take", "cheated"),
        ("cash", 1250, None, bond.account, "gm.grant", "per diem"),
        ("hero", 3, None, bond.account, "gm.grant", "saved M"),
    ]
    with pytest.raises(Refusal) as refusal:
        await service.move(gm, bond.id, "cash", 1300, give=False, reason="r")
    assert refusal.value.key == "gm.take_too_much_cash"
    assert refusal.value.params == {"name": "James Bond", "available": 1250}
    assert isinstance(refusal.value.params["available"], Cents)
    for amount, key in ((0, "gm.bad_hero_amount"), (2_000_000, "gm.bad_hero_amount")):
        with refused(key):
            await service.move(gm, bond.id, "hero", amount, give=True, reason="r")
    with refused("gm.reason_too_long"):
        await service.move(gm, bond.id, "hero", 1, give=True, reason="x" * 201)
    with refused("gm.not_gm"):
        await service.move(player, bond.id, "hero", 1, give=True, reason="r")
    await sheets.delete(player, bond.id)
    with refused("sheet.gone"):
        await service.move(gm, bond.id, "hero", 1, give=True, reason="r")
    async with db.read() as conn:
        assert len((await ledger.ledger_page(conn, GUILD)).entries) == 3


@settings(max_examples=20, deadline=None)
@given(
    moves=st.lists(st.sampled_from(["bond", "rene"]), min_size=0, max_size=25),
    limit=st.integers(min_value=1, max_value=6),
)
async def test_pages_walk_back_exactly_the_way_they_came(
    tmp_path_factory: pytest.TempPathFactory, moves: list[str], limit: int
) -> None:
    path = tmp_path_factory.mktemp("ledger") / "bond.sqlite3"
    async with await Database.open(path) as db:
        await db.migrate()
        service, sheets = services(db)
        ids = {
            "bond": (await sheets.create(player, name="James Bond")).id,
            "rene": (await sheets.create(Actor(GUILD, 7), name="René")).id,
        }
        for who in moves:
            await service.move(gm, ids[who], "hero", 1, give=True, reason="r")
        for character in (None, ids["bond"]):
            pages, cursor = [], None
            while True:  # forwards with Next
                view = await service.ledger(
                    gm, character_id=character, before_id=cursor, limit=limit
                )
                pages.append((cursor, [e.id for e in view.entries]))
                if view.next_before is None:
                    break
                cursor = view.next_before
            expected = [m for m in moves if character is None or m == "bond"]
            assert sum(len(p) for _, p in pages) == len(expected)
            # Backwards with Previous: the same pages, in reverse.
            back = [pages[-1]]
            cursor = pages[-1][0]
            while cursor is not None:
                view = await service.ledger(
                    gm, character_id=character, before_id=cursor, limit=limit
                )
                assert view.has_previous
                cursor = view.previous_before
                newer = await service.ledger(
                    gm, character_id=character, before_id=cursor, limit=limit
                )
                back.append((cursor, [e.id for e in newer.entries]))
            assert back[::-1] == pages


async def test_house_rules(db: Database) -> None:
    service, _ = services(db)
    settings_ = await service.update_settings(
        gm, award_table=" 0:0,1-5:1 6-10:2 11-14:3 15:4 ", currency=" € "
    )
    assert settings_.award_table == "0:0 1-5:1 6-10:2 11-14:3 15:4"
    assert settings_.currency == "€"
    assert award_table_of(settings_)[1].points == 1
    reset = await service.update_settings(gm, award_table="Défaut")
    assert reset.award_table is None
    with refused("gm.awards_gap"):
        await service.update_settings(gm, award_table="0-14:1")
    with pytest.raises(SettingsInvalid):
        await service.update_settings(gm, spend_window_s=1, locale="fr")
    with refused("gm.settings_nothing"):
        await service.update_settings(gm)
    with refused("gm.not_gm"):
        await service.update_settings(player, locale="fr")
    assert (await service.settings(GUILD)).locale == "en"


async def test_a_grant_in_flight_holds_its_intent_until_answered(db: Database) -> None:
    """Identical grants wait for the one in flight; a failed one leaves the intent free."""
    service, sheets = services(db)
    bond = await sheets.create(player, name="James Bond")
    other_gm = Actor(GUILD, GM + 1, is_gm=True)
    seen: list[tuple[int | None, int | None, bool]] = []

    async def send(actor: Actor, amount: int, fail: bool = False) -> None:
        async with service.grant(
            actor,
            bond.id,
            "hero",
            amount,
            give=False,
            reason="r",
            sent=Sent(datetime.now(UTC), time.monotonic()),
            delivered=lambda _: True,
        ) as done:
            await asyncio.sleep(0.01)  # answering takes a moment
            seen.append(
                (
                    done.moved and done.moved.entry_id,
                    done.earlier and done.earlier.entry_id,
                    done.concurrent,
                )
            )
            if fail:
                raise RuntimeError("the answer failed")

    # Taking more than he holds: each is refused in turn, none counts as done.
    results = await asyncio.gather(*(send(gm, 2) for _ in range(3)), return_exceptions=True)
    assert [getattr(r, "key", r) for r in results] == ["gm.take_too_much_hero"] * 3
    assert seen == []
    await service.move(gm, bond.id, "hero", 5, give=True, reason="stake")
    # The first applies (and its answer fails after the write); the others are told.
    results = await asyncio.gather(
        send(gm, 1, fail=True), send(other_gm, 1), send(gm, 1), return_exceptions=True
    )
    assert isinstance(results[0], RuntimeError) and results[1:] == [None, None]
    (applied,) = [entry for entry, _, _ in seen if entry is not None]
    assert seen[1:] == [(None, applied, True), (None, applied, True)]
    # Once answered, the same take again is a new one.
    await send(gm, 1)
    assert seen[-1][0] not in (None, applied)
    async with db.read() as conn:
        assert await ledger.balance(conn, bond.account, "hero") == 3


async def test_a_grant_sent_with_another_but_handled_after_it_is_told(db: Database) -> None:
    """Issue 29, item 2: an identical grant that reaches the service after the first one's
    answer, and its intent, are gone, but was sent before that answer could be seen, is
    told what the first did; either clock proves it. One sent after is applied."""
    service, sheets = services(db)
    bond = await sheets.create(player, name="James Bond")
    other_gm = Actor(GUILD, GM + 1, is_gm=True)

    async def send(actor: Actor, sent: Sent, *, delivered: bool = True) -> Grant:
        async with service.grant(
            actor,
            bond.id,
            "hero",
            1,
            give=True,
            reason="r",
            sent=sent,
            delivered=lambda _: delivered,
        ) as done:
            return done

    # The first one's handler began a second ago (its reads were slow) and sent at t0.
    t0, r0 = datetime.now(UTC), time.monotonic() - 1.0
    first = await send(gm, Sent(t0, r0))
    assert first.moved is not None
    told = Grant(None, first.moved, concurrent=True)
    # Received by the bot before the first was decided, though Discord stamped it late.
    assert await send(gm, Sent(t0 + timedelta(hours=1), r0 + 0.5)) == told
    # Received only now, but sent within the second the first took to decide: the gateway
    # was slow. By the same GM or another.
    for actor in (gm, other_gm):
        assert await send(actor, Sent(t0 + timedelta(seconds=0.5), time.monotonic())) == told
    # Sent after the first could have been seen: meant, applied.
    again = await send(gm, Sent(t0 + timedelta(seconds=1.1), time.monotonic()))
    assert again.moved is not None and again.moved.entry_id != first.moved.entry_id
    # That one's answer did not arrive: the next is asked about it, and one sent with
    # that next one is told the same question (not "at the same moment").
    t1, r1 = t0 + timedelta(seconds=2), time.monotonic()
    asked = await send(gm, Sent(t1, r1), delivered=False)
    assert asked.moved is None and not asked.concurrent
    assert asked.earlier is not None and asked.earlier.entry_id == again.moved.entry_id
    assert await send(gm, Sent(t1 + timedelta(hours=1), r1), delivered=False) == asked
    async with db.read() as conn:
        assert await ledger.balance(conn, bond.account, "hero") == 2
