"""Driving a card table through the fake Discord: the cast, the table message, its buttons."""

from __future__ import annotations

import json
import re
from typing import Any

from e2e_env import BotEnv

from bondbot.i18n import LANGS, t
from bondbot.local import FakeDiscord
from bondbot.local.client import UPDATE_MESSAGE, InteractionResult
from bondbot.local.models import FakeMessage, FakeUser
from bondbot.sheets import validate_sheet
from bondbot.storage import characters, ledger
from bondbot.storage.db import Database

NOW = "2026-11-21T20:00:00.000+00:00"


def le_chiffre() -> dict[str, Any]:
    return {"name": "Le Chiffre", "kind": "NPC", "skills": {"gambling": 12}}


def bond(player: FakeUser, **more: Any) -> dict[str, Any]:
    """James Bond: Gambling 8 (two Hero Points for simulating), $1,000, one Hero Point."""
    return {
        "name": "James Bond",
        "kind": "PC",
        "owner_id": player.id,
        "skills": {"gambling": 8},
        "cash": 100_000,
        "hero_points": 1,
        **more,
    }


def mathis(player: FakeUser) -> dict[str, Any]:
    """René Mathis, for the French-speaking player: Gambling 4, $500."""
    return {
        "name": "René Mathis",
        "kind": "PC",
        "owner_id": player.id,
        "skills": {"gambling": 4},
        "cash": 50_000,
    }


async def create_cast(
    env: BotEnv, cast: dict[str, dict[str, Any]], active: dict[str, FakeUser]
) -> dict[str, int]:
    """Write these sheets (and who plays which) to the database before the bot starts."""
    guild = env.world.guild.id
    db = await Database.open(env.database)
    try:
        await db.migrate()
        ids = {}
        async with db.transaction() as conn:
            for key, data in cast.items():
                sheet = validate_sheet({"characteristics": {"PER": 10}, **data})
                ids[key] = (await characters.create_character(conn, guild, sheet, now=NOW)).id
            for key, user in active.items():
                await characters.set_active_character(conn, guild, user.id, ids[key])
    finally:
        await db.close()
    return ids


STORIES = {t("summary.title", lang) for lang in LANGS}  # posted when a table closes


def table_message(fake: FakeDiscord) -> FakeMessage:
    found = [
        m
        for m in fake.channel_messages()
        if m.embeds and m.ephemeral_for is None and m.embeds[0].get("title") not in STORIES
    ]
    assert len(found) == 1, "one public table message, edited in place"
    return found[0]


async def wait_table(fake: FakeDiscord, text: str) -> FakeMessage:
    """The table message once its embed mentions `text`; a shoe's commitment (64 hex
    digits) is found by the short line the table shows of it ("🔒 Shoe sealed · 3e5971d5…",
    the whole of it is behind /table verify)."""
    if re.fullmatch(r"[0-9a-f]{64}", text):
        text = f" · {text[:8]}…"
    return await fake.wait_for_message(predicate=lambda m: m.embeds and text in str(m.embeds))


async def join(fake: FakeDiscord, user: FakeUser, amount: str) -> InteractionResult:
    """Sit down: My seat opens the buy-in form to someone without a seat."""
    modal = await fake.click(user, table_message(fake), button_id(fake, "seat"))
    assert modal.modal is not None, modal.content
    return await fake.submit_modal(user, modal, {"amount": amount})


def button_labels(fake: FakeDiscord) -> list[str]:
    """The table message's buttons, as everyone sees them."""
    return [c.get("label", "") for row in table_message(fake).components for c in row["components"]]


def by_action(result: InteractionResult, action: str) -> str:
    """The custom id of an answer's button for `action` ("choose:simulate")."""
    return next(c for c in result.custom_ids() if c.split(":", 3)[3] == action)


def find_button(components: list[dict[str, Any]], wanted: list[str]) -> str | None:
    """The button for `wanted`: exactly, else one that adds only the number of the state it
    was drawn in (Deal's hand: `deal:3` for `deal`)."""
    ids = [c.get("custom_id", "") for row in components for c in row.get("components", [])]
    exact = next((c for c in ids if c.split(":")[3:] == wanted), None)
    if exact is not None:
        return exact
    return next(
        (
            c
            for c in ids
            if c.split(":")[3 : 3 + len(wanted)] == wanted
            and len(c.split(":")) == 4 + len(wanted)
            and c.split(":")[-1].isdigit()
        ),
        None,
    )


