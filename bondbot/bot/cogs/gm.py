"""`/gm …`: the GM role, Hero Point and cash grants, the ledger, the server's house rules,
the server's open tables (`/gm tables`, bot/tables/overview.py).

`/gm role` needs Manage Server (checked at run time: Discord ignores default permissions
on subcommands); every other command needs the server's GM role. The ledger's
Previous/Next buttons carry their cursor in the custom id (`bb:gm:ledger:…`).
"""

from __future__ import annotations

import time
from datetime import datetime

import discord
from discord import app_commands
from discord.ext import commands

from bondbot.bot.client import BondBot
from bondbot.bot.context import currency_for, lang_for, require_gm, send
from bondbot.bot.router import Actions, ButtonSpec, custom_id, view_of
from bondbot.bot.sheet_views import actor_of, refuse_invalid
from bondbot.bot.tables.overview import Overview
from bondbot.errors import Refusal
from bondbot.i18n import Lang, has, t
from bondbot.money import amount_or_refuse, format_amount
from bondbot.services.gm import (
    GRANT_REASON,
    TAKE_REASON,
    GmService,
    LedgerView,
    Movement,
    Sent,
    award_table_of,
    character_of_account,
)
from bondbot.services.rolls import STEP_REASON
from bondbot.storage.characters import CREATE_REASON
from bondbot.storage.ledger import LedgerEntry
from bondbot.storage.settings import GuildSettings

AREA = "gm"
Choice = app_commands.Choice
ACTION_CHOICES = [Choice(name="Give", value="give"), Choice(name="Take", value="take")]
OWN_REASONS = frozenset({GRANT_REASON, TAKE_REASON, STEP_REASON, CREATE_REASON})
LANGUAGE_CHOICES = [Choice(name="Français", value="fr"), Choice(name="English", value="en")]


def _account(account: str | None, names: dict[int, str], lang: Lang) -> str:
    if account is None:
        return t("gm.account_outside", lang)
    character = character_of_account(account)
    name = names.get(character, f"#{character}") if character is not None else ""
    parts = account.split(":")
    if parts[0] == "sheet":
        return f"**{name}**"
    if parts[0] == "chips":
        return t("gm.account_chips", lang, name=name, table=parts[1])
    if parts[0] == "bank":
        return t("gm.account_bank", lang, table=parts[1])
    return account


def _amount(entry: LedgerEntry, currency: str, lang: Lang) -> str:
    if entry.kind == "cash":
        return format_amount(entry.amount, currency)
    return t("gm.hero_amount", lang, count=entry.amount)


def _reason(reason: str, lang: Lang) -> str:
    """Our own reasons are message keys; the tables' are named under `gm.reasons`."""
    if reason in OWN_REASONS:
        return t(reason, lang)
    key = f"gm.reasons.{reason.replace('.', '_')}"
    return t(key, lang) if has(key) else f"`{reason}`"


def ledger_line(entry: LedgerEntry, names: dict[int, str], currency: str, lang: Lang) -> str:
    when = datetime.fromisoformat(entry.created_at).strftime("%Y-%m-%d %H:%M")
    line = (
        f"`#{entry.id}` {when} — {_amount(entry, currency, lang)}{t('sheet.colon', lang)}"
        f"{_account(entry.src, names, lang)} → {_account(entry.dst, names, lang)}"
        f" — {_reason(entry.reason, lang)}"
    )
    if entry.note:
        line += f" — “{entry.note[:120]}”"
    if entry.actor_id is not None:
        line += f" — <@{entry.actor_id}>"
    return line


def ledger_embed(view: LedgerView, currency: str, lang: Lang) -> discord.Embed:
    if view.character is None:
        title = t("gm.ledger_title", lang)
    elif view.character.alive:
        title = t("gm.ledger_title_character", lang, name=view.character.name)
    else:
        title = t("gm.ledger_title_deleted", lang, name=view.character.name)
    lines = [ledger_line(e, view.names, currency, lang) for e in view.entries]
    description = "\n".join(lines) if lines else t("gm.ledger_empty", lang)
    return discord.Embed(title=title, description=description[:4000])


