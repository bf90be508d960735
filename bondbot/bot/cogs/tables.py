"""`/table …` and the table message's buttons: a thin layer over the table service."""

from __future__ import annotations

import asyncio
import io
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bondbot.bot.client import BondBot
from bondbot.bot.context import bot_of, is_gm, require_gm
from bondbot.bot.outgoing import Turn
from bondbot.bot.reply import Reply, reply_to
from bondbot.bot.router import ButtonSpec, custom_id, view_of
from bondbot.bot.sheet_views import actor_of
from bondbot.bot.tables import panels
from bondbot.bot.tables.actions import Click, TableActions
from bondbot.bot.tables.answers import ANSWERED_ON_TABLE, answering
from bondbot.bot.tables.common import AREA, quality
from bondbot.bot.tables.games import ui_for
from bondbot.bot.tables.hand_pictures import clicked
from bondbot.bot.tables.history import show_history
from bondbot.bot.tables.language import table_lang, table_money
from bondbot.bot.tables.message import level_band
from bondbot.bot.tables.messages import TableMessages, table_messages
from bondbot.bot.tables.modals import (
    AMOUNT,
    amount_modal,
    amount_of,
    most_hint,
    parse_amount_or_refuse,
)
from bondbot.bot.tables.open_commands import open_command
from bondbot.bot.tables.story import (
    CHART,
    read_story,
    summary_chart,
    summary_embed,
    verify_answer,
)
from bondbot.errors import Refusal
from bondbot.games.contract import GAMBLING_MAX
from bondbot.games.registry import all_games
from bondbot.money import format_amount
from bondbot.pictures.cards import hand_png
from bondbot.rules import gambling
from bondbot.rules.cards import cards_pretty
from bondbot.tables.contest import pending
from bondbot.tables.events import Chose, ContestRolled, Joined, Left, PotOpened
from bondbot.tables.pot import own_roll
from bondbot.tables.service import TableService, TableSnapshot
from bondbot.tables.state import Contest, ContestRoll

log = logging.getLogger(__name__)


