from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bondbot.sheets import Sheet, SheetInvalid, sheet_to_json
from bondbot.storage import characters as chars
from bondbot.storage import ledger
from bondbot.storage.db import Database, load_migrations

NOW = "2026-01-02T03:04:05.000+00:00"
LATER = "2026-01-03T00:00:00.000+00:00"
GUILD, OTHER_GUILD, PLAYER, OTHER_PLAYER = 10, 20, 111, 222


def pc(name: str = "James Bond", owner: int = PLAYER, **fields: Any) -> Sheet:
    return Sheet.model_validate({"name": name, "kind": "PC", "owner_id": owner, **fields})


def npc(name: str = "Le Chiffre", **fields: Any) -> Sheet:
    return Sheet.model_validate({"name": name, "kind": "NPC", **fields})


async def create(db: Database, sheet: Sheet, guild: int = GUILD) -> chars.Character:
    async with db.transaction() as conn:
        return await chars.create_character(conn, guild, sheet, now=NOW, actor_id=PLAYER)


async def test_create_records_money_in_the_ledger(db: Database) -> None:
    bond = await create(db, pc(hero_points=3, cash=150_000, skills={"Jeu": 8}))
    assert (bond.hero_points, bond.cash, bond.sheet.skills) == (3, 150_000, {"gambling": 8})
    async with db.read() as conn:
        page = await ledger.ledger_page(conn, GUILD, character_id=bond.id)
        assert await chars.hero_points(conn, bond.id) == 3
        assert await chars.cash(conn, bond.id) == 150_000
        assert await ledger.verify_balances(conn) == {}
    rows = {(e.kind, e.amount, e.src, e.dst, e.reason) for e in page.entries}
    assert rows == {
        ("hero", 3, None, f"sheet:{bond.id}", "sheet.create"),
        ("cash", 150_000, None, f"sheet:{bond.id}", "sheet.create"),
    }


async def test_money_read_back_follows_the_ledger(db: Database) -> None:
    bond = await create(db, pc(cash=1000))
    async with db.transaction() as conn:
        chips = f"chips:1:{bond.id}"
        await ledger.transfer(
            conn,
            guild_id=GUILD,
            kind="cash",
            amount=400,
            src=bond.account,
            dst=chips,
            reason="r",
            now=NOW,
        )
        assert (await chars.get_character(conn, bond.id)).cash == 600


async def test_a_sheet_without_money_writes_no_ledger_rows(db: Database) -> None:
    await create(db, npc())
    async with db.read() as conn:
        assert (await ledger.ledger_page(conn, GUILD)).entries == []


async def test_names_are_unique_per_guild_ignoring_case_and_spaces(db: Database) -> None:
    await create(db, pc("James Bond"))
    for clash in ("james bond", "JAMES   BOND", " James Bond "):
        with pytest.raises(chars.NameTaken) as taken:
            await create(db, npc(clash))
        assert taken.value.key == "characters.name_taken"
    await create(db, pc("James Bond"), guild=OTHER_GUILD)  # another server: fine
    async with db.read() as conn:
        assert len(await chars.list_characters(conn, GUILD)) == 1


async def test_refused_create_leaves_nothing(db: Database) -> None:
    await create(db, pc("Bond"))
    with pytest.raises(chars.NameTaken):
        async with db.transaction() as conn:
            await chars.create_character(conn, GUILD, npc("Odd Job", cash=500), now=NOW)
            await chars.create_character(conn, GUILD, npc("BOND", cash=500), now=NOW)
    async with db.read() as conn:
        assert [c.name for c in await chars.list_characters(conn, GUILD)] == ["Bond"]
        assert (await ledger.ledger_page(conn, GUILD)).entries == []


