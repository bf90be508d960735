"""The private panels behind the table message: a player's seat, the GM's controls, and
the Hero Point a player picks when he lost several hands.

The table message shows only what someone may do now (bot/tables/message.py); the rest
lives here, answered to the clicker alone, in his own language:

- **My seat** (`seat`): to someone without a seat, the buy-in form (it states the limits);
  to a seated player, his chips, his choice, his cards as a picture where the game keeps
  them private, and his legal moves as buttons with their amounts (the game's
  `panel_buttons`), his choice of rule while he has none, the contest for who plays the
  rulebook, and Leave while the game lets him go (`Engine.can_stand_up`).
- **GM** (`gm`): the game's controls (`gm_buttons`: deal, auction, the NPC's cards), the
  NPC's automatic or manual play, pause, seating, and closing the table (asked twice).
- **Spend a Hero Point** (`hp`): one button for everyone; a player with one lost hand
  spends at once, one with several picks which privately.

A panel's buttons are the table's own actions (`bb:tbl:<table>:<action>…`), so a move
played from a panel is checked and answered exactly as one played from the table.
"""

from __future__ import annotations

import asyncio
import io
from datetime import datetime
from typing import Any

import discord

from bondbot.bot.confirmations import Confirmations
from bondbot.bot.context import bot_of, require_gm
from bondbot.bot.reply import Reply
from bondbot.bot.router import ButtonSpec, FormField, custom_id, modal_view, view_of
from bondbot.bot.tables.actions import Click, TableActions
from bondbot.bot.tables.common import AREA, names, short, table_button
from bondbot.bot.tables.games import optional, ui_for
from bondbot.bot.tables.glance import by_hand_word
from bondbot.bot.tables.modals import (
    AMOUNT,
    AMOUNT_LENGTH,
    amount_modal,
    amount_of,
    limits_hint,
    parse_amount_or_refuse,
)
from bondbot.errors import Refusal
from bondbot.games.registry import spec_for
from bondbot.i18n import Lang, has, t
from bondbot.money import Cents
from bondbot.pictures.cards import hand_png
from bondbot.rules.cards import cards_pretty
from bondbot.tables.context import iso
from bondbot.tables.events import PotOpened, Spent
from bondbot.tables.service import TableService, TableSnapshot
from bondbot.tables.state import Seat, SpendOffer

actions = TableActions()

GREEN, BLUE, RED = (
    discord.ButtonStyle.success,
    discord.ButtonStyle.primary,
    discord.ButtonStyle.danger,
)
NAME_FIELD = 64  # a character's name, as a sheet allows it
CHARACTER = FormField("character", NAME_FIELD)  # the GM's seating form: who, and AMOUNT


def _service(click: Click) -> TableService:
    return bot_of(click.interaction).services.tables


def spendable(snapshot: TableSnapshot, now: datetime) -> list[tuple[SpendOffer, int]]:
    """The open offers a PC can spend on, with what spending pays now: the offer's pay, or
    what the game reckons (a pot he would share with those who spent on it before him)."""
    found = []
    for offer in snapshot.spendable_offers(iso(now)):
        pays = snapshot.state.engine.won_back_pays(str(offer.character_id))
        pay = offer.pay if pays is None else pays.get(str(offer.character_id), 0)
        if pay > 0 or offer.score is not None:  # a score game's spend pays no chips
            found.append((offer, pay))
    return found


def buy_in_hint(snapshot: TableSnapshot, lang: Lang, money: str) -> str:
    """What a buy-in must be at this table, for the form's placeholder."""
    state = snapshot.state
    config = state.config
    least = config.min_bet if state.rulebook_only else state.engine.least_stack()
    if spec_for(config.game).buy_in_limits:
        return limits_hint(lang, money, max(least, config.min_bet), config.max_bet)
    return limits_hint(lang, money, max(least, 1))


# -- My seat -----------------------------------------------------------------------------


@actions.on("seat")
async def _seat(click: Click) -> None:
    snapshot = await _service(click).snapshot(click.table)
    seat = snapshot.state.seat_of_user(click.user_id)
    if seat is None:  # one click to the buy-in form, for whoever has a character to seat
        sheets = bot_of(click.interaction).services.sheets
        if await sheets.active(click.interaction.guild_id, click.user_id) is None:
            raise Refusal("table.no_active_character")
        hint = buy_in_hint(snapshot, click.reply.lang, click.reply.currency)
        modal = amount_modal(click.reply.lang, "table.modal_join", click.table, "join", hint=hint)
        await click.interaction.response.send_modal(modal)
        return
    await click.reply.send(**await seat_panel(snapshot, seat, click.reply))


