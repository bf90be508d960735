"""Character sheets as the commands use them: who may see and change what, in one place.

Every method takes an `Actor` (the server, the user, and whether he holds the GM role) and
either does the whole change in one transaction or raises a Refusal (or SheetInvalid,
listing each bad field) before writing anything. Hero Points and cash never change here:
only GM grants and play move them, through the ledger.
"""

from __future__ import annotations

import contextlib
import json
import re
import unicodedata
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bondbot.errors import Refusal
from bondbot.sheets import (
    Kind,
    SheetInvalid,
    check_line,
    clean_line,
    sheet_to_json,
    validate_sheet,
)
from bondbot.storage import characters, seating
from bondbot.storage.characters import Character, CharacterNotFound, CharacterSummary, NameTaken
from bondbot.storage.conn import Connection
from bondbot.storage.db import Database

IMPORT_MAX_BYTES = 64 * 1024
# What the owner (or the GM) may change with /sheet edit and /sheet set.
EDITABLE = frozenset(
    {
        "name",
        "rank",
        "characteristics",
        "height",
        "weight",
        "appearance",
        "fame_points",
        "weaknesses",
        "fields_of_experience",
        "notes",
    }
)
GM_EDITABLE = EDITABLE | {"survival_points"}
# An import by a player may not bring Hero Points or cash: only the GM and play give them.
LEDGER_FIELDS = ("hero_points", "cash")


@dataclass(frozen=True, slots=True)
class Actor:
    """Who asks: the server, the Discord user, and whether he holds the server's GM role."""

    guild_id: int
    user_id: int
    is_gm: bool = False


@dataclass(frozen=True, slots=True)
class Imported:
    character: Character
    dropped: list[str] = field(default_factory=list)  # ledger fields a player's import lost


def can_see(actor: Actor, character: Character) -> bool:
    """Anyone sees a PC and a revealed NPC; the GM sees everything."""
    return actor.is_gm or character.sheet.is_public


def can_edit(actor: Actor, character: Character) -> bool:
    """The PC's player or the GM."""
    return actor.is_gm or (character.kind == "PC" and character.owner_id == actor.user_id)


