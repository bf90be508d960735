"""Blackjack on the table message: every hand in the seat lines, the dealer's up card and
whose turn it is in a public field, play buttons that only the PC to act can use.

The play buttons carry the table's move count (`bb:tbl:<table>:hit:<moves>`), so a double
click, or a click on a message that has not been redrawn yet, is refused instead of
playing twice. Hint answers privately with the basic-strategy move for the clicker's hand.
"""

from __future__ import annotations

from datetime import datetime

import discord

from bondbot.bot.context import bot_of, require_gm
from bondbot.bot.reply import Reply
from bondbot.bot.router import ButtonSpec
from bondbot.bot.tables.acting import may_play
from bondbot.bot.tables.actions import Click, TableActions
from bondbot.bot.tables.common import cards, names, table_button
from bondbot.bot.tables.glance import latest
from bondbot.bot.tables.messages import table_messages
from bondbot.bot.tables.modals import AMOUNT, amount_modal, limits_hint, parse_amount_or_refuse
from bondbot.errors import Refusal
from bondbot.games.blackjack.engine import BlackjackEngine, LogEntry, Logged, Settled, Voided
from bondbot.i18n import Lang, t
from bondbot.money import format_amount
from bondbot.rules.blackjack import Action, HandView, Phase
from bondbot.rules.blackjack_strategy import basic_strategy
from bondbot.rules.cards import cards_pretty
from bondbot.tables.service import TableSnapshot

HIDDEN = "🂠"
PLAY = ("hit", "stand", "double", "split", "surrender")
_BLUE, _GREEN = discord.ButtonStyle.primary, discord.ButtonStyle.success
_STYLES = {
    "hit": discord.ButtonStyle.primary,
    "stand": discord.ButtonStyle.danger,
    "double": discord.ButtonStyle.success,
    "split": discord.ButtonStyle.success,
    "surrender": discord.ButtonStyle.secondary,
}


def _when(deadline: str | None) -> str:
    """A Discord relative timestamp (`in 1 minute`), shown in each reader's own time."""
    if deadline is None:
        return "—"
    return f"<t:{int(datetime.fromisoformat(deadline).timestamp())}:R>"


def _total(hand: HandView, lang: Lang) -> str:
    if hand.blackjack:
        return t("blackjack.total_blackjack", lang)
    if hand.soft and hand.total < 21:
        return t("blackjack.total_soft", lang, total=hand.total)
    return str(hand.total)


def engine_of(snapshot: TableSnapshot) -> BlackjackEngine:
    engine = snapshot.state.engine
    assert isinstance(engine, BlackjackEngine)
    return engine


def _hidden_double(bj: BlackjackEngine, hand: HandView) -> bool:
    """American: a doubled hand's card is dealt face down until the round is settled."""
    game = bj.game
    return hand.doubled and not game.rules.european and game.phase is not Phase.SETTLED


def _shown(bj: BlackjackEngine, hand: HandView, lang: Lang) -> tuple[str, str]:
    """A hand's cards and total as the table shows them (a doubled card face down)."""
    if _hidden_double(bj, hand):
        return f"{cards_pretty(hand.cards[:-1])} {HIDDEN}", "?"
    return cards_pretty(hand.cards), _total(hand, lang)


def _hand_text(
    bj: BlackjackEngine, seat: str, index: int, hand: HandView, lang: Lang, money: str
) -> str:
    game = bj.game
    shown, total = _shown(bj, hand, lang)
    current = game.current() == (seat, index)
    if current:
        status = "to_play"
    elif hand.surrendered:
        status = "surrendered"
    elif hand.total > 21 and not _hidden_double(bj, hand):
        status = "bust"
    elif hand.doubled:
        status = "doubled"
    elif hand.done or hand.total >= 21:
        status = "stands"
    else:
        status = "waiting"
    return t(
        "blackjack.hand_line",
        lang,
        marker="▶ " if current else "",
        cards=shown,
        total=total,
        stake=format_amount(hand.stake, money),
        status=t(f"blackjack.status_{status}", lang),
    )


def _name_of(snapshot: TableSnapshot, character_id: int | str) -> str:
    return names(snapshot).get(int(character_id), "?")


actions = TableActions()


