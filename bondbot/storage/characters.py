"""Character sheets in the database; every function runs on a connection from `db`.

A sheet's Hero Points and cash are balances of the ledger account `sheet:{id}`: creating
or importing a sheet that carries some writes ledger rows from outside the game (reason
`sheet.create`), so balances always equal the ledger. Deleting a character keeps its row
(alive = 0) so the ledger's history still names it, and frees its name.

Lists and autocomplete read `CharacterSummary` rows from covering indexes (name, kind,
owner, visibility, rank, the name's folded form, house skills: columns written with each
sheet), so they cost the same with twenty characters or two thousand and never build a
sheet.
"""

from __future__ import annotations

import json
import sqlite3
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bondbot.errors import Refusal
from bondbot.sheets import (
    CHARACTERISTIC_ALIASES,
    SKILL_NAME_MAX,
    SKILLS_BY_KEY,
    FieldError,
    Kind,
    Sheet,
    SheetInvalid,
    clean_line,
    fold,
    resolve_skill,
    sheet_from_json,
    validate_sheet,
)
from bondbot.storage import ledger
from bondbot.storage.conn import Connection, Row

CREATE_REASON = "sheet.create"
_COLUMNS = frozenset({"name", "kind", "owner_id", "revealed"})
_BALANCES = frozenset({"hero_points", "cash"})
_SELECT = (
    "SELECT c.id, c.guild_id, c.name, c.kind, c.owner_id, c.revealed, c.alive, c.data,"
    " c.created_at, c.updated_at,"
    " COALESCE(h.balance, 0) AS hero, COALESCE(m.balance, 0) AS cash"
    " FROM characters c"
    " LEFT JOIN balances h ON h.account = 'sheet:' || c.id AND h.kind = 'hero'"
    " LEFT JOIN balances m ON m.account = 'sheet:' || c.id AND m.kind = 'cash'"
)


class NameTaken(Refusal):
    """Another living character of the guild has this name (ignoring case)."""

    def __init__(self, name: str) -> None:
        super().__init__("characters.name_taken", name=name)
        self.name = name


class CharacterNotFound(Refusal):
    """No living character has this id (here); answered as "that character no longer exists"."""

    def __init__(self, character_id: int | str) -> None:
        super().__init__("sheet.gone")
        self.character_id = character_id


class NotOwner(Refusal):
    """A user tried to make another player's PC his active character."""

    def __init__(self, name: str) -> None:
        super().__init__("characters.not_owner", name=name)


@dataclass(frozen=True, slots=True)
class Character:
    """A stored sheet; `sheet.hero_points` and `sheet.cash` are the ledger's balances."""

    id: int
    guild_id: int
    sheet: Sheet
    alive: bool
    created_at: str
    updated_at: str

    @property
    def name(self) -> str:
        return self.sheet.name

    @property
    def kind(self) -> Kind:
        return self.sheet.kind

    @property
    def owner_id(self) -> int | None:
        return self.sheet.owner_id

    @property
    def hero_points(self) -> int:
        return self.sheet.hero_points

    @property
    def cash(self) -> int:
        return self.sheet.cash

    @property
    def account(self) -> str:
        return ledger.sheet_account(self.id)


def name_key(name: str) -> str:
    """The form names are compared in: `JAMES  bond` and `James Bond` are one name."""
    return unicodedata.normalize("NFKC", clean_line(name)).casefold()


def _house_skills(skills: Mapping[str, int]) -> str | None:
    """The sheet's house (non-standard) skills as a JSON array, None when it has none."""
    house = sorted(name for name in skills if name not in SKILLS_BY_KEY)
    return json.dumps(house, ensure_ascii=False) if house else None


def _house_skills_of_data(data: str) -> str | None:
    return _house_skills(json.loads(data).get("skills", {}))


# Python functions the migrations call (0004 fills the derived columns of existing sheets).
SQL_FUNCTIONS: dict[str, tuple[int, Callable[..., Any]]] = {
    "bondbot_fold": (1, fold),
    "bondbot_house_skills": (1, _house_skills_of_data),
}


def _derived(sheet: Sheet) -> tuple[str, str, str, str | None]:
    """The columns lists read, derived from the sheet: name_key, name_fold, rank, house_skills."""
    return name_key(sheet.name), fold(sheet.name), sheet.rank, _house_skills(sheet.skills)


def _stored_data(sheet: Sheet) -> str:
    body = sheet.model_dump(mode="json", exclude=set(_COLUMNS | _BALANCES))
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"))


