from __future__ import annotations

import pytest

from bondbot.storage import settings as gs
from bondbot.storage.db import Database


async def test_defaults_until_changed(db: Database) -> None:
    async with db.read() as conn:
        plain = await gs.get_settings(conn, 1)
        configured = await gs.get_settings(conn, 1, default_locale="en", default_currency="£")
    assert (plain.locale, plain.currency, plain.gm_role_id) == ("fr", "$", None)
    assert (plain.spend_window_s, plain.turn_timer_s, plain.award_table) == (60, 90, None)
    assert (configured.locale, configured.currency) == ("en", "£")


async def test_update_persists_and_keeps_other_fields(db: Database) -> None:
    async with db.transaction() as conn:
        first = await gs.update_settings(conn, 1, gm_role_id=42, default_locale="en")
        second = await gs.update_settings(conn, 1, spend_window_s=30, award_table="0:0 1-15:2")
    assert (first.gm_role_id, first.locale) == (42, "en")
    async with db.read() as conn:
        stored = await gs.get_settings(conn, 1)
        other = await gs.get_settings(conn, 2)
    assert stored == second
    assert (stored.gm_role_id, stored.locale, stored.spend_window_s) == (42, "en", 30)
    assert stored.award_table == "0:0 1-15:2"
    assert other.gm_role_id is None
    async with db.transaction() as conn:
        reset = await gs.update_settings(conn, 1, award_table=None)
    assert reset.award_table is None


async def test_invalid_settings_are_refused_with_reasons(db: Database) -> None:
    async with db.transaction() as conn:
        with pytest.raises(gs.SettingsInvalid) as invalid:
            await gs.update_settings(conn, 1, locale="de", spend_window_s=0, currency="")
        with pytest.raises(ValueError, match="unknown"):
            await gs.update_settings(conn, 1, colour="red")
    assert dict(invalid.value.messages("fr")) == {
        "locale": "doit valoir 'fr' ou 'en'",
        "spend_window_s": "doit valoir au moins 5",
        "currency": "ne doit pas être vide",
    }
    async with db.read() as conn:
        assert list(await conn.execute_fetchall("SELECT * FROM guild_settings")) == []
