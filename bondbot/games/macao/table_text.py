"""What the Macao table message says, rebuilt from the engine's state after every action.

Everything here is public: a hand's first two cards appear only once the engine has shown
them (a natural, a bust, the showdown); third cards are dealt face up. The coup's story is
read from the engine's `history` (the moves of the coup, timeouts marked) and its state,
so it survives a restart. Every total goes through `counting.hand_total`, under the
table's scheme.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bondbot.bot.tables.common import names, short
from bondbot.bot.tables.glance import latest
from bondbot.games.contract import Move
from bondbot.games.macao.counting import card_value, hand_total, is_bust, natural_of
from bondbot.games.macao.drawing import allowing_third
from bondbot.games.macao.engine import Bank, Macao, Phase, PlayerHand
from bondbot.i18n import Lang, plural, t
from bondbot.money import format_amount
from bondbot.rules.cards import Card, cards_pretty
from bondbot.tables.service import TableSnapshot


def engine_of(snapshot: TableSnapshot) -> Macao:
    engine = snapshot.state.engine
    assert isinstance(engine, Macao)
    return engine


def when(deadline: str | None) -> str:
    """A Discord relative timestamp (`in 1 minute`), shown in each reader's own time."""
    if deadline is None:
        return "—"
    return f"<t:{int(datetime.fromisoformat(deadline).timestamp())}:R>"


def total_text(engine: Macao, cards: Sequence[Card], lang: Lang) -> str:
    total = hand_total(cards, engine.rules.counting)
    return t("macao.total_bust", lang, total=total) if is_bust(total) else str(total)


def hand_text(engine: Macao, cards: Sequence[Card], lang: Lang) -> str:
    return t(
        "macao.hand_shown", lang, cards=cards_pretty(cards), total=total_text(engine, cards, lang)
    )


def hand_of(engine: Macao, seat: str) -> PlayerHand | None:
    return next((hand for hand in engine.players if hand.seat == seat), None)