class Tables(commands.GroupCog, group_name="table", group_description="Card tables"):
    # `/table open <game>`: a subcommand a game, built from its declared options
    # (bot/tables/open_commands.py).
    open = app_commands.Group(name="open", description="Open a card table in this channel (GM)")

    def __init__(self, bot: BondBot) -> None:
        self.bot = bot
        self.service: TableService = bot.services.tables
        self.messages = TableMessages(bot)
        self.service.listeners.append(self.messages.changed)
        self.service.listeners.append(self.messages.hand_ended)
        for spec in all_games():
            self.open.add_command(open_command(spec))
        bot.router.register(AREA, self.on_component)

    async def cog_load(self) -> None:
        self.messages.resume(await self.service.resume())

    async def cog_unload(self) -> None:
        await self.messages.stop()
        self.service.stop_timers()
        self.service.listeners.remove(self.messages.changed)
        self.service.listeners.remove(self.messages.hand_ended)

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

    async def pc_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        names = await self.bot.services.sheets.names(
            await actor_of(interaction), current, kind="PC"
        )
        return [app_commands.Choice(name=name, value=name) for name in names]

    # -- commands --------------------------------------------------------------------------

    @app_commands.command(name="join", description="Sit at this channel's table")
    @app_commands.describe(buy_in="Chips to bring from your character's cash")
    @app_commands.guild_only()
    async def join(self, interaction: discord.Interaction, buy_in: str) -> None:
        reply = await reply_to(interaction)
        table = await self._table(interaction)
        character = await self._active(interaction)
        snapshot = await self.service.join(
            table, interaction.user.id, character, parse_amount_or_refuse(buy_in, reply.lang)
        )
        await _joined(reply, snapshot)

    @app_commands.command(name="leave", description="Leave the table with your chips")
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction) -> None:
        table = await self._table(interaction)
        snapshot = await self.service.leave(table, interaction.user.id)
        await _left(await reply_to(interaction), snapshot)

    @app_commands.command(name="seat", description="Seat a player's character (GM)")
    @app_commands.autocomplete(character=pc_names)
    @app_commands.guild_only()
    async def seat(self, interaction: discord.Interaction, character: str, buy_in: str) -> None:
        await require_gm(interaction)
        reply = await reply_to(interaction)
        table = await self._table(interaction)
        character_id = await self.bot.services.sheets.find_id(
            interaction.guild_id, character, kind="PC"
        )
        amount = parse_amount_or_refuse(buy_in, reply.lang)
        await self.service.join(table, interaction.user.id, character_id, amount, by_gm=True)
        await reply.say("table.seated", name=character)

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
        await (await reply_to(interaction)).say("table.unseated", name=character)

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
        game = (await self.service.snapshot(table)).game
        await ui_for(game).bet(await reply_to(interaction), table, on, amount)

    @app_commands.command(name="deal", description="Deal the next hand (GM)")
    @app_commands.guild_only()
    async def deal(self, interaction: discord.Interaction) -> None:
        table = await self._table(interaction)
        game = (await self.service.snapshot(table)).game
        await ui_for(game).deal(await reply_to(interaction), table)

    @app_commands.command(name="contest", description="Play the rulebook's gambling contest")
    @app_commands.describe(stake="What you stake against the NPC")
    @app_commands.guild_only()
    async def contest(self, interaction: discord.Interaction, stake: str) -> None:
        await _contest(await reply_to(interaction), await self._table(interaction), stake)

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
        reply = await reply_to(interaction)
        table = await self._table(interaction)
        snapshot = await self.service.pot_start(
            table, interaction.user.id, parse_amount_or_refuse(stake, reply.lang), ease
        )
        assert isinstance(snapshot.event, PotOpened)
        await reply.say("table.pot_started", players=snapshot.event.players)

    @app_commands.command(name="pause", description="Pause or resume the table (GM)")
    @app_commands.guild_only()
    async def pause(self, interaction: discord.Interaction, paused: bool = True) -> None:
        await require_gm(interaction)
        await self.service.pause(await self._table(interaction), interaction.user.id, paused)
        await (await reply_to(interaction)).say("table.paused_reply" if paused else "table.resumed")

    @app_commands.command(
        name="npc", description="Who plays the NPC (the bot, or you) and how well (GM)"
    )
    @app_commands.describe(
        auto="True: the bot plays the NPC; false: you play it with the buttons",
        level="The Gambling level the bot plays the NPC at tonight (0 novice to 15)",
    )
    @app_commands.guild_only()
    async def npc(
        self,
        interaction: discord.Interaction,
        auto: bool | None = None,
        level: app_commands.Range[int, 0, GAMBLING_MAX] | None = None,
    ) -> None:
        await require_gm(interaction)
        if auto is None and level is None:
            raise Refusal("table.npc_nothing")
        table = await self._table(interaction)
        reply = await reply_to(interaction)
        lines = []
        if level is not None:
            snapshot = await self.service.set_npc_level(table, interaction.user.id, level)
            band = reply.t(f"table.npc_band_{level_band(level)}")
            npc = snapshot.state.npc_name
            lines.append(reply.t("table.npc_level_reply", npc=npc, level=level, band=band))
        # With a level, `auto` as it already is asks for nothing more (not a refusal).
        if auto is not None and (level is None or snapshot.state.npc_auto != auto):
            snapshot = await self.service.set_npc_auto(table, interaction.user.id, auto)
            key = "table.npc_auto_reply" if auto else "table.npc_gm_reply"
            lines.append(reply.t(key, npc=snapshot.state.npc_name))
        await reply.send("\n".join(lines))

    @app_commands.command(name="history", description="The last hands of this channel's table")
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction) -> None:
        if interaction.channel_id is None:
            raise Refusal("errors.guild_only")
        table = await self.service.latest_in_channel(interaction.channel_id)
        await show_history(await reply_to(interaction), table, 0, edit=False)

    @app_commands.command(name="verify", description="Check the shoes of this channel's table")
    @app_commands.guild_only()
    async def verify(self, interaction: discord.Interaction) -> None:
        if interaction.channel_id is None:
            raise Refusal("errors.guild_only")
        table = await self.service.latest_in_channel(interaction.channel_id)
        await _verify(await reply_to(interaction), table)

    @app_commands.command(name="close", description="Close the table: cash everyone out (GM)")
    @app_commands.guild_only()
    async def close(self, interaction: discord.Interaction) -> None:
        await require_gm(interaction)
        await self.close_table(await reply_to(interaction), await self._table(interaction))

    async def close_table(self, reply: Reply, table: int) -> None:
        """Cash everyone out, tell the GM the shoe's seed, and post the evening's story
        (`/table close` and the GM panel's Close)."""
        await require_gm(reply.interaction)
        snapshot = await self.service.close(table, reply.interaction.user.id)
        shoes = snapshot.state.shoes
        shoe = shoes[-1]
        text = reply.t(
            "table.closed_reply",
            seed=shoe.seed or "—",
            commitment=shoe.commitment,
            packs=shoe.packs,
        )
        if len(shoes) > 1:  # each earlier seed was shown on the table when its shoe was replaced
            text += "\n" + reply.t("table.closed_shoes", count=len(shoes))
        await reply.send(text)
        self.messages.start(self._post_summary(snapshot))

    async def _post_summary(self, snapshot: TableSnapshot) -> None:
        """The evening's story in the table's channel: the winner, the podium, the NPC's
        result, the night's moments and a chart. The bot's own work after the GM is
        answered; the table is closed and cashed out, so a failure loses nothing but the
        story."""
        try:
            await self._tell_the_story(snapshot)
        except Exception:
            log.exception("could not post the summary of table %s", snapshot.id)

    async def _tell_the_story(self, snapshot: TableSnapshot) -> None:
        settings = await self.bot.services.guilds.get(snapshot.guild_id)
        lang, currency = table_lang(snapshot, settings), table_money(snapshot, settings)

        def money(cents: int) -> str:
            return format_amount(cents, currency)

        async with self.bot.db.read() as conn:  # type: ignore[union-attr]
            told = await read_story(conn, snapshot)
        embed = summary_embed(snapshot, told, lang, money)
        png = await asyncio.to_thread(summary_chart, told, snapshot, lang, money)
        if png is not None:
            embed.set_image(url=f"attachment://{CHART}")

        def build() -> dict[str, object]:  # a new file each try (messages.post)
            files = [] if png is None else [discord.File(io.BytesIO(png), filename=CHART)]
            return {"embed": embed, "files": files}

        where = await self.messages.post(snapshot, "summary", build)
        if where is not None and where != snapshot.channel_id:
            # The evening is over: its thread is archived with its story.
            await self.messages.outgoing.turn(where, Turn.SUMMARY)
            await self.bot.http.edit_channel(where, archived=True)

    # -- buttons and modals ----------------------------------------------------------------

    async def on_component(self, interaction: discord.Interaction, args: list[str]) -> None:
        """A click or modal submit on a table's message: the table's own action, or its game's."""
        if len(args) < 2 or not args[0].isdigit():
            raise Refusal("table.unknown_action")
        table, name, raw = int(args[0]), args[1], args[2:]
        snapshot = await self.service.snapshot(table)
        if (snapshot.guild_id, snapshot.channel_id) != (
            interaction.guild_id,
            interaction.channel_id,
        ):
            raise Refusal("table.not_this_table")
        # A hand this click ends is pictured on its answer, if that redraws the table.
        clicked.set(interaction.message.id if interaction.message is not None else None)
        registries = (common, panels.actions, ui_for(snapshot.game).actions)
        actions = next((found for found in registries if found.route(name)), registries[-1])
        reply = await reply_to(interaction)
        message = interaction.message
        if (actions is registries[-1] or name in ANSWERED_ON_TABLE) and (
            message is not None and message.id == snapshot.message_id
        ):
            # A move clicked on the table: answered by redrawing it, its words privately
            # after (`answers`), so the redraw is not an edit spent from the bot's budget.
            reply = answering(reply, table, message.id)
        click = Click(interaction, reply, table)
        try:
            await actions.dispatch(click, name, raw)
        finally:
            self.messages.click_handled(table)