async def test_find_and_list(db: Database) -> None:
    bond = await create(db, pc("James Bond"))
    felix = await create(db, pc("Felix Leiter", owner=OTHER_PLAYER))
    chiffre = await create(db, npc("Le Chiffre"))
    async with db.read() as conn:
        found = await chars.find_character(conn, GUILD, "  JAMES bond ")
        assert found is not None and found.id == bond.id
        assert await chars.find_character(conn, OTHER_GUILD, "James Bond") is None
        names = [c.name for c in await chars.list_characters(conn, GUILD)]
        pcs = await chars.list_characters(conn, GUILD, kind="PC")
        npcs = await chars.list_characters(conn, GUILD, kind="NPC")
        mine = await chars.list_characters(conn, GUILD, owner_id=OTHER_PLAYER)
        with pytest.raises(chars.CharacterNotFound):
            await chars.get_character(conn, bond.id, guild_id=OTHER_GUILD)
        with pytest.raises(chars.CharacterNotFound):
            await chars.get_character(conn, 9999)
    assert names == ["Felix Leiter", "James Bond", "Le Chiffre"]
    assert {c.id for c in pcs} == {bond.id, felix.id}
    assert [c.id for c in npcs] == [chiffre.id]
    assert [c.id for c in mine] == [felix.id]


async def test_update_descriptive_fields(db: Database) -> None:
    bond = await create(db, pc(characteristics={"STR": 9, "PER": 11}))
    async with db.transaction() as conn:
        updated = await chars.update_character(
            conn,
            bond.id,
            {"characteristics": {"VOL": 12}, "notes": "  Shaken, not stirred.  ", "rank": "00"},
            now=LATER,
        )
    sheet = updated.sheet
    assert sheet.characteristics.model_dump() == {
        "STR": 9,
        "DEX": 5,
        "WIL": 12,
        "PER": 11,
        "INT": 5,
    }
    assert (sheet.notes, sheet.rank, updated.updated_at) == ("Shaken, not stirred.", "00", LATER)


async def test_update_refuses_money_and_invalid_values(db: Database) -> None:
    bond = await create(db, pc(cash=100))
    async with db.transaction() as conn:
        with pytest.raises(SheetInvalid) as money:
            await chars.update_character(conn, bond.id, {"cash": 10**6}, now=NOW)
        with pytest.raises(SheetInvalid) as invalid:
            await chars.update_character(conn, bond.id, {"characteristics": {"DEX": 16}}, now=NOW)
    assert money.value.errors[0][0] == "cash"
    assert invalid.value.errors == [("characteristics", "DEX above 15, the most for a PC")]
    async with db.read() as conn:
        assert (await chars.get_character(conn, bond.id)).sheet == bond.sheet


async def test_rename_checks_uniqueness_but_allows_own_case_change(db: Database) -> None:
    bond = await create(db, pc("James Bond"))
    await create(db, npc("Dr. No"))
    async with db.transaction() as conn:
        renamed = await chars.update_character(conn, bond.id, {"name": "JAMES BOND"}, now=NOW)
        assert renamed.name == "JAMES BOND"
        with pytest.raises(chars.NameTaken):
            await chars.update_character(conn, bond.id, {"name": "dr. no"}, now=NOW)


async def test_set_skill_in_french_and_remove_it(db: Database) -> None:
    bond = await create(db, pc(skills={"Gambling": 5}))
    async with db.transaction() as conn:
        raised = await chars.set_skill(conn, bond.id, "jeu", 9, now=NOW)
        house = await chars.set_skill(conn, bond.id, "Baccara", 4, now=NOW)
        removed = await chars.set_skill(conn, bond.id, "Gambling", None, now=NOW)
        with pytest.raises(SheetInvalid):
            await chars.set_skill(conn, bond.id, "Furtivité", 16, now=NOW)
        with pytest.raises(SheetInvalid):
            await chars.set_skill(conn, bond.id, "x" * 41, 1, now=NOW)
    assert raised.sheet.skills == {"gambling": 9}
    assert house.sheet.skills == {"gambling": 9, "Baccara": 4}
    assert removed.sheet.skills == {"Baccara": 4}


async def test_delete_keeps_history_and_frees_the_name(db: Database) -> None:
    bond = await create(db, pc(cash=500))
    async with db.transaction() as conn:
        await chars.set_active_character(conn, GUILD, PLAYER, bond.id)
        await chars.delete_character(conn, bond.id, now=LATER)
    async with db.read() as conn:
        with pytest.raises(chars.CharacterNotFound):
            await chars.get_character(conn, bond.id)
        dead = await chars.get_character(conn, bond.id, include_dead=True)
        assert await chars.get_active_character(conn, GUILD, PLAYER) is None
        assert await chars.list_characters(conn, GUILD) == []
        assert len((await ledger.ledger_page(conn, GUILD)).entries) == 1
    assert not dead.alive and dead.cash == 500
    again = await create(db, pc())
    assert again.id != bond.id  # ids are never reused: ledger accounts name them