@actions.on("bet", form=True)
async def _bet(click: Click) -> None:
    if not click.submitted:  # refused before the form when he cannot bet at all
        snapshot = await may_play(click)
        bj, lang, money = engine_of(snapshot), click.reply.lang, click.reply.currency
        hint = limits_hint(lang, money, bj.min_bet, bj.max_bet)
        modal = amount_modal(lang, "blackjack.modal_bet", click.table, "bet", hint=hint)
        await click.interaction.response.send_modal(modal)
    else:
        await wager(click.reply, click.table, click.form(AMOUNT)["amount"])


@actions.on("insure")
async def _insure(click: Click) -> None:
    await insure(click.reply, click.table, True)


@actions.on("noinsure")
async def _no_insurance(click: Click) -> None:
    await insure(click.reply, click.table, False)


def _play_action(action: str) -> None:
    @actions.on(action, int)
    async def _play(click: Click, moves: int) -> None:
        await play(click.reply, click.table, action, moves)


for _action in PLAY:
    _play_action(_action)


@actions.on("hint")
async def _hint(click: Click) -> None:
    await hint(click.reply, click.table)


async def wager(reply: Reply, table: int, amount: str) -> None:
    snapshot = await bot_of(reply.interaction).services.tables.act(
        table, reply.interaction.user.id, "wager", amount=parse_amount_or_refuse(amount, reply.lang)
    )
    if await table_messages(reply.interaction).answer_on_table(reply.interaction, snapshot):
        return  # his bet is on his seat's line
    seat = _character(snapshot, reply.interaction)
    bet = engine_of(snapshot).game.bet(str(seat))
    await reply.say("blackjack.bet_placed", amount=reply.money(bet))


async def insure(reply: Reply, table: int, take: bool) -> None:
    snapshot = await bot_of(reply.interaction).services.tables.act(
        table, reply.interaction.user.id, "insure" if take else "no_insurance"
    )
    if take:
        seat = str(_character(snapshot, reply.interaction))
        cost = engine_of(snapshot).game.insurance_cost(seat)
        text = reply.t("blackjack.insured", amount=reply.money(cost))
    else:
        text = reply.t("blackjack.declined")
    await reply.send(text + _round_over(snapshot, reply))


async def play(reply: Reply, table: int, action: str, moves: int | None) -> None:
    snapshot = await bot_of(reply.interaction).services.tables.act(
        table, reply.interaction.user.id, action, moves=moves
    )
    events = [e for r in snapshot.records for e in r.events]
    if any(isinstance(e, Voided) for e in events):
        text = reply.t("blackjack.log_void")
    elif any(isinstance(e, Settled) for e in events):
        text = reply.t(f"blackjack.done_{action}")
    else:
        logged = next(e for e in events if isinstance(e, Logged))
        text = _move_text(snapshot, logged.entry, reply.lang)
    await reply.send(text + _round_over(snapshot, reply))


def _move_text(snapshot: TableSnapshot, entry: LogEntry, lang: Lang) -> str:
    hand = engine_of(snapshot).game.hands(str(entry.seat))[entry.hand]
    if entry.kind == "double" and entry.card is None:
        return t("blackjack.you_double_hidden", lang, cards=cards_pretty(hand.cards[:-1]))
    key = f"blackjack.you_{entry.kind}"
    if entry.kind in ("hit", "double") and hand.total > 21:
        key += "_bust"
    return t(key, lang, cards=cards_pretty(hand.cards), total=hand.total)


def _character(snapshot: TableSnapshot, interaction: discord.Interaction) -> int:
    seat = snapshot.state.seat_of_user(interaction.user.id)
    if seat is None:
        raise Refusal("table.not_seated")
    return seat.character_id


def _round_over(snapshot: TableSnapshot, reply: Reply) -> str:
    """When this decision ended the round: the clicker's own net, after a line break."""
    settled = next((e for r in snapshot.records for e in r.events if isinstance(e, Settled)), None)
    if settled is None:
        return ""
    seat = snapshot.state.seat_of_user(reply.interaction.user.id)
    net = settled.net_of(str(seat.character_id)) if seat else 0
    key = "won" if net > 0 else "lost" if net < 0 else "even"
    return "\n" + reply.t(f"blackjack.round_over_{key}", net=reply.money(abs(net)))


