"""What only the GM does: the GM role, Hero Point and cash grants, the ledger, house rules.

Grants and takes are one ledger row each, from or to outside the game (`src`/`dst`
NULL), with the GM's free-text reason in the row's note. Taking more than a character
holds is refused and writes nothing. Identical grants sent at once are one intent
(`GmService.grant`).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from bondbot.errors import Refusal
from bondbot.money import MAX_AMOUNT, Cents
from bondbot.rules import alternative
from bondbot.rules.errors import IllegalAction
from bondbot.services.guilds import GuildSettingsService
from bondbot.services.sheets import Actor
from bondbot.sheets import POINTS_MAX, SheetInvalid, check_line, clean_line, fold
from bondbot.storage import characters, ledger, repeats, retired
from bondbot.storage.characters import Character, CharacterNotFound
from bondbot.storage.conn import Connection
from bondbot.storage.db import Database
from bondbot.storage.settings import GuildSettings, SettingsInvalid

GRANT_REASON = "gm.grant"
TAKE_REASON = "gm.take"
REASON_MAX = 200
LEDGER_PAGE_SIZE = 10
SETTINGS = frozenset({"locale", "currency", "spend_window_s", "turn_timer_s", "award_table"})

Kind = Literal["hero", "cash"]


@dataclass(frozen=True, slots=True)
class Movement:
    """What a grant or take did: the ledger row and the character's new balance."""

    character: Character
    kind: Kind
    amount: int
    give: bool
    balance: int
    entry_id: int
    note: str
    at: str  # when the ledger row was written


@dataclass(frozen=True, slots=True)
class Grant:
    """What one `/gm hero|cash` did: `moved`, applied now; or nothing, and `earlier` is the
    same intent already applied, for the GM to be asked about. `concurrent`: that one was
    in flight at the same moment (not a retry after a lost answer)."""

    moved: Movement | None
    earlier: Movement | None = None
    concurrent: bool = False


# A snowflake's time is cut to the millisecond: a bound taken from one allows for that.
SNOWFLAKE_TICK = timedelta(milliseconds=1)

# An intent: guild, character, kind, give, amount, reason (the GM who sends it aside).
_Intent = tuple[int, int, str, bool, int, str]


@dataclass(frozen=True, slots=True)
class Sent:
    """When a command was sent and when the bot got it, on two clocks that are never
    compared with each other: `at` is Discord's (the interaction's snowflake), `received`
    is this process's `time.monotonic()` as its handler began."""

    at: datetime
    received: float


@dataclass(frozen=True, slots=True)
class _Answered:
    """An intent applied (or asked about) and answered: `grant` is what it did. `at` (this
    process's monotonic clock) is when it was decided, before its answer left; `seen_from`
    is the earliest moment, on Discord's clock, its GM could have seen that answer: when
    he sent it plus the time the bot took to decide, less a snowflake's millisecond."""

    grant: Grant
    at: float
    seen_from: datetime

    def unseen_by(self, sent: Sent) -> bool:
        """Whether a command sent at `sent` left before this answer could be seen: then it
        is not a reaction to it but the same click, handled later. Either clock proves it:
        the bot had it before deciding, or Discord had it before the answer could exist."""
        return sent.received < self.at or sent.at < self.seen_from


@dataclass(frozen=True, slots=True)
class LedgerView:
    """One page of the ledger, newest first, with cursors for the pages around it.

    `before_id` is this page's own cursor (None: the newest page); `previous_before` is
    the cursor of the newer page (None with `has_previous`: the newest page).
    """

    entries: list[ledger.LedgerEntry]
    before_id: int | None
    next_before: int | None
    has_previous: bool
    previous_before: int | None
    names: dict[int, str]  # character id → name, for every account on the page
    character: Character | None


def _told(done: Grant) -> Grant:
    """What an identical grant sent at the same moment as `done` is told: `done`'s move
    (`concurrent`), or the earlier one `done` asked about."""
    return Grant(None, done.moved or done.earlier, concurrent=done.moved is not None)


def _reason(text: str) -> str:
    reason = clean_line(text)
    if not reason:
        raise Refusal("gm.reason_required")
    if len(reason) > REASON_MAX:
        raise Refusal("gm.reason_too_long", max=REASON_MAX)
    return reason


