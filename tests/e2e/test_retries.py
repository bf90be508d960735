"""A command whose answer Discord lost is retried by its user: the first one is shown,
never applied twice (issue 9, item 1; docs/decisions.md "Bad input, retries and shutdown").

The answer is lost the way it is on Discord: the bot commits, then its callback comes too
late (the fake Discord's deadline is set to nothing) and the user sees "This interaction
failed". Then the bot restarts, as after a kill just after the commit.
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any

from e2e_env import BotEnv
from sheet_helpers import ScriptedRandom, make_gm_role, query, refused

from bondbot.i18n import t
from bondbot.local import FakeDiscord, InteractionResult


async def lost(fake: FakeDiscord, user: Any, command: str, **options: Any) -> InteractionResult:
    """Run a command whose answer Discord refuses (too late): its effect stays, unseen."""
    fake.interaction_deadline = 0.0
    try:
        result = await fake.slash(user, command, _wait=False, **options)
        # The bot's answer and the error answer after it both come too late.
        await result.wait_until(lambda r: len(r.interaction.attempts) >= 2)
    finally:
        fake.interaction_deadline = 3.0
    assert not result.interaction.acknowledged
    return result


def when(at: str) -> str:
    return f"<t:{int(datetime.fromisoformat(at).timestamp())}:R>"


async def test_a_retried_grant_asks_before_granting_again(bot_env: BotEnv) -> None:
    fake, w = bot_env.fake, bot_env.world
    grant = {"character": "James Bond", "action": "give", "amount": 3, "reason": "Saved M"}
    async with bot_env.run() as bot:
        await make_gm_role(bot_env)
        await fake.slash(w.player, "sheet create", name="James Bond")
        await lost(fake, w.gm, "gm hero", **grant)
        rows = await query(bot, "SELECT id, created_at FROM ledger WHERE reason = 'gm.grant'")
        assert len(rows) == 1
    entry, at = rows[0]

    async with bot_env.run() as bot:  # a restart: the bot no longer knows what it answered
        bot_env.clock.advance(40)
        retry = await fake.slash(w.gm, "gm hero", **grant)
        assert retry.ephemeral
        assert retry.content == t(
            "gm.repeat_given",
            "en",
            when=when(at),
            amount="3 HP",
            name="James Bond",
            reason="Saved M",
            entry=entry,
            balance="3 HP",
        )
        assert retry.custom_ids() == [f"bb:gm:again:{entry}", f"bb:gm:once:{entry}"]
        assert retry.button_labels() == ["Give it again", "No, once is enough"]
        assert len(await query(bot, "SELECT id FROM ledger WHERE reason = 'gm.grant'")) == 1

        once = await fake.click(w.gm, retry, f"bb:gm:once:{entry}")
        assert once.response_type == 7
        assert retry.content == t("gm.repeat_dropped", "en") and retry.components == []
        assert len(await query(bot, "SELECT id FROM ledger WHERE reason = 'gm.grant'")) == 1
        # Having seen it, the GM who runs it again means it: it is done at once.
        again = await fake.slash(w.gm, "gm hero", **grant)
        assert again.content == t(
            "gm.given", "en", amount="3 HP", name="James Bond", balance="6 HP"
        )
        # And a move whose answer arrived is never questioned.
        third = await fake.slash(w.gm, "gm hero", **grant)
        assert third.content == t(
            "gm.given", "en", amount="3 HP", name="James Bond", balance="9 HP"
        )
        assert len(await query(bot, "SELECT id FROM ledger WHERE reason = 'gm.grant'")) == 3


async def test_a_retried_cash_take_is_done_again_only_once_on_a_click(bot_env: BotEnv) -> None:
    fake, w = bot_env.fake, bot_env.world
    take = {"character": "René Mathis", "action": "take", "amount": "120,50", "reason": "Frais"}
    async with bot_env.run() as bot:
        await make_gm_role(bot_env)
        await fake.slash(w.player_fr, "sheet create", name="René Mathis")
        await fake.slash(
            w.gm, "gm cash", character="René Mathis", action="give", amount="500", reason="x"
        )
        await lost(fake, w.gm, "gm cash", **take, _locale="fr")
        # The same bot, no restart: its answer failed, so it asks too.
        retry = await fake.slash(w.gm, "gm cash", **take, _locale="fr")
        entry, at = (
            await query(bot, "SELECT id, created_at FROM ledger WHERE reason = 'gm.take'")
        )[0]
        assert retry.content == t(
            "gm.repeat_taken",
            "fr",
            when=when(at),
            amount="120,50\u00a0$",
            name="René Mathis",
            reason="Frais",
            entry=entry,
            balance="379,50\u00a0$",
        )
        assert retry.button_labels() == ["Prendre encore", "Non, une fois suffit"]
        # A double click on "Take it again": one take, one refusal.
        clicks = await asyncio.gather(
            fake.click(w.gm, retry, f"bb:gm:again:{entry}", _locale="fr"),
            fake.click(w.gm, retry, f"bb:gm:again:{entry}"),
        )
        done, twice = sorted(clicks, key=lambda r: -(r.response_type or 0))
        assert done.response_type == 7
        assert retry.content == t(
            "gm.taken", "fr", amount="120,50\u00a0$", name="René Mathis", balance="259\u00a0$"
        )
        assert refused(twice, "gm.already_repeated")
        assert await query(
            bot, "SELECT amount, note FROM ledger WHERE reason = 'gm.take' ORDER BY id"
        ) == [(12_050, "Frais"), (12_050, "Frais")]


async def test_a_retried_roll_shows_the_roll_already_made(bot_env: BotEnv) -> None:
    fake, w = bot_env.fake, bot_env.world
    bot_env.rng = ScriptedRandom([42, 77])
    async with bot_env.run() as bot:
        await make_gm_role(bot_env)
        await fake.slash(w.player, "sheet create", name="James Bond")
        await fake.slash(w.player, "sheet skill", skill="Gambling", level=8)
        await lost(fake, w.player, "roll", skill="Gambling")
        rolls = await query(bot, "SELECT id, d100, created_at FROM rolls")
        assert [r[:2] for r in rolls] == [(1, 42)]

    async with bot_env.run() as bot:
        retry = await fake.slash(w.player, "roll", skill="gambling")
        assert not retry.ephemeral  # posted in the channel, as the first answer would have been
        assert retry.content == t("roll.redelivered", "en", when=when(rolls[0][2]))
        d100 = {f["name"]: f["value"] for f in retry.embed["fields"]}["Roll (d100)"]
        assert d100 == "**42**"
        assert await query(bot, "SELECT COUNT(*) FROM rolls") == [(1,)]
        # Once shown, rolling again is a new roll.
        fresh = await fake.slash(w.player, "roll", skill="Gambling")
        assert not fresh.content
        assert {f["name"]: f["value"] for f in fresh.embed["fields"]}["Roll (d100)"] == "**77**"
        assert await query(bot, "SELECT id, d100 FROM rolls ORDER BY id") == [(1, 42), (2, 77)]