def export_filename(name: str) -> str:
    """`James Bond` → `james-bond.json`; a name with no Latin letter gives `sheet.json`."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")[:48]
    return f"{slug or 'sheet'}.json"


@contextlib.contextmanager
def _names_unconfirmed(actor: Actor) -> Iterator[None]:
    """A player is told only that a name is unavailable, never that a character holds it:
    the holder may be an NPC the GM keeps hidden. The GM, who sees every sheet, is told."""
    try:
        yield
    except NameTaken as taken:
        if actor.is_gm:
            raise
        raise Refusal("characters.name_unavailable", name=taken.name) from None


class SheetService:
    def __init__(self, db: Database, clock: Callable[[], datetime]) -> None:
        self.db = db
        self.clock = clock

    def now(self) -> str:
        return self.clock().isoformat(timespec="milliseconds")

    # -- lookups ---------------------------------------------------------------------------

    async def active(self, guild_id: int, user_id: int) -> int | None:
        """The id of the user's active character in this server, if he chose one."""
        async with self.db.read() as conn:
            character = await characters.get_active_character(conn, guild_id, user_id)
        return None if character is None else character.id

    async def find_id(self, guild_id: int, name: str, *, kind: str | None = None) -> int:
        """A living character's id by name (case-insensitive); refuses unknown names."""
        async with self.db.read() as conn:
            character = await characters.find_character(conn, guild_id, name)
        if character is None or (kind is not None and character.kind != kind):
            raise Refusal("characters.not_found", name=name)
        return character.id

    async def get(self, actor: Actor, character_id: int) -> Character:
        """A character this actor may see, by id."""
        async with self.db.read() as conn:
            character = await _load(conn, actor, character_id)
        if not can_see(actor, character):
            raise Refusal("sheet.gone")
        return character

    async def target(self, actor: Actor, name: str | None) -> Character:
        """The character named (one the actor may see), or his active character."""
        async with self.db.read() as conn:
            return await self._target(conn, actor, name)

    async def _target(self, conn: Connection, actor: Actor, name: str | None) -> Character:
        if name is None or not name.strip():
            character = await characters.get_active_character(conn, actor.guild_id, actor.user_id)
            if character is None or not can_see(actor, character):  # e.g. a GM no longer
                raise Refusal("sheet.no_active")
            return character
        character = await characters.find_character(conn, actor.guild_id, name)
        if character is None or not can_see(actor, character):
            raise Refusal("characters.not_found", name=name.strip()[:64])
        return character

    async def editable(self, actor: Actor, name: str | None) -> Character:
        """The character named (or his active one), if the actor may change it."""
        character = await self.target(actor, name)
        if not can_edit(actor, character):
            raise Refusal("sheet.not_allowed", name=character.name)
        return character

    async def visible(self, actor: Actor, *, mine: bool = False) -> list[CharacterSummary]:
        """The server's characters this actor may see, by name; `mine`: only his PCs."""
        async with self.db.read() as conn:
            return await characters.list_summaries(
                conn,
                actor.guild_id,
                owner_id=actor.user_id if mine else None,
                public_only=not actor.is_gm,
            )

    async def names(
        self, actor: Actor, typed: str, *, editable: bool = False, kind: Kind | None = None
    ) -> list[str]:
        """Autocomplete: names of characters he may see (or change), best matches first."""
        async with self.db.read() as conn:
            return await characters.matching_names(
                conn,
                actor.guild_id,
                typed,
                kind=kind,
                owner_id=actor.user_id if editable and not actor.is_gm else None,
                public_only=not actor.is_gm,
            )

    async def house_skills(self, actor: Actor) -> list[str]:
        """House skills on the sheets this actor may see, for autocomplete."""
        async with self.db.read() as conn:
            return await characters.house_skill_names(
                conn, actor.guild_id, public_only=not actor.is_gm
            )

    # -- creating and changing -------------------------------------------------------------

    async def create(
        self,
        actor: Actor,
        *,
        name: str,
        kind: Kind = "PC",
        owner_id: int | None = None,
        fields: Mapping[str, Any] | None = None,
    ) -> Character:
        """A new sheet: a player creates his own PC; the GM creates NPCs and PCs for anyone.

        Hero Points and cash start at zero (the GM grants them). A new PC becomes its
        owner's active character if he has none.
        """
        extra = dict(fields or {})
        unknown = set(extra) - GM_EDITABLE
        if unknown:
            raise ValueError(f"not creatable fields: {sorted(unknown)}")
        if kind == "NPC":
            if not actor.is_gm:
                raise Refusal("sheet.npc_gm_only")
            if owner_id is not None:
                raise Refusal("sheet.npc_has_no_player")
        else:
            owner_id = actor.user_id if owner_id is None else owner_id
            if owner_id != actor.user_id and not actor.is_gm:
                raise Refusal("sheet.other_player_gm_only")
        if "survival_points" in extra and not actor.is_gm:
            raise Refusal("sheet.survival_gm_only")
        sheet = validate_sheet({**extra, "name": name, "kind": kind, "owner_id": owner_id})
        with _names_unconfirmed(actor):
            async with self.db.transaction() as conn:
                character = await characters.create_character(
                    conn, actor.guild_id, sheet, now=self.now(), actor_id=actor.user_id
                )
                await _activate_if_none(conn, character)
        return character

    async def update(
        self, actor: Actor, character_id: int, changes: Mapping[str, Any]
    ) -> Character:
        """Change descriptive fields (owner or GM); `characteristics` may be partial."""
        unknown = set(changes) - GM_EDITABLE
        if unknown:
            raise ValueError(f"not editable here: {sorted(unknown)}")
        if not changes:
            raise Refusal("sheet.nothing_to_change")
        if "survival_points" in changes and not actor.is_gm:
            raise Refusal("sheet.survival_gm_only")
        with _names_unconfirmed(actor):
            async with self.db.transaction() as conn:
                current = await self._editable(conn, actor, character_id)
                return await characters.update_character(
                    conn, current.id, dict(changes), now=self.now()
                )

    async def set_skill(self, actor: Actor, character_id: int, skill: str, level: int) -> Character:
        """Set a skill level (owner or GM); level 0 takes the skill off the sheet."""
        check_line("skills", clean_line(skill))
        async with self.db.transaction() as conn:
            current = await self._editable(conn, actor, character_id)
            return await characters.set_skill(
                conn, current.id, skill, level or None, now=self.now()
            )

    async def reveal(self, actor: Actor, character_id: int, revealed: bool) -> Character:
        """Show an NPC's sheet to the players, or hide it again (GM)."""
        if not actor.is_gm:
            raise Refusal("sheet.reveal_gm_only")
        async with self.db.transaction() as conn:
            current = await _load(conn, actor, character_id)
            if current.kind != "NPC":
                raise Refusal("sheet.reveal_npc_only")
            return await characters.update_character(
                conn, current.id, {"revealed": revealed}, now=self.now()
            )

    async def use(self, actor: Actor, character_id: int) -> Character:
        """Make this the actor's active character: his own PC, or (GM) any NPC."""
        async with self.db.transaction() as conn:
            character = await _load(conn, actor, character_id)
            if character.kind == "NPC" and not actor.is_gm:
                raise Refusal("sheet.npc_use_gm_only")
            return await characters.set_active_character(
                conn, actor.guild_id, actor.user_id, character.id
            )

    async def deletable(self, actor: Actor, name: str) -> Character:
        """The character named, if the actor may delete it now (before asking to confirm)."""
        async with self.db.read() as conn:
            character = await self._target(conn, actor, name)
            if not can_edit(actor, character):
                raise Refusal("sheet.not_allowed", name=character.name)
            await _refuse_at_table(conn, character)
        return character

    async def delete(self, actor: Actor, character_id: int) -> Character:
        """Retire a character (owner or GM): its name is free again, its ledger kept.

        Not while he is at an open table: his chips would be cashed out to a deleted sheet
        and stranded there, and a table would lose its NPC."""
        async with self.db.transaction() as conn:
            current = await self._editable(conn, actor, character_id)
            await _refuse_at_table(conn, current)
            await characters.delete_character(conn, current.id, now=self.now())
        return current

    # -- export and import -----------------------------------------------------------------

    async def export(self, actor: Actor, character_id: int) -> tuple[str, bytes]:
        """The sheet as a JSON file (owner or GM): `(filename, bytes)`."""
        async with self.db.read() as conn:
            character = await self._editable(conn, actor, character_id)
        body = json.dumps(sheet_to_json(character.sheet), ensure_ascii=False, indent=2)
        return export_filename(character.name), (body + "\n").encode("utf-8")

    async def import_(self, actor: Actor, raw: bytes, *, owner_id: int | None = None) -> Imported:
        """Create a sheet from an exported file; errors list every bad field.

        A PC is owned by the importer (or, for the GM, by `owner_id`); only the GM imports
        NPCs and keeps the file's Hero Points and cash (ledgered as `sheet.create`, note
        `import`); a player's import starts them (and Survival Points) at zero.
        """
        data = _parse_json(raw)
        dropped: list[str] = []
        if isinstance(data, dict):
            kind = _kind_of(data.get("kind"))
            if kind == "NPC" and not actor.is_gm:
                raise Refusal("sheet.npc_gm_only")
            if kind == "PC":
                owner = actor.user_id if owner_id is None else owner_id
                if owner != actor.user_id and not actor.is_gm:
                    raise Refusal("sheet.other_player_gm_only")
                data = {**data, "owner_id": owner}
            if not actor.is_gm:
                for name in LEDGER_FIELDS:
                    if data.pop(name, None) not in (None, 0):
                        dropped.append(name)
                if data.pop("survival_points", None) not in (None, 0):
                    dropped.append("survival_points")
        with _names_unconfirmed(actor):
            async with self.db.transaction() as conn:
                character = await characters.import_character(
                    conn, actor.guild_id, data, now=self.now(), actor_id=actor.user_id
                )
                await _activate_if_none(conn, character)
        return Imported(character, dropped)

    # -- helpers ---------------------------------------------------------------------------

    async def _editable(self, conn: Connection, actor: Actor, character_id: int) -> Character:
        character = await _load(conn, actor, character_id)
        if not can_see(actor, character):
            raise Refusal("sheet.gone")
        if not can_edit(actor, character):
            raise Refusal("sheet.not_allowed", name=character.name)
        return character


