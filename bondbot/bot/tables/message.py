"""The public table message: one embed and its buttons, rebuilt from a snapshot.

The message is in the server's language and shows only public information: private
things (a rulebook contest's roll before it is settled) go to their owner ephemerally.
"""

from __future__ import annotations

from datetime import datetime

import discord

from bondbot.bot.router import ButtonSpec, custom_id, view_of
from bondbot.bot.tables.common import AREA, add_lines, fit, names, quality, short, table_button
from bondbot.bot.tables.games import ui_for
from bondbot.bot.tables.story import shoe_line
from bondbot.games.registry import spec_for
from bondbot.i18n import Lang, has, t
from bondbot.money import format_amount
from bondbot.rules import gambling
from bondbot.tables.context import iso
from bondbot.tables.service import TableSnapshot
from bondbot.tables.state import Pot, PotSettled, SpendOffer

MAX_SPEND_BUTTONS = 10
SPEND_ROW = 3


def _contest(snapshot: TableSnapshot, lang: Lang, money: str) -> str | None:
    last = snapshot.state.last_contest
    if last is None:
        return None
    if isinstance(last, PotSettled):
        return _pot(snapshot, last.pot, lang, money)
    contest = last.contest
    outcome = (
        t("table.contest_push", lang)
        if contest.winner is None
        else t("table.contest_winner", lang, name=names(snapshot).get(contest.winner, "?"))
    )
    return t(
        "table.contest_line",
        lang,
        pc=contest.pc.name,
        pc_roll=contest.pc.roll,
        pc_quality=quality(last.pc_quality, lang),
        npc=contest.npc.name,
        npc_roll=contest.npc.roll,
        npc_quality=quality(contest.npc.quality, lang),
        stake=format_amount(contest.stake, money),
        outcome=outcome,
    )


def _pot(snapshot: TableSnapshot, pot: Pot, lang: Lang, money: str) -> str:
    who = names(snapshot)
    lines = [t("table.pot_line", lang, stake=format_amount(pot.stake, money))]
    for roll in pot.rolls:
        lines.append(
            t(
                "table.pot_roll",
                lang,
                name=roll.name,
                roll=roll.roll,
                quality=quality(gambling.improve(roll.quality, roll.steps), lang),
                steps=roll.steps,
            )
        )
    winners = ", ".join(
        f"{who.get(w, '?')} ({format_amount(share, money)})"
        for w, share in zip(pot.winners, pot.shares, strict=True)
    )
    lines.append(t("table.pot_winners", lang, winners=winners))
    return "\n".join(lines)


def table_embed(snapshot: TableSnapshot, lang: Lang, money: str, now: datetime) -> discord.Embed:
    state = snapshot.state
    config = state.config
    game = ui_for(config.game)
    # A game where the NPC holds no bank (hold'em) names its table its own way.
    title = f"{config.game}.title" if has(f"{config.game}.title") else "table.title"
    embed = discord.Embed(
        title=t(title, lang, game=t(f"games.{config.game}", lang), npc=state.npc_name)
    )
    if not snapshot.open:
        embed.description = t("table.closed_banner", lang)
    elif state.paused:
        embed.description = t("table.paused_banner", lang)
    elif state.rulebook_only:
        npcs = ", ".join([state.npc_name, *(n.name for n in state.other_npcs)])
        embed.description = t("table.rulebook_only_banner", lang, npcs=npcs)
    bank = (
        t("table.bank_unlimited", lang)
        if snapshot.bank is None
        else format_amount(snapshot.bank, money)
    )
    buy_in = spec_for(config.game).buy_in_limits
    packs = state.shoes[-1].packs if state.shoes else config.packs
    # A game where nobody holds a bank (Michigan, Makao) says its limits its own way.
    line = f"{config.game}.limits_value"
    limits = t(
        "table.limits_buy_in" if buy_in else line if has(line) else "table.limits_value",
        lang,
        min=format_amount(config.min_bet, money),
        max=format_amount(config.max_bet, money),
        packs=t("table.packs_one" if packs == 1 else "table.packs_many", lang, count=packs),
        bank=bank,
    )
    if not state.npc_auto:
        limits += "\n" + t("table.npc_by_gm", lang, npc=state.npc_name)
    embed.add_field(name=t("table.limits", lang), value=limits, inline=False)
    seat_lines = []
    for seat in state.seats:
        line = t(
            "table.seat_line",
            lang,
            name=short(seat.name),
            user=f"<@{seat.user_id}>",
            chips=format_amount(snapshot.chips.get(seat.character_id, 0), money),
            choice=t(f"table.choice_{seat.choice or 'none'}", lang),
        )
        extra = game.seat_extra(snapshot, seat.character_id, lang, money)
        seat_lines.append(line if extra is None else f"{line} — {extra}")
    more = t("table.continued", lang)
    add_lines(embed, t("table.seats", lang), seat_lines or [t("table.no_seats", lang)], more)
    for name, value in game.public_fields(snapshot, lang, money):
        add_lines(embed, name, value.split("\n"), more)
    contest = _contest(snapshot, lang, money)
    if contest:
        embed.add_field(name=t("table.last_contest", lang), value=contest, inline=False)
    pending = next((p for p in state.pots if not p.settled), None)
    if pending is not None:
        embed.add_field(
            name=t("table.pot_open_title", lang),
            value=t(
                "table.pot_open",
                lang,
                stake=format_amount(pending.stake, money),
                players=", ".join(r.name for r in pending.rolls),
            ),
            inline=False,
        )
    offers = [offer for offer, _ in _spendable(snapshot, now)]
    if offers:
        who = names(snapshot)
        lines = [
            t(
                "table.offer_line",
                lang,
                name=who.get(o.character_id, "?"),
                until=f"<t:{int(datetime.fromisoformat(o.expires_at).timestamp())}:R>",
            )
            for o in offers
        ]
        add_lines(embed, t("table.offers", lang), lines, more)
    if state.shoes:  # the proof itself is behind /table verify and /table history
        embed.set_footer(text=shoe_line(state, lang))
    return fit(embed)