def _from_row(row: Row) -> Character:
    fields = {
        **json.loads(row["data"]),
        "name": row["name"],
        "kind": row["kind"],
        "owner_id": row["owner_id"],
        "revealed": bool(row["revealed"]),
    }
    # Balances can outgrow a new sheet's limits through play, so they are not re-validated.
    sheet = validate_sheet(fields).model_copy(
        update={"hero_points": row["hero"], "cash": row["cash"]}
    )
    return Character(
        row["id"], row["guild_id"], sheet, bool(row["alive"]), row["created_at"], row["updated_at"]
    )


async def _ensure_name_free(
    conn: Connection, guild_id: int, name: str, *, except_id: int | None = None
) -> None:
    rows = await conn.execute_fetchall(
        "SELECT id FROM characters WHERE guild_id = ? AND name_key = ? AND alive = 1",
        (guild_id, name_key(name)),
    )
    if any(row[0] != except_id for row in rows):
        raise NameTaken(name)


async def create_character(
    conn: Connection,
    guild_id: int,
    sheet: Sheet,
    *,
    now: str,
    actor_id: int | None = None,
    note: str | None = None,
) -> Character:
    """Store a new sheet; its Hero Points and cash enter through the ledger."""
    await _ensure_name_free(conn, guild_id, sheet.name)
    try:
        cursor = await conn.execute(
            "INSERT INTO characters (guild_id, name, name_key, name_fold, rank, house_skills,"
            " kind, owner_id, revealed, data, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                guild_id,
                sheet.name,
                *_derived(sheet),
                sheet.kind,
                sheet.owner_id,
                int(sheet.revealed),
                _stored_data(sheet),
                now,
                now,
            ),
        )
    except sqlite3.IntegrityError as exc:  # a unique-index race the check above missed
        raise NameTaken(sheet.name) from exc
    character_id = cursor.lastrowid
    await cursor.close()
    assert character_id is not None
    moves: tuple[tuple[ledger.LedgerKind, int], ...] = (
        ("hero", sheet.hero_points),
        ("cash", sheet.cash),
    )
    for kind, amount in moves:
        if amount > 0:
            await ledger.transfer(
                conn,
                guild_id=guild_id,
                kind=kind,
                amount=amount,
                src=None,
                dst=ledger.sheet_account(character_id),
                reason=CREATE_REASON,
                actor_id=actor_id,
                note=note,
                now=now,
            )
    return await get_character(conn, character_id)


async def import_character(
    conn: Connection,
    guild_id: int,
    data: Any,
    *,
    now: str,
    owner_id: int | None = None,
    actor_id: int | None = None,
) -> Character:
    """Create from an exported JSON document; `owner_id` gives an imported PC a new owner."""
    sheet = sheet_from_json(data)
    if owner_id is not None and sheet.kind == "PC":
        sheet = validate_sheet({**sheet.model_dump(), "owner_id": owner_id})
    return await create_character(conn, guild_id, sheet, now=now, actor_id=actor_id, note="import")


async def get_character(
    conn: Connection,
    character_id: int,
    *,
    guild_id: int | None = None,
    include_dead: bool = False,
) -> Character:
    """The character, or CharacterNotFound (also when it is another guild's, or dead)."""
    rows = list(await conn.execute_fetchall(f"{_SELECT} WHERE c.id = ?", (character_id,)))
    if not rows:
        raise CharacterNotFound(character_id)
    character = _from_row(rows[0])
    if (guild_id is not None and character.guild_id != guild_id) or (
        not include_dead and not character.alive
    ):
        raise CharacterNotFound(character_id)
    return character


async def find_character(conn: Connection, guild_id: int, name: str) -> Character | None:
    """The living character of this guild with this name, ignoring case."""
    rows = list(
        await conn.execute_fetchall(
            f"{_SELECT} WHERE c.guild_id = ? AND c.name_key = ? AND c.alive = 1",
            (guild_id, name_key(name)),
        )
    )
    return _from_row(rows[0]) if rows else None


async def list_characters(
    conn: Connection,
    guild_id: int,
    *,
    kind: Kind | None = None,
    owner_id: int | None = None,
) -> list[Character]:
    """The guild's living characters by name, as whole sheets: for checks that read every
    sheet, not for what a user triggers (lists and autocomplete read `list_summaries`)."""
    clauses: list[str] = ["c.guild_id = ?", "c.alive = 1"]
    params: list[int | str] = [guild_id]
    if kind is not None:
        clauses.append("c.kind = ?")
        params.append(kind)
    if owner_id is not None:
        clauses.append("c.owner_id = ?")
        params.append(owner_id)
    rows = await conn.execute_fetchall(
        f"{_SELECT} WHERE {' AND '.join(clauses)} ORDER BY c.name_key", params
    )
    return [_from_row(row) for row in rows]


