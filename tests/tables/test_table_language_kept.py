"""The table's language: kept in its config through a restart; a table saved before the
option existed (no `language`) speaks the server's language."""

from __future__ import annotations

import json
from dataclasses import replace

from table_helpers import CHANNEL, GM, GUILD, Clock, open_table, service

from bondbot.bot.tables.language import table_lang, table_money
from bondbot.money import format_amount
from bondbot.storage.db import Database
from bondbot.storage.settings import GuildSettings

NBSP = "\u00a0"


async def test_a_table_keeps_its_language_and_an_old_one_speaks_the_servers(
    db: Database,
) -> None:
    clock = Clock()
    tables, first, ids = await open_table(db, clock, [bytes(32)], game="punto_banco")
    french = await tables.open_table(
        guild_id=GUILD,
        channel_id=CHANNEL + 1,
        actor_id=GM,
        game="punto_banco",
        npc_id=ids["npc"],
        min_bet=1_000,
        max_bet=50_000,
        language="fr",
    )
    english_server = GuildSettings(guild_id=GUILD, locale="en", currency="€")
    french_server = GuildSettings(guild_id=GUILD, locale="fr", currency="€")

    restored = await service(db, clock).snapshot(french.id)  # as after a restart
    assert restored.state.config.language == "fr"
    assert table_lang(restored, english_server) == "fr"
    assert format_amount(2_050, table_money(restored, english_server)) == f"20,50{NBSP}€"

    unset = await tables.snapshot(first)  # opened by the service without a language
    assert unset.state.config.language is None
    assert table_lang(unset, english_server) == "en"
    assert table_lang(unset, french_server) == "fr"

    saved = json.loads(restored.saved)
    del saved["config"]["language"]  # as saved before the option existed
    old = replace(restored, saved=json.dumps(saved), _state=None)
    assert old.state.config.language is None
    assert old.state.model_dump(exclude={"config"}) == restored.state.model_dump(exclude={"config"})
    assert table_lang(old, english_server) == "en"
    assert format_amount(2_050, table_money(old, english_server)) == "€20.50"