def choice_buttons(lang: Lang, table: int) -> list[ButtonSpec]:
    return [
        table_button(lang, table, "table.btn_simulate", "choose", "simulate", style=BLUE),
        table_button(lang, table, "table.btn_rulebook", "choose", "rulebook"),
    ]


async def seat_panel(snapshot: TableSnapshot, seat: Seat, reply: Reply) -> dict[str, Any]:
    """A seated player's panel: his chips and choice, his private cards as a picture with
    the game's note on them, and what he may do now as buttons."""
    state, lang, table = snapshot.state, reply.lang, snapshot.id
    game = ui_for(state.config.game)
    key = str(seat.character_id)
    lines = [
        t(
            "table.panel_seat",
            lang,
            chips=reply.money(snapshot.chips.get(seat.character_id, 0)),
            choice=t(f"table.choice_{seat.choice or 'none'}", lang),
        )
    ]
    files = []
    hand = list(state.engine.private_cards(key))
    if hand:
        lines.append(t("table.your_cards", lang, cards=cards_pretty(hand)))
        png = await asyncio.to_thread(hand_png, hand)  # drawing never holds the loop
        files.append(discord.File(io.BytesIO(png), filename="hand.png"))
    note = optional(game, "hand_note", None)(snapshot, key, lang)
    if note:
        lines.append(note)
    specs: list[ButtonSpec] = list(
        optional(game, "panel_buttons", [])(snapshot, key, lang, reply.currency)
    )
    if not specs and key in state.engine.turn():
        lines.append(t("table.panel_your_turn", lang))
    if seat.choice is None and not state.rulebook_only:
        specs += choice_buttons(lang, table)
    elif seat.choice == "rulebook" and not state.rulebook_only:
        specs.append(table_button(lang, table, "table.btn_contest", "contest"))
    if state.engine.can_stand_up(key):  # between hands, where the game lets him go
        specs.append(table_button(lang, table, "table.btn_leave", "leave"))
    embed = discord.Embed(title=short(seat.name), description="\n".join(lines))
    if files:
        embed.set_image(url="attachment://hand.png")
    answer: dict[str, Any] = {"embed": embed, "files": files}
    if specs:
        answer["view"] = view_of(specs)
    return answer


async def show_seat_panel(
    click: Click, snapshot: TableSnapshot, seat: Seat, text: str | None, *, edit: bool
) -> None:
    """His seat panel after what he just did (`text`): drawn again in place of the panel
    he clicked in (`edit`), or answered anew."""
    panel = await seat_panel(snapshot, seat, click.reply)
    if edit:
        panel["attachments"] = panel.pop("files")
        panel.setdefault("view", None)
        await click.interaction.response.edit_message(content=text or None, **panel)
    else:
        await click.reply.send(text or None, **panel)


# -- Spend a Hero Point ----------------------------------------------------------------


@actions.on("hp")
async def _hero_point(click: Click) -> None:
    """One button for everyone: a player with one lost hand spends on it at once; with
    several, he picks which privately; with none, he is told so and nothing changes."""
    service = _service(click)
    snapshot = await service.snapshot(click.table)
    seat = snapshot.state.seat_of_user(click.user_id)
    now = bot_of(click.interaction).services.clock()
    offers = spendable(snapshot, now)
    mine = [
        (o, pay) for o, pay in offers if seat is not None and o.character_id == seat.character_id
    ]
    if not mine:
        raise Refusal("table.no_hero_offer")
    if len(mine) == 1:
        await spend(click, mine[0][0].id)
        return
    game = ui_for(snapshot.state.config.game)
    label = optional(game, "offer_label", None)
    specs = [
        ButtonSpec(
            (label(snapshot, offer, pay, click.reply.lang, click.reply.currency) if label else None)
            or _offer_label(offer, pay, click.reply, snapshot.state.config.game),
            custom_id(AREA, click.table, "spend", offer.id),
            style=GREEN,
        )
        for offer, pay in mine[:25]
    ]
    await click.reply.send(click.reply.t("table.pick_hero_offer"), view=view_of(specs))


def _offer_label(offer: SpendOffer, pay: int, reply: Reply, game: str) -> str:
    """ "Coup 3: receives $20", in the game's word for its hands (issue 34)."""
    if offer.score is not None:
        key = by_hand_word("spend_on_score", game, reply.lang)
        return reply.t(key, hand=offer.hand, score=offer.score)
    return reply.t(
        by_hand_word("spend_on", game, reply.lang), hand=offer.hand, pay=reply.money(pay)
    )