@dataclass(frozen=True, slots=True)
class CharacterSummary:
    """What a list shows of a character, read from an index (no sheet is built)."""

    id: int
    name: str
    kind: Kind
    owner_id: int | None
    revealed: bool
    rank: str

    @property
    def is_public(self) -> bool:
        return self.kind == "PC" or self.revealed


def _visible_clauses(
    guild_id: int, *, kind: Kind | None, owner_id: int | None, public_only: bool
) -> tuple[list[str], list[int | str]]:
    clauses: list[str] = ["guild_id = ?", "alive = 1"]
    params: list[int | str] = [guild_id]
    if kind is not None:
        clauses.append("kind = ?")
        params.append(kind)
    if owner_id is not None:
        clauses.append("owner_id = ?")
        params.append(owner_id)
    if public_only:
        clauses.append("(kind = 'PC' OR revealed = 1)")
    return clauses, params


async def list_summaries(
    conn: Connection,
    guild_id: int,
    *,
    kind: Kind | None = None,
    owner_id: int | None = None,
    public_only: bool = False,
) -> list[CharacterSummary]:
    """The guild's living characters by name: of one kind, one owner, or public ones only."""
    clauses, params = _visible_clauses(
        guild_id, kind=kind, owner_id=owner_id, public_only=public_only
    )
    rows = await conn.execute_fetchall(
        "SELECT id, name, kind, owner_id, revealed, rank FROM characters"
        f" WHERE {' AND '.join(clauses)} ORDER BY name_key",
        params,
    )
    return [CharacterSummary(r[0], r[1], r[2], r[3], bool(r[4]), r[5]) for r in rows]


async def matching_names(
    conn: Connection,
    guild_id: int,
    typed: str,
    *,
    kind: Kind | None = None,
    owner_id: int | None = None,
    public_only: bool = False,
    limit: int = 25,
) -> list[str]:
    """Autocomplete: names whose folded form starts with `typed` (folded), then those
    holding it elsewhere, each group by name."""
    clauses, params = _visible_clauses(
        guild_id, kind=kind, owner_id=owner_id, public_only=public_only
    )
    wanted = fold(typed)
    rows = await conn.execute_fetchall(
        "SELECT name FROM characters"
        f" WHERE {' AND '.join(clauses)} AND instr(name_fold, ?) > 0"
        " ORDER BY instr(name_fold, ?) != 1, name_key LIMIT ?",
        (*params, wanted, wanted, limit),
    )
    return [row[0] for row in rows]


async def house_skill_names(
    conn: Connection, guild_id: int, *, public_only: bool = False
) -> list[str]:
    """The house skills on the guild's living sheets (public ones only, if asked), by name."""
    clauses, params = _visible_clauses(guild_id, kind=None, owner_id=None, public_only=public_only)
    rows = await conn.execute_fetchall(
        f"SELECT house_skills FROM characters WHERE {' AND '.join(clauses)}"
        " AND house_skills IS NOT NULL",
        params,
    )
    found = {name for row in rows for name in json.loads(row[0])}
    return sorted(found, key=str.casefold)