def _check_amount(kind: Kind, amount: int) -> None:
    if kind == "cash" and not 0 < amount <= MAX_AMOUNT:
        raise ValueError(f"a cash amount is 1 to {MAX_AMOUNT} cents, not {amount}")
    if kind == "hero" and not 0 < amount <= POINTS_MAX:
        raise Refusal("gm.bad_hero_amount", max=POINTS_MAX)


def _require_gm(actor: Actor) -> None:
    if not actor.is_gm:
        raise Refusal("gm.not_gm")


class GmService:
    def __init__(
        self, db: Database, guilds: GuildSettingsService, clock: Callable[[], datetime]
    ) -> None:
        self.db = db
        self.guilds = guilds
        self.clock = clock
        # The grants being made and answered now, by intent: what identical ones wait on.
        self._in_flight: dict[_Intent, asyncio.Future[Grant | None]] = {}
        # The last answered grant of each intent, for those sent before it was seen.
        self._answered: dict[_Intent, _Answered] = {}

    def now(self) -> str:
        return self.clock().isoformat(timespec="milliseconds")

    # -- the role --------------------------------------------------------------------------

    async def set_role(self, guild_id: int, role_id: int) -> GuildSettings:
        """The caller checked Manage Server; the role's holders become the server's GMs."""
        return await self.guilds.update(guild_id, gm_role_id=role_id)

    # -- Hero Points and cash --------------------------------------------------------------

    async def move(
        self,
        actor: Actor,
        character_id: int,
        kind: Kind,
        amount: int,
        *,
        give: bool,
        reason: str,
    ) -> Movement:
        """Give (from outside) or take (to outside) Hero Points or cash (in cents): one
        ledger row. The Discord layer reads a typed cash amount with `money.amount_or_refuse`.
        """
        _require_gm(actor)
        _check_amount(kind, amount)
        note = _reason(reason)
        async with self.db.transaction() as conn:
            character = await _living(conn, actor.guild_id, character_id)
            return await self._apply(conn, actor, character, kind, amount, give, note)

    @contextlib.asynccontextmanager
    async def grant(
        self,
        actor: Actor,
        character_id: int,
        kind: Kind,
        amount: int,
        *,
        give: bool,
        reason: str,
        sent: Sent,
        delivered: Callable[[int], bool],
    ) -> AsyncIterator[Grant]:
        """A GM's grant or take as one intent, answered inside the block.

        The check for a repeated intent reads what is written, so identical grants sent at
        once (same character, kind, give or take, amount and reason, by one GM or several)
        would all pass it: the first one holds the intent until the block that answers it
        ends, and the others wait for it, then are told what it did (`concurrent`) and do
        nothing. One that failed wrote nothing: the next waiting one tries afresh.

        One sent at once can also get here only after the first was answered and its
        intent released (a slow read before it, a busy loop, a late gateway event): it too
        was sent before that answer could be seen (`sent`), so it is told the same and
        does nothing. After that, `earlier_same_move` decides as before: the same GM's
        identical grant whose answer did not reach him (`delivered(entry_id)` false) is
        asked about, one whose answer he saw is meant and applied.
        """
        _require_gm(actor)
        _check_amount(kind, amount)
        note = _reason(reason)
        intent: _Intent = (actor.guild_id, character_id, kind, give, amount, note)
        while (running := self._in_flight.get(intent)) is not None:
            done = await asyncio.shield(running)
            if done is None:
                continue
            yield _told(done)
            return
        answered = self._answered.get(intent)
        if answered is not None and answered.unseen_by(sent):
            yield _told(answered.grant)
            return
        mine: asyncio.Future[Grant | None] = asyncio.get_running_loop().create_future()
        self._in_flight[intent] = mine
        outcome: Grant | None = None
        decided = 0.0
        try:
            earlier = await self.earlier_same_move(
                actor, character_id, kind, amount, give=give, reason=reason
            )
            if earlier is not None and not delivered(earlier.entry_id):
                outcome = Grant(None, earlier)
            else:
                moved = await self.move(actor, character_id, kind, amount, give=give, reason=reason)
                outcome = Grant(moved)
            decided = time.monotonic()
            yield outcome
        finally:
            del self._in_flight[intent]
            if outcome is not None:
                self._remember(intent, outcome, sent, decided)
            mine.set_result(outcome)

    def _remember(self, intent: _Intent, outcome: Grant, sent: Sent, decided: float) -> None:
        """Keep the answered intent for the identical commands sent before it could be
        seen; forget those decided longer ago than any handler runs (REPEAT_WINDOW)."""
        horizon = time.monotonic() - repeats.REPEAT_WINDOW.total_seconds()
        self._answered = {i: a for i, a in self._answered.items() if a.at > horizon}
        took = timedelta(seconds=max(0.0, decided - sent.received)) - SNOWFLAKE_TICK
        self._answered[intent] = _Answered(outcome, decided, sent.at + took)

    async def _apply(
        self,
        conn: Connection,
        actor: Actor,
        character: Character,
        kind: Kind,
        amount: int,
        give: bool,
        note: str,
    ) -> Movement:
        now = self.now()
        try:
            entry = await ledger.transfer(
                conn,
                guild_id=actor.guild_id,
                kind=kind,
                amount=amount,
                src=None if give else character.account,
                dst=character.account if give else None,
                reason=GRANT_REASON if give else TAKE_REASON,
                actor_id=actor.user_id,
                note=note,
                now=now,
            )
        except ledger.InsufficientFunds as exc:
            available: int = Cents(exc.available) if kind == "cash" else exc.available
            raise Refusal(
                f"gm.take_too_much_{kind}", name=character.name, available=available
            ) from None
        balance = await ledger.balance(conn, character.account, kind)
        return Movement(character, kind, amount, give, balance, entry, note, now)

    async def earlier_same_move(
        self,
        actor: Actor,
        character_id: int,
        kind: Kind,
        amount: int,
        *,
        give: bool,
        reason: str,
    ) -> Movement | None:
        """The same move by the same GM within REPEAT_WINDOW, with today's balance: what a
        retry after a lost answer would do a second time (docs/decisions.md)."""
        _require_gm(actor)
        _check_amount(kind, amount)
        note = _reason(reason)
        since = (self.clock() - repeats.REPEAT_WINDOW).isoformat(timespec="milliseconds")
        async with self.db.read() as conn:
            character = await _living(conn, actor.guild_id, character_id)
            entry = await repeats.latest_same_move(
                conn,
                guild_id=actor.guild_id,
                actor_id=actor.user_id,
                kind=kind,
                amount=amount,
                src=None if give else character.account,
                dst=character.account if give else None,
                reason=GRANT_REASON if give else TAKE_REASON,
                note=note,
                since=since,
            )
            if entry is None:
                return None
            balance = await ledger.balance(conn, character.account, kind)
        return Movement(character, kind, amount, give, balance, entry.id, note, entry.created_at)

    async def move_again(self, actor: Actor, entry_id: int) -> Movement:
        """Repeat the grant or take of ledger row `entry_id`, unless it was repeated already
        (a second click on the same button does nothing twice)."""
        _require_gm(actor)
        async with self.db.transaction() as conn:
            entry = await repeats.ledger_entry(conn, actor.guild_id, entry_id)
            if entry is None or entry.reason not in (GRANT_REASON, TAKE_REASON):
                raise Refusal("gm.unknown_action")
            if await repeats.same_move_after(conn, entry):
                raise Refusal("gm.already_repeated")
            give = entry.reason == GRANT_REASON
            character_id = character_of_account(entry.dst if give else entry.src)
            assert character_id is not None
            character = await _living(conn, actor.guild_id, character_id)
            return await self._apply(
                conn, actor, character, entry.kind, entry.amount, give, entry.note or ""
            )

    # -- the ledger ------------------------------------------------------------------------

    async def ledger_character(self, actor: Actor, text: str) -> Character:
        """Whose ledger the GM asks for: a living character by name, else `#id` (what the
        autocomplete gives for a deleted one), else the latest deleted one of that name."""
        _require_gm(actor)
        wanted = text.strip()
        async with self.db.read() as conn:
            found = await characters.find_character(conn, actor.guild_id, wanted)
            if found is None and (number := re.fullmatch(r"#(\d{1,18})", wanted)):
                with contextlib.suppress(CharacterNotFound):
                    found = await characters.get_character(
                        conn, int(number[1]), guild_id=actor.guild_id, include_dead=True
                    )
            if found is None:
                found = next(iter(await retired.deleted_named(conn, actor.guild_id, wanted)), None)
        if found is None:
            raise Refusal("characters.not_found", name=wanted)
        return found

    async def deleted_names(self, actor: Actor, typed: str) -> list[Character]:
        """Autocomplete for the ledger: deleted characters whose name matches, newest first."""
        _require_gm(actor)
        wanted = fold(typed)
        async with self.db.read() as conn:
            gone = await retired.deleted_characters(conn, actor.guild_id)
        return [c for c in gone if wanted in fold(c.name)]

    async def ledger(
        self,
        actor: Actor,
        *,
        character_id: int | None = None,
        before_id: int | None = None,
        limit: int = LEDGER_PAGE_SIZE,
    ) -> LedgerView:
        """A page of the server's ledger (or one character's), newest first."""
        _require_gm(actor)
        async with self.db.read() as conn:
            character = None
            if character_id is not None:
                character = await characters.get_character(
                    conn, character_id, guild_id=actor.guild_id, include_dead=True
                )
            page = await ledger.ledger_page(
                conn,
                actor.guild_id,
                character_id=character_id,
                before_id=before_id,
                limit=limit,
            )
            previous = None
            if before_id is not None and page.entries:
                previous = await ledger.newer_cursor(
                    conn, actor.guild_id, page.entries[0].id, character_id=character_id, limit=limit
                )
            names = await _names(conn, actor.guild_id, page.entries)
        return LedgerView(
            page.entries,
            before_id,
            page.next_before_id,
            before_id is not None,
            previous,
            names,
            character,
        )

    # -- house rules -----------------------------------------------------------------------

    async def settings(self, guild_id: int) -> GuildSettings:
        return await self.guilds.get(guild_id)

    async def update_settings(self, actor: Actor, **changes: Any) -> GuildSettings:
        """Change house rules (validated as a whole: SettingsInvalid lists what is wrong).

        `award_table` is text like `0:0 1-5:1 6-10:2 11-14:3 15:4`, stored normalised;
        an empty text (or `default`) puts back the rule's default table.
        """
        _require_gm(actor)
        unknown = set(changes) - SETTINGS
        if unknown:
            raise ValueError(f"unknown settings {sorted(unknown)}")
        if not changes:
            raise Refusal("gm.settings_nothing")
        if "award_table" in changes and changes["award_table"] is not None:
            text = str(changes["award_table"]).strip()
            changes["award_table"] = None if not text else _award_table(text)
        if isinstance(changes.get("currency"), str):
            changes["currency"] = changes["currency"].strip()
            try:
                check_line("currency", changes["currency"])
            except SheetInvalid as error:
                raise SettingsInvalid(error.field_errors) from None
        return await self.guilds.update(actor.guild_id, **changes)


