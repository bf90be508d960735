"""`/sheet …`: character sheets, a thin layer over the sheet service.

Clicks (delete confirmation) and the edit modal's submit are routed by custom id
(`bb:sheet:…`), so they work after a restart; every one re-checks who may do it.
"""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bondbot.bot.client import BondBot
from bondbot.bot.context import currency_for, lang_for, require_gm, send
from bondbot.bot.router import (
    Actions,
    ButtonSpec,
    FormField,
    custom_id,
    form_values,
    modal_view,
    view_of,
)
from bondbot.bot.sheet_views import actor_of, refuse_invalid, sheet_embed, skill_choices
from bondbot.errors import Refusal
from bondbot.i18n import t
from bondbot.services.sheets import IMPORT_MAX_BYTES, SheetService
from bondbot.sheets import POINTS_MAX, search_skills
from bondbot.storage.characters import Character

AREA = "sheet"
Choice = app_commands.Choice
KIND_CHOICES = [Choice(name="PC", value="PC"), Choice(name="NPC", value="NPC")]
RANK_CHOICES = [
    Choice(name="Rookie", value="Rookie"),
    Choice(name="Agent", value="Agent"),
    Choice(name="00", value="00"),
]
Characteristic = app_commands.Range[int, 1, 20]
Points = app_commands.Range[int, 0, POINTS_MAX]
Level = app_commands.Range[int, 0, 15]

# The edit modal's inputs (at most 5): (custom id = sheet field, max length, paragraph).
MODAL_FIELDS: tuple[tuple[str, int, bool], ...] = (
    ("height_weight", 67, False),
    ("appearance", 500, True),
    ("weaknesses", 1000, True),
    ("fields_of_experience", 1000, True),
    ("notes", 1000, True),
)
# What the edit form must bring back: each field (empty clears it), none missing or longer.
EDIT_FORM = tuple(FormField(name, limit, required=False) for name, limit, _ in MODAL_FIELDS)


def split_height_weight(text: str) -> tuple[str, str]:
    """`1.83 m / 76 kg` → (`1.83 m`, `76 kg`); without a slash it is all height."""
    height, _, weight = text.partition("/")
    return height.strip(), weight.strip()


def _member_id(player: discord.Member | discord.User | None) -> int | None:
    """The id of the player named, who must be a member of this server (Discord lets a
    command name anyone it knows; it then sends a user without a member)."""
    if player is None:
        return None
    if not isinstance(player, discord.Member):
        raise Refusal("sheet.player_not_member", player=player.mention)
    return player.id


def characteristics_of(**values: int | None) -> dict[str, int]:
    return {code: value for code, value in values.items() if value is not None}