def ledger_buttons(view: LedgerView, lang: Lang) -> discord.ui.View:
    character = 0 if view.character is None else view.character.id
    return view_of(
        [
            ButtonSpec(
                t("gm.btn_previous", lang),
                custom_id(AREA, "ledger", character, view.previous_before or 0, "p"),
                disabled=not view.has_previous,
            ),
            ButtonSpec(
                t("gm.btn_next", lang),
                custom_id(AREA, "ledger", character, view.next_before or 0, "n"),
                disabled=view.next_before is None,
            ),
        ]
    )


def settings_embed(settings: GuildSettings, lang: Lang) -> discord.Embed:
    embed = discord.Embed(title=t("gm.settings_title", lang))
    role = f"<@&{settings.gm_role_id}>" if settings.gm_role_id else t("gm.no_role", lang)
    embed.add_field(name=t("gm.fields.gm_role_id", lang), value=role)
    embed.add_field(
        name=t("gm.fields.locale", lang), value=t(f"gm.language.{settings.locale}", lang)
    )
    embed.add_field(name=t("gm.fields.currency", lang), value=settings.currency)
    embed.add_field(
        name=t("gm.fields.spend_window_s", lang),
        value=t("gm.seconds", lang, count=settings.spend_window_s),
    )
    embed.add_field(
        name=t("gm.fields.turn_timer_s", lang),
        value=t("gm.seconds", lang, count=settings.turn_timer_s),
    )
    table = award_table_of(settings)
    rows = [
        t(
            "gm.award_row",
            lang,
            levels=str(a.low) if a.low == a.high else f"{a.low}–{a.high}",
            points=a.points,
        )
        for a in table
    ]
    default = "" if settings.award_table is not None else f" ({t('gm.default', lang)})"
    embed.add_field(
        name=t("gm.fields.award_table", lang) + default, value="\n".join(rows), inline=False
    )
    return embed