def award_table_of(settings: GuildSettings) -> alternative.AwardTable:
    """The server's award table (the rule's default when none was set)."""
    if settings.award_table is None:
        return alternative.DEFAULT_AWARDS
    return alternative.parse_award_table(settings.award_table)


DEFAULT_WORDS = frozenset({"default", "defaut", "défaut"})


def _award_table(text: str) -> str | None:
    if text.casefold() in DEFAULT_WORDS:
        return None
    try:
        return alternative.format_award_table(alternative.parse_award_table(text))
    except IllegalAction as exc:
        code = exc.code.removeprefix("alternative.")
        raise Refusal(f"gm.{code}", **exc.params) from None


async def _living(conn: Connection, guild_id: int, character_id: int) -> Character:
    try:
        return await characters.get_character(conn, character_id, guild_id=guild_id)
    except CharacterNotFound:
        raise Refusal("sheet.gone") from None


async def _names(
    conn: Connection, guild_id: int, entries: list[ledger.LedgerEntry]
) -> dict[int, str]:
    wanted: set[int] = set()
    for entry in entries:
        for account in (entry.src, entry.dst):
            character = character_of_account(account)
            if character is not None:
                wanted.add(character)
    names: dict[int, str] = {}
    for character_id in sorted(wanted):
        try:
            character = await characters.get_character(
                conn, character_id, guild_id=guild_id, include_dead=True
            )
        except CharacterNotFound:
            continue
        names[character_id] = character.name
    return names


def character_of_account(account: str | None) -> int | None:
    """The character a `sheet:{c}` or `chips:{t}:{c}` account belongs to."""
    if account is None:
        return None
    parts = account.split(":")
    if parts[0] == "sheet" and len(parts) == 2:
        return int(parts[1])
    if parts[0] == "chips" and len(parts) == 3:
        return int(parts[2])
    return None