async def test_active_character(db: Database) -> None:
    bond = await create(db, pc("James Bond"))
    felix = await create(db, pc("Felix Leiter", owner=OTHER_PLAYER))
    chiffre = await create(db, npc())
    elsewhere = await create(db, pc("Bond Elsewhere"), guild=OTHER_GUILD)
    async with db.transaction() as conn:
        assert await chars.get_active_character(conn, GUILD, PLAYER) is None
        await chars.set_active_character(conn, GUILD, PLAYER, bond.id)
        with pytest.raises(chars.NotOwner):
            await chars.set_active_character(conn, GUILD, PLAYER, felix.id)
        with pytest.raises(chars.CharacterNotFound):
            await chars.set_active_character(conn, GUILD, PLAYER, elsewhere.id)
        active = await chars.get_active_character(conn, GUILD, PLAYER)
        assert active is not None and active.id == bond.id
        await chars.set_active_character(conn, GUILD, PLAYER, chiffre.id)  # the GM's NPC
        active = await chars.get_active_character(conn, GUILD, PLAYER)
        assert active is not None and active.id == chiffre.id


async def test_handing_a_pc_to_another_player_clears_the_old_active_choice(db: Database) -> None:
    bond = await create(db, pc())
    async with db.transaction() as conn:
        await chars.set_active_character(conn, GUILD, PLAYER, bond.id)
        await chars.update_character(conn, bond.id, {"owner_id": OTHER_PLAYER}, now=NOW)
        assert await chars.get_active_character(conn, GUILD, PLAYER) is None


async def test_export_import_round_trip_through_the_ledger(db: Database) -> None:
    original = await create(
        db,
        pc(
            rank="00",
            characteristics={"STR": 9, "DEX": 12, "WIL": 10, "PER": 13, "INT": 11},
            height="1.83 m",
            appearance="Dark hair, a scar on the right cheek.",
            fame_points=40,
            skills={"Gambling": 12, "Fire Combat": 10, "Golf": 6},
            hero_points=4,
            survival_points=0,
            cash=2_500_050,
            weaknesses="Beautiful women",
            fields_of_experience="Economics\nGemology",
            notes="Licence to kill.",
        ),
    )
    document = sheet_to_json(original.sheet)
    async with db.transaction() as conn:
        copy = await chars.import_character(conn, OTHER_GUILD, document, now=LATER)
        moved = await chars.import_character(
            conn, OTHER_GUILD, {**document, "name": "Bond II"}, now=LATER, owner_id=OTHER_PLAYER
        )
        assert await ledger.verify_balances(conn) == {}
    assert copy.sheet == original.sheet
    assert copy.guild_id == OTHER_GUILD and copy.id != original.id
    assert moved.owner_id == OTHER_PLAYER


async def test_import_errors_are_readable_and_store_nothing(db: Database) -> None:
    document = {"format": "bondbot.sheet", "version": 1, "name": "", "kind": "PC", "cash": -5}
    async with db.transaction() as conn:
        with pytest.raises(SheetInvalid) as invalid:
            await chars.import_character(conn, GUILD, document, now=NOW)
        assert await chars.list_characters(conn, GUILD) == []
    assert dict(invalid.value.errors) == {
        "name": "must not be empty",
        "owner_id": "a PC needs the player who owns it",
        "cash": "must be at least 0",
    }


async def test_summaries_are_what_the_sheets_say(db: Database) -> None:
    bond = await create(db, pc(rank="00"))
    hidden = await create(db, npc("Le Chiffre"))
    shown = await create(db, npc("Jaws", revealed=True, rank="Rookie"))
    felix = await create(db, pc("Felix Leiter", owner=OTHER_PLAYER))
    await create(db, pc("Mathis"), guild=OTHER_GUILD)
    async with db.transaction() as conn:
        await chars.update_character(conn, hidden.id, {"name": "Chiffre", "rank": "00"}, now=LATER)
        await chars.delete_character(conn, felix.id, now=LATER)
    async with db.read() as conn:
        everyone = await chars.list_summaries(conn, GUILD)
        public = await chars.list_summaries(conn, GUILD, public_only=True)
        mine = await chars.list_summaries(conn, GUILD, owner_id=PLAYER)
        npcs = await chars.list_summaries(conn, GUILD, kind="NPC")
    assert [(c.id, c.name, c.kind, c.owner_id, c.revealed, c.rank) for c in everyone] == [
        (hidden.id, "Chiffre", "NPC", None, False, "00"),
        (bond.id, "James Bond", "PC", PLAYER, False, "00"),
        (shown.id, "Jaws", "NPC", None, True, "Rookie"),
    ]
    assert [c.name for c in public] == ["James Bond", "Jaws"]
    assert [c.name for c in mine] == ["James Bond"] and all(c.is_public for c in public)
    assert [c.name for c in npcs] == ["Chiffre", "Jaws"]


