"""`/table …` and the table message's buttons: a thin layer over the table service."""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from datetime import datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bondbot.bot.client import BondBot
from bondbot.bot.context import currency_for, lang_for, require_gm, say, send
from bondbot.bot.router import ButtonSpec, custom_id, modal_values, view_of
from bondbot.bot.sheet_views import actor_of
from bondbot.bot.tables.common import AREA, quality
from bondbot.bot.tables.games import ui_for
from bondbot.bot.tables.message import table_embed, table_view
from bondbot.bot.tables.modals import amount_modal, parse_amount_or_refuse
from bondbot.errors import Refusal
from bondbot.i18n import t
from bondbot.money import format_amount
from bondbot.rules import gambling
from bondbot.tables.context import iso
from bondbot.tables.pot import own_roll
from bondbot.tables.service import TableService, TableSnapshot
from bondbot.tables.state import Contest, ContestRoll

log = logging.getLogger(__name__)


class TableMessages:
    """Keeps each table's public message up to date: one edit at a time, latest state wins.

    After an edit, changes wait `bot.message_interval` seconds and go out as one edit:
    Discord allows a channel about one message edit a second, and players do not need more.
    Writes to one message (edits, and clicks answered by redrawing it) take turns, so an
    older edit still on its way can never land over a newer drawing.
    """

    def __init__(self, bot: BondBot) -> None:
        self.bot = bot
        self._running: dict[int, asyncio.Task[None]] = {}
        self._dirty: set[int] = set()
        self._timers: dict[int, asyncio.TimerHandle] = {}
        self._shown: dict[int, TableSnapshot] = {}  # what each table message shows now
        self._writing: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    async def changed(self, snapshot: TableSnapshot) -> None:
        self._dirty.add(snapshot.id)
        if snapshot.id not in self._running:
            self._running[snapshot.id] = asyncio.create_task(self._refresh(snapshot.id))

    async def _refresh(self, table_id: int) -> None:
        try:
            while table_id in self._dirty:
                self._dirty.discard(table_id)
                snapshot = await self.bot.services.tables.snapshot(table_id)
                async with self._writing[table_id]:
                    if self._shown.get(table_id) is not snapshot:
                        await self._render(snapshot)
                self._arm(snapshot)
                await asyncio.sleep(self.bot.message_interval)
        except Exception:
            log.exception("could not refresh the message of table %s", table_id)
        finally:
            self._running.pop(table_id, None)

    async def _draw(self, snapshot: TableSnapshot) -> dict[str, Any]:
        settings = await self.bot.services.guilds.get(snapshot.guild_id)
        now = self.bot.services.clock()
        return {
            "embed": table_embed(snapshot, settings.locale, settings.currency, now),
            "view": table_view(snapshot, settings.locale, now, settings.currency),
        }

    async def answer(self, interaction: discord.Interaction, snapshot: TableSnapshot) -> None:
        """Answer a click on the table message by redrawing that message in place."""
        self._shown[snapshot.id] = snapshot  # first, so a pending refresh does not edit too
        try:
            async with self._writing[snapshot.id]:
                await interaction.response.edit_message(**await self._draw(snapshot))
        except Exception:
            self._shown.pop(snapshot.id, None)
            await self.changed(snapshot)
            raise

    async def _render(self, snapshot: TableSnapshot) -> None:
        drawn = await self._draw(snapshot)
        embed, view = drawn["embed"], drawn["view"]
        self._shown[snapshot.id] = snapshot
        channel = self.bot.get_partial_messageable(snapshot.channel_id, guild_id=snapshot.guild_id)
        if snapshot.message_id is None:
            message = await channel.send(embed=embed, view=view)
            await self.bot.services.tables.set_message(snapshot.id, message.id)
        else:
            await channel.get_partial_message(snapshot.message_id).edit(embed=embed, view=view)

    def _arm(self, snapshot: TableSnapshot) -> None:
        """Redraw when the next Hero Point window closes, so its button disappears."""
        if old := self._timers.pop(snapshot.id, None):
            old.cancel()
        now = self.bot.services.clock()
        deadlines = [o.expires_at for o in snapshot.state.open_offers(iso(now))]
        if not deadlines or not snapshot.open:
            return
        delay = (datetime.fromisoformat(min(deadlines)) - now).total_seconds() + 0.05
        loop = asyncio.get_running_loop()
        self._timers[snapshot.id] = loop.call_later(
            max(delay, 0), lambda: asyncio.ensure_future(self.changed(snapshot))
        )

    async def stop(self) -> None:
        """Cancel redraw timers and let edits already under way finish."""
        for timer in self._timers.values():
            timer.cancel()
        if self._running:
            await asyncio.wait(list(self._running.values()), timeout=5)


