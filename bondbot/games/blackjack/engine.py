"""Blackjack on the engine contract: each simulating PC plays his hands against the NPC
dealer's bank.

The game itself is `bondbot.rules.blackjack` (a pure state machine); this module adds the
table's side. A round: PCs bet between rounds, the table deals (the PCs who bet, in seat
order), every seat answers insurance when the dealer shows an Ace, then each PC plays his
hands in turn; the dealer plays inside the move that ends the last hand, and the round
settles into transfers at once. A PC who does not act in time stands; an unanswered
insurance is declined. Each lost hand (each split hand on its own, busts included) is a
lost hand paying 1:1 on everything staked on it; insurance and surrender never are.

Money (docs/decisions.md, "Blackjack at the table"): chips stay in the PC's stack until
the round settles, so every stake added mid-round (insurance, double, split) must fit in
his stack beside what he already has on the table (`committed`); a limited bank must
cover the worst case of everything it accepted (`exposure`). A shoe running dry mid-round
voids the round: no chip has moved, and the next deal brings a fresh shoe.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, PlainSerializer, PlainValidator

from bondbot.games.contract import (
    Engine,
    Event,
    Frozen,
    LostHand,
    Move,
    Option,
    Record,
    SeatKey,
    ShownHand,
    Transfer,
    seat_account,
)
from bondbot.money import Cents
from bondbot.rules.blackjack import (
    Action,
    Blackjack,
    BlackjackRules,
    HandResult,
    Outcome,
    Phase,
    hand_total,
)
from bondbot.rules.cards import Card, cards_code, parse_cards
from bondbot.rules.errors import IllegalAction
from bondbot.rules.shoe import Shoe, ShoeEmpty

PLAY = tuple(action.value for action in Action)


def max_win(rules: BlackjackRules, amount: int) -> int:
    num, den = rules.blackjack_pays
    return max(amount, amount * num // den)


LOG_MAX = 12
_IN_ROUND = (Phase.INSURANCE, Phase.PLAYING)


class BlackjackOptions(BaseModel):
    deal: Literal["american", "european"] = "american"
    european_lose_all: bool = True
    hit_soft_17: bool = False
    split_by: Literal["value", "rank"] = "value"
    max_hands: int = Field(default=3, ge=2, le=4)
    surrender: bool = True


def rules_of(options: BlackjackOptions, packs: int) -> BlackjackRules:
    return BlackjackRules(packs=packs, **options.model_dump())


def _game_in(value: Any) -> Blackjack:
    return value if isinstance(value, Blackjack) else Blackjack.from_dict(value)


# The rules engine inside the table's state, stored as its own dictionary.
GameField = Annotated[Blackjack, PlainValidator(_game_in), PlainSerializer(lambda g: g.to_dict())]


class LogEntry(Frozen):
    """One line of the round's public story."""

    kind: str  # dealt, insure, no_insurance, timeout_insurance, hit, stand, …, timeout, void
    seat: SeatKey | None = None
    hand: int = 0  # which of the seat's hands (0 first); the round's number for "dealt"
    card: str | None = None  # the card a hit or a double drew, when shown
    total: int | None = None
    amount: int | None = None  # an insurance's cost
    hands: int | None = None  # hands after a split


class HandLine(Frozen):
    seat: SeatKey
    hand: int
    cards: str
    total: int
    stake: int
    outcome: Outcome
    net: int
    lost: bool  # a Hero Point may win it back


class InsuranceLine(Frozen):
    seat: SeatKey
    amount: int
    net: int


class Settled(Event):
    kind: Literal["settled"] = "settled"
    hand: int
    dealer: str
    dealer_total: int
    dealer_blackjack: bool
    results: tuple[HandLine, ...]
    insurance: tuple[InsuranceLine, ...]

    def net_of(self, seat: SeatKey) -> int:
        return sum(r.net for r in self.results if r.seat == seat) + sum(
            i.net for i in self.insurance if i.seat == seat
        )


class Voided(Event):
    kind: Literal["void"] = "void"
    hand: int


class Logged(Event):
    """A decision as the round's log tells it (the last entry of `log`)."""

    kind: Literal["logged"] = "logged"
    entry: LogEntry