async def update_character(
    conn: Connection,
    character_id: int,
    changes: Mapping[str, Any],
    *,
    now: str,
    guild_id: int | None = None,
) -> Character:
    """Change descriptive fields (validated as a whole sheet); never Hero Points or cash.

    `characteristics` may be partial (`{"STR": 9}` keeps the other four).
    """
    money = sorted(_BALANCES & changes.keys())
    if money:
        raise SheetInvalid(
            [FieldError(k, "ledger_only", {}, "changes through the ledger") for k in money]
        )
    current = await get_character(conn, character_id, guild_id=guild_id)
    merged = {**current.sheet.model_dump(exclude=set(_BALANCES)), **changes}
    partial = changes.get("characteristics")
    if isinstance(partial, Mapping):
        merged["characteristics"] = {
            **current.sheet.characteristics.model_dump(),
            **{CHARACTERISTIC_ALIASES.get(k, k): v for k, v in partial.items()},
        }
    sheet = validate_sheet(merged)
    if name_key(sheet.name) != name_key(current.name):
        await _ensure_name_free(conn, current.guild_id, sheet.name, except_id=character_id)
    try:
        await conn.execute(
            "UPDATE characters SET name = ?, name_key = ?, name_fold = ?, rank = ?,"
            " house_skills = ?, kind = ?, owner_id = ?, revealed = ?, data = ?, updated_at = ?"
            " WHERE id = ?",
            (
                sheet.name,
                *_derived(sheet),
                sheet.kind,
                sheet.owner_id,
                int(sheet.revealed),
                _stored_data(sheet),
                now,
                character_id,
            ),
        )
    except sqlite3.IntegrityError as exc:
        raise NameTaken(sheet.name) from exc
    if sheet.kind == "PC":  # a PC handed to another player stops being the old one's
        await conn.execute(
            "DELETE FROM active_characters WHERE guild_id = ? AND character_id = ?"
            " AND user_id != ?",
            (current.guild_id, character_id, sheet.owner_id),
        )
    return await get_character(conn, character_id)


async def set_skill(
    conn: Connection,
    character_id: int,
    skill: str,
    level: int | None,
    *,
    now: str,
    guild_id: int | None = None,
) -> Character:
    """Set a skill (named in either language, or a house skill) to `level`; None removes it."""
    try:
        key = resolve_skill(skill)
    except ValueError:
        params = {"max": SKILL_NAME_MAX}
        error = FieldError("skills", "bad_skill_name", params, "not a skill name")
        raise SheetInvalid([error]) from None
    current = await get_character(conn, character_id, guild_id=guild_id)
    skills = {name: lvl for name, lvl in current.sheet.skills.items() if name != key}
    if level is not None:
        skills[key] = level
    return await update_character(conn, character_id, {"skills": skills}, now=now)


async def delete_character(
    conn: Connection, character_id: int, *, now: str, guild_id: int | None = None
) -> None:
    """Retire a character: hidden from lists, name free, ledger history and balances kept."""
    character = await get_character(conn, character_id, guild_id=guild_id)
    await conn.execute(
        "UPDATE characters SET alive = 0, updated_at = ? WHERE id = ?", (now, character_id)
    )
    await conn.execute(
        "DELETE FROM active_characters WHERE guild_id = ? AND character_id = ?",
        (character.guild_id, character_id),
    )


async def set_active_character(
    conn: Connection, guild_id: int, user_id: int, character_id: int
) -> Character:
    """Make this the user's character for commands in this guild: his PC, or an NPC (GM)."""
    character = await get_character(conn, character_id, guild_id=guild_id)
    if character.kind == "PC" and character.owner_id != user_id:
        raise NotOwner(character.name)
    await conn.execute(
        "INSERT INTO active_characters (guild_id, user_id, character_id) VALUES (?, ?, ?)"
        " ON CONFLICT (guild_id, user_id) DO UPDATE SET character_id = excluded.character_id",
        (guild_id, user_id, character_id),
    )
    return character


async def get_active_character(conn: Connection, guild_id: int, user_id: int) -> Character | None:
    rows = list(
        await conn.execute_fetchall(
            "SELECT character_id FROM active_characters WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
    )
    return await get_character(conn, rows[0][0]) if rows else None


async def hero_points(conn: Connection, character_id: int) -> int:
    return await ledger.balance(conn, ledger.sheet_account(character_id), "hero")


async def cash(conn: Connection, character_id: int) -> int:
    return await ledger.balance(conn, ledger.sheet_account(character_id), "cash")


def survival_points_job(
    character_id: int, points: int, *, now: str
) -> Callable[[sqlite3.Connection], None]:
    """A writer job setting a sheet's Survival Points, validated as a whole sheet (an NPC
    spends them in a table's contest, in the same commit as the table's state)."""

    def job(conn: sqlite3.Connection) -> None:
        row = conn.execute(
            "SELECT name, kind, owner_id, revealed, data FROM characters WHERE id = ?",
            (character_id,),
        ).fetchone()
        if row is None:
            raise CharacterNotFound(character_id)
        name, kind, owner_id, revealed, data = row
        fields = {
            **json.loads(data),
            "name": name,
            "kind": kind,
            "owner_id": owner_id,
            "revealed": bool(revealed),
            "survival_points": points,
        }
        conn.execute(
            "UPDATE characters SET data = ?, updated_at = ? WHERE id = ?",
            (_stored_data(validate_sheet(fields)), now, character_id),
        )

    return job