async def spend(click: Click, offer: int) -> None:
    snapshot = await _service(click).spend(click.table, click.user_id, offer)
    assert isinstance(snapshot.event, Spent)
    if snapshot.event.score is not None:
        await click.reply.say("table.spent_score", score=snapshot.event.score)
    else:
        # A game where nobody holds a bank says who pays (issue 34).
        game = snapshot.state.config.game
        key = f"{game}.spent" if has(f"{game}.spent") else "table.spent"
        await click.reply.say(key, pay=Cents(snapshot.event.pay), npc=snapshot.state.npc_name)


# -- the GM's panel --------------------------------------------------------------------


@actions.on("gm")
async def _gm(click: Click) -> None:
    await require_gm(click.interaction)
    from bondbot.bot.tables.messages import table_messages  # it imports this module

    snapshot = await _service(click).snapshot(click.table)
    # What Discord refuses the table (pictures, the summary), told the GM once (issue 30).
    note = table_messages(click.interaction).note_for_gm(click.table, click.reply.lang)
    panel = gm_panel(snapshot, click.reply, note)
    if from_panel(click):  # "Keep playing" under the question to close: the panel again
        await click.interaction.response.edit_message(content=None, **panel)
    else:
        await click.reply.send(**panel)


def from_panel(click: Click) -> bool:
    """Whether the click came from a private panel (not the public table message)."""
    message = click.interaction.message
    return message is not None and message.flags.ephemeral and not click.submitted


def gm_panel(snapshot: TableSnapshot, reply: Reply, note: str | None = None) -> dict[str, Any]:
    """The GM's controls, privately: what the game has for him now, the NPC's play, pause,
    seating and closing."""
    from bondbot.bot.tables.message import npc_level_line  # the table message imports us

    state, lang, table = snapshot.state, reply.lang, snapshot.id
    game = ui_for(state.config.game)
    lines = [note] if note else []
    if not state.rulebook_only:
        lines.append(npc_level_line(state, lang))
        who = "table.panel_npc_gm" if not state.npc_auto else "table.panel_npc_auto"
        lines.append(t(who, lang, npc=state.npc_name))
    if state.paused:
        lines.append(t("table.paused_banner", lang))
    specs: list[ButtonSpec] = list(optional(game, "gm_buttons", [])(snapshot, lang, reply.currency))
    if state.npc_key in state.engine.seats:  # the NPC takes decisions
        auto = state.npc_auto
        key = "table.btn_npc_take" if auto else "table.btn_npc_auto"
        specs.append(table_button(lang, table, key, "npc", int(not auto)))
    if spec_for(state.config.game).private_hands and not state.rulebook_only:
        specs.append(table_button(lang, table, "table.btn_npc_cards", "mine"))
    if any(not pot.settled for pot in state.pots):
        specs.append(table_button(lang, table, "table.btn_pot_settle", "psettle", style=BLUE))
    elif state.rulebook_only:  # the GM starts each round of the contest
        specs.append(table_button(lang, table, "table.btn_pot_start", "gpot", style=BLUE))
    # Pause and Resume say which way they go (`gpause:1`, `gpause:0`): clicks repeated or
    # crossing each other are one click, never a flip back.
    if state.paused:
        specs.append(table_button(lang, table, "table.btn_resume", "gpause", 0))
    else:
        specs.append(table_button(lang, table, "table.btn_pause", "gpause", 1))
    specs.append(table_button(lang, table, "table.btn_gm_seat", "gseat"))
    if state.seats:
        specs.append(table_button(lang, table, "table.btn_gm_unseat", "gunseat"))
    specs.append(table_button(lang, table, "table.btn_close", "gclose", 0, style=RED))
    embed = discord.Embed(title=t("table.panel_gm_title", lang), description="\n".join(lines))
    return {"embed": embed, "view": view_of(specs)}


async def _gm_answer(click: Click, snapshot: TableSnapshot, key: str, **params: Any) -> None:
    """Answer a click on the GM's panel by drawing the panel again, with what was done."""
    panel = gm_panel(snapshot, click.reply, click.reply.t(key, **params))
    if from_panel(click):
        await click.interaction.response.edit_message(content=None, **panel)
    else:
        await click.reply.send(**panel)


@actions.on("gpot", form=True)
async def _gm_pot(click: Click) -> None:
    """Start a rulebook contest for a pot (the GM's `/table pot`, at the Ease Factor 5)."""
    await require_gm(click.interaction)
    lang = click.reply.lang
    if not click.submitted:
        modal = amount_modal(lang, "table.modal_pot", click.table, "gpot")
        await click.interaction.response.send_modal(modal)
        return
    stake = amount_of(click)
    snapshot = await _service(click).pot_start(click.table, click.user_id, stake, 5)
    assert isinstance(snapshot.event, PotOpened)
    await _gm_answer(click, snapshot, "table.pot_started", players=snapshot.event.players)


