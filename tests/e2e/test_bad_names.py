"""Names, skills and currencies Discord would show wrong (invisible, masked links, control
characters) are refused clearly, as is a player who is not in the server."""

from __future__ import annotations

import json
import logging

import pytest
from e2e_env import BotEnv
from sheet_helpers import dump, make_gm_role, refused

from bondbot.i18n import t

INVISIBLE = ["\u200b", "\u200b\u200b\u200d", "\u2800\u2800", "\u3164", "\u200b \ufeff", "\u2060"]
LINKS = ["[Bond](https://evil.example)", "Le [Chiffre](<https://x.example>)"]


def invalid(field: str, code: str, lang: str = "en", area: str = "sheet") -> str:
    label = t(f"{area}.fields.{field}", lang)
    colon = t("sheet.colon", lang)
    key = "sheet.invalid" if area == "sheet" else "gm.settings_invalid"
    return t(key, lang, errors=f"• **{label}**{colon}{t(f'validation.{code}', lang)}")


async def test_invisible_names_and_masked_links_are_refused(bot_env: BotEnv) -> None:
    fake, w = bot_env.fake, bot_env.world
    async with bot_env.run() as bot:
        await make_gm_role(bot_env)
        await fake.slash(w.player, "sheet create", name="James Bond")
        before = await dump(bot)
        for name in INVISIBLE:
            created = await fake.slash(w.player_fr, "sheet create", name=name)
            assert created.content == invalid("name", "invisible", "fr"), repr(name)
            renamed = await fake.slash(w.player, "sheet set", rename=name)
            assert renamed.content == invalid("name", "invisible"), repr(name)
            skill = await fake.slash(w.player, "sheet skill", skill=name, level=3)
            assert skill.ephemeral and skill.content == invalid("skills", "invisible"), repr(name)
        for link in LINKS:
            created = await fake.slash(w.gm, "sheet create", name=link, kind="NPC")
            assert created.content == invalid("name", "masked_link"), link
            skill = await fake.slash(w.player, "sheet skill", skill=link, level=3)
            assert skill.content == invalid("skills", "masked_link"), link
        assert await dump(bot) == before
        # Brackets and parentheses that are no link stay allowed.
        fine = await fake.slash(w.player_fr, "sheet create", name="René [Mathis] (senior)")
        assert fine.content == t("sheet.created", "fr", name="René [Mathis] (senior)")


async def test_a_currency_with_control_or_invisible_characters_is_refused(
    bot_env: BotEnv,
) -> None:
    fake, w = bot_env.fake, bot_env.world
    async with bot_env.run() as bot:
        await make_gm_role(bot_env)
        before = await dump(bot)
        for currency, code in (
            ("a\x00b", "control_characters"),
            ("€\x07", "control_characters"),
            ("\u200b", "invisible"),
            ("[$](http://x.y)", "masked_link"),
        ):
            answer = await fake.slash(w.gm, "gm settings", currency=currency)
            assert answer.content == invalid("currency", code, area="gm"), repr(currency)
        assert await dump(bot) == before
        euro = await fake.slash(w.gm, "gm settings", currency="€")
        assert euro.content == t("gm.settings_saved", "en")


async def test_a_player_who_is_not_in_the_server_gets_a_clear_answer(
    bot_env: BotEnv, caplog: pytest.LogCaptureFixture
) -> None:
    fake, w = bot_env.fake, bot_env.world
    elsewhere = fake.add_guild("Spectre")
    stranger = fake.add_user(None, "stranger", guild=elsewhere)
    async with bot_env.run() as bot:
        await make_gm_role(bot_env)
        before = await dump(bot)
        with caplog.at_level(logging.ERROR):
            created = await fake.slash(w.gm, "sheet create", name="Felix", player=stranger)
            imported = await fake.slash(
                w.gm, "sheet import", file=("felix.json", b"{}"), player=stranger, _locale="fr"
            )
        assert refused(created, "sheet.player_not_member", player=f"<@{stranger.id}>")
        assert refused(imported, "sheet.player_not_member", "fr", player=f"<@{stranger.id}>")
        assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
        assert await dump(bot) == before


async def test_a_players_name_clash_never_confirms_a_hidden_npc(bot_env: BotEnv) -> None:
    fake, w = bot_env.fake, bot_env.world
    async with bot_env.run() as bot:
        await make_gm_role(bot_env)
        await fake.slash(w.gm, "sheet create", name="Mr Big", kind="NPC")
        await fake.slash(w.player_fr, "sheet create", name="René Mathis")
        await fake.slash(w.player, "sheet create", name="James Bond")
        sheet = json.dumps(
            {"format": "bondbot.sheet", "version": 1, "name": "MR BIG", "kind": "PC"}
        )
        before = await dump(bot)
        # Whoever holds the name (a hidden NPC, or a PC anyone can see), a player gets the
        # same answer, which says nothing of the holder.
        hidden = await fake.slash(w.player, "sheet create", name="Mr Big")
        assert refused(hidden, "characters.name_unavailable", name="Mr Big")
        visible = await fake.slash(w.player, "sheet create", name="René Mathis")
        assert refused(visible, "characters.name_unavailable", name="René Mathis")
        renamed = await fake.slash(w.player, "sheet set", rename="mr big", _locale="fr")
        assert refused(renamed, "characters.name_unavailable", "fr", name="mr big")
        imported = await fake.slash(w.player, "sheet import", file=("big.json", sheet.encode()))
        assert refused(imported, "characters.name_unavailable", name="MR BIG")
        for answer in (hidden, renamed, imported):
            assert "NPC" not in (answer.content or "") and "PNJ" not in (answer.content or "")
        # The GM sees every sheet: he is told a character holds it.
        gm = await fake.slash(w.gm, "sheet create", name="Mr Big", player=w.player_fr)
        assert refused(gm, "characters.name_taken", name="Mr Big")
        assert await dump(bot) == before
