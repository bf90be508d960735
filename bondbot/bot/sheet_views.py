"""How sheets, rolls and validation errors look in Discord, in the reader's language."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from fractions import Fraction

import discord

from bondbot.bot.context import is_gm
from bondbot.errors import Refusal
from bondbot.i18n import Lang, has, t
from bondbot.money import format_amount
from bondbot.services.sheets import Actor
from bondbot.sheets import SheetInvalid, skill_display
from bondbot.storage.characters import Character

EMBED_BUDGET = 5800  # Discord allows 6000 characters per embed; keep a margin
FIELD_MAX = 1024
PC_COLOUR = discord.Colour(0x1F6FB2)
NPC_COLOUR = discord.Colour(0x8B1E1E)
CHARACTERISTIC_CODES = ("STR", "DEX", "WIL", "PER", "INT")
ERRORS_SHOWN = 15


async def actor_of(interaction: discord.Interaction) -> Actor:
    """The caller as the services see him: server, user, GM or not."""
    if interaction.guild_id is None:
        raise Refusal("errors.guild_only")
    return Actor(interaction.guild_id, interaction.user.id, await is_gm(interaction))


def characteristic_label(code: str, lang: Lang) -> str:
    """`STR` in English, `FOR` in French (the French sheet's abbreviations)."""
    return t(f"sheet.characteristic.{code}", lang)


def ease_text(ease: Fraction) -> str:
    """`5`, `2½`, `½`."""
    whole, half = divmod(ease * 2, 2)
    if half == 0:
        return str(int(whole))
    return "½" if whole == 0 else f"{int(whole)}½"


def field_label(path: str, lang: Lang, area: str = "sheet") -> str:
    """A readable name for a field path: `characteristics.STR` → `Caractéristiques › FOR`."""
    head, _, rest = path.partition(".")
    key = f"{area}.fields.{head}"
    label = t(key, lang) if has(key) else head
    if not rest:
        return label
    if head == "characteristics" and rest in CHARACTERISTIC_CODES:
        rest = characteristic_label(rest, lang)
    return f"{label} › {rest}"


def errors_text(
    error: SheetInvalid, lang: Lang, *, area: str = "sheet", paths: bool = False
) -> str:
    """One line per bad field, in the reader's language (at most ERRORS_SHOWN lines)."""
    lines = []
    for path, message in error.messages(lang)[:ERRORS_SHOWN]:
        where = f"**{field_label(path, lang, area)}**"
        if paths:
            where += f" (`{path}`)"
        lines.append(f"• {where}{t('sheet.colon', lang)}{message}")
    hidden = len(error.field_errors) - ERRORS_SHOWN
    if hidden > 0:
        lines.append(t("sheet.more_errors", lang, count=hidden))
    return "\n".join(lines)


@contextlib.contextmanager
def refuse_invalid(
    lang: Lang, key: str = "sheet.invalid", *, area: str = "sheet", paths: bool = False
) -> Iterator[None]:
    """Turn a SheetInvalid (nothing was written) into a Refusal listing each bad field."""
    try:
        yield
    except SheetInvalid as error:
        raise Refusal(key, errors=errors_text(error, lang, area=area, paths=paths)) from None


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _chunks(lines: list[str], limit: int = FIELD_MAX) -> list[str]:
    chunks: list[str] = []
    current = ""
    for line in lines:
        line = _cut(line, limit)
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            chunks.append(current)
            current = line
        else:
            current = candidate
    if current:
        chunks.append(current)
    return chunks


def kind_text(character: Character, lang: Lang) -> str:
    sheet = character.sheet
    kind = t(f"sheet.kind.{sheet.kind}", lang)
    rank = t(f"sheet.rank.{sheet.rank}", lang)
    if sheet.kind == "PC":
        return t("sheet.pc_line", lang, kind=kind, rank=rank, owner=f"<@{sheet.owner_id}>")
    state = t("sheet.revealed" if sheet.revealed else "sheet.hidden", lang)
    return t("sheet.npc_line", lang, kind=kind, rank=rank, state=state)


def sheet_embed(character: Character, lang: Lang, currency: str) -> discord.Embed:
    """The whole sheet, within Discord's embed limits (long texts are shortened)."""
    sheet = character.sheet
    embed = discord.Embed(
        title=sheet.name,
        description=kind_text(character, lang),
        colour=PC_COLOUR if sheet.kind == "PC" else NPC_COLOUR,
    )
    values = sheet.characteristics.model_dump()
    embed.add_field(
        name=t("sheet.fields.characteristics", lang),
        value=" · ".join(
            f"**{characteristic_label(code, lang)}** {values[code]}"
            for code in CHARACTERISTIC_CODES
        ),
        inline=False,
    )
    embed.add_field(name=t("sheet.fields.hero_points", lang), value=str(sheet.hero_points))
    embed.add_field(name=t("sheet.fields.cash", lang), value=format_amount(sheet.cash, currency))
    embed.add_field(name=t("sheet.fields.fame_points", lang), value=str(sheet.fame_points))
    if sheet.kind == "NPC" or sheet.survival_points:
        embed.add_field(
            name=t("sheet.fields.survival_points", lang), value=str(sheet.survival_points)
        )
    if sheet.height or sheet.weight:
        embed.add_field(
            name=t("sheet.fields.height_weight", lang),
            value=f"{sheet.height or '—'} / {sheet.weight or '—'}",
        )
    skills = sorted(
        ((skill_display(key, lang), level) for key, level in sheet.skills.items()),
        key=lambda item: item[0].casefold(),
    )
    skill_lines = [f"{name} **{level}**" for name, level in skills]
    for index, chunk in enumerate(_chunks(skill_lines) or [t("sheet.no_skills", lang)]):
        embed.add_field(
            name=t("sheet.fields.skills", lang) if index == 0 else "\u200b",
            value=chunk,
            inline=False,
        )
    texts = [
        (t(f"sheet.fields.{name}", lang), getattr(sheet, name))
        for name in ("appearance", "weaknesses", "fields_of_experience", "notes")
        if getattr(sheet, name)
    ]
    budget = EMBED_BUDGET - len(embed)
    for index, (label, text) in enumerate(texts):
        share = max(budget // (len(texts) - index), 0) - len(label)
        value = _cut(text, min(FIELD_MAX, share))
        if share < 20:
            break
        embed.add_field(name=label, value=value, inline=False)
        budget -= len(label) + len(value)
    embed.set_footer(text=t("sheet.footer", lang, id=character.id))
    return embed


def skill_choices(pairs: list[tuple[str, str]]) -> list[discord.app_commands.Choice[str]]:
    return [discord.app_commands.Choice(name=name[:100], value=key[:100]) for key, name in pairs]