@app_commands.guild_only()
class Gm(commands.GroupCog, group_name="gm", group_description="Game Master tools"):
    def __init__(self, bot: BondBot) -> None:
        self.bot = bot
        self.service: GmService = bot.services.gm
        bot.router.register(AREA, self.on_component)
        self.actions = Actions()
        self.actions.on("ledger", int, int, str)(self._ledger_page)
        self.actions.on("again", int)(self._again)
        self.actions.on("once", int)(self._once)
        self.overview = Overview(bot)  # /gm tables and its buttons (bb:gmtables:…)

    async def character_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        actor = await actor_of(interaction)
        if not actor.is_gm:
            return []
        names = await self.bot.services.sheets.names(actor, current)
        return [Choice(name=name, value=name) for name in names]

    async def ledger_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        """Living characters by name, then deleted ones (marked, by `#id`: a deleted name
        may have been taken again)."""
        living = await self.character_names(interaction, current)
        actor = await actor_of(interaction)
        if not actor.is_gm:
            return []
        lang = await lang_for(interaction)
        gone = await self.service.deleted_names(actor, current)
        deleted = [
            Choice(
                name=t("gm.deleted_choice", lang, name=c.name, date=c.updated_at[:10])[:100],
                value=f"#{c.id}",
            )
            for c in gone
        ]
        return [*living, *deleted][:25]

    async def _character(self, interaction: discord.Interaction, name: str) -> int:
        actor = await actor_of(interaction)
        return (await self.bot.services.sheets.target(actor, name)).id

    # -- commands --------------------------------------------------------------------------

    @app_commands.command(name="role", description="Set the server's GM role (Manage Server)")
    @app_commands.describe(role="The role whose members are GMs")
    @app_commands.default_permissions(manage_guild=True)
    async def role(self, interaction: discord.Interaction, role: discord.Role) -> None:
        if not interaction.permissions.manage_guild:
            raise Refusal("gm.needs_manage_guild")
        await self.service.set_role(interaction.guild_id, role.id)
        await send(interaction, t("gm.role_set", await lang_for(interaction), role=role.mention))

    async def _move(
        self,
        interaction: discord.Interaction,
        kind: str,
        character: str,
        action: str,
        amount: int | str,
        reason: str,
    ) -> None:
        # Before any wait: what tells a command sent with another from one sent after it.
        sent = Sent(interaction.created_at, time.monotonic())
        await require_gm(interaction)
        if isinstance(amount, str):  # cash, as the GM's language writes it
            amount = amount_or_refuse(amount, await lang_for(interaction))
        actor = await actor_of(interaction)
        character_id = await self._character(interaction, character)
        granting = self.service.grant(
            actor,
            character_id,
            kind,
            amount,
            give=action == "give",
            reason=reason,
            sent=sent,
            delivered=lambda entry: self.bot.deliveries.reached(f"ledger:{entry}"),
        )
        async with granting as done:  # identical grants wait until this one is answered
            if done.moved is None:
                assert done.earlier is not None
                await self._ask_again(interaction, done.earlier, concurrent=done.concurrent)
                return
            await self.bot.services.tables.character_changed(character_id)
            await send(interaction, await self._moved(interaction, done.moved))
            self.bot.deliveries.mark(f"ledger:{done.moved.entry_id}")

    async def _amounts(self, interaction: discord.Interaction, moved: Movement) -> dict[str, str]:
        lang = await lang_for(interaction)
        if moved.kind == "cash":
            currency = await currency_for(interaction)
            return {
                "amount": format_amount(moved.amount, currency),
                "balance": format_amount(moved.balance, currency),
            }
        return {
            "amount": t("gm.hero_amount", lang, count=moved.amount),
            "balance": t("gm.hero_amount", lang, count=moved.balance),
        }

    async def _moved(self, interaction: discord.Interaction, moved: Movement) -> str:
        key = "gm.given" if moved.give else "gm.taken"
        amounts = await self._amounts(interaction, moved)
        return t(key, await lang_for(interaction), name=moved.character.name, **amounts)

    async def _ask_again(
        self, interaction: discord.Interaction, earlier: Movement, *, concurrent: bool = False
    ) -> None:
        """The same move landed a moment ago and its answer may never have been seen, or
        it was sent at the same moment as this one: say so, and do it again only on a click
        (docs/decisions.md)."""
        lang = await lang_for(interaction)
        when = int(datetime.fromisoformat(earlier.at).timestamp())
        word = "concurrent" if concurrent else "repeat"
        text = t(
            f"gm.{word}_given" if earlier.give else f"gm.{word}_taken",
            lang,
            when=f"<t:{when}:R>",
            name=earlier.character.name,
            reason=earlier.note,
            entry=earlier.entry_id,
            **await self._amounts(interaction, earlier),
        )
        again = "gm.btn_again_give" if earlier.give else "gm.btn_again_take"
        view = view_of(
            [
                ButtonSpec(
                    t(again, lang),
                    custom_id(AREA, "again", earlier.entry_id),
                    style=discord.ButtonStyle.danger,
                ),
                ButtonSpec(t("gm.btn_once", lang), custom_id(AREA, "once", earlier.entry_id)),
            ]
        )
        await send(interaction, text, view=view)

    @app_commands.command(name="hero", description="Give or take Hero Points, with a reason")
    @app_commands.describe(
        character="The character",
        action="Give or take",
        amount="How many Hero Points",
        reason="Why (kept in the ledger)",
    )
    @app_commands.choices(action=ACTION_CHOICES)
    @app_commands.autocomplete(character=character_names)
    async def hero(
        self,
        interaction: discord.Interaction,
        character: str,
        action: str,
        amount: app_commands.Range[int, 1, 1000],
        reason: app_commands.Range[str, 1, 200],
    ) -> None:
        await self._move(interaction, "hero", character, action, amount, reason)

    @app_commands.command(name="cash", description="Give or take cash, with a reason")
    @app_commands.describe(
        character="The character",
        action="Give or take",
        amount="The amount, such as 500 or 12.50",
        reason="Why (kept in the ledger)",
    )
    @app_commands.choices(action=ACTION_CHOICES)
    @app_commands.autocomplete(character=character_names)
    async def cash(
        self,
        interaction: discord.Interaction,
        character: str,
        action: str,
        amount: app_commands.Range[str, 1, 32],
        reason: app_commands.Range[str, 1, 200],
    ) -> None:
        await self._move(interaction, "cash", character, action, amount, reason)

    @app_commands.command(name="ledger", description="Read the ledger, newest first")
    @app_commands.describe(
        character="Only this character's movements, deleted ones too (default: the server's)"
    )
    @app_commands.autocomplete(character=ledger_names)
    async def ledger(self, interaction: discord.Interaction, character: str | None = None) -> None:
        await require_gm(interaction)
        character_id = None
        if character is not None:
            actor = await actor_of(interaction)
            character_id = (await self.service.ledger_character(actor, character)).id
        await self._show_ledger(interaction, character_id, None, edit=False)

    async def _show_ledger(
        self,
        interaction: discord.Interaction,
        character_id: int | None,
        before_id: int | None,
        *,
        edit: bool,
    ) -> None:
        actor = await actor_of(interaction)
        view = await self.service.ledger(actor, character_id=character_id, before_id=before_id)
        lang = await lang_for(interaction)
        embed = ledger_embed(view, await currency_for(interaction), lang)
        buttons = ledger_buttons(view, lang)
        if edit:
            await interaction.response.edit_message(embed=embed, view=buttons)
        else:
            await send(interaction, embed=embed, view=buttons)

    @app_commands.command(name="settings", description="House rules; without options, show them")
    @app_commands.describe(
        language="The server's language (people with French or English Discord keep theirs)",
        currency="Currency symbol, such as $ or €",
        spend_window="Seconds a player has to spend a Hero Point (5-3600)",
        turn_timer="Seconds a player has to act at a table (10-3600)",
        award_table="Hero Points by Gambling level: 0:0 1-5:1 6-10:2 11-14:3 15:4 (or default)",
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def settings(
        self,
        interaction: discord.Interaction,
        language: str | None = None,
        currency: app_commands.Range[str, 1, 16] | None = None,
        spend_window: int | None = None,
        turn_timer: int | None = None,
        award_table: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        await require_gm(interaction)
        actor = await actor_of(interaction)
        given = {
            "locale": language,
            "currency": currency,
            "spend_window_s": spend_window,
            "turn_timer_s": turn_timer,
            "award_table": award_table,
        }
        changes = {name: value for name, value in given.items() if value is not None}
        if not changes:
            settings = await self.service.settings(actor.guild_id)
            await send(interaction, embed=settings_embed(settings, await lang_for(interaction)))
            return
        with refuse_invalid(await lang_for(interaction), "gm.settings_invalid", area="gm"):
            settings = await self.service.update_settings(actor, **changes)
        lang = await lang_for(interaction)  # the server's language may just have changed
        await send(interaction, t("gm.settings_saved", lang), embed=settings_embed(settings, lang))

    @app_commands.command(name="tables", description="The server's open tables, to mend")
    async def tables(self, interaction: discord.Interaction) -> None:
        """Every open table of the server, wherever it is: Post the table again, Close."""
        await require_gm(interaction)
        await self.overview.show(interaction, 0, edit=False)

    # -- buttons ---------------------------------------------------------------------------

    async def on_component(self, interaction: discord.Interaction, args: list[str]) -> None:
        await require_gm(interaction)
        await self.actions.dispatch(interaction, args[0] if args else "", args[1:])

    async def _ledger_page(
        self, interaction: discord.Interaction, character: int, cursor: int, side: str
    ) -> None:
        """Newer (`p`) or Older (`n`): the side only keeps the two buttons' ids apart."""
        await self._show_ledger(interaction, character or None, cursor or None, edit=True)

    async def _again(self, interaction: discord.Interaction, entry_id: int) -> None:
        """A repeated grant confirmed: apply it once more (once, whatever the clicks)."""
        moved = await self.service.move_again(await actor_of(interaction), entry_id)
        await self.bot.services.tables.character_changed(moved.character.id)
        text = await self._moved(interaction, moved)
        await interaction.response.edit_message(content=text, view=None)
        self.bot.deliveries.mark(f"ledger:{moved.entry_id}")

    async def _once(self, interaction: discord.Interaction, entry_id: int) -> None:
        text = t("gm.repeat_dropped", await lang_for(interaction))
        await interaction.response.edit_message(content=text, view=None)
        self.bot.deliveries.mark(f"ledger:{entry_id}")


async def setup(bot: BondBot) -> None:
    await bot.add_cog(Gm(bot))