async def hint(reply: Reply, table: int) -> None:
    """The basic-strategy move for the clicker's hand to act, privately."""
    snapshot = await bot_of(reply.interaction).services.tables.snapshot(table)
    seat = snapshot.state.seat_of_user(reply.interaction.user.id)
    if seat is None:
        raise Refusal("table.not_seated")
    game = engine_of(snapshot).game
    name = str(seat.character_id)
    if game.insurance_open and name in game.insurance_pending:
        await reply.say("blackjack.hint_insurance")
        return
    current = game.current()
    if current is None or current[0] != name or game.dealer_up is None:
        raise Refusal("blackjack.hint_not_your_turn")
    hand = game.hands(name)[current[1]]
    move = basic_strategy(hand.cards, game.dealer_up, game.legal_actions(name), game.rules)
    await reply.say(
        "blackjack.hint",
        cards=cards_pretty(hand.cards),
        total=_total(hand, reply.lang),
        up=game.dealer_up.pretty,
        move=reply.t(f"blackjack.btn_{Action(move).value}"),
    )


def _legal(snapshot: TableSnapshot) -> set[str]:
    """The moves of the hand to play now."""
    game = engine_of(snapshot).game
    current = game.current()
    return {a.value for a in game.legal_actions(current[0])} if current else set()


def _bets_in(snapshot: TableSnapshot) -> bool:
    return any(option.kind == "deal" for option in engine_of(snapshot).options())


