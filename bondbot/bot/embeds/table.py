"""The public table message: one embed and its buttons, rebuilt from a snapshot.

The message is in the server's language; it shows only public information (a rulebook
contest's rolls appear once settled).
"""

from __future__ import annotations

from datetime import datetime

import discord

from bondbot.bot.router import ButtonSpec, custom_id, view_of
from bondbot.i18n import Lang, t
from bondbot.money import format_amount
from bondbot.rules.cards import cards_pretty, parse_cards
from bondbot.tables.context import iso
from bondbot.tables.service import TableSnapshot

AREA = "tbl"
MAX_SPEND_BUTTONS = 10


def _cards(codes: str) -> str:
    return cards_pretty(parse_cards(codes)) if codes else "—"


def _names(snapshot: TableSnapshot) -> dict[int, str]:
    names = {seat.character_id: seat.name for seat in snapshot.state.seats}
    names[snapshot.state.npc_id] = snapshot.state.npc_name
    return names


def _last_coup(snapshot: TableSnapshot, lang: Lang, money: str) -> str:
    last = snapshot.state.last or {}
    names = _names(snapshot)
    if last.get("kind") == "coup":
        lines = [
            t(
                "table.coup_line",
                lang,
                hand=last["hand"],
                player=_cards(last["player"]),
                player_total=last["player_total"],
                banker=_cards(last["banker"]),
                banker_total=last["banker_total"],
                winner=t(f"baccarat.bet_{last['winner']}", lang),
            )
        ]
        for line in last["results"]:
            key = (
                "table.result_win"
                if line["net"] > 0
                else ("table.result_loss" if line["net"] < 0 else "table.result_push")
            )
            lines.append(
                t(
                    key,
                    lang,
                    name=names.get(line["character_id"], "?"),
                    bet=t(f"baccarat.bet_{line['bet']}", lang),
                    amount=format_amount(line["amount"], money),
                    net=format_amount(abs(line["net"]), money),
                )
            )
        for offer in snapshot.state.offers:
            if offer.spent and offer.hand == last["hand"]:
                lines.append(t("table.spent_line", lang, name=names.get(offer.character_id, "?")))
        return "\n".join(lines)
    if last.get("kind") == "contest_settled":
        contest = last["contest"]
        winner = contest["winner"]
        outcome = (
            t("table.contest_push", lang)
            if winner is None
            else t("table.contest_winner", lang, name=names.get(winner, "?"))
        )
        return t(
            "table.contest_line",
            lang,
            pc=contest["pc"]["name"],
            pc_roll=contest["pc"]["roll"],
            pc_quality=_quality(last["pc_quality"], lang),
            npc=contest["npc"]["name"],
            npc_roll=contest["npc"]["roll"],
            npc_quality=_quality(contest["npc"]["quality"], lang),
            stake=format_amount(contest["stake"], money),
            outcome=outcome,
        )
    return ""


def _quality(quality: int | None, lang: Lang) -> str:
    return t("quality.failure", lang) if quality is None else t(f"quality.qr{quality}", lang)


def table_embed(snapshot: TableSnapshot, lang: Lang, money: str, now: datetime) -> discord.Embed:
    state = snapshot.state
    config = state.config
    title = t(f"games.{config.game}", lang)
    embed = discord.Embed(title=t("table.title", lang, game=title, npc=state.npc_name))
    if not snapshot.open:
        embed.description = t("table.closed_banner", lang)
    elif state.paused:
        embed.description = t("table.paused_banner", lang)
    bank = (
        t("table.bank_unlimited", lang)
        if snapshot.bank is None
        else format_amount(snapshot.bank, money)
    )
    embed.add_field(
        name=t("table.limits", lang),
        value=t(
            "table.limits_value",
            lang,
            min=format_amount(config.min_bet, money),
            max=format_amount(config.max_bet, money),
            packs=config.packs,
            bank=bank,
        ),
        inline=False,
    )
    wagers = state.engine.get("wagers", {})
    seat_lines = []
    for seat in state.seats:
        choice = t(f"table.choice_{seat.choice or 'none'}", lang)
        line = t(
            "table.seat_line",
            lang,
            name=seat.name,
            user=f"<@{seat.user_id}>",
            chips=format_amount(snapshot.chips.get(seat.character_id, 0), money),
            choice=choice,
        )
        wager = wagers.get(str(seat.character_id))
        if wager:
            line += " — " + t(
                "table.wager_line",
                lang,
                bet=t(f"baccarat.bet_{wager['bet']}", lang),
                amount=format_amount(wager["amount"], money),
            )
        seat_lines.append(line)
    embed.add_field(
        name=t("table.seats", lang),
        value="\n".join(seat_lines) or t("table.no_seats", lang),
        inline=False,
    )
    last = _last_coup(snapshot, lang, money)
    if last:
        embed.add_field(name=t("table.last_hand", lang), value=last, inline=False)
    offers = state.open_offers(iso(now))
    if offers:
        names = _names(snapshot)
        embed.add_field(
            name=t("table.offers", lang),
            value="\n".join(
                t("table.offer_line", lang, name=names.get(o.character_id, "?")) for o in offers
            ),
            inline=False,
        )
    shoe = state.shoes[-1] if state.shoes else None
    if shoe is not None:
        footer = t("table.commitment", lang, commitment=shoe.commitment)
        revealed = [s for s in state.shoes if s.seed]
        if revealed:
            footer += "\n" + t("table.revealed", lang, seed=revealed[-1].seed)
        embed.set_footer(text=footer)
    return embed


def table_view(snapshot: TableSnapshot, lang: Lang, now: datetime) -> discord.ui.View | None:
    if not snapshot.open:
        return None
    table = snapshot.id

    def button(
        key: str, action: str, *args: object, style: discord.ButtonStyle, row: int
    ) -> ButtonSpec:
        return ButtonSpec(t(key, lang), custom_id(AREA, table, action, *args), style=style, row=row)

    grey, blue, green, red = (
        discord.ButtonStyle.secondary,
        discord.ButtonStyle.primary,
        discord.ButtonStyle.success,
        discord.ButtonStyle.danger,
    )
    specs = [
        button("table.btn_join", "join", style=green, row=0),
        button("table.btn_leave", "leave", style=grey, row=0),
        button("table.btn_simulate", "choose", "simulate", style=blue, row=0),
        button("table.btn_rulebook", "choose", "rulebook", style=grey, row=0),
        button("baccarat.bet_player", "bet", "player", style=blue, row=1),
        button("baccarat.bet_banker", "bet", "banker", style=red, row=1),
        button("baccarat.bet_tie", "bet", "tie", style=green, row=1),
        button("table.btn_deal", "deal", style=grey, row=1),
        button("table.btn_contest", "contest", style=grey, row=2),
    ]
    names = _names(snapshot)
    for offer in snapshot.state.open_offers(iso(now))[:MAX_SPEND_BUTTONS]:
        specs.append(
            ButtonSpec(
                t("table.btn_spend", lang, name=names.get(offer.character_id, "?")),
                custom_id(AREA, table, "spend", offer.id),
                style=discord.ButtonStyle.success,
                row=3 + len([s for s in specs if s.row and s.row >= 3]) // 5,
            )
        )
    return view_of(specs)