class TableText:
    """The table message's Macao parts for one snapshot, in one language."""

    def __init__(self, snapshot: TableSnapshot, lang: Lang, money: str) -> None:
        self.snapshot = snapshot
        self.engine = engine_of(snapshot)
        self.lang = lang
        self.money = money
        self.names = names(snapshot)

    def t(self, key: str, **params: object) -> str:
        return t(f"macao.{key}", self.lang, **params)

    def name(self, seat: str | None) -> str:
        return "?" if seat is None else self.names.get(int(seat), "?")

    def amount(self, cents: int) -> str:
        return format_amount(cents, self.money)

    # -- a seat's line ---------------------------------------------------------------------

    def seat_extra(self, character_id: int) -> str | None:
        """A seated PC's part of the coup in play: banker, wager, third card, shown hand."""
        engine, seat = self.engine, str(character_id)
        if not engine.in_hand():
            return None
        parts = []
        if seat == engine.banker:
            parts.append(self.t("seat_banker"))
        hand = hand_of(engine, seat)
        if hand is not None:
            if engine.actor == seat:
                parts.append(self.to_act(seat))
            if not hand.decided:
                parts.append(self.t("seat_deciding"))
            elif hand.wager is None:
                parts.append(self.t("seat_passes"))
            else:
                parts.append(self.wager_text(hand))
            if hand.shown:
                parts.append(hand_text(engine, hand.cards, self.lang))
            elif len(hand.cards) == 3:
                parts.append(self.t("seat_third", card=hand.cards[2].pretty))
            if hand.net is not None:
                parts.append(self.outcome(hand.net))
        elif seat == engine.banker and engine.actor == seat:
            parts.append(self.to_act(seat))
        return " · ".join(parts) or None

    def to_act(self, seat: str) -> str:
        """His turn: to draw, or to stand when standing is all he may do (issue 34)."""
        kinds = {option.kind for option in self.engine.options() if option.seat == seat}
        return self.t("seat_to_draw" if "draw" in kinds or not kinds else "seat_to_stand")

    def wager_text(self, hand: PlayerHand) -> str:
        assert hand.wager is not None
        return self.t(
            "seat_wager",
            amount=self.amount(hand.wager.stake),
            target=self.t(f"target_{hand.wager.target}"),
        )

    def outcome(self, net: int) -> str:
        if net > 0:
            return self.t("outcome_win", net=self.amount(net))
        if net < 0:
            return self.t("outcome_loss", net=self.amount(-net))
        return self.t("outcome_even")

    # -- the public fields -----------------------------------------------------------------

    def fields(self) -> list[tuple[str, str]]:
        found = [(self.t("field"), "\n".join(self.header()))]
        engine = self.engine
        if engine.hand:
            # The coup's latest moves (each seat's line holds his wager and hand), then
            # the results settled so far.
            story = [*latest(self.story(), self.lang), *self.results()]
            found.append((self.t("this_coup", coup=engine.hand), "\n".join(story)))
        if engine.phase is Phase.OVER:
            found.append((self.t("evening"), "\n".join(self.standings())))
        return found

    def header(self) -> list[str]:
        engine, state = self.engine, self.snapshot.state
        rules = engine.rules
        lines = [
            self.t(
                "counting_line", counting=self.t(f"counting_{rules.counting}"), tie=rules.tie_pays
            )
        ]
        if rules.bank is Bank.NPC:
            lines.append(self.t("bank_npc", npc=self.name(state.npc_key)))
        elif engine.in_hand():
            lines.append(self.t("bank_rotate", banker=self.name(engine.banker)))
        elif (upcoming := engine.next_banker()) is not None:
            lines.append(self.t("bank_rotate_next", banker=self.name(upcoming)))
        coup = engine.hand
        if coup:  # on the bank's line: one line for who banks which coup
            lines[-1] += " · " + (
                self.t("coup_open", coup=coup)
                if rules.coups is None
                else self.t("coup_of", coup=coup, coups=rules.coups)
            )
        lines.append(self.status())
        if engine.in_hand():  # shown only when the coup ends: see `results`
            lines.append(self.t("banker_hidden", name=self.name(engine.banker)))
        return lines

    def status(self) -> str:
        engine, deadline = self.engine, when(self.snapshot.state.deadline)
        match engine.phase:
            case Phase.WAGERS:
                waiting = ", ".join(self.name(seat) for seat in engine.turn())
                return self.t("status_wagers", names=waiting, when=deadline)
            case Phase.DRAWS:
                return self.t("status_draw", name=self.name(engine.actor), when=deadline)
            case Phase.BANKER:
                return self.t("status_banker", name=self.name(engine.actor), when=deadline)
            case Phase.OVER:
                return plural("macao.status_over", self.lang, engine.hand)
        return self.t("status_idle")

    # -- the coup's story ------------------------------------------------------------------

    def story(self) -> list[str]:
        """One line per move of the coup, with what it showed."""
        lines: list[str] = []
        for move in self.engine.history:
            lines += self.told(move)
        return lines

    def told(self, move: Move) -> list[str]:
        engine = self.engine
        name = self.name(move.seat)
        timeout = move.auto == "timeout"
        match move.kind:
            case "deal":
                return [self.t("log_dealt", coup=engine.hand, banker=self.name(engine.banker))]
            case "wager":
                assert move.amount is not None
                target = self.t(f"target_{move.target}")
                return [
                    self.t("log_wager", name=name, amount=self.amount(move.amount), target=target)
                ]
            case "pass":
                return [self.t("log_pass_timeout" if timeout else "log_pass", name=name)]
            case "naturals":
                return self.naturals()
            case "draw" | "stand" if move.seat == engine.banker:
                told = (
                    self.banker_drew()
                    if move.kind == "draw"
                    else self.t("log_banker_stand", name=name)
                )
                return [self.t("log_banker_timeout", name=name), told] if timeout else [told]
            case "draw":
                return [self.player_drew(move, name)]
            case "stand":
                return [self.t("log_stand_timeout" if timeout else "log_stand", name=name)]
            case "end":
                return [self.t("log_end")]
        return []

    def naturals(self) -> list[str]:
        engine = self.engine
        lines = []
        two = engine.bank_cards[:2]
        bank_natural = natural_of(hand_total(two, engine.rules.counting), 2)
        if engine.bank_shown and bank_natural is not None:
            lines.append(
                self.t(
                    "log_banker_natural",
                    name=self.name(engine.banker),
                    natural=bank_natural,
                    cards=cards_pretty(two),
                )
            )
        for hand in engine.players:
            if not hand.shown or len(hand.cards) != 2 or hand.net is None:
                continue
            total = hand_total(hand.cards, engine.rules.counting)
            natural = natural_of(total, 2)
            params = {"name": self.name(hand.seat), "cards": cards_pretty(hand.cards)}
            if natural is not None:
                lines.append(self.t("log_natural", natural=natural, **params))
            elif is_bust(total):
                lines.append(self.t("log_bust_two", total=total, **params))
        return lines or [self.t("log_no_natural")]

    def player_drew(self, move: Move, name: str) -> str:
        hand = hand_of(self.engine, str(move.seat))
        assert hand is not None and len(hand.cards) == 3
        card = hand.cards[2].pretty
        total = hand_total(hand.cards, self.engine.rules.counting)
        if is_bust(total):
            return self.t(
                "log_draw_bust", name=name, card=card, cards=cards_pretty(hand.cards), total=total
            )
        key = "log_draw_timeout" if move.auto == "timeout" else "log_draw"
        return self.t(key, name=name, card=card)

    def banker_drew(self) -> str:
        engine = self.engine
        name, card = self.name(engine.banker), engine.bank_cards[2].pretty
        drawn = [hand for hand in engine.players if len(hand.cards) == 3]
        two = hand_total(engine.bank_cards[:2], engine.rules.counting)
        index = allowing_third(two, [card_value(hand.cards[2]) for hand in drawn])
        if index is None:
            return self.t("log_banker_draw", name=name, card=card)
        by = drawn[index]
        return self.t(
            "log_banker_draw_allowed",
            name=name,
            card=card,
            by=self.name(by.seat),
            third=by.cards[2].pretty,
        )

    def results(self) -> list[str]:
        """The banker's hand once shown, each settled wager, and a Hero Point spent on it."""
        engine, state = self.engine, self.snapshot.state
        offers = {o.character_id: o for o in state.offers if o.hand == engine.hand}
        lines = []
        if engine.bank_shown:
            lines.append(
                self.t(
                    "banker_shown",
                    name=self.name(engine.banker),
                    hand=hand_text(engine, engine.bank_cards, self.lang),
                )
            )
        for hand in engine.players:
            if hand.net is None or hand.wager is None:
                continue
            name = self.name(hand.seat)
            line = self.t(
                "result_line",
                name=name,
                hand=hand_text(engine, hand.cards, self.lang)
                if hand.shown
                else self.t("hand_hidden"),
                amount=self.amount(hand.wager.stake),
                target=self.t(f"target_{hand.wager.target}"),
                outcome=self.outcome(hand.net),
            )
            # An open offer is in the table's Hero Points field, with its button.
            offer = offers.get(int(hand.seat)) if hand.seat != state.npc_key else None
            if offer is not None and offer.spent:
                line += " — " + self.t("won_back", name=name, pay=self.amount(offer.pay))
            lines.append(line)
        return lines

    # -- the end of the evening ------------------------------------------------------------

    def standings(self) -> list[str]:
        """Who has the most chips: the winner first, then everyone, most chips first."""
        rows = self.chips()
        if not rows:
            return [plural("macao.status_over", self.lang, self.engine.hand)]
        best = max(chips for _, chips in rows)
        winners = " & ".join(name for name, chips in rows if chips == best)
        lines = [self.t("winner", names=winners, chips=self.amount(best))]
        lines += [
            self.t("standing", name=name, chips=self.amount(chips))
            for name, chips in sorted(rows, key=lambda row: -row[1])
        ]
        return lines

    def chips(self) -> list[tuple[str, int]]:
        """Every player of the evening's chips now (Hero Points spent after the last coup
        count): the seated PCs who play, and the NPC when the bank rotates and its bankroll
        is counted."""
        snapshot, engine = self.snapshot, self.engine
        rows = [
            (short(seat.name), snapshot.chips.get(seat.character_id, 0))
            for seat in snapshot.state.seats
            if str(seat.character_id) in engine.seats
        ]
        if engine.rules.bank is Bank.ROTATE and snapshot.bank is not None:
            rows.append((short(snapshot.state.npc_name), snapshot.bank))
        return rows