class BlackjackEngine(Engine):
    key = "blackjack"
    moves = frozenset({"wager", "deal", "insure", "no_insurance", *PLAY})

    game: GameField
    min_bet: int
    max_bet: int
    log: list[LogEntry] = Field(default_factory=list)
    last: Settled | Voided | None = Field(default=None, discriminator="kind")

    # -- what is legal -------------------------------------------------------------------

    def options(self) -> list[Option]:
        game = self.game
        if game.phase in (Phase.BETTING, Phase.SETTLED):
            found = [
                Option(kind="wager", seat=seat, min=self.min_bet, max=self.max_bet)
                for seat in self.seats
            ]
            if game.phase is Phase.BETTING and game.seats:
                found.append(Option(kind="deal"))
            return found
        if game.insurance_open:
            return [
                Option(kind=kind, seat=seat)
                for seat in game.insurance_pending
                for kind in ("insure", "no_insurance")
            ]
        current = game.current()
        if current is None:
            return []
        return [Option(kind=a.value, seat=current[0]) for a in game.legal_actions(current[0])]

    def check(self, move: Move) -> None:
        game, seat = self.game, move.seat
        if move.kind == "wager":
            if game.phase in _IN_ROUND:
                raise IllegalAction("blackjack.round_in_progress")
            amount = move.amount or 0
            if not self.min_bet <= amount <= self.max_bet:
                raise IllegalAction(
                    "table.outside_limits", min=Cents(self.min_bet), max=Cents(self.max_bet)
                )
            if amount > (self.stacks.get(str(seat)) or 0):
                raise IllegalAction("table.wager_over_chips")
            bank = self._bank()
            if bank is not None:
                others = self.exposure(without=seat)
                if others + max_win(game.rules, amount) > bank:
                    raise IllegalAction(
                        "table.bank_cannot_cover", available=Cents(max(bank - others, 0))
                    )
        elif move.kind == "deal":
            if seat is not None:
                raise IllegalAction("blackjack.gm_deals")
            if game.phase is Phase.SETTLED or (game.phase is Phase.BETTING and not game.seats):
                raise IllegalAction("blackjack.no_bets")
            if game.phase is not Phase.BETTING:
                raise IllegalAction("blackjack.round_in_progress")
            bank = self._bank()
            if bank is not None and self.exposure() > bank:
                raise IllegalAction("blackjack.bank_short_for_bets", available=Cents(bank))
        elif move.kind in ("insure", "no_insurance"):
            if not game.insurance_open:
                raise IllegalAction("blackjack.no_insurance")
            if seat not in game.seats:
                raise IllegalAction("blackjack.not_in_round")
            if seat not in game.insurance_pending:
                raise IllegalAction("blackjack.already_answered")
            if move.kind == "insure":
                self._check_added(str(seat), game.insurance_cost(str(seat)))
        elif move.kind in PLAY:
            if game.phase is not Phase.PLAYING:
                raise IllegalAction("blackjack.not_playing")
            current = game.current()
            if current is None or current[0] != seat:
                raise IllegalAction("blackjack.not_your_turn", seat=current[0] if current else None)
            if Action(move.kind) not in game.legal_actions(str(seat)):
                raise IllegalAction(f"blackjack.cannot_{move.kind}")
            self._check_added(str(seat), game.action_cost(str(seat), move.kind))

    def _check_added(self, seat: SeatKey, cost: int) -> None:
        """A stake added mid-round must fit in his stack beside what he has on the table,
        and in a limited bank beside what it has accepted (counted twice: it may win 1:1,
        or 2:1 on an insurance)."""
        if not cost:
            return
        free = (self.stacks.get(seat) or 0) - self.committed(seat)
        if cost > free:
            raise IllegalAction("blackjack.chips_short", need=Cents(cost), free=Cents(free))
        bank = self._bank()
        if bank is not None and self.exposure() + 2 * cost > bank:
            left = Cents(max(bank - self.exposure(), 0))
            raise IllegalAction("table.bank_cannot_cover", available=left)

    def _bank(self) -> int | None:
        """What the NPC's bank can still pay (None: unlimited)."""
        return self.stacks.get(str(self.npc))

    # -- doing it ------------------------------------------------------------------------

    def play(self, move: Move) -> Record:
        before = self.game.to_dict()
        try:
            return self._play(move)
        except ShoeEmpty:
            return self._void(move, before)

    def _play(self, move: Move) -> Record:
        game, seat = self.game, move.seat
        if move.kind == "wager":
            assert seat is not None
            if game.phase is Phase.SETTLED:
                game.next_round()
            if not game.seats:  # a round's first bet
                self.begin_hand()
            if seat in game.seats:  # a new bet replaces his bet for this round
                game.cancel_bet(seat)
            game.place_bet(seat, int(move.amount or 0))
            return Record(move=move)
        if move.kind == "deal":
            self.hand += 1
            game.start_round([s for s in self.seats if s in game.seats])
            self.log = [LogEntry(kind="dealt", hand=self.hand)]
            return self._after(move)
        if move.kind in ("insure", "no_insurance"):
            assert seat is not None
            take = move.kind == "insure"
            cost = game.insurance_cost(seat) if take else 0
            game.insure(seat, take)
            if move.auto == "timeout":
                self.log.append(LogEntry(kind="timeout_insurance", seat=seat))
            else:
                self.log.append(LogEntry(kind=move.kind, seat=seat, amount=cost))
            return self._after(move)
        current = game.current()
        assert current is not None and seat is not None
        game.act(seat, move.kind)
        self.log.append(self._entry(move, seat, current[1]))
        return self._after(move)

    def _entry(self, move: Move, seat: SeatKey, index: int) -> LogEntry:
        game = self.game
        hand = game.hands(seat)[index]
        kind = "timeout" if move.auto == "timeout" else move.kind
        hidden = (
            move.kind == "double" and not game.rules.european and game.phase is not Phase.SETTLED
        )
        if move.kind in ("hit", "double") and not hidden:
            return LogEntry(
                kind=kind, seat=seat, hand=index, card=hand.cards[-1].code, total=hand.total
            )
        if move.kind == "split":
            return LogEntry(kind=kind, seat=seat, hand=index, hands=len(game.hands(seat)))
        return LogEntry(kind=kind, seat=seat, hand=index)

    def _after(self, move: Move) -> Record:
        self.log = self.log[-LOG_MAX:]
        events: tuple[Event, ...] = (Logged(entry=self.log[-1]),)
        if self.game.phase is not Phase.SETTLED:
            return Record(move=move, events=events)
        return self._settle(move, events)

    def _settle(self, move: Move, events: tuple[Event, ...]) -> Record:
        game = self.game
        npc = seat_account(str(self.npc))
        transfers: list[Transfer] = []
        lost: list[LostHand] = []
        results = []
        # What a Hero Point may win back: never a surrender or an insurance.
        lost_hands = {(r.seat, r.hand_index) for seat in game.seats for r in game.lost_hands(seat)}
        for result in game.results:
            transfers += self._net(result.seat, result.net, _reason(result), npc)
            losing = (result.seat, result.hand_index) in lost_hands and result.net < 0
            if losing:
                label = f"{result.hand_index}:{result.outcome.value}:{result.stake}"
                lost.append(LostHand(seat=result.seat, label=label, pay=result.stake - result.net))
            results.append(
                HandLine(
                    seat=result.seat,
                    hand=result.hand_index,
                    cards=cards_code(result.cards),
                    total=hand_total(result.cards)[0],
                    stake=result.stake,
                    outcome=result.outcome,
                    net=result.net,
                    lost=losing,
                )
            )
        insurance = []
        for seat, net in game.insurance_results.items():
            transfers += self._net(seat, net, "blackjack.insurance", npc)
            insurance.append(InsuranceLine(seat=seat, amount=game.insurance(seat), net=net))
        dealer = game.dealer_cards
        self.log.append(LogEntry(kind="settled"))
        self.last = Settled(
            hand=self.hand,
            dealer=cards_code(dealer),
            dealer_total=hand_total(dealer)[0],
            dealer_blackjack=len(dealer) == 2 and hand_total(dealer)[0] == 21,
            results=tuple(results),
            insurance=tuple(insurance),
        )
        return Record(
            move=move,
            events=(*events, self.last),
            transfers=tuple(transfers),
            lost=tuple(lost),
            hand_over=True,
        )

    @staticmethod
    def _net(seat: SeatKey, net: int, reason: str, npc: str) -> list[Transfer]:
        if net > 0:
            return [Transfer(src=npc, dst=seat_account(seat), amount=net, reason=reason)]
        if net < 0:
            return [Transfer(src=seat_account(seat), dst=npc, amount=-net, reason=reason)]
        return []

    def _void(self, move: Move, before: dict[str, Any]) -> Record:
        """The shoe ran dry mid-round: forget the round (no chip moved), empty the shoe."""
        game = Blackjack.from_dict(before)
        shoe = game.shoe
        shoe.position += shoe.remaining
        self.game = Blackjack(shoe, game.rules)
        self.log.append(LogEntry(kind="void"))
        self.last = Voided(hand=self.hand)
        return Record(move=move, events=(self.last,), hand_over=True)

    # -- turns ---------------------------------------------------------------------------

    def turn(self) -> tuple[SeatKey, ...]:
        game = self.game
        if game.insurance_open:
            return game.insurance_pending
        current = game.current()
        return () if current is None else (current[0],)

    def timeout_move(self, seat: SeatKey) -> Move | None:
        if self.game.insurance_open:
            return Move(kind="no_insurance", seat=seat, auto="timeout")
        return Move(kind="stand", seat=seat, auto="timeout")

    def in_hand(self) -> bool:
        return self.game.phase in _IN_ROUND

    # -- money the table checks ----------------------------------------------------------

    def least_stack(self) -> int:
        return self.min_bet

    def committed(self, seat: SeatKey) -> int:
        """What the seat has on the table this round and could still lose."""
        game = self.game
        if seat not in game.seats or game.phase is Phase.SETTLED:
            return 0
        hands = game.hands(seat)
        staked = sum(hand.stake for hand in hands) if hands else game.bet(seat)
        return staked + game.insurance(seat)

    def exposure(self, without: SeatKey | None = None) -> int:
        """The most the bank could pay: an original hand 3:2, others 1:1, insurance 2:1."""
        game = self.game
        if game.phase is Phase.SETTLED:
            return 0
        num, den = game.rules.blackjack_pays
        total = 0
        for seat in game.seats:
            if seat == without:
                continue
            total += 2 * game.insurance(seat)
            hands = game.hands(seat)
            if not hands:
                total += max(game.bet(seat), game.bet(seat) * num // den)
            for hand in hands:
                if hand.surrendered:
                    continue
                original = not hand.split and not hand.doubled and len(hand.cards) <= 2
                total += max(hand.stake, hand.stake * num // den) if original else hand.stake
        return total

    # -- what everyone has seen ----------------------------------------------------------

    def hidden_cards(self) -> set[Card]:
        """Dealt and face down during a round: the American hole card, and an American
        double's card; everything shows at settlement."""
        game = self.game
        if game.phase not in _IN_ROUND:
            return set()
        hidden = set(game.dealer_cards[len(game.dealer_visible) :])
        if not game.rules.european:
            for seat in game.seats:
                hidden.update(hand.cards[-1] for hand in game.hands(seat) if hand.doubled)
        return hidden

    def shown_hands(self) -> tuple[ShownHand, ...]:
        """The last settled round as its result shows it (`ui._results`): the dealer's hand,
        then every hand in seat order (a split seat's hands one after the other), each
        with its total. Nothing before a round has settled, nor for a voided round."""
        last = self.last
        if not isinstance(last, Settled):
            return ()
        dealer = self.npc if self.npc is not None else "banker"
        rows = [ShownHand(dealer, tuple(parse_cards(last.dealer)), last.dealer_total, "dealer")]
        rows += [
            ShownHand(line.seat, tuple(parse_cards(line.cards)), line.total)
            for line in last.results
        ]
        return tuple(rows)

    # -- the shoe and the seats ----------------------------------------------------------

    def current_shoe(self) -> Shoe:
        return self.game.shoe

    @property
    def needs_new_shoe(self) -> bool:
        return self.game.phase not in _IN_ROUND and self.game.needs_shuffle

    def replace_shoe(self, shoe: Shoe) -> None:
        self.game.replace_shoe(shoe)

    def stand_up(self, seat: SeatKey) -> None:
        """Between rounds his bet is dropped; with a hand in play he cannot leave."""
        if self.in_hand() and seat in self.game.seats:
            raise IllegalAction("blackjack.leave_mid_round")
        if self.game.phase is Phase.BETTING and seat in self.game.seats:
            self.game.cancel_bet(seat)
        if seat in self.seats:
            self.seats.remove(seat)


def _reason(result: HandResult) -> str:
    return {
        Outcome.BLACKJACK: "blackjack.blackjack",
        Outcome.WIN: "blackjack.win",
        Outcome.LOSE: "blackjack.loss",
        Outcome.BUST: "blackjack.bust",
        Outcome.SURRENDER: "blackjack.surrender",
    }.get(result.outcome, "blackjack.push")