@actions.on("gpause", int)
async def _pause(click: Click, pause: int) -> None:
    """Pause (1) or resume (0): the direction is the button's, decided under the table's
    lock by the service; one already in force is answered as such and changes nothing."""
    await require_gm(click.interaction)
    if pause not in (0, 1):
        raise Refusal("table.unknown_action")
    snapshot = await _service(click).pause(click.table, click.user_id, bool(pause))
    await _gm_answer(click, snapshot, "table.paused_reply" if pause else "table.resumed")


def _name_input(lang: Lang) -> discord.ui.TextInput:  # type: ignore[type-arg]
    return discord.ui.TextInput(
        label=t("table.modal_character", lang), custom_id=CHARACTER.name, max_length=NAME_FIELD
    )


@actions.on("gseat", form=True)
async def _gm_seat(click: Click) -> None:
    """Seat a PC with a buy-in from his cash (the GM's `/table seat`)."""
    await require_gm(click.interaction)
    lang = click.reply.lang
    service = _service(click)
    if not click.submitted:
        snapshot = await service.snapshot(click.table)
        amount = discord.ui.TextInput(
            label=t("table.modal_amount", lang),
            custom_id=AMOUNT.name,
            max_length=AMOUNT_LENGTH,
            placeholder=buy_in_hint(snapshot, lang, click.reply.currency),
        )
        modal = modal_view(
            t("table.modal_gm_seat", lang),
            custom_id(AREA, click.table, "gseat"),
            [_name_input(lang), amount],
        )
        await click.interaction.response.send_modal(modal)
        return
    values = click.form(CHARACTER, AMOUNT)
    amount = parse_amount_or_refuse(values["amount"], lang)
    sheets = bot_of(click.interaction).services.sheets
    name = values["character"].strip()
    character = await sheets.find_id(click.interaction.guild_id, name, kind="PC")
    snapshot = await service.join(click.table, click.user_id, character, amount, by_gm=True)
    await _gm_answer(click, snapshot, "table.seated", name=_seated_name(snapshot, character))


def _seated_name(snapshot: TableSnapshot, character_id: int) -> str:
    return names(snapshot).get(character_id) or str(character_id)


@actions.on("gunseat")
async def _gm_unseat(click: Click) -> None:
    """Send a PC away with his chips (the GM's `/table unseat`): one button per seat."""
    await require_gm(click.interaction)
    snapshot = await _service(click).snapshot(click.table)
    specs = [
        ButtonSpec(short(seat.name), custom_id(AREA, click.table, "gout", seat.character_id))
        for seat in snapshot.state.seats[:25]
    ]
    if not specs:
        raise Refusal("table.nobody_to_unseat")
    await click.reply.send(click.reply.t("table.pick_unseat"), view=view_of(specs))


@actions.on("gout", int)
async def _gm_out(click: Click, character: int) -> None:
    await require_gm(click.interaction)
    snapshot = await _service(click).leave(click.table, click.user_id, character_id=character)
    name = snapshot.state.sat.get(character) or str(character)
    await click.reply.say("table.unseated", name=name)


# The confirmation each GM's question to close a table drew, by (table, GM): the same for
# his questions until it is used. Only that exact id closes the table (`gclose:<token>`);
# any other (an old `gclose:1`, a forged or guessed one, one drawn before a restart) is
# refused, and the panel asks again.
_CLOSE_ASKED = Confirmations(nbytes=8)
ASK = "0"  # `gclose:0`, the panel's Close: the question


@actions.on("gclose", str)
async def _gm_close(click: Click, token: str) -> None:
    """Closing cashes everyone out: the panel asks once more before it does, and only the
    confirmation it drew for this GM closes."""
    await require_gm(click.interaction)
    asked = (click.table, click.user_id)
    if token == ASK:
        drawn = _CLOSE_ASKED.ask(asked)
        lang, table = click.reply.lang, click.table
        view = view_of(
            [
                table_button(lang, table, "table.btn_close_sure", "gclose", drawn, style=RED),
                table_button(lang, table, "table.btn_close_keep", "gm"),
            ]
        )
        await click.interaction.response.edit_message(
            content=click.reply.t("table.close_ask"), embed=None, view=view
        )
        return
    if not _CLOSE_ASKED.confirms(asked, token):
        raise Refusal("table.close_not_asked")
    cog = bot_of(click.interaction).get_cog("Tables")
    await cog.close_table(click.reply, click.table)  # type: ignore[union-attr]
    _CLOSE_ASKED.used(asked)