class BlackjackUI:
    actions = actions

    def seat_extra(
        self, snapshot: TableSnapshot, character_id: int, lang: Lang, money: str
    ) -> str | None:
        bj = engine_of(snapshot)
        game, seat = bj.game, str(character_id)
        if seat not in game.seats or game.phase is Phase.SETTLED:
            return None
        if game.phase is Phase.BETTING:
            return t("blackjack.bet_line", lang, amount=format_amount(game.bet(seat), money))
        hands = game.hands(seat)
        lines = [_hand_text(bj, seat, i, hand, lang, money) for i, hand in enumerate(hands)]
        if game.insurance_open:
            pending = seat in game.insurance_pending
            taken = game.insurance(seat)
            key = "pending" if pending else "taken" if taken else "declined"
            lines[0] += " · " + t(
                f"blackjack.insurance_{key}", lang, amount=format_amount(taken, money)
            )
        elif game.insurance(seat):
            lines[0] += " · " + t(
                "blackjack.insurance_taken",
                lang,
                amount=format_amount(game.insurance(seat), money),
            )
        if len(lines) == 1:
            return lines[0]
        # Split hands: numbered, one line each, under the seat.
        numbered = [f"{i}) {line}" for i, line in enumerate(lines, start=1)]
        return "\n".join([numbered[0], *(f"\u2003↳ {line}" for line in numbered[1:])])

    def public_fields(
        self, snapshot: TableSnapshot, lang: Lang, money: str
    ) -> list[tuple[str, str]]:
        state = snapshot.state
        bj = engine_of(snapshot)
        fields = [(t("blackjack.dealer", lang, npc=state.npc_name), self._dealer(snapshot, lang))]
        in_play = bj.game.phase not in (Phase.BETTING, Phase.SETTLED)
        if bj.log and in_play:  # once settled, the results say it
            lines = [self._log_line(snapshot, entry, lang, money) for entry in bj.log]
            fields.append((t("blackjack.this_round", lang), "\n".join(latest(lines, lang))))
        if isinstance(bj.last, Settled) and not in_play:  # a round in play: its own log
            title = t("blackjack.last_round", lang, hand=bj.last.hand)
            fields.append((title, self._results(snapshot, bj.last, lang, money)))
        return fields

    def _dealer(self, snapshot: TableSnapshot, lang: Lang) -> str:
        state = snapshot.state
        game = engine_of(snapshot).game
        if game.phase is Phase.BETTING:
            return t("blackjack.betting_open", lang, bets=len(game.seats))
        if game.phase is Phase.SETTLED:
            return t("blackjack.betting_open", lang, bets=0)
        up = game.dealer_up
        shown = up.pretty if up else "—"
        if not game.rules.european:
            shown += f" {HIDDEN}"
        lines = [t("blackjack.dealer_shows", lang, cards=shown)]
        when = _when(state.deadline)
        if game.insurance_open:
            waiting = ", ".join(_name_of(snapshot, s) for s in game.insurance_pending)
            lines.append(t("blackjack.turn_insurance", lang, names=waiting, when=when))
        elif (current := game.current()) is not None:
            seat, index = current
            several = len(game.hands(seat)) > 1
            lines.append(
                t(
                    "blackjack.turn_hand" if several else "blackjack.turn",
                    lang,
                    name=_name_of(snapshot, seat),
                    hand=index + 1,
                    when=when,
                )
            )
        return "\n".join(lines)

    def _log_line(self, snapshot: TableSnapshot, entry: LogEntry, lang: Lang, money: str) -> str:
        kind = entry.kind
        params: dict[str, object] = {"hand": entry.hand + 1}
        if entry.seat is not None:
            params["name"] = _name_of(snapshot, entry.seat)
        if kind == "dealt":
            params["hand"] = entry.hand
        if entry.card is not None and entry.total is not None:
            params["card"] = cards(entry.card)
            params["total"] = entry.total
            if entry.total > 21:
                kind += "_bust"
        elif kind == "double":
            kind = "double_hidden"
        if entry.amount is not None:
            params["amount"] = format_amount(entry.amount, money)
        if entry.hands is not None:
            params["hands"] = entry.hands
        return t(f"blackjack.log_{kind}", lang, **params)

    def _results(self, snapshot: TableSnapshot, last: Settled, lang: Lang, money: str) -> str:
        dealer = "dealer_blackjack" if last.dealer_blackjack else "dealer_result"
        lines = [t(f"blackjack.{dealer}", lang, cards=cards(last.dealer), total=last.dealer_total)]
        offers = {
            (o.character_id, o.label): o for o in snapshot.state.offers if o.hand == last.hand
        }
        counts: dict[str, int] = {}
        for line in last.results:
            counts[line.seat] = counts.get(line.seat, 0) + 1
        for line in last.results:
            name = _name_of(snapshot, line.seat)
            who = (
                t("blackjack.who_hand", lang, name=name, hand=line.hand + 1)
                if counts[line.seat] > 1
                else name
            )
            text = t(
                "blackjack.result_line",
                lang,
                who=who,
                cards=cards(line.cards),
                total=line.total,
                outcome=t(
                    f"blackjack.outcome_{line.outcome.value}",
                    lang,
                    net=format_amount(abs(line.net), money),
                ),
            )
            label = f"{line.hand}:{line.outcome.value}:{line.stake}"
            offer = offers.get((int(line.seat), label)) if line.lost else None
            if offer is not None and offer.spent:  # an open offer: the Hero Points field
                text += " — " + t("blackjack.won_back", lang, name=name)
            lines.append(text)
        for insurance in last.insurance:
            lines.append(
                t(
                    "blackjack.insurance_won" if insurance.net > 0 else "blackjack.insurance_lost",
                    lang,
                    name=_name_of(snapshot, insurance.seat),
                    net=format_amount(abs(insurance.net), money),
                )
            )
        return "\n".join(lines)

    COMMON_PHASES = ("betting", "playing")
    # On the table while a hand is played: the moves every hand may have. Split and
    # surrender, when legal, are in the player's panel with the others.
    PUBLIC_PLAY = ("hit", "stand", "double")

    def phase(self, snapshot: TableSnapshot) -> str:
        game = engine_of(snapshot).game
        if game.phase in (Phase.BETTING, Phase.SETTLED):
            return "betting"
        return "insurance" if game.insurance_open else "playing"

    def buttons(self, snapshot: TableSnapshot, lang: Lang, money: str) -> list[ButtonSpec]:
        table = snapshot.id
        bj = engine_of(snapshot)
        phase = self.phase(snapshot)
        if phase == "betting":
            if not bj.seats:  # nobody plays the game: nothing to bet
                return []
            return [table_button(lang, table, "blackjack.btn_bet", "bet", style=_BLUE)]
        if phase == "insurance":
            return [
                table_button(lang, table, "blackjack.btn_insure", "insure", style=_GREEN),
                table_button(lang, table, "blackjack.btn_no_insurance", "noinsure"),
            ]
        legal = _legal(snapshot)
        return [
            table_button(
                lang,
                table,
                f"blackjack.btn_{action}",
                action,
                snapshot.state.moves,
                style=_STYLES[action],
            )
            for action in self.PUBLIC_PLAY
            if action in legal
        ]

    def gm_waits(self, snapshot: TableSnapshot, lang: Lang, money: str) -> ButtonSpec | None:
        """Deal, once a bet is in."""
        if self.phase(snapshot) != "betting" or not _bets_in(snapshot):
            return None
        return table_button(lang, snapshot.id, "table.btn_deal", "deal", style=_BLUE)

    def gm_buttons(self, snapshot: TableSnapshot, lang: Lang, money: str) -> list[ButtonSpec]:
        if self.phase(snapshot) != "betting" or not _bets_in(snapshot):
            return []
        return [table_button(lang, snapshot.id, "blackjack.btn_deal_now", "deal")]

    def hand_note(self, snapshot: TableSnapshot, seat: str, lang: Lang) -> str | None:
        """My seat during a round: his hand (each of them after a split, the one to play
        marked) and the dealer's card, beside the moves his panel offers."""
        bj = engine_of(snapshot)
        game = bj.game
        if game.phase in (Phase.BETTING, Phase.SETTLED) or seat not in game.seats:
            return None  # no round under way, or he sits this one out
        if not (hands := game.hands(seat)):
            return None
        if len(hands) == 1:
            cards, total = _shown(bj, hands[0], lang)
            lines = [t("blackjack.note_hand", lang, cards=cards, total=total)]
        else:
            lines = [t("blackjack.note_hands", lang)]
            for index, hand in enumerate(hands):
                cards, total = _shown(bj, hand, lang)
                marker = "▶ " if game.current() == (seat, index) else ""
                line = t(
                    "blackjack.note_hand_line",
                    lang,
                    marker=marker,
                    number=index + 1,
                    cards=cards,
                    total=total,
                )
                lines.append(line)
        if (up := game.dealer_up) is not None:
            shown = up.pretty + ("" if game.rules.european else f" {HIDDEN}")
            lines.append(t("blackjack.note_dealer", lang, cards=shown))
        return "\n".join(lines)

    def panel_buttons(
        self, snapshot: TableSnapshot, seat: str, lang: Lang, money: str
    ) -> list[ButtonSpec]:
        """His moves with their amounts when his hand is to play (split and surrender
        too), his answer to the insurance (its cost), and the hint."""
        game, table = engine_of(snapshot).game, snapshot.id
        current = game.current()
        if game.insurance_open and seat in game.insurance_pending:
            cost = format_amount(game.insurance_cost(seat), money)
            return [
                table_button(
                    lang, table, "blackjack.btn_insure_cost", "insure", style=_GREEN, amount=cost
                ),
                table_button(lang, table, "blackjack.btn_no_insurance", "noinsure"),
                table_button(lang, table, "blackjack.btn_hint", "hint"),
            ]
        if current is None or current[0] != seat or game.insurance_open:
            return []
        stake = game.hands(seat)[current[1]].stake
        amounts = {"double": stake, "split": stake, "surrender": stake // 2}
        legal = _legal(snapshot)
        specs = [
            table_button(
                lang,
                table,
                f"blackjack.btn_{action}_amount"
                if action in amounts
                else f"blackjack.btn_{action}",
                action,
                snapshot.state.moves,
                style=_STYLES[action],
                amount=format_amount(amounts.get(action, 0), money),
            )
            for action in PLAY
            if action in legal
        ]
        return [*specs, table_button(lang, table, "blackjack.btn_hint", "hint")]

    async def bet(self, reply: Reply, table: int, on: str | None, amount: str) -> None:
        await wager(reply, table, amount)

    async def deal(self, reply: Reply, table: int) -> None:
        await require_gm(reply.interaction)
        snapshot = await bot_of(reply.interaction).services.tables.act(
            table, reply.interaction.user.id, "deal", as_gm=True
        )
        settled = any(isinstance(e, Settled) for r in snapshot.records for e in r.events)
        key = "blackjack.dealt_settled" if settled else "blackjack.dealt"
        await reply.say(key, hand=snapshot.state.hand_no)


UI = BlackjackUI()