async def _load(conn: Connection, actor: Actor, character_id: int) -> Character:
    """A living character of the actor's server; `sheet.gone` once deleted."""
    try:
        return await characters.get_character(conn, character_id, guild_id=actor.guild_id)
    except CharacterNotFound:
        raise Refusal("sheet.gone") from None


async def _refuse_at_table(conn: Connection, character: Character) -> None:
    for at in await seating.open_tables_of(conn, character.guild_id, character.id):
        key = "sheet.delete_seated" if at.role == "seat" else "sheet.delete_table_npc"
        raise Refusal(key, name=character.name, channel=f"<#{at.channel_id}>")


async def _activate_if_none(conn: Connection, character: Character) -> None:
    if character.kind != "PC" or character.owner_id is None:
        return
    current = await characters.get_active_character(conn, character.guild_id, character.owner_id)
    if current is None:
        await characters.set_active_character(
            conn, character.guild_id, character.owner_id, character.id
        )


def _parse_json(raw: bytes) -> Any:
    if len(raw) > IMPORT_MAX_BYTES:
        raise Refusal("sheet.import_too_big", max=IMPORT_MAX_BYTES // 1024)
    try:
        return json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise Refusal("sheet.import_not_utf8") from None
    except json.JSONDecodeError as exc:
        raise Refusal("sheet.import_not_json", line=exc.lineno, column=exc.colno) from None
    except RecursionError:
        raise Refusal("sheet.import_not_json", line=1, column=1) from None


def _kind_of(value: Any) -> Kind | None:
    """The kind a document claims (`PJ`, `npc`…), before full validation."""
    if not isinstance(value, str):
        return None
    folded = value.strip().casefold()
    if folded in ("pc", "pj"):
        return "PC"
    if folded in ("npc", "pnj"):
        return "NPC"
    return None


__all__ = [
    "EDITABLE",
    "GM_EDITABLE",
    "IMPORT_MAX_BYTES",
    "Actor",
    "Imported",
    "SheetInvalid",
    "SheetService",
    "can_edit",
    "can_see",
    "export_filename",
]