async def test_matching_names_prefix_first_then_inside_ignoring_accents(db: Database) -> None:
    for name in ("Zoé Martin", "Dr. No", "Emilio Largo", "Bond, James", "Honey Ryder"):
        await create(db, npc(name, revealed=name != "Emilio Largo"))
    await create(db, pc("Nobuo", owner=OTHER_PLAYER))
    async with db.read() as conn:
        assert await chars.matching_names(conn, GUILD, "ZOE") == ["Zoé Martin"]
        assert await chars.matching_names(conn, GUILD, "no") == ["Nobuo", "Dr. No"]
        assert await chars.matching_names(conn, GUILD, "dr no") == ["Dr. No"]
        assert await chars.matching_names(conn, GUILD, "o", limit=2) == [
            "Bond, James",
            "Dr. No",
        ]
        public = await chars.matching_names(conn, GUILD, "", public_only=True)
        assert "Emilio Largo" not in public and len(public) == 5
        assert await chars.matching_names(conn, GUILD, "", owner_id=OTHER_PLAYER) == ["Nobuo"]
        assert await chars.matching_names(conn, GUILD, "", kind="PC") == ["Nobuo"]
        assert await chars.matching_names(conn, OTHER_GUILD, "") == []


async def test_house_skills_follow_the_sheets(db: Database) -> None:
    bond = await create(db, pc(skills={"gambling": 8, "Baccarat lore": 3}))
    npc_ = await create(db, npc("Le Chiffre", skills={"Poker tells": 6}))
    async with db.transaction() as conn:
        await chars.set_skill(conn, bond.id, "Card counting", 2, now=LATER)
    async with db.read() as conn:
        assert await chars.house_skill_names(conn, GUILD) == [
            "Baccarat lore",
            "Card counting",
            "Poker tells",
        ]
        assert await chars.house_skill_names(conn, GUILD, public_only=True) == [
            "Baccarat lore",
            "Card counting",
        ]
    async with db.transaction() as conn:
        await chars.set_skill(conn, bond.id, "Baccarat lore", None, now=LATER)
        await chars.set_skill(conn, bond.id, "Card counting", None, now=LATER)
        await chars.delete_character(conn, npc_.id, now=LATER)
    async with db.read() as conn:
        assert await chars.house_skill_names(conn, GUILD) == []


async def test_migration_0004_fills_the_columns_of_existing_sheets(tmp_path: Path) -> None:
    """Sheets stored before 0004 get their folded name, rank and house skills."""
    earlier = tmp_path / "earlier"
    earlier.mkdir()
    for migration in load_migrations():
        if migration.version < 4:
            (earlier / f"{migration.version:04d}_{migration.name}.sql").write_text(migration.sql)
    async with await Database.open(tmp_path / "old.sqlite3") as db:
        await db.migrate(earlier)
        sheet = pc("Zoé  Martin", rank="Rookie", skills={"Baccarat lore": 3, "gambling": 2})
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO characters (guild_id, name, name_key, kind, owner_id, data,"
                " created_at, updated_at) VALUES (?, ?, ?, 'PC', ?, ?, ?, ?)",
                (
                    GUILD,
                    sheet.name,
                    chars.name_key(sheet.name),
                    PLAYER,
                    chars._stored_data(sheet),
                    NOW,
                    NOW,
                ),
            )
        assert await db.migrate() == [v for v in [m.version for m in load_migrations()] if v >= 4]
        async with db.read() as conn:
            [summary] = await chars.list_summaries(conn, GUILD)
            assert summary.rank == "Rookie"
            assert await chars.matching_names(conn, GUILD, "zoe m") == ["Zoé Martin"]
            assert await chars.house_skill_names(conn, GUILD) == ["Baccarat lore"]