@app_commands.guild_only()
class Sheets(commands.GroupCog, group_name="sheet", group_description="Character sheets"):
    def __init__(self, bot: BondBot) -> None:
        self.bot = bot
        self.service: SheetService = bot.services.sheets
        bot.router.register(AREA, self.on_component)
        self.actions = Actions()
        self.actions.on("edit", int, form=True)(self._edited)
        self.actions.on("del", int)(self._delete)
        self.actions.on("keep", int)(self._keep)

    # -- helpers ---------------------------------------------------------------------------

    async def _reply_sheet(
        self,
        interaction: discord.Interaction,
        key: str,
        character: Character,
        *,
        ephemeral: bool = True,
        **params: Any,
    ) -> None:
        lang = await lang_for(interaction)
        embed = sheet_embed(character, lang, await currency_for(interaction))
        text = t(key, lang, name=character.name, **params) if key else None
        await send(interaction, text, embed=embed, ephemeral=ephemeral)

    async def _names(
        self, interaction: discord.Interaction, current: str, **options: Any
    ) -> list[Choice[str]]:
        actor = await actor_of(interaction)
        names = await self.service.names(actor, current, **options)
        return [Choice(name=name, value=name) for name in names]

    async def character_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        return await self._names(interaction, current)

    async def editable_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        return await self._names(interaction, current, editable=True)

    async def npc_names(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        return await self._names(interaction, current, kind="NPC")

    async def skill_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        lang = await lang_for(interaction)
        house = await self.service.house_skills(await actor_of(interaction))
        return skill_choices(search_skills(current, lang, extra=house))

    # -- commands --------------------------------------------------------------------------

    @app_commands.command(name="create", description="Create a character sheet")
    @app_commands.describe(
        name="The character's name",
        kind="PC (yours) or NPC (GM only)",
        player="GM: the player who will own this PC",
        rank="Rookie, Agent or 00",
        strength="Strength (1-15 for a PC, up to 20 for an NPC)",
        dexterity="Dexterity",
        willpower="Willpower",
        perception="Perception",
        intelligence="Intelligence",
    )
    @app_commands.choices(kind=KIND_CHOICES, rank=RANK_CHOICES)
    async def create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 100],
        kind: str = "PC",
        player: discord.Member | discord.User | None = None,
        rank: str | None = None,
        strength: Characteristic | None = None,
        dexterity: Characteristic | None = None,
        willpower: Characteristic | None = None,
        perception: Characteristic | None = None,
        intelligence: Characteristic | None = None,
    ) -> None:
        actor = await actor_of(interaction)
        lang = await lang_for(interaction)
        fields: dict[str, Any] = {}
        if rank is not None:
            fields["rank"] = rank
        stats = characteristics_of(
            STR=strength, DEX=dexterity, WIL=willpower, PER=perception, INT=intelligence
        )
        if stats:
            fields["characteristics"] = stats
        with refuse_invalid(lang):
            character = await self.service.create(
                actor,
                name=name,
                kind="NPC" if kind == "NPC" else "PC",
                owner_id=_member_id(player),
                fields=fields,
            )
        await self._reply_sheet(interaction, "sheet.created", character)

    @app_commands.command(name="show", description="Show a character sheet")
    @app_commands.describe(
        character="The character (default: your active character)",
        public="Post it in the channel for everyone (default: only you see it)",
    )
    @app_commands.autocomplete(character=character_names)
    async def show(
        self,
        interaction: discord.Interaction,
        character: str | None = None,
        public: bool = False,
    ) -> None:
        target = await self.service.target(await actor_of(interaction), character)
        await self._reply_sheet(interaction, "", target, ephemeral=not public)

    @app_commands.command(name="edit", description="Edit a sheet's descriptions (opens a form)")
    @app_commands.describe(character="The character (default: your active character)")
    @app_commands.autocomplete(character=editable_names)
    async def edit(self, interaction: discord.Interaction, character: str | None = None) -> None:
        target = await self.service.editable(await actor_of(interaction), character)
        lang = await lang_for(interaction)
        sheet = target.sheet
        current = {
            "height_weight": f"{sheet.height} / {sheet.weight}"
            if sheet.height or sheet.weight
            else "",
            "appearance": sheet.appearance,
            "weaknesses": sheet.weaknesses,
            "fields_of_experience": sheet.fields_of_experience,
            "notes": sheet.notes,
        }
        inputs = [
            discord.ui.TextInput(
                label=t(f"sheet.modal.{name}", lang)[:45],
                custom_id=name,
                style=discord.TextStyle.paragraph if long else discord.TextStyle.short,
                default=current[name][:limit] or None,
                required=False,
                max_length=limit,
            )
            for name, limit, long in MODAL_FIELDS
        ]
        title = t("sheet.modal.title", lang, name=sheet.name)
        modal = modal_view(
            title if len(title) <= 45 else title[:44] + "…",
            custom_id(AREA, "edit", target.id),
            inputs,
        )
        await interaction.response.send_modal(modal)

    @app_commands.command(name="set", description="Change a sheet's name, rank and numbers")
    @app_commands.describe(
        character="The character (default: your active character)",
        rename="A new name",
        rank="Rookie, Agent or 00",
        strength="Strength (1-15 for a PC, up to 20 for an NPC)",
        dexterity="Dexterity",
        willpower="Willpower",
        perception="Perception",
        intelligence="Intelligence",
        height="Height",
        weight="Weight",
        fame_points="Fame Points",
        survival_points="Survival Points (GM)",
    )
    @app_commands.choices(rank=RANK_CHOICES)
    @app_commands.autocomplete(character=editable_names)
    async def set_(
        self,
        interaction: discord.Interaction,
        character: str | None = None,
        rename: app_commands.Range[str, 1, 100] | None = None,
        rank: str | None = None,
        strength: Characteristic | None = None,
        dexterity: Characteristic | None = None,
        willpower: Characteristic | None = None,
        perception: Characteristic | None = None,
        intelligence: Characteristic | None = None,
        height: app_commands.Range[str, 0, 100] | None = None,
        weight: app_commands.Range[str, 0, 100] | None = None,
        fame_points: Points | None = None,
        survival_points: Points | None = None,
    ) -> None:
        actor = await actor_of(interaction)
        lang = await lang_for(interaction)
        target = await self.service.editable(actor, character)
        given = {
            "name": rename,
            "rank": rank,
            "height": height,
            "weight": weight,
            "fame_points": fame_points,
            "survival_points": survival_points,
        }
        changes: dict[str, Any] = {k: v for k, v in given.items() if v is not None}
        stats = characteristics_of(
            STR=strength, DEX=dexterity, WIL=willpower, PER=perception, INT=intelligence
        )
        if stats:
            changes["characteristics"] = stats
        with refuse_invalid(lang):
            updated = await self.service.update(actor, target.id, changes)
        await self._reply_sheet(interaction, "sheet.updated", updated)

    @app_commands.command(name="skill", description="Set a skill level (0 removes the skill)")
    @app_commands.describe(
        skill="A standard skill (either language) or a house skill",
        level="Skill level 0-15 (0 takes the skill off the sheet)",
        character="The character (default: your active character)",
    )
    @app_commands.autocomplete(skill=skill_names, character=editable_names)
    async def skill(
        self,
        interaction: discord.Interaction,
        skill: app_commands.Range[str, 1, 100],
        level: Level,
        character: str | None = None,
    ) -> None:
        actor = await actor_of(interaction)
        lang = await lang_for(interaction)
        target = await self.service.editable(actor, character)
        with refuse_invalid(lang):
            updated = await self.service.set_skill(actor, target.id, skill, level)
        await self._reply_sheet(interaction, "sheet.skill_set", updated)

    @app_commands.command(name="list", description="List the server's characters")
    @app_commands.describe(mine="Only your own characters")
    async def list_(self, interaction: discord.Interaction, mine: bool = False) -> None:
        actor = await actor_of(interaction)
        lang = await lang_for(interaction)
        found = await self.service.visible(actor, mine=mine)
        active = await self.service.active(actor.guild_id, actor.user_id)
        if not found:
            await send(interaction, t("sheet.list_empty", lang))
            return
        lines = []
        for character in found:
            kind = t(f"sheet.kind.{character.kind}", lang)
            line = f"**{character.name}** — {kind}, {t(f'sheet.rank.{character.rank}', lang)}"
            if character.kind == "PC":
                line += f" — <@{character.owner_id}>"
            elif not character.revealed:
                line += f" — {t('sheet.hidden', lang)}"
            if character.id == active:
                line += f" — ★ {t('sheet.active', lang)}"
            lines.append(line)
        description = ""
        for index, line in enumerate(lines):
            more = t("sheet.list_more", lang, count=len(lines) - index)
            if len(description) + len(line) + len(more) + 2 > 4000:
                description += "\n" + more
                break
            description += ("\n" if description else "") + line
        embed = discord.Embed(title=t("sheet.list_title", lang), description=description)
        await send(interaction, embed=embed)

    @app_commands.command(name="use", description="Choose your active character")
    @app_commands.describe(character="Your character (GM: or an NPC)")
    @app_commands.autocomplete(character=character_names)
    async def use(self, interaction: discord.Interaction, character: str) -> None:
        actor = await actor_of(interaction)
        target = await self.service.target(actor, character)
        chosen = await self.service.use(actor, target.id)
        await send(
            interaction, t("sheet.now_active", await lang_for(interaction), name=chosen.name)
        )

    @app_commands.command(name="delete", description="Delete a character (asks to confirm)")
    @app_commands.describe(character="The character to delete")
    @app_commands.autocomplete(character=editable_names)
    async def delete(self, interaction: discord.Interaction, character: str) -> None:
        target = await self.service.deletable(await actor_of(interaction), character)
        lang = await lang_for(interaction)
        view = view_of(
            [
                ButtonSpec(
                    t("sheet.btn_delete", lang),
                    custom_id(AREA, "del", target.id),
                    style=discord.ButtonStyle.danger,
                ),
                ButtonSpec(t("sheet.btn_keep", lang), custom_id(AREA, "keep", target.id)),
            ]
        )
        await send(interaction, t("sheet.delete_confirm", lang, name=target.name), view=view)

    @app_commands.command(name="reveal", description="Show an NPC's sheet to players, or hide it")
    @app_commands.describe(character="The NPC", revealed="True: players see it; False: hidden")
    @app_commands.autocomplete(character=npc_names)
    async def reveal(
        self, interaction: discord.Interaction, character: str, revealed: bool = True
    ) -> None:
        await require_gm(interaction)
        actor = await actor_of(interaction)
        target = await self.service.target(actor, character)
        updated = await self.service.reveal(actor, target.id, revealed)
        key = "sheet.now_revealed" if revealed else "sheet.now_hidden"
        await send(interaction, t(key, await lang_for(interaction), name=updated.name))

    @app_commands.command(name="export", description="Download a sheet as a JSON file")
    @app_commands.describe(character="The character (default: your active character)")
    @app_commands.autocomplete(character=editable_names)
    async def export(self, interaction: discord.Interaction, character: str | None = None) -> None:
        actor = await actor_of(interaction)
        target = await self.service.target(actor, character)
        filename, data = await self.service.export(actor, target.id)
        lang = await lang_for(interaction)
        await send(
            interaction,
            t("sheet.exported", lang, name=target.name),
            file=discord.File(io.BytesIO(data), filename=filename),
        )

    @app_commands.command(name="import", description="Create a character from a JSON sheet file")
    @app_commands.describe(
        file="A sheet exported with /sheet export",
        player="GM: the player who will own an imported PC",
    )
    async def import_(
        self,
        interaction: discord.Interaction,
        file: discord.Attachment,
        player: discord.Member | discord.User | None = None,
    ) -> None:
        actor = await actor_of(interaction)
        lang = await lang_for(interaction)
        if file.size > IMPORT_MAX_BYTES:
            raise Refusal("sheet.import_too_big", max=IMPORT_MAX_BYTES // 1024)
        raw = await file.read()
        with refuse_invalid(lang, "sheet.import_invalid", paths=True):
            imported = await self.service.import_(actor, raw, owner_id=_member_id(player))
        dropped = ""
        if imported.dropped:
            fields = ", ".join(t(f"sheet.fields.{name}", lang) for name in imported.dropped)
            dropped = "\n" + t("sheet.import_dropped", lang, fields=fields)
        await self._reply_sheet(interaction, "sheet.imported", imported.character, dropped=dropped)

    # -- buttons and the edit modal --------------------------------------------------------

    async def on_component(self, interaction: discord.Interaction, args: list[str]) -> None:
        await self.actions.dispatch(interaction, args[0] if args else "", args[1:])

    async def _edited(self, interaction: discord.Interaction, character_id: int) -> None:
        """The edit form's submit."""
        lang = await lang_for(interaction)
        values = form_values(interaction, EDIT_FORM)  # every field, or nothing changes
        height, weight = split_height_weight(values["height_weight"])
        changes = {
            "height": height,
            "weight": weight,
            **{name: values[name] for name, _, long in MODAL_FIELDS if long},
        }
        with refuse_invalid(lang):
            updated = await self.service.update(await actor_of(interaction), character_id, changes)
        await self._reply_sheet(interaction, "sheet.updated", updated)

    async def _delete(self, interaction: discord.Interaction, character_id: int) -> None:
        deleted = await self.service.delete(await actor_of(interaction), character_id)
        await interaction.response.edit_message(
            content=t("sheet.deleted", await lang_for(interaction), name=deleted.name), view=None
        )

    async def _keep(self, interaction: discord.Interaction, character_id: int) -> None:
        await interaction.response.edit_message(
            content=t("sheet.kept", await lang_for(interaction)), view=None
        )


async def setup(bot: BondBot) -> None:
    await bot.add_cog(Sheets(bot))