common = TableActions()


def _service(click: Click) -> TableService:
    return bot_of(click.interaction).services.tables


@common.on("join", form=True)
async def _join(click: Click) -> None:
    if not click.submitted:  # the Join of a table message drawn before My seat
        snapshot = await _service(click).snapshot(click.table)
        hint = panels.buy_in_hint(snapshot, click.reply.lang, click.reply.currency)
        modal = amount_modal(click.reply.lang, "table.modal_join", click.table, "join", hint=hint)
        await click.interaction.response.send_modal(modal)
        return
    amount = amount_of(click)
    services = bot_of(click.interaction).services
    character = await services.sheets.active(click.interaction.guild_id, click.user_id)
    if character is None:
        raise Refusal("table.no_active_character")
    await _joined(
        click.reply, await services.tables.join(click.table, click.user_id, character, amount)
    )


@common.on("leave")
async def _leave(click: Click) -> None:
    await _left(click.reply, await _service(click).leave(click.table, click.user_id))


@common.on("deal", int, optional=1)
async def _deal(click: Click, hand: int | None = None) -> None:
    """Deal the hand after `hand` (the button's `answer_round`): a second click is refused
    once it is dealt, even when that hand is already over (everyone all-in, a coup settled
    at once). A game's button without it (drawn by an older or outside game) still deals."""
    await require_gm(click.interaction)
    snapshot = await _service(click).act(click.table, click.user_id, "deal", hand=hand, as_gm=True)
    await table_messages(click.interaction).answer(click.interaction, snapshot)


