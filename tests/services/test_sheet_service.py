"""SheetService: who may see and change which sheet; imports; nothing written on refusal."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from bondbot.errors import Refusal
from bondbot.services.sheets import Actor, SheetService, export_filename
from bondbot.sheets import SheetInvalid, sheet_to_json
from bondbot.storage import ledger
from bondbot.storage.db import Database

GUILD, PLAYER, OTHER, GM = 10, 111, 222, 999
player, other, gm = Actor(GUILD, PLAYER), Actor(GUILD, OTHER), Actor(GUILD, GM, is_gm=True)


@contextlib.contextmanager
def refused(key: str) -> Iterator[None]:
    """The block raises the Refusal `key` (exactly that key)."""
    with pytest.raises(Refusal) as caught:
        yield
    assert caught.value.key == key, caught.value


def service(db: Database) -> SheetService:
    return SheetService(db, lambda: datetime(2026, 1, 2, tzinfo=UTC))


async def snapshot(db: Database) -> list[tuple[object, ...]]:
    async with db.read() as conn:
        rows: list[tuple[object, ...]] = []
        for table in ("characters", "active_characters", "ledger", "balances"):
            rows += [(table, *row) for row in await conn.execute_fetchall(f"SELECT * FROM {table}")]
        return rows


async def test_creation_rights_and_the_first_pc_becomes_active(db: Database) -> None:
    sheets = service(db)
    bond = await sheets.create(player, name="James Bond", fields={"rank": "00"})
    assert (bond.kind, bond.owner_id, bond.sheet.rank) == ("PC", PLAYER, "00")
    assert await sheets.active(GUILD, PLAYER) == bond.id
    second = await sheets.create(player, name="Bond's twin")
    assert await sheets.active(GUILD, PLAYER) == bond.id  # only when he had none
    before = await snapshot(db)
    with refused("sheet.npc_gm_only"):
        await sheets.create(player, name="Jaws", kind="NPC")
    with refused("sheet.other_player_gm_only"):
        await sheets.create(player, name="Vesper", owner_id=OTHER)
    with refused("sheet.survival_gm_only"):
        await sheets.create(player, name="Vesper", fields={"survival_points": 2})
    with pytest.raises(SheetInvalid) as invalid:
        await sheets.create(player, name="", fields={"characteristics": {"STR": 16}})
    assert [e.field for e in invalid.value.field_errors] == ["name", "characteristics"]
    assert await snapshot(db) == before
    with refused("sheet.npc_has_no_player"):
        await sheets.create(gm, name="Jaws", kind="NPC", owner_id=PLAYER)
    assert await snapshot(db) == before
    npc = await sheets.create(gm, name="Jaws", kind="NPC")
    assert npc.owner_id is None
    given = await sheets.create(gm, name="Vesper", owner_id=OTHER)
    assert given.owner_id == OTHER and await sheets.active(GUILD, OTHER) == given.id
    assert second.id != bond.id


async def test_visibility_and_edit_rights(db: Database) -> None:
    sheets = service(db)
    bond = await sheets.create(player, name="James Bond")
    jaws = await sheets.create(gm, name="Jaws", kind="NPC")
    assert (await sheets.target(other, "james BOND")).id == bond.id
    with refused("characters.not_found"):
        await sheets.target(player, "Jaws")
    assert [c.name for c in await sheets.visible(player)] == ["James Bond"]
    assert [c.name for c in await sheets.visible(gm)] == ["James Bond", "Jaws"]
    await sheets.reveal(gm, jaws.id, True)
    assert [c.name for c in await sheets.visible(player)] == ["James Bond", "Jaws"]
    assert await sheets.names(player, "ja", editable=True) == ["James Bond"]
    assert await sheets.names(gm, "a") == ["James Bond", "Jaws"]  # inside a name, by name
    with refused("sheet.not_allowed"):
        await sheets.update(other, bond.id, {"notes": "mine now"})
    with refused("sheet.not_allowed"):
        await sheets.set_skill(player, jaws.id, "Jeu", 3)
    with refused("sheet.reveal_gm_only"):
        await sheets.reveal(player, jaws.id, False)
    with refused("sheet.reveal_npc_only"):
        await sheets.reveal(gm, bond.id, True)
    with refused("sheet.npc_use_gm_only"):
        await sheets.use(player, jaws.id)
    with pytest.raises(ValueError, match="not editable"):
        await sheets.update(gm, bond.id, {"hero_points": 5})
    updated = await sheets.update(gm, bond.id, {"characteristics": {"PER": 12}, "notes": "x"})
    assert updated.sheet.characteristics.PER == 12 and updated.sheet.characteristics.STR == 5
    skilled = await sheets.set_skill(player, bond.id, "Combat a distance", 7)
    assert skilled.sheet.skills == {"fire_combat": 7}
    removed = await sheets.set_skill(player, bond.id, "fire combat", 0)
    assert removed.sheet.skills == {}
    assert (await sheets.use(gm, jaws.id)).id == jaws.id


async def test_delete_keeps_history_and_frees_the_name(db: Database) -> None:
    sheets = service(db)
    bond = await sheets.create(player, name="James Bond")
    with refused("sheet.not_allowed"):
        await sheets.delete(other, bond.id)
    await sheets.delete(player, bond.id)
    with refused("sheet.gone"):
        await sheets.delete(player, bond.id)
    assert await sheets.active(GUILD, PLAYER) is None
    again = await sheets.create(player, name="James Bond")
    assert again.id != bond.id


async def test_export_then_import_by_a_player_and_by_the_gm(db: Database) -> None:
    sheets = service(db)
    bond = await sheets.create(gm, name="James Bond", owner_id=PLAYER)
    async with db.transaction() as conn:
        await ledger.transfer(
            conn,
            guild_id=GUILD,
            kind="hero",
            amount=3,
            src=None,
            dst=bond.account,
            reason="gm.grant",
            now="2026-01-02T00:00:00+00:00",
        )
    name, raw = await sheets.export(player, bond.id)
    assert name == "james-bond.json"
    document = json.loads(raw)
    assert document == sheet_to_json((await sheets.get(player, bond.id)).sheet)
    with refused("sheet.not_allowed"):
        await sheets.export(other, bond.id)

    copy = json.dumps({**document, "name": "Copy", "survival_points": 3}).encode()
    imported = await sheets.import_(other, copy)
    assert imported.dropped == ["hero_points", "survival_points"]
    assert imported.character.owner_id == OTHER and imported.character.hero_points == 0
    kept = await sheets.import_(gm, json.dumps({**document, "name": "GM copy"}).encode())
    assert kept.dropped == [] and kept.character.hero_points == 3
    assert kept.character.owner_id == GM  # the GM imports a PC for himself unless told

    before = await snapshot(db)
    for raw_bad, key in (
        (b"\xff", "sheet.import_not_utf8"),
        (b"{", "sheet.import_not_json"),
        (b"[" * 100_000, "sheet.import_too_big"),
        (b"[" * 10_000 + b"]" * 10_000, "sheet.import_not_json"),  # nesting too deep
    ):
        with refused(key):
            await sheets.import_(player, raw_bad)
    with pytest.raises(SheetInvalid):
        await sheets.import_(player, b'{"format": "other", "version": 9}')
    with refused("sheet.other_player_gm_only"):
        await sheets.import_(player, copy, owner_id=OTHER)
    npc = json.dumps({**document, "name": "N", "kind": "PNJ", "owner_id": None}).encode()
    with refused("sheet.npc_gm_only"):
        await sheets.import_(player, npc)
    assert await snapshot(db) == before
    assert (await sheets.import_(gm, npc)).character.kind == "NPC"


@pytest.mark.parametrize(
    ("name", "filename"),
    [
        ("James Bond", "james-bond.json"),
        ("René Mathis", "rene-mathis.json"),
        ("零零七", "sheet.json"),
    ],
)
def test_export_filenames(name: str, filename: str) -> None:
    assert export_filename(name) == filename
