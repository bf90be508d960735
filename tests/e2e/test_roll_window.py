"""A roll's Hero Point button goes when its spend window closes: edited away while the bot
runs (public rolls in their channel, secret ones through their token), and by the first
late click after a restart."""

from __future__ import annotations

from e2e_env import BotEnv
from sheet_helpers import ScriptedRandom, dump, make_gm_role

from bondbot.bot.client import BondBot
from bondbot.i18n import t
from bondbot.local import InteractionResult


def footer(result: InteractionResult) -> str:
    assert result.embed is not None
    return str(result.embed["footer"]["text"])


async def close_due(bot: BondBot) -> None:
    """What the window's timer runs when it fires (the tests move a clock of their own)."""
    await bot.get_cog("Rolls").windows.close_due()  # type: ignore[union-attr]


async def test_the_button_goes_when_the_window_closes(bot_env: BotEnv) -> None:
    fake, w = bot_env.fake, bot_env.world
    bot_env.rng = ScriptedRandom([90, 95, 91])
    async with bot_env.run() as bot:
        await make_gm_role(bot_env)
        await fake.slash(w.player, "sheet create", name="James Bond")
        await fake.slash(
            w.gm, "gm hero", character="James Bond", action="give", amount=3, reason="r"
        )
        public = await fake.slash(w.player, "roll", skill="Gambling")
        secret = await fake.slash(w.player, "roll", skill="Driving", secret=True, _locale="fr")
        assert public.custom_ids() == ["bb:roll:step:1:0"]
        assert secret.custom_ids() == ["bb:roll:step:2:0"]
        spend = t("roll.footer_spend", "en")
        assert spend in footer(public)
        await fake.click(w.player, public, "bb:roll:step:1:0")  # one step, the window goes on

        bot_env.clock.advance(59)
        await close_due(bot)
        assert public.custom_ids() == ["bb:roll:step:1:1"]  # not yet

        bot_env.clock.advance(2)
        await close_due(bot)
        await public.wait_until(lambda r: r.components == [])
        await secret.wait_until(lambda r: r.components == [])
        assert footer(public) == t("roll.footer", "en", id=1)
        assert footer(secret) == t("roll.footer", "fr", id=2)
        # The step spent before the end stays on the message.
        assert "Acceptable (QR 4)" in str(public.embed)

        # A roll made now has its own window.
        fresh = await fake.slash(w.player, "roll", skill="Stealth")
        assert fresh.custom_ids() == ["bb:roll:step:3:0"]


async def test_after_a_restart_the_first_late_click_takes_the_button_away(
    bot_env: BotEnv,
) -> None:
    fake, w = bot_env.fake, bot_env.world
    bot_env.rng = ScriptedRandom([90])
    async with bot_env.run():
        await make_gm_role(bot_env)
        await fake.slash(w.player, "sheet create", name="James Bond")
        await fake.slash(
            w.gm, "gm hero", character="James Bond", action="give", amount=3, reason="r"
        )
        rolled = await fake.slash(w.player, "roll", skill="Gambling")
    bot_env.clock.advance(120)
    async with bot_env.run() as bot:  # the new bot never saw that message
        before = await dump(bot)
        late = await fake.click(w.player, rolled, "bb:roll:step:1:0")
        assert late.response_type == 7 and rolled.components == []
        assert footer(rolled) == t("roll.footer", "en", id=1)
        said = await late.wait_followup()
        assert said.ephemeral and said.content == t("roll.window_closed", "en", seconds=60)
        assert await dump(bot) == before