@common.on("choose", str)
async def _choose(click: Click, choice: str) -> None:
    if choice not in ("simulate", "rulebook"):
        raise Refusal("table.unknown_action")
    snapshot = await _service(click).choose(click.table, click.user_id, choice)  # type: ignore[arg-type]
    assert isinstance(snapshot.event, Chose)
    if choice == "simulate":
        await click.reply.say("table.chose_simulate", award=snapshot.event.award)
    else:
        await click.reply.say("table.chose_rulebook")


@common.on("spend", int)
async def _spend(click: Click, offer: int) -> None:
    await panels.spend(click, offer)


@common.on("mine")
async def _my_cards(click: Click) -> None:
    """The clicker's own cards, answered to him alone; to the GM who sits at no seat, the
    NPC's (he plays it). A game may add a note on the hand (its total, what it may do)."""
    snapshot = await _service(click).snapshot(click.table)
    seat = snapshot.state.seat_of_user(click.user_id)
    if seat is None and not await is_gm(click.interaction):
        raise Refusal("table.not_seated")
    state = snapshot.state  # after the wait: the next action may have taken the object
    key = state.npc_key if seat is None else str(seat.character_id)
    hand = state.engine.private_cards(key)
    if not hand:
        raise Refusal("table.no_cards" if seat else "table.npc_no_cards", npc=state.npc_name)
    if seat is None:
        text = click.reply.t("table.npc_cards", npc=state.npc_name, cards=cards_pretty(list(hand)))
    else:
        text = click.reply.t("table.your_cards", cards=cards_pretty(list(hand)))
    note = getattr(ui_for(state.config.game), "hand_note", None)
    extra = note(snapshot, key, click.reply.lang) if note else None
    png = await asyncio.to_thread(hand_png, list(hand))  # drawing never holds the loop
    picture = discord.File(io.BytesIO(png), filename="hand.png")
    await click.reply.send(f"{text}\n{extra}" if extra else text, file=picture)


@common.on("hist", int)
async def _history_page(click: Click, page: int) -> None:
    await show_history(click.reply, click.table, page, edit=True)


@common.on("verify")
async def _verify_button(click: Click) -> None:
    await _verify(click.reply, click.table)


async def _verify(reply: Reply, table: int) -> None:
    """Every shoe's commitment and, once revealed, its seed and the command that checks
    them: privately, in the clicker's language."""
    snapshot = await bot_of(reply.interaction).services.tables.snapshot(table)
    embed, files = verify_answer(snapshot, reply.lang)
    await reply.send(embed=embed, files=files)


@common.on("contest", form=True)
async def _contest_button(click: Click) -> None:
    if not click.submitted:
        if await _show_pending(click.reply, click.table):
            return
        snapshot = await _service(click).snapshot(click.table)
        seat = snapshot.state.seat_of_user(click.user_id)
        chips = snapshot.chips.get(seat.character_id, 0) if seat else 0
        hint = most_hint(click.reply.lang, click.reply.currency, chips)
        title = "table.modal_contest"
        modal = amount_modal(click.reply.lang, title, click.table, "contest", hint=hint)
        await click.interaction.response.send_modal(modal)
    else:
        await _contest(click.reply, click.table, click.form(AMOUNT)["amount"])


@common.on("cstep", int, int)
async def _contest_step(click: Click, contest_id: int, seen: int) -> None:
    snapshot = await _service(click).contest_step(click.table, click.user_id, contest_id, seen)
    contest = next(c for c in snapshot.state.contests if c.id == contest_id)
    await _show_contest(click.reply, click.table, contest)


@common.on("csettle", int)
async def _contest_settle(click: Click, contest_id: int) -> None:
    await _service(click).contest_settle(click.table, click.user_id, contest_id)
    await click.reply.say("table.contest_settled")


@common.on("proll")
async def _pot_roll(click: Click) -> None:
    snapshot = await _service(click).snapshot(click.table)
    pot = next((p for p in snapshot.state.pots if not p.settled), None)
    if pot is None:
        raise Refusal("table.contest_closed")
    await _show_pot_roll(click.reply, click.table, pot.id, snapshot)


