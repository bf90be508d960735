"""A form answers only what it drew (issue 29, item 3).

A client can submit any payload under a form's id: no fields, one missing, one the form
does not have, 4,000 characters where the form allows 16, a menu's value it did not offer.
Every form the bot opens (each game's, every table's, the GM's, the sheet's edit form;
`forms.py` lists them) refuses each of these with one clear answer in the user's language
and changes nothing: no row, no saved table, nothing logged as an error. The same payload
whole and honest is read (answered otherwise).

A form forged under the id of a button that opens none (My seat, Close the table) is
refused the same way, rather than answered as a click it cannot be.

And closing a table: only the confirmation the GM's panel drew closes it, not any
`gclose:<something>`.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest
from e2e_env import BotEnv
from forms import AMOUNT_ONLY, COMMON, FIELDS, GAME, GM_FORMS, form_name, known
from sheet_helpers import dump, query
from table_flow import create_cast, join, le_chiffre, press, table_message

from bondbot.bot.cogs.sheets import MODAL_FIELDS
from bondbot.i18n import t

GAMES = sorted(GAME)
OPEN: dict[str, dict[str, str]] = {
    "blackjack": {"minimum": "10", "maximum": "500"},
    "chemin_de_fer": {"minimum": "10", "maximum": "500", "bankroll": "10000"},
    "deux_tableaux": {"minimum": "10", "maximum": "500", "bankroll": "10000"},
    "holdem": {"minimum": "50", "maximum": "500", "big_blind": "10"},
    "macao": {"minimum": "10", "maximum": "500", "bankroll": "10000"},
    "makao": {"minimum": "10", "maximum": "100", "stake": "10"},
    "michigan": {"minimum": "10", "maximum": "100", "chip": "2"},
    "punto_banco": {"minimum": "10", "maximum": "500"},
}
LONG = "1" * 4000  # Discord's longest text input, where the forms allow far less


def component(name: str, value: str | list[str]) -> dict[str, Any]:
    """A field as a client sends it back: a text input in a row, a menu in a label."""
    if isinstance(value, list):
        return {"type": 18, "component": {"type": 3, "custom_id": name, "values": value}}
    return {"type": 1, "components": [{"type": 4, "custom_id": name, "value": value}]}


def variants(fields: dict[str, str | list[str]]) -> dict[str, list[dict[str, Any]]]:
    """The form altered every way a client could: empty, each field missing, an unknown
    field, 4,000 characters in each text field, a menu's value not offered, two values."""
    whole = [component(name, value) for name, value in fields.items()]
    found = {"empty": []}
    for name in fields:
        found[f"without {name}"] = [component(n, v) for n, v in fields.items() if n != name]
        value = fields[name]
        if isinstance(value, list):
            bad = [component(n, ["nothing"] if n == name else v) for n, v in fields.items()]
            two = [component(n, [*v, *v] if n == name else v) for n, v in fields.items()]
            found[f"{name} not offered"], found[f"{name} twice"] = bad, two
        else:
            found[f"{LONG[:3]}… in {name}"] = [
                component(n, LONG if n == name else v) for n, v in fields.items()
            ]
    found["an unknown field"] = [*whole, component("zzz", "1")]
    found["a field twice"] = [*whole, whole[-1]]
    return found


async def everything(bot: Any) -> dict[str, list[tuple[Any, ...]]]:
    """Every row a form could change: sheets, the ledger, settings, rolls, the tables."""
    tables = await query(bot, "SELECT * FROM card_tables ORDER BY 1")
    return {**await dump(bot), "card_tables": tables}


async def wait_table_message(fake: Any) -> None:
    await fake.wait_until(
        lambda: any(c.endswith(":gm") for m in fake.channel_messages() for c in m.custom_ids()),
        what="the table message",
    )


async def refused_everywhere(
    bot_env: BotEnv, bot: Any, user: Any, custom: str, fields: dict[str, str | list[str]]
) -> None:
    """Each altered submit of `custom` refused in the user's language, nothing changed; the
    honest one read."""
    fake = bot_env.fake
    before = await everything(bot)
    for lang, locale in (("en", "en-US"), ("fr", "fr")):
        for what, components in variants(fields).items():
            answer = await fake.submit_forged_modal(user, custom, components, _locale=locale)
            assert answer.ephemeral, (custom, what)
            assert answer.content == t("errors.bad_form", lang), (custom, what, answer.content)
    assert await everything(bot) == before, custom
    honest = [component(name, value) for name, value in fields.items()]
    answer = await fake.submit_forged_modal(user, custom, honest)
    assert answer.content != t("errors.bad_form", "en"), custom