def _spendable(snapshot: TableSnapshot, now: datetime) -> list[tuple[SpendOffer, int]]:
    """The open offers a PC can spend on, with what spending pays now: the offer's pay, or
    what the game reckons (a pot he would share with those who spent on it before him)."""
    found = []
    for offer in snapshot.spendable_offers(iso(now)):
        pays = snapshot.state.engine.won_back_pays(str(offer.character_id))
        pay = offer.pay if pays is None else pays.get(str(offer.character_id), 0)
        if pay > 0 or offer.score is not None:  # a score game's spend pays no chips
            found.append((offer, pay))
    return found


def table_view(
    snapshot: TableSnapshot, lang: Lang, now: datetime, money: str = "$"
) -> discord.ui.View | None:
    if not snapshot.open:
        return None
    table = snapshot.id
    green, blue = discord.ButtonStyle.success, discord.ButtonStyle.primary
    if snapshot.state.rulebook_only:
        return view_of(
            [
                table_button(lang, table, "table.btn_join", "join", style=green, row=0),
                table_button(lang, table, "table.btn_leave", "leave", row=0),
                table_button(lang, table, "table.btn_pot_roll", "proll", style=blue, row=1),
                table_button(lang, table, "table.btn_pot_settle", "psettle", row=1),
            ]
        )
    specs = [
        table_button(lang, table, "table.btn_join", "join", style=green, row=0),
        table_button(lang, table, "table.btn_leave", "leave", row=0),
        table_button(lang, table, "table.btn_simulate", "choose", "simulate", style=blue, row=0),
        table_button(lang, table, "table.btn_rulebook", "choose", "rulebook", row=0),
        table_button(lang, table, "table.btn_contest", "contest", row=0),
        *ui_for(snapshot.state.config.game).buttons(snapshot, lang, money),
    ]
    if spec_for(snapshot.state.config.game).private_hands:
        specs.append(table_button(lang, table, "table.btn_my_cards", "mine", style=blue, row=2))
    if snapshot.state.npc_key in snapshot.state.engine.seats:  # the NPC takes decisions
        auto = snapshot.state.npc_auto
        key = "table.btn_npc_take" if auto else "table.btn_npc_auto"
        specs.append(table_button(lang, table, key, "npc", int(not auto), row=2))
    who = names(snapshot)
    for index, (offer, pay) in enumerate(_spendable(snapshot, now)[:MAX_SPEND_BUTTONS]):
        name = who.get(offer.character_id, "?")
        specs.append(
            ButtonSpec(
                t("table.btn_spend", lang, name=name, pay=format_amount(pay, money))
                if offer.score is None
                else t("table.btn_spend_score", lang, name=name, score=offer.score),
                custom_id(AREA, table, "spend", offer.id),
                style=green,
                row=SPEND_ROW + index // 5,
            )
        )
    return view_of(specs)