class Tables(commands.GroupCog, group_name="table", group_description="Card tables"):
    def __init__(self, bot: BondBot) -> None:
        self.bot = bot
        self.service: TableService = bot.services.tables
        self.messages = TableMessages(bot)
        self.service.listeners.append(self.messages.changed)
        bot.router.register(AREA, self.on_component)

    async def cog_load(self) -> None:
        for snapshot in await self.service.resume():
            await self.messages.changed(snapshot)

    async def cog_unload(self) -> None:
        await self.messages.stop()
        self.service.stop_timers()
        self.service.listeners.remove(self.messages.changed)

    # -- helpers ---------------------------------------------------------------------------

    async def _table(self, interaction: discord.Interaction) -> int:
        if interaction.channel_id is None:
            raise Refusal("errors.guild_only")
        return await self.service.open_in_channel(interaction.channel_id)

    async def _active(self, interaction: discord.Interaction) -> int:
        character = await self.bot.services.sheets.active(interaction.guild_id, interaction.user.id)
        if character is None:
            raise Refusal("table.no_active_character")
        return character

    async def _names(
        self, interaction: discord.Interaction, current: str, kind: str
    ) -> list[app_commands.Choice[str]]:
        names = await self.bot.services.sheets.names(
            await actor_of(interaction),
            current,
            kind=kind,  # type: ignore[arg-type]
        )
        return [app_commands.Choice(name=name, value=name) for name in names]

    async def npc_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._names(interaction, current, "NPC")

    async def pc_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._names(interaction, current, "PC")

    # -- commands --------------------------------------------------------------------------

    @app_commands.command(name="open", description="Open a card table in this channel (GM)")
    @app_commands.describe(
        game="The game to play",
        npc="The NPC who holds the bank",
        minimum="Smallest wager",
        maximum="Largest wager",
        packs="Packs in the shoe",
        bankroll="The NPC's bankroll (empty: unlimited)",
        tie_pays="Punto banco: a tie pays 8 or 9 to 1",
        other_npcs="Other NPCs playing too, comma-separated: then only the rulebook is played",
        auto_deal="Punto banco: deal by itself this many seconds after a coup's first wager",
        deal="Blackjack: American (hole card, peek) or European (no hole card)",
        european_lose_all="Blackjack, European deal: a dealer blackjack takes doubles and splits",
        hit_soft_17="Blackjack: the dealer hits a soft 17",
        split_by="Blackjack: pairs by value (any two tens) or by rank only",
        max_hands="Blackjack: most hands after splits (2 to 4)",
        surrender="Blackjack: late surrender allowed",
    )
    @app_commands.choices(
        game=[
            app_commands.Choice(name="Punto banco", value="punto_banco"),
            app_commands.Choice(name="Blackjack", value="blackjack"),
        ],
        tie_pays=[
            app_commands.Choice(name="8:1", value=8),
            app_commands.Choice(name="9:1", value=9),
        ],
        deal=[
            app_commands.Choice(name="American", value="american"),
            app_commands.Choice(name="European", value="european"),
        ],
        split_by=[
            app_commands.Choice(name="Value", value="value"),
            app_commands.Choice(name="Rank", value="rank"),
        ],
    )
    @app_commands.autocomplete(npc=npc_names)
    @app_commands.guild_only()
    async def open(
        self,
        interaction: discord.Interaction,
        game: str,
        npc: str,
        minimum: str,
        maximum: str,
        packs: int | None = None,
        bankroll: str | None = None,
        tie_pays: int = 8,
        other_npcs: str | None = None,
        auto_deal: app_commands.Range[int, 5, 600] | None = None,
        deal: str | None = None,
        european_lose_all: bool | None = None,
        hit_soft_17: bool | None = None,
        split_by: str | None = None,
        max_hands: app_commands.Range[int, 2, 4] | None = None,
        surrender: bool | None = None,
    ) -> None:
        await require_gm(interaction)
        sheets = self.bot.services.sheets
        npc_id = await sheets.find_id(interaction.guild_id, npc, kind="NPC")
        others = [
            await sheets.find_id(interaction.guild_id, name.strip(), kind="NPC")
            for name in (other_npcs or "").split(",")
            if name.strip()
        ]
        if game == "blackjack":
            chosen = {
                "deal": deal,
                "european_lose_all": european_lose_all,
                "hit_soft_17": hit_soft_17,
                "split_by": split_by,
                "max_hands": max_hands,
                "surrender": surrender,
            }
            options = {key: value for key, value in chosen.items() if value is not None}
        else:
            options = {"tie_pays": tie_pays, "auto_deal_s": auto_deal}
        snapshot = await self.service.open_table(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            actor_id=interaction.user.id,
            game=game,
            npc_id=npc_id,
            min_bet=parse_amount_or_refuse(minimum, await lang_for(interaction)),
            max_bet=parse_amount_or_refuse(maximum, await lang_for(interaction)),
            packs=packs,
            bankroll=None
            if bankroll is None
            else parse_amount_or_refuse(bankroll, await lang_for(interaction)),
            options=options,
            other_npc_ids=others,
        )
        if snapshot.state.rulebook_only:
            await say(interaction, "table.opened_rulebook_only", count=len(others) + 1)
        else:
            await say(interaction, "table.opened", commitment=snapshot.state.shoes[-1].commitment)

    @app_commands.command(name="join", description="Sit at this channel's table")
    @app_commands.describe(buy_in="Chips to bring from your character's cash")
    @app_commands.guild_only()
    async def join(self, interaction: discord.Interaction, buy_in: str) -> None:
        table = await self._table(interaction)
        character = await self._active(interaction)
        snapshot = await self.service.join(
            table,
            interaction.user.id,
            character,
            parse_amount_or_refuse(buy_in, await lang_for(interaction)),
        )
        await self._joined(interaction, snapshot)

    async def _joined(self, interaction: discord.Interaction, snapshot: TableSnapshot) -> None:
        money = await currency_for(interaction)
        await say(
            interaction,
            "table.joined",
            chips=format_amount(snapshot.chips[snapshot.event["character_id"]], money),
        )

    @app_commands.command(name="leave", description="Leave the table with your chips")
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction) -> None:
        table = await self._table(interaction)
        snapshot = await self.service.leave(table, interaction.user.id)
        await self._left(interaction, snapshot)

    async def _left(self, interaction: discord.Interaction, snapshot: TableSnapshot) -> None:
        money = await currency_for(interaction)
        await say(
            interaction,
            "table.left",
            chips=format_amount(snapshot.event["chips"], money),
        )

    @app_commands.command(name="seat", description="Seat a player's character (GM)")
    @app_commands.autocomplete(character=pc_names)
    @app_commands.guild_only()
    async def seat(self, interaction: discord.Interaction, character: str, buy_in: str) -> None:
        await require_gm(interaction)
        table = await self._table(interaction)
        character_id = await self.bot.services.sheets.find_id(
            interaction.guild_id, character, kind="PC"
        )
        await self.service.join(
            table,
            interaction.user.id,
            character_id,
            parse_amount_or_refuse(buy_in, await lang_for(interaction)),
            by_gm=True,
        )
        await say(interaction, "table.seated", name=character)

    @app_commands.command(name="unseat", description="Send a character away with his chips (GM)")
    @app_commands.autocomplete(character=pc_names)
    @app_commands.guild_only()
    async def unseat(self, interaction: discord.Interaction, character: str) -> None:
        await require_gm(interaction)
        table = await self._table(interaction)
        character_id = await self.bot.services.sheets.find_id(
            interaction.guild_id, character, kind="PC"
        )
        await self.service.leave(table, interaction.user.id, character_id=character_id)
        await say(interaction, "table.unseated", name=character)

    @app_commands.command(name="bet", description="Bet on the next hand")
    @app_commands.describe(amount="How much", on="Punto banco: Player, Banker or Tie")
    @app_commands.choices(
        on=[
            app_commands.Choice(name="Player", value="player"),
            app_commands.Choice(name="Banker", value="banker"),
            app_commands.Choice(name="Tie", value="tie"),
        ]
    )
    @app_commands.guild_only()
    async def bet(
        self, interaction: discord.Interaction, amount: str, on: str | None = None
    ) -> None:
        table = await self._table(interaction)
        game = (await self.service.snapshot(table)).state.config.game
        await ui_for(game).bet(interaction, table, on, amount)

    @app_commands.command(name="deal", description="Deal the next hand (GM)")
    @app_commands.guild_only()
    async def deal(self, interaction: discord.Interaction) -> None:
        table = await self._table(interaction)
        game = (await self.service.snapshot(table)).state.config.game
        await ui_for(game).deal(interaction, table)

    @app_commands.command(name="contest", description="Play the rulebook's gambling contest")
    @app_commands.describe(stake="What you stake against the NPC")
    @app_commands.guild_only()
    async def contest(self, interaction: discord.Interaction, stake: str) -> None:
        await self._contest(interaction, await self._table(interaction), stake)

    @app_commands.command(name="pot", description="Start a rulebook contest for a pot (GM)")
    @app_commands.describe(stake="What everyone stakes", ease="Ease Factor (default 5)")
    @app_commands.guild_only()
    async def pot(
        self,
        interaction: discord.Interaction,
        stake: str,
        ease: app_commands.Range[int, 1, 10] = 5,
    ) -> None:
        await require_gm(interaction)
        table = await self._table(interaction)
        snapshot = await self.service.pot_start(
            table,
            interaction.user.id,
            parse_amount_or_refuse(stake, await lang_for(interaction)),
            ease,
        )
        await say(interaction, "table.pot_started", players=snapshot.event["players"])

    async def _contest(self, interaction: discord.Interaction, table: int, stake: str) -> None:
        snapshot = await self.service.contest(
            table, interaction.user.id, parse_amount_or_refuse(stake, await lang_for(interaction))
        )
        contest = next(c for c in snapshot.state.contests if c.id == snapshot.event["contest"])
        await self._show_contest(interaction, table, contest)

    async def _show_contest(
        self, interaction: discord.Interaction, table: int, contest: Contest
    ) -> None:
        await self._show_roll(
            interaction,
            contest.pc,
            custom_id(AREA, table, "cstep", contest.id),
            custom_id(AREA, table, "csettle", contest.id),
        )

    async def _show_roll(
        self,
        interaction: discord.Interaction,
        roll: ContestRoll,
        step_id: str,
        settle_id: str | None,
    ) -> None:
        """A PC's own Gambling roll, privately, with the button to spend a Hero Point on it."""
        lang = await lang_for(interaction)
        current = gambling.improve(roll.quality, roll.steps)
        text = t(
            "table.contest_private",
            lang,
            roll=roll.roll,
            chance=roll.success_chance,
            quality=quality(current, lang),
            steps=roll.steps,
        )
        buttons = [
            ButtonSpec(
                t("table.btn_contest_step", lang),
                step_id,
                style=discord.ButtonStyle.success,
                disabled=current == 1,
            )
        ]
        if settle_id is not None:
            buttons.append(
                ButtonSpec(
                    t("table.btn_contest_settle", lang),
                    settle_id,
                    style=discord.ButtonStyle.primary,
                )
            )
        await send(interaction, text, view=view_of(buttons))

    @app_commands.command(name="pause", description="Pause or resume the table (GM)")
    @app_commands.guild_only()
    async def pause(self, interaction: discord.Interaction, paused: bool = True) -> None:
        await require_gm(interaction)
        await self.service.pause(await self._table(interaction), interaction.user.id, paused)
        await say(interaction, "table.paused_reply" if paused else "table.resumed")

    @app_commands.command(name="close", description="Close the table: cash everyone out (GM)")
    @app_commands.guild_only()
    async def close(self, interaction: discord.Interaction) -> None:
        await require_gm(interaction)
        snapshot = await self.service.close(await self._table(interaction), interaction.user.id)
        shoe = snapshot.state.shoes[-1]
        await say(
            interaction,
            "table.closed_reply",
            seed=shoe.seed or "—",
            commitment=shoe.commitment,
            packs=shoe.packs,
        )

    # -- buttons and modals ----------------------------------------------------------------

    async def on_component(self, interaction: discord.Interaction, args: list[str]) -> None:
        table, action, rest = int(args[0]), args[1], args[2:]
        submitted = interaction.type is discord.InteractionType.modal_submit
        values = modal_values(interaction) if submitted else {}
        if action in ("join", "contest") and not submitted:
            title = "table.modal_join" if action == "join" else "table.modal_contest"
            lang = await lang_for(interaction)
            await interaction.response.send_modal(amount_modal(lang, title, table, action))
        elif action == "join":
            character = await self._active(interaction)
            amount = parse_amount_or_refuse(values.get("amount", ""), await lang_for(interaction))
            await self._joined(
                interaction, await self.service.join(table, interaction.user.id, character, amount)
            )
        elif action == "leave":
            await self._left(interaction, await self.service.leave(table, interaction.user.id))
        elif action == "deal":
            await require_gm(interaction)
            snapshot = await self.service.act(table, interaction.user.id, "deal", as_gm=True)
            await self.messages.answer(interaction, snapshot)
        elif action == "choose":
            await self._choose(interaction, table, rest[0])
        elif action == "spend":
            snapshot = await self.service.spend(table, interaction.user.id, int(rest[0]))
            money = await currency_for(interaction)
            await say(interaction, "table.spent", pay=format_amount(snapshot.event["pay"], money))
        elif action == "contest":
            await self._contest(interaction, table, values.get("amount", ""))
        elif action == "cstep":
            snapshot = await self.service.contest_step(table, interaction.user.id, int(rest[0]))
            contest = next(c for c in snapshot.state.contests if c.id == int(rest[0]))
            await self._show_contest(interaction, table, contest)
        elif action == "proll":
            snapshot = await self.service.snapshot(table)
            pot = next((p for p in snapshot.state.pots if not p.settled), None)
            if pot is None:
                raise Refusal("table.contest_closed")
            await self._show_pot_roll(interaction, table, pot.id, snapshot)
        elif action == "pstep":
            snapshot = await self.service.pot_step(table, interaction.user.id, int(rest[0]))
            await self._show_pot_roll(interaction, table, int(rest[0]), snapshot)
        elif action == "psettle":
            await require_gm(interaction)
            await self.service.pot_settle(table, interaction.user.id)
            await say(interaction, "table.contest_settled")
        elif action == "csettle":
            await self.service.contest_settle(table, interaction.user.id, int(rest[0]))
            await say(interaction, "table.contest_settled")
        else:
            game = (await self.service.snapshot(table)).state.config.game
            if not await ui_for(game).handle(interaction, table, action, rest, values):
                raise Refusal("table.unknown_action")

    async def _show_pot_roll(
        self, interaction: discord.Interaction, table: int, pot_id: int, snapshot: TableSnapshot
    ) -> None:
        roll = own_roll(snapshot.state, interaction.user.id, pot_id)
        await self._show_roll(interaction, roll, custom_id(AREA, table, "pstep", pot_id), None)

    async def _choose(self, interaction: discord.Interaction, table: int, choice: str) -> None:
        if choice not in ("simulate", "rulebook"):
            raise Refusal("table.unknown_action")
        snapshot = await self.service.choose(table, interaction.user.id, choice)  # type: ignore[arg-type]
        if choice == "simulate":
            await say(interaction, "table.chose_simulate", award=snapshot.event["award"])
        else:
            await say(interaction, "table.chose_rulebook")


async def setup(bot: BondBot) -> None:
    await bot.add_cog(Tables(bot))