@pytest.mark.parametrize("game", GAMES)
async def test_every_table_form_refuses_what_it_did_not_draw(
    bot_env: BotEnv, game: str, caplog: pytest.LogCaptureFixture
) -> None:
    fake, world = bot_env.fake, bot_env.world
    rich = {"cash": 1_000_000, "kind": "PC", "skills": {"gambling": 8}}
    await create_cast(
        bot_env,
        {
            "npc": le_chiffre(),
            "bond": {"name": "James Bond", "owner_id": world.player.id, **rich},
            "mathis": {"name": "René Mathis", "owner_id": world.player_fr.id, **rich},
        },
        {"bond": world.player, "mathis": world.player_fr},
    )
    caplog.set_level(logging.ERROR, logger="bondbot")
    async with bot_env.run() as bot:
        await bot.services.guilds.update(world.guild.id, gm_role_id=world.gm_role.id)
        await fake.slash(world.gm, f"table open {game}", npc="Le Chiffre", **OPEN[game])
        await wait_table_message(fake)
        table = int(table_message(fake).custom_ids()[0].split(":")[2])
        await join(fake, world.player, "100")
        await press(fake, world.player, "choose", "simulate")
        snapshot = await bot.services.tables.snapshot(table)
        engine = snapshot.state.engine
        numbers = {"moves": snapshot.state.moves, "round": getattr(engine, "answer_round", 0)}
        for form in (*COMMON, *GAME[game]):
            action = form.split(":")[0]
            custom = f"bb:tbl:{table}:{form.format(**numbers)}"
            # The GM's forms, the buy-in form of someone without a seat, a player's form.
            user = world.player_fr if action == "join" else world.player
            user = world.gm if action in GM_FORMS else user
            await refused_everywhere(bot_env, bot, user, custom, FIELDS.get(action, AMOUNT_ONLY))
        # A form forged under a button's id (one that opens no form): refused alike.
        table_buttons = table_message(fake)
        seat = await fake.click(world.player, table_buttons, f"bb:tbl:{table}:seat")
        gm = await fake.click(world.gm, table_buttons, f"bb:tbl:{table}:gm")
        shown = [
            *((world.player, c) for c in table_buttons.custom_ids()),
            *((world.player, c) for c in seat.custom_ids()),
            *((world.gm, c) for c in gm.custom_ids()),
        ]
        buttons = [(user, c) for user, c in shown if form_name(c) not in known()]
        assert any(c.endswith(":seat") for _, c in buttons) and len(buttons) >= 6, buttons
        before = await everything(bot)
        for user, custom in buttons:
            answer = await fake.submit_forged_modal(user, custom, [], _locale="fr")
            assert answer.content == t("errors.bad_form", "fr"), (custom, answer.content)
        assert await everything(bot) == before
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, errors


async def test_the_sheet_edit_form_refuses_what_it_did_not_draw(
    bot_env: BotEnv, caplog: pytest.LogCaptureFixture
) -> None:
    world = bot_env.world
    ids = await create_cast(
        bot_env,
        {"bond": {"name": "James Bond", "kind": "PC", "owner_id": world.player.id}},
        {"bond": world.player},
    )
    caplog.set_level(logging.ERROR, logger="bondbot")
    fields: dict[str, str | list[str]] = {name: "x" for name, _, _ in MODAL_FIELDS}
    fields["height_weight"] = ""  # may come back empty (every field is optional), not missing
    async with bot_env.run() as bot:
        custom = f"bb:sheet:edit:{ids['bond']}"
        await refused_everywhere(bot_env, bot, world.player, custom, fields)
        before = await everything(bot)
        for button in ("del", "keep"):  # the delete question's buttons, forged as forms
            forged = f"bb:sheet:{button}:{ids['bond']}"
            answer = await bot_env.fake.submit_forged_modal(world.player, forged, [])
            assert answer.content == t("errors.bad_form", "en"), (forged, answer.content)
        assert await everything(bot) == before
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, errors


async def test_only_the_confirmation_the_panel_drew_closes_the_table(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    await create_cast(bot_env, {"npc": le_chiffre()}, {})
    async with bot_env.run() as bot:
        await bot.services.guilds.update(world.guild.id, gm_role_id=world.gm_role.id)
        await fake.slash(
            world.gm, "table open punto_banco", npc="Le Chiffre", **OPEN["punto_banco"]
        )
        await wait_table_message(fake)
        table = int(table_message(fake).custom_ids()[0].split(":")[2])
        panel = await fake.click(world.gm, table_message(fake), f"bb:tbl:{table}:gm")
        asked = await fake.click(world.gm, panel, f"bb:tbl:{table}:gclose:0")
        (sure,) = [c for c in asked.custom_ids() if ":gclose:" in c]
        token = sure.rsplit(":", 1)[1]
        assert len(token) >= 16 and token != "0"
        # Asked again before answering: the same confirmation (clicks crossing each other).
        panel = await fake.click(world.gm, table_message(fake), f"bb:tbl:{table}:gm")
        again = await fake.click(world.gm, panel, f"bb:tbl:{table}:gclose:0")
        (latest,) = [c for c in again.custom_ids() if ":gclose:" in c]
        assert latest == sure
        other = ("1" if token[0] == "0" else "0") + token[1:]  # one digit off
        for forged in ("1", "2", "yes", token[:-1], token + "0", other, "x" * 80):
            for lang, locale in (("en", "en-US"), ("fr", "fr")):
                refused = await fake.click_forged(
                    world.gm, again, f"bb:tbl:{table}:gclose:{forged}", _locale=locale
                )
                assert refused.content == t("table.close_not_asked", lang), forged
        not_gm = await fake.click_forged(world.player, table_message(fake), latest)
        assert not_gm.content == t("errors.not_gm", "en")
        assert (await bot.services.tables.snapshot(table)).status == "open"
        closed = await fake.click(world.gm, again, latest)
        assert closed.content and closed.content != t("table.close_not_asked", "en")
        assert (await bot.services.tables.snapshot(table)).status == "closed"
        # Used once: the same confirmation again is refused (the table is closed anyway).
        once_more = await fake.click_forged(world.gm, again, latest)
        assert once_more.content == t("table.close_not_asked", "en")
