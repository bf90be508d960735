"""How a skill roll looks in Discord: its embed, and the button to spend a Hero Point."""

from __future__ import annotations

import discord

from bondbot.bot.router import ButtonSpec, custom_id, view_of
from bondbot.bot.sheet_views import characteristic_label, ease_text
from bondbot.i18n import Lang, t
from bondbot.rules import gambling
from bondbot.services.rolls import Roll
from bondbot.sheets import skill_display

AREA = "roll"
SUCCESS_COLOUR = discord.Colour(0x2E8B57)
FAILURE_COLOUR = discord.Colour(0x9B2C2C)


def quality_text(quality: int | None, lang: Lang) -> str:
    return t("quality.failure", lang) if quality is None else t(f"quality.qr{quality}", lang)


def roll_embed(roll: Roll, lang: Lang, *, window_open: bool = True) -> discord.Embed:
    """The roll as its message shows it; the footer invites a spend while the window is open."""
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
    if window_open and roll.improvable:
        footer += " · " + t("roll.footer_spend", lang)
    embed.set_footer(text=footer)
    return embed


def roll_view(roll: Roll, lang: Lang, *, window_open: bool = True) -> discord.ui.View | None:
    """The Hero Point button, while the roll can still be bettered and its window is open."""
    if not window_open or not roll.improvable:
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