@common.on("pstep", int, int)
async def _pot_step(click: Click, pot_id: int, seen: int) -> None:
    snapshot = await _service(click).pot_step(click.table, click.user_id, pot_id, seen)
    await _show_pot_roll(click.reply, click.table, pot_id, snapshot)


@common.on("psettle")
async def _pot_settle(click: Click) -> None:
    await require_gm(click.interaction)
    await _service(click).pot_settle(click.table, click.user_id)
    await click.reply.say("table.contest_settled")


@common.on("npc", int)
async def _npc_auto(click: Click, auto: int) -> None:
    """The GM takes the NPC's decisions (0), or gives them back to the bot (1)."""
    await require_gm(click.interaction)
    snapshot = await _service(click).set_npc_auto(click.table, click.user_id, bool(auto))
    key = "table.npc_auto_reply" if auto else "table.npc_gm_reply"
    await click.reply.say(key, npc=snapshot.state.npc_name)


async def _joined(reply: Reply, snapshot: TableSnapshot) -> None:
    """He sits with his chips; while he has not chosen his rule, the choice comes with it."""
    assert isinstance(snapshot.event, Joined)
    character = snapshot.event.character_id
    text = reply.t("table.joined", chips=reply.money(snapshot.chips[character]))
    seat = snapshot.state.seat_of_character(character)
    if seat is None or seat.choice is not None or snapshot.state.rulebook_only:
        await reply.send(text)
        return
    buttons = panels.choice_buttons(reply.lang, snapshot.id)
    await reply.send(f"{text}\n{reply.t('table.choose_now')}", view=view_of(buttons))


async def _left(reply: Reply, snapshot: TableSnapshot) -> None:
    assert isinstance(snapshot.event, Left)
    await reply.say("table.left", chips=reply.money(snapshot.event.chips))


async def _show_pending(reply: Reply, table: int) -> bool:
    """A contest the player rolled and has not settled comes back to him, whatever became
    of the message that showed it (a lost answer, a restart)."""
    snapshot = await bot_of(reply.interaction).services.tables.snapshot(table)
    seat = snapshot.state.seat_of_user(reply.interaction.user.id)
    contest = None if seat is None else pending(snapshot.state, seat.character_id)
    if contest is not None:
        await _show_contest(reply, table, contest)
    return contest is not None


async def _contest(reply: Reply, table: int, stake: str) -> None:
    if await _show_pending(reply, table):
        return
    snapshot = await bot_of(reply.interaction).services.tables.contest(
        table, reply.interaction.user.id, parse_amount_or_refuse(stake, reply.lang)
    )
    assert isinstance(snapshot.event, ContestRolled)
    contest = next(c for c in snapshot.state.contests if c.id == snapshot.event.contest)
    await _show_contest(reply, table, contest)


async def _show_contest(reply: Reply, table: int, contest: Contest) -> None:
    await _show_roll(
        reply,
        contest.pc,
        custom_id(AREA, table, "cstep", contest.id, contest.pc.steps),
        custom_id(AREA, table, "csettle", contest.id),
    )


async def _show_pot_roll(reply: Reply, table: int, pot_id: int, snapshot: TableSnapshot) -> None:
    roll = own_roll(snapshot.state, reply.interaction.user.id, pot_id)
    await _show_roll(reply, roll, custom_id(AREA, table, "pstep", pot_id, roll.steps), None)


async def _show_roll(reply: Reply, roll: ContestRoll, step_id: str, settle_id: str | None) -> None:
    """A PC's own Gambling roll, privately, with the button to spend a Hero Point on it."""
    current = gambling.improve(roll.quality, roll.steps)
    text = reply.t(
        "table.contest_private",
        roll=roll.roll,
        chance=roll.success_chance,
        quality=quality(current, reply.lang),
        steps=roll.steps,
    )
    buttons = [
        ButtonSpec(
            reply.t("table.btn_contest_step"),
            step_id,
            style=discord.ButtonStyle.success,
            disabled=current == 1,
        )
    ]
    if settle_id is not None:
        buttons.append(
            ButtonSpec(
                reply.t("table.btn_contest_settle"), settle_id, style=discord.ButtonStyle.primary
            )
        )
    await reply.send(text, view=view_of(buttons))


async def setup(bot: BondBot) -> None:
    await bot.add_cog(Tables(bot))
