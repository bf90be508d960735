"""`/roll`: a skill roll by the 007 rules, with a button to spend Hero Points on it.

The button's custom id carries the roll and the number of steps the player saw
(`bb:roll:step:<roll>:<steps>`): the roll lives in the database, so the button works after
a restart, and a second click on the same button is refused instead of spent.
"""

from __future__ import annotations

from datetime import datetime

import discord
from discord import app_commands
from discord.ext import commands

from bondbot.bot.client import BondBot
from bondbot.bot.context import lang_for, send
from bondbot.bot.router import ButtonSpec, custom_id, view_of
from bondbot.bot.sheet_views import (
    actor_of,
    characteristic_label,
    ease_text,
    skill_choices,
)
from bondbot.errors import Refusal
from bondbot.i18n import Lang, t
from bondbot.rules import gambling
from bondbot.services.rolls import Characteristic, Roll, RollService
from bondbot.sheets import search_skills, skill_display

AREA = "roll"
Choice = app_commands.Choice
CHARACTERISTIC_CHOICES = [
    Choice(name="Strength (STR)", value="STR"),
    Choice(name="Dexterity (DEX)", value="DEX"),
    Choice(name="Willpower (WIL)", value="WIL"),
    Choice(name="Perception (PER)", value="PER"),
    Choice(name="Intelligence (INT)", value="INT"),
]
SUCCESS_COLOUR = discord.Colour(0x2E8B57)
FAILURE_COLOUR = discord.Colour(0x9B2C2C)


def quality_text(quality: int | None, lang: Lang) -> str:
    return t("quality.failure", lang) if quality is None else t(f"quality.qr{quality}", lang)


def roll_embed(roll: Roll, lang: Lang) -> discord.Embed:
    skill = skill_display(roll.skill, lang)
    result = roll.result
    embed = discord.Embed(
        title=t("roll.title", lang, name=roll.character.name, skill=skill),
        colour=FAILURE_COLOUR if result is None else SUCCESS_COLOUR,
    )
    embed.add_field(
        name=t("roll.characteristic", lang),
        value=f"{characteristic_label(roll.characteristic, lang)} {roll.char_value}",
    )
    level = str(roll.level) if roll.level else t("roll.unskilled", lang)
    embed.add_field(name=t("roll.level", lang), value=level)
    embed.add_field(name=t("roll.primary_chance", lang), value=str(roll.primary_chance))
    ease = ease_text(roll.effective_ease)
    if roll.effective_ease != roll.ease:
        ease = t("roll.ease_lowered", lang, ease=ease, asked=ease_text(roll.ease))
    embed.add_field(name=t("roll.ease", lang), value=ease)
    embed.add_field(name=t("roll.success_chance", lang), value=str(roll.success_chance))
    embed.add_field(name=t("roll.d100", lang), value=f"**{roll.d100}**")
    value = f"**{quality_text(result, lang)}**"
    if roll.steps:
        value += "\n" + t(
            "roll.improved", lang, steps=roll.steps, rolled=quality_text(roll.quality, lang)
        )
    embed.add_field(name=t("roll.result", lang), value=value, inline=False)
    footer = t("roll.footer", lang, id=roll.id)
    if roll.improvable:
        footer += " · " + t("roll.footer_spend", lang)
    embed.set_footer(text=footer)
    return embed


def roll_view(roll: Roll, lang: Lang) -> discord.ui.View | None:
    if not roll.improvable:
        return None
    label = t(
        "roll.btn_step",
        lang,
        next=quality_text(gambling.improve(roll.result, 1), lang),
        left=roll.character.hero_points,
    )
    return view_of(
        [
            ButtonSpec(
                label[:80],
                custom_id(AREA, "step", roll.id, roll.steps),
                style=discord.ButtonStyle.success,
            )
        ]
    )


class Rolls(commands.Cog):
    def __init__(self, bot: BondBot) -> None:
        self.bot = bot
        self.service: RollService = bot.services.rolls
        bot.router.register(AREA, self.on_component)

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
        view = roll_view(made, lang)
        extra = {} if view is None else {"view": view}
        await send(interaction, note, embed=roll_embed(made, lang), ephemeral=made.secret, **extra)
        self.bot.deliveries.mark(f"roll:{made.id}")

    async def on_component(self, interaction: discord.Interaction, args: list[str]) -> None:
        if args[0] != "step" or interaction.guild_id is None:
            raise Refusal("roll.gone")
        roll_id, seen = int(args[1]), int(args[2])
        improved = await self.service.step(interaction.guild_id, interaction.user.id, roll_id, seen)
        lang = await lang_for(interaction)
        await interaction.response.edit_message(
            embed=roll_embed(improved, lang), view=roll_view(improved, lang)
        )


async def setup(bot: BondBot) -> None:
    await bot.add_cog(Rolls(bot))