async def press(fake: FakeDiscord, user: FakeUser, action: str, *args: object) -> InteractionResult:
    """Click the button for `action` where its user finds it: on the table message; else
    in his seat panel (My seat); else, for the GM, in the GM panel (to anyone else the GM
    button answers a refusal, which is returned). A Hero Point goes through the table's
    one Spend button, and the pick among his lost hands when he has several."""
    wanted = [action, *map(str, args)]
    table = table_message(fake)
    found = find_button(table.components, wanted)
    if found is not None:
        return await fake.click(user, table, found)
    if action == "spend":  # the table's one Spend (a redraw under way may bring it back)
        await fake.wait_until(
            lambda: find_button(table_message(fake).components, ["hp"]) is not None, timeout=3
        )
        table = table_message(fake)
        picked = await fake.click(user, table, button_id(fake, "hp"))
        found = find_button(picked.components, wanted)
        return picked if found is None else await fake.click(user, picked, found)
    panel = await fake.click(user, table, button_id(fake, "seat"))
    found = None if panel.modal is not None else find_button(panel.components, wanted)
    if found is not None:
        return await fake.click(user, panel, found)
    panel = await fake.click(user, table, button_id(fake, "gm"))
    found = find_button(panel.components, wanted)
    if found is not None:
        return await fake.click(user, panel, found)
    try:  # nowhere yet: the table message may still be redrawn with it
        await fake.wait_until(
            lambda: find_button(table_message(fake).components, wanted) is not None, timeout=3
        )
    except TimeoutError:
        assert not panel.components, f"no {wanted} button for {user} anywhere"
        return panel  # the GM panel's refusal: the button is the GM's
    table = table_message(fake)
    return await fake.click(user, table, find_button(table.components, wanted))


def button_id(fake: FakeDiscord, action: str, *args: object) -> str:
    found = find_button(table_message(fake).components, [action, *map(str, args)])
    assert found, f"no {action} button"
    return found


async def bet(fake: FakeDiscord, user: FakeUser, on: str, amount: str) -> InteractionResult:
    """A punto banco wager: the table's one Bet button, its form's menu and amount (the
    button is drawn once someone may wager: wait for the redraw after his choice)."""
    await fake.wait_until(lambda: find_button(table_message(fake).components, ["bets"]) is not None)
    modal = await fake.click(user, table_message(fake), button_id(fake, "bets"))
    assert modal.modal is not None, modal.content
    return await fake.submit_modal(user, modal, {"on": [on], "amount": amount})


def redrawn_with(result: InteractionResult, text: str) -> bool:
    """Whether the click or form was answered by redrawing the table message in place
    (not a private answer), and the drawing it sent shows `text`."""
    drawn = json.dumps(result.response_data.get("embeds"), ensure_ascii=False)
    return result.response_type == UPDATE_MESSAGE and text in drawn


async def said(result: InteractionResult | FakeMessage) -> str:
    """What the bot told the clicker in words: his private answer; for a move clicked on
    the table message, answered by redrawing it (issue 32), the private follow-up after."""
    if isinstance(result, FakeMessage):
        return result.content
    message = result.message
    if result.response_type == UPDATE_MESSAGE and message is not None and not message.ephemeral:
        words = await result.wait_followup()
        assert words.ephemeral, "a move's words stay private"
        return words.content
    return result.content or ""


async def balances(env: BotEnv, ids: dict[str, int]) -> dict[str, tuple[int, int]]:
    db = await Database.open(env.database)
    try:
        async with db.read() as conn:
            return {
                key: (
                    await ledger.balance(conn, ledger.sheet_account(cid), "cash"),
                    await ledger.balance(conn, ledger.sheet_account(cid), "hero"),
                )
                for key, cid in ids.items()
            }
    finally:
        await db.close()
