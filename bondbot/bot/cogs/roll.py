"""`/roll`: a skill roll by the 007 rules, with a button to spend Hero Points on it.

The button's custom id carries the roll and the number of steps the player saw
(`bb:roll:step:<roll>:<steps>`): the roll lives in the database, so the button works after
a restart, and a second click on the same button is refused instead of spent. The button
goes when the spend window closes (`bot.roll_windows`).
"""

from __future__ import annotations

from datetime import datetime

import discord
from discord import app_commands
from discord.ext import commands

from bondbot.bot.client import BondBot
from bondbot.bot.context import lang_for, send
from bondbot.bot.roll_views import AREA, roll_embed, roll_view
from bondbot.bot.roll_windows import RollWindows
from bondbot.bot.router import Actions
from bondbot.bot.sheet_views import actor_of, skill_choices
from bondbot.errors import Refusal
from bondbot.i18n import t
from bondbot.services.rolls import Characteristic, RollService
from bondbot.sheets import search_skills

Choice = app_commands.Choice
CHARACTERISTIC_CHOICES = [
    Choice(name="Strength (STR)", value="STR"),
    Choice(name="Dexterity (DEX)", value="DEX"),
    Choice(name="Willpower (WIL)", value="WIL"),
    Choice(name="Perception (PER)", value="PER"),
    Choice(name="Intelligence (INT)", value="INT"),
]


class Rolls(commands.Cog):
    def __init__(self, bot: BondBot) -> None:
        self.bot = bot
        self.service: RollService = bot.services.rolls
        self.windows = RollWindows(bot)
        bot.router.register(AREA, self.on_component)
        self.actions = Actions()
        self.actions.on("step", int, int)(self._step)

    async def cog_unload(self) -> None:
        self.windows.stop()

    async def skill_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        lang = await lang_for(interaction)
        house = await self.bot.services.sheets.house_skills(await actor_of(interaction))
        return skill_choices(search_skills(current, lang, extra=house))

    async def character_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        actor = await actor_of(interaction)
        names = await self.bot.services.sheets.names(actor, current, editable=True)
        return [Choice(name=name, value=name) for name in names]

    @app_commands.command(name="roll", description="Roll a skill by the 007 rules")
    @app_commands.describe(
        skill="The skill (either language, or a house skill)",
        character="Whose roll (default: your active character; GM: anyone)",
        characteristic="The characteristic added to the skill (default: the skill's usual one)",
        ease="Ease Factor from 0.5 to 10, by halves (default 5)",
        secret="Only you see the roll",
    )
    @app_commands.choices(characteristic=CHARACTERISTIC_CHOICES)
    @app_commands.autocomplete(skill=skill_names, character=character_names)
    @app_commands.guild_only()
    async def roll(
        self,
        interaction: discord.Interaction,
        skill: app_commands.Range[str, 1, 100],
        character: str | None = None,
        characteristic: str | None = None,
        ease: app_commands.Range[float, 0.5, 10.0] = 5.0,
        secret: bool = False,
    ) -> None:
        actor = await actor_of(interaction)
        target = await self.bot.services.sheets.target(actor, character)
        used: Characteristic | None = characteristic  # type: ignore[assignment]  # the choices
        earlier = await self.service.earlier_same_roll(
            actor, target.id, skill, characteristic=used, ease=ease, secret=secret
        )
        lang = await lang_for(interaction)
        note = None
        if earlier is not None and not self.bot.deliveries.reached(f"roll:{earlier.id}"):
            # A retry after a lost answer: show the roll already made, never a second one.
            made = earlier
            when = int(datetime.fromisoformat(earlier.created_at).timestamp())
            note = t("roll.redelivered", lang, when=f"<t:{when}:R>")
        else:
            made = await self.service.roll(
                actor, target.id, skill, characteristic=used, ease=ease, secret=secret
            )
        window_open = await self.windows.window_open(made)
        view = roll_view(made, lang, window_open=window_open)
        extra = {} if view is None else {"view": view}
        embed = roll_embed(made, lang, window_open=window_open)
        await send(interaction, note, embed=embed, ephemeral=made.secret, **extra)
        self.bot.deliveries.mark(f"roll:{made.id}")
        if view is not None:
            await self.windows.watch(interaction, made, lang)

    async def on_component(self, interaction: discord.Interaction, args: list[str]) -> None:
        if interaction.guild_id is None:
            raise Refusal("roll.gone")
        await self.actions.dispatch(interaction, args[0] if args else "", args[1:])

    async def _step(self, interaction: discord.Interaction, roll_id: int, seen: int) -> None:
        """One Hero Point on the roll, if the button still shows `seen` steps spent."""
        assert interaction.guild_id is not None
        lang = await lang_for(interaction)
        try:
            improved = await self.service.step(
                interaction.guild_id, interaction.user.id, roll_id, seen
            )
        except Refusal as refusal:
            if refusal.key != "roll.window_closed":
                raise
            # Too late (after a restart, or past a secret roll's token): the button goes now.
            roll = await self.service.get(interaction.guild_id, roll_id)
            embed = roll_embed(roll, lang, window_open=False)
            await interaction.response.edit_message(embed=embed, view=None)
            raise
        await interaction.response.edit_message(
            embed=roll_embed(improved, lang), view=roll_view(improved, lang)
        )
        # His Hero Points changed: the table where he sits shows them.
        await self.bot.services.tables.character_changed(improved.character.id)


async def setup(bot: BondBot) -> None:
    await bot.add_cog(Rolls(bot))
