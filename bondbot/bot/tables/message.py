"""The public table message: one embed and its buttons, rebuilt from a snapshot.

The message is in the server's language and shows only public information: private
things (a rulebook contest's roll before it is settled) go to their owner ephemerally.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import discord

from bondbot import i18n
from bondbot.bot.router import view_of
from bondbot.bot.tables.common import add_lines, fit, names, quality, short, table_button
from bondbot.bot.tables.games import optional, ui_for
from bondbot.bot.tables.glance import fold_seats
from bondbot.bot.tables.panels import spendable
from bondbot.bot.tables.story import shoe_line, table_title
from bondbot.games.registry import spec_for
from bondbot.i18n import Lang, has, t
from bondbot.money import format_amount
from bondbot.rules import gambling
from bondbot.tables.service import TableSnapshot
from bondbot.tables.state import Pot, PotSettled, SpendOffer, TableState

GREEN, BLUE = discord.ButtonStyle.success, discord.ButtonStyle.primary


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


# The words for a Gambling level, by the lowest level of each band (the GM sees what he
# is up against): 0 is an NPC without the skill, 15 the strongest play the game affords.
LEVEL_BANDS = ((15, "master"), (13, "formidable"), (10, "strong"), (5, "fair"), (1, "casual"))


def level_band(level: int) -> str:
    """The band of a Gambling level: the last part of its `table.npc_band_*` key."""
    return next((band for low, band in LEVEL_BANDS if level >= low), "novice")


def npc_level_line(state: TableState, lang: Lang) -> str:
    """The NPC and his level in words, e.g. "Le Chiffre — Gambling 14: a formidable player"."""
    band = t(f"table.npc_band_{level_band(state.npc_level)}", lang)
    return t("table.npc_level", lang, npc=state.npc_name, level=state.npc_level, band=band)


def _game_limits(state: TableState, lang: Lang, money: str) -> dict[str, str]:
    """What a game without a bank says of its limits instead (issue 34): Michigan's chip,
    Makao's stake into the pot."""
    settings = getattr(state.engine, "settings", None)
    chip, stake = getattr(settings, "chip", None), getattr(settings, "stake", None)
    found = {}
    if isinstance(chip, int):
        found["chip"] = format_amount(chip, money)
    if isinstance(stake, int):
        found["stake"] = format_amount(stake, money) if stake else t("table.nothing", lang)
    return found


def _unusual_choice(choice: str | None, lang: Lang) -> str | None:
    """A seat's choice as a folded seat says it: only when it does not simulate."""
    return None if choice == "simulate" else t(f"table.choice_{choice or 'none'}", lang)


def table_embed(snapshot: TableSnapshot, lang: Lang, money: str, now: datetime) -> discord.Embed:
    state = snapshot.state
    config = state.config
    game = ui_for(config.game)
    embed = discord.Embed(title=table_title(state, lang))
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
        **_game_limits(state, lang, money),
    )
    if not state.rulebook_only:  # a rulebook table's NPCs roll the contest, they play no cards
        limits += " · " + npc_level_line(state, lang)  # one line: read at a glance
    if not state.npc_auto:
        limits += "\n" + t("table.npc_by_gm", lang, npc=state.npc_name)
    embed.add_field(name=t("table.limits", lang), value=limits, inline=False)
    seat_lines: list[tuple[str, str, bool]] = []
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
        full = line if extra is None else f"{line} — {extra}"
        # the short entry of a folded seat: its name, chips, what it does now, a choice
        # other than simulating (a ten-seat table names those that matter on their lines)
        said = [part for part in (extra, _unusual_choice(seat.choice, lang)) if part]
        entry = t(
            "table.seat_entry_extra" if said else "table.seat_entry",
            lang,
            name=short(seat.name),
            chips=format_amount(snapshot.chips.get(seat.character_id, 0), money),
            extra=", ".join(said),
        )
        seat_lines.append((full, entry, bool(extra and extra.strip())))
    more = t("table.continued", lang)
    shown = fold_seats(seat_lines, lang)
    add_lines(embed, t("table.seats", lang), shown or [t("table.no_seats", lang)], more)
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
    offers = spendable(snapshot, now)
    if offers:
        add_lines(embed, t("table.offers", lang), offer_lines(snapshot, offers, lang, money), more)
    if state.shoes:  # the proof itself is behind /table verify and /table history
        embed.set_footer(text=shoe_line(state, lang))
    return fit(embed)


def offer_lines(
    snapshot: TableSnapshot, offers: list[tuple[SpendOffer, int]], lang: Lang, money: str
) -> list[str]:
    """The open Hero Point offers, one line per closing time (they mostly close together):
    who may win back a hand and what it pays, said once, not again beside each result."""
    who = names(snapshot)
    by_end: dict[str, dict[str, list[str]]] = {}
    for offer, pay in offers:
        name = who.get(offer.character_id, "?")
        paid = str(offer.score) if offer.score is not None else format_amount(pay, money)
        by_end.setdefault(offer.expires_at, {}).setdefault(name, []).append(paid)
    return [
        i18n.plural(
            "table.offers_line",
            lang,
            len(spenders),
            names=", ".join(f"{name} ({', '.join(paid)})" for name, paid in spenders.items()),
            until=f"<t:{int(datetime.fromisoformat(end).timestamp())}:R>",
        )
        for end, spenders in sorted(by_end.items())
    ]


def table_view(
    snapshot: TableSnapshot, lang: Lang, now: datetime, money: str = "$"
) -> discord.ui.View | None:
    """Only what someone at the table may do now: the game's moves of the moment, the GM
    action the table waits for, one Hero Point button while a hand can be won back, the
    players' private seat panel and the GM's. Everything else is in those panels."""
    if not snapshot.open:
        return None
    state, table = snapshot.state, snapshot.id
    game = ui_for(state.config.game)
    if state.rulebook_only:
        specs = []
        if any(not pot.settled for pot in state.pots):
            specs.append(table_button(lang, table, "table.btn_pot_roll", "proll", style=BLUE))
    else:
        specs = list(game.buttons(snapshot, lang, money))
        waits = optional(game, "gm_waits", None)(snapshot, lang, money)
        if waits is not None:
            specs.append(waits)
        if spendable(snapshot, now):
            specs.append(table_button(lang, table, "table.btn_hero_point", "hp", style=GREEN))
    specs.append(table_button(lang, table, "table.btn_seat", "seat"))
    specs.append(table_button(lang, table, "table.btn_gm", "gm"))
    return view_of([replace(spec, row=None) for spec in specs])  # laid out five a row
