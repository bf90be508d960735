"""Blackjack against the NPC dealer (`blackjack.md`): a pure, serialisable state machine.

Phases at rest: betting → insurance (dealer shows an Ace) → playing (seat order, hand by
hand) → settled. The dealer plays inside the call that ends the last hand, so "dealer" is
never a resting phase. The engine never reshuffles: `needs_shuffle` tells the caller to
`replace_shoe` between rounds, and `start_round` refuses a shoe past its cut card.

Decisions where blackjack.md is silent:
- Cents: fractions are rounded for the house. Blackjack pays `stake * 3 // 2`; insurance
  costs `bet // 2`; a surrender gets back `stake // 2`.
- A hand reaching 21 (a blackjack too) stands by itself.
- After a split the first hand takes its second card at once, each later hand when it
  becomes the hand to act; split Aces take one card each at once and stand.
- Double on any two-card hand (after a split too, not on split Aces). Surrender only on
  the original two cards, never after a split.
- Insurance is offered to every seat (on a blackjack it is "even money") and the round
  waits for every answer (the caller answers False on timeout). The European deal insures
  added wagers only when they are at risk (`european_lose_all`); so the insured player's
  net is 0 against a dealer blackjack in both variants.
- European, `european_lose_all=False`: against a dealer blackjack a seat's live hands lose
  one original wager between them (charged to the first, the others push); busts and
  surrenders were settled before the dealer's card and stay lost.
- The dealer draws only when a hand can still be decided by his cards: his European second
  card when a hand is live or an insurance is open, more cards when a live hand is not a
  blackjack.
- A Hero Point (`won_back`) turns a lost or busted hand into a 1:1 win on its whole stake,
  once; surrenders and insurance cannot be won back.

The terms (card values, rules, actions, phases, outcomes, hand results and views) are in
`rules.blackjack_terms`, and importable from here too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from bondbot.rules.blackjack_terms import (
    LOST,
    VALUES,
    Action,
    BlackjackRules,
    HandResult,
    HandView,
    Outcome,
    Phase,
    hand_total,
)
from bondbot.rules.cards import Card, cards_code, parse_cards
from bondbot.rules.errors import IllegalAction
from bondbot.rules.shoe import Shoe


@dataclass(slots=True)
class _Hand:
    cards: list[Card]
    stake: int
    split: bool = False
    doubled: bool = False
    surrendered: bool = False
    done: bool = False

    def is_blackjack(self) -> bool:
        return not self.split and len(self.cards) == 2 and hand_total(self.cards)[0] == 21

    def is_live(self) -> bool:
        return not self.surrendered and hand_total(self.cards)[0] <= 21

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["cards"] = cards_code(self.cards)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> _Hand:
        return cls(**{**data, "cards": parse_cards(data["cards"])})


@dataclass(slots=True)
class _Seat:
    name: str
    bet: int
    hands: list[_Hand] = field(default_factory=list)
    insurance: int | None = None  # None: not asked or not answered; 0: declined
    insurance_net: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.name,
            "bet": self.bet,
            "hands": [hand.to_dict() for hand in self.hands],
            "insurance": self.insurance,
            "insurance_net": self.insurance_net,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> _Seat:
        hands = [_Hand.from_dict(hand) for hand in data["hands"]]
        return cls(data["seat"], data["bet"], hands, data["insurance"], data["insurance_net"])


def _is_ten_or_ace(card: Card) -> bool:
    return VALUES[card.rank] in (1, 10)


class Blackjack:
    """One blackjack table: bets, deal, insurance, players' decisions, dealer, settlement.

    Every refused call raises IllegalAction (`blackjack.*`) and changes nothing. Running a
    stacked shoe dry mid-round raises ShoeEmpty: give a test shoe enough cards.
    """

    def __init__(self, shoe: Shoe, rules: BlackjackRules | None = None) -> None:
        self._rules = rules or BlackjackRules()
        self._shoe = shoe
        self._phase = Phase.BETTING
        self._seats: list[_Seat] = []
        self._dealer: list[Card] = []
        self._turn: tuple[int, int] | None = None
        self._results: list[HandResult] = []

    # -- read-only state -------------------------------------------------------------

    @property
    def rules(self) -> BlackjackRules:
        return self._rules

    @property
    def shoe(self) -> Shoe:
        return self._shoe

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def seats(self) -> tuple[str, ...]:
        """Seats with a bet, in playing order once the round has started."""
        return tuple(seat.name for seat in self._seats)

    @property
    def needs_shuffle(self) -> bool:
        """The cut card is out: replace the shoe before the next round."""
        return self._shoe.past_cut

    @property
    def dealer_cards(self) -> tuple[Card, ...]:
        """All the dealer's cards, the American hole card included (not for display)."""
        return tuple(self._dealer)

    @property
    def dealer_up(self) -> Card | None:
        """The dealer's face-up card, once dealt."""
        return self._dealer[0] if self._dealer else None

    @property
    def dealer_visible(self) -> tuple[Card, ...]:
        """What the table sees: the up card only until the round is settled."""
        return tuple(self._dealer) if self._phase is Phase.SETTLED else tuple(self._dealer[:1])

    @property
    def insurance_open(self) -> bool:
        return self._phase is Phase.INSURANCE

    @property
    def insurance_pending(self) -> tuple[str, ...]:
        """Seats still to answer the insurance offer."""
        if self._phase is not Phase.INSURANCE:
            return ()
        return tuple(seat.name for seat in self._seats if seat.insurance is None)

    def bet(self, seat: str) -> int:
        return self._seat(seat).bet

    def insurance(self, seat: str) -> int:
        """Total insured for the seat this round (0 if none)."""
        return self._seat(seat).insurance or 0

    def hands(self, seat: str) -> tuple[HandView, ...]:
        return tuple(
            HandView(tuple(h.cards), h.stake, h.split, h.doubled, h.surrendered, h.done)
            for h in self._seat(seat).hands
        )

    def current(self) -> tuple[str, int] | None:
        """The (seat, hand index) to act, or None outside the players' turn."""
        if self._turn is None:
            return None
        return self._seats[self._turn[0]].name, self._turn[1]

    # -- betting ---------------------------------------------------------------------

    def place_bet(self, seat: str, amount: int) -> None:
        """Stake `amount` cents for `seat` on the next round; one bet per seat."""
        self._need_phase(Phase.BETTING, "blackjack.not_betting")
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise IllegalAction("blackjack.bad_amount", amount=amount)
        if any(s.name == seat for s in self._seats):
            raise IllegalAction("blackjack.already_bet", seat=seat)
        self._seats.append(_Seat(seat, amount))

    def cancel_bet(self, seat: str) -> None:
        self._need_phase(Phase.BETTING, "blackjack.not_betting")
        self._seats.remove(self._seat(seat))

    def replace_shoe(self, shoe: Shoe) -> None:
        """Put a fresh shoe in, between rounds only."""
        if self._phase not in (Phase.BETTING, Phase.SETTLED):
            raise IllegalAction("blackjack.mid_round")
        self._shoe = shoe

    def start_round(self, order: Sequence[str] | None = None) -> None:
        """Deal. Seats play in `order` (all seats with a bet) or in the order they bet."""
        self._need_phase(Phase.BETTING, "blackjack.not_betting")
        if not self._seats:
            raise IllegalAction("blackjack.no_bets")
        if self._shoe.past_cut:
            raise IllegalAction("blackjack.shoe_past_cut")
        if order is not None:
            names = list(order)
            if sorted(names) != sorted(self.seats):
                raise IllegalAction("blackjack.bad_seat_order", order=names)
            by_name = {seat.name: seat for seat in self._seats}
            self._seats = [by_name[name] for name in names]
        deal = self._shoe.deal
        for seat in self._seats:
            seat.hands = [_Hand([deal()], seat.bet)]
        self._dealer = [deal()]
        for seat in self._seats:
            seat.hands[0].cards.append(deal())
        if not self._rules.european:
            self._dealer.append(deal())
        if self._dealer[0].rank == "A":
            self._phase = Phase.INSURANCE
        else:
            self._begin_play()

    # -- insurance -------------------------------------------------------------------

    def insurance_cost(self, seat: str) -> int:
        return self._seat(seat).bet // 2

    def insure(self, seat: str, take: bool) -> None:
        """Answer the insurance offer; the last answer lets play (or the peek) go on."""
        self._need_phase(Phase.INSURANCE, "blackjack.no_insurance")
        state = self._seat(seat)
        if state.insurance is not None:
            raise IllegalAction("blackjack.already_answered", seat=seat)
        amount = state.bet // 2 if take else 0
        if take and amount == 0:
            raise IllegalAction("blackjack.insurance_too_small", seat=seat)
        state.insurance = amount
        if all(s.insurance is not None for s in self._seats):
            self._begin_play()

    # -- players' turn ---------------------------------------------------------------

    def legal_actions(self, seat: str) -> list[Action]:
        """What `seat` may do now: empty unless it holds the hand to act."""
        if self._turn is None or self._seats[self._turn[0]].name != seat:
            return []
        state = self._seats[self._turn[0]]
        hand = state.hands[self._turn[1]]
        actions = [Action.HIT, Action.STAND]
        if len(hand.cards) == 2:
            actions.append(Action.DOUBLE)
            if len(state.hands) < self._rules.max_hands and self._pair(hand.cards):
                actions.append(Action.SPLIT)
            if self._rules.surrender and not hand.split:
                actions.append(Action.SURRENDER)
        return actions

    def action_cost(self, seat: str, action: Action | str) -> int:
        """Cents the action adds to the table (a European insured seat insures it too)."""
        if action not in (Action.DOUBLE, Action.SPLIT) or self._turn is None:
            return 0
        state = self._seats[self._turn[0]]
        if state.name != seat:
            return 0
        added = state.hands[self._turn[1]].stake
        return added + self._added_insurance(state, added)

    def act(self, seat: str, action: Action | str) -> None:
        """Play `action` on the hand to act; the dealer plays after the last hand."""
        if self._phase is not Phase.PLAYING:
            raise IllegalAction("blackjack.not_playing")
        try:
            action = Action(action)
        except ValueError:
            raise IllegalAction("blackjack.unknown_action", action=str(action)) from None
        if self._turn is None or self._seats[self._turn[0]].name != seat:
            raise IllegalAction("blackjack.not_your_turn", seat=seat)
        if action not in self.legal_actions(seat):
            raise IllegalAction(f"blackjack.cannot_{action.value}", seat=seat)
        state = self._seats[self._turn[0]]
        hand = state.hands[self._turn[1]]
        deal = self._shoe.deal
        if action is Action.HIT:
            hand.cards.append(deal())  # _advance stands it at 21 or more
        elif action is Action.STAND:
            hand.done = True
        elif action is Action.SURRENDER:
            hand.surrendered = hand.done = True
        elif action is Action.DOUBLE:
            self._insure_added(state, hand.stake)
            hand.stake *= 2
            hand.doubled = hand.done = True
            hand.cards.append(deal())
        else:
            self._split(state, self._turn[1])
        self._advance()

    # -- results ---------------------------------------------------------------------

    @property
    def results(self) -> tuple[HandResult, ...]:
        """Every hand's result once settled (in seat then hand order), else empty."""
        return tuple(self._results)

    @property
    def insurance_results(self) -> dict[str, int]:
        """Net of each insured seat's insurance, once it is settled."""
        return {
            seat.name: seat.insurance_net
            for seat in self._seats
            if seat.insurance and seat.insurance_net is not None
        }

    def seat_net(self, seat: str) -> int:
        """The seat's net for the round: hands plus insurance."""
        state = self._seat(seat)
        hands = sum(r.net for r in self._results if r.seat == seat)
        return hands + (state.insurance_net or 0)

    @property
    def dealer_net(self) -> int:
        """What the dealer (the NPC) gained this round."""
        return -sum(self.seat_net(seat.name) for seat in self._seats)

    def lost_hands(self, seat: str) -> list[HandResult]:
        """The seat's hands a Hero Point could still win back."""
        return [r for r in self._results if r.seat == seat and r.outcome in LOST and not r.won_back]

    def won_back(self, result: HandResult) -> HandResult:
        """Spend a Hero Point: the lost hand wins 1:1 on everything staked on it."""
        if self._phase is not Phase.SETTLED:
            raise IllegalAction("blackjack.not_settled")
        key = (result.seat, result.hand_index, result.cards, result.stake)
        index = next(
            (
                i
                for i, r in enumerate(self._results)
                if (r.seat, r.hand_index, r.cards, r.stake) == key
            ),
            None,
        )
        if index is None:
            raise IllegalAction("blackjack.unknown_hand", seat=result.seat)
        stored = self._results[index]
        if stored.won_back:
            raise IllegalAction("blackjack.already_won_back", seat=result.seat)
        if stored.outcome is Outcome.SURRENDER:
            raise IllegalAction("blackjack.cannot_win_back_surrender", seat=result.seat)
        if stored.outcome not in LOST:
            raise IllegalAction("blackjack.not_lost", seat=result.seat)
        won = replace(stored, outcome=Outcome.WIN, net=stored.stake, won_back=True)
        self._results[index] = won
        return won

    def next_round(self) -> None:
        """Clear the settled round and open betting again (same shoe)."""
        self._need_phase(Phase.SETTLED, "blackjack.not_settled")
        self._phase = Phase.BETTING
        self._seats, self._dealer, self._results, self._turn = [], [], [], None

    # -- serialisation ---------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Blackjack):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self._rules.to_dict(),
            "shoe": self._shoe.to_dict(),
            "phase": self._phase.value,
            "seats": [seat.to_dict() for seat in self._seats],
            "dealer": cards_code(self._dealer),
            "turn": None if self._turn is None else list(self._turn),
            "results": [r.to_dict() for r in self._results],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Blackjack:
        game = cls(Shoe.from_dict(data["shoe"]), BlackjackRules.from_dict(data["rules"]))
        game._phase = Phase(data["phase"])
        game._seats = [_Seat.from_dict(seat) for seat in data["seats"]]
        game._dealer = parse_cards(data["dealer"])
        game._turn = None if data["turn"] is None else (data["turn"][0], data["turn"][1])
        game._results = [HandResult.from_dict(r) for r in data["results"]]
        return game

    # -- internals -------------------------------------------------------------------

    def _seat(self, name: str) -> _Seat:
        for seat in self._seats:
            if seat.name == name:
                return seat
        raise IllegalAction("blackjack.not_seated", seat=name)

    def _need_phase(self, phase: Phase, code: str) -> None:
        if self._phase is not phase:
            raise IllegalAction(code, phase=self._phase.value)

    def _pair(self, cards: list[Card]) -> bool:
        first, second = cards
        if self._rules.split_by == "rank":
            return first.rank == second.rank
        return VALUES[first.rank] == VALUES[second.rank]

    def _dealer_blackjack(self) -> bool:
        return len(self._dealer) == 2 and hand_total(self._dealer)[0] == 21

    def _added_insurance(self, seat: _Seat, added: int) -> int:
        rules = self._rules
        if rules.european and rules.european_lose_all and seat.insurance:
            return added // 2
        return 0

    def _insure_added(self, seat: _Seat, added: int) -> None:
        if extra := self._added_insurance(seat, added):
            seat.insurance = (seat.insurance or 0) + extra

    def _begin_play(self) -> None:
        """After the deal (and insurance): American peek, then the first hand to act."""
        if not self._rules.european and _is_ten_or_ace(self._dealer[0]):
            if self._dealer_blackjack():
                self._settle()
                return
            for seat in self._seats:
                if seat.insurance:
                    seat.insurance_net = -seat.insurance
        self._phase = Phase.PLAYING
        self._turn = (0, 0)
        self._advance()

    def _split(self, seat: _Seat, index: int) -> None:
        hand = seat.hands[index]
        self._insure_added(seat, hand.stake)
        second = hand.cards.pop()
        hand.split = True
        other = _Hand([second], hand.stake, split=True)
        seat.hands.insert(index + 1, other)
        hand.cards.append(self._shoe.deal())
        if second.rank == "A":
            other.cards.append(self._shoe.deal())
            hand.done = other.done = True

    def _advance(self) -> None:
        """Move the turn to the next hand needing a decision, or play the dealer."""
        assert self._turn is not None
        seat_index, hand_index = self._turn
        while seat_index < len(self._seats):
            hands = self._seats[seat_index].hands
            while hand_index < len(hands):
                hand = hands[hand_index]
                if not hand.done:
                    if len(hand.cards) == 1:
                        hand.cards.append(self._shoe.deal())
                    if hand_total(hand.cards)[0] >= 21:
                        hand.done = True
                    else:
                        self._turn = (seat_index, hand_index)
                        return
                hand_index += 1
            seat_index += 1
            hand_index = 0
        self._turn = None
        self._play_dealer()
        self._settle()

    def _play_dealer(self) -> None:
        live = [hand for seat in self._seats for hand in seat.hands if hand.is_live()]
        wanted = live or any(seat.insurance for seat in self._seats)
        if self._rules.european and len(self._dealer) == 1 and wanted:
            self._dealer.append(self._shoe.deal())
        if self._dealer_blackjack() or all(hand.is_blackjack() for hand in live):
            return
        while True:
            total, soft = hand_total(self._dealer)
            if total > 17 or (total == 17 and not (soft and self._rules.hit_soft_17)):
                return
            self._dealer.append(self._shoe.deal())

    def _settle(self) -> None:
        rules = self._rules
        dealer_total = hand_total(self._dealer)[0]
        dealer_bj = self._dealer_blackjack()
        original_only = rules.european and not rules.european_lose_all
        num, den = rules.blackjack_pays
        results: list[HandResult] = []
        for seat in self._seats:
            if seat.insurance and seat.insurance_net is None:
                seat.insurance_net = 2 * seat.insurance if dealer_bj else -seat.insurance
            charged = False
            for index, hand in enumerate(seat.hands):
                total = hand_total(hand.cards)[0]
                stake = hand.stake
                if hand.surrendered:
                    outcome, net = Outcome.SURRENDER, stake // 2 - stake
                elif total > 21:
                    outcome, net = Outcome.BUST, -stake
                elif hand.is_blackjack():
                    outcome, net = (
                        (Outcome.PUSH, 0) if dealer_bj else (Outcome.BLACKJACK, stake * num // den)
                    )
                elif dealer_bj and original_only:
                    outcome, net = (Outcome.PUSH, 0) if charged else (Outcome.LOSE, -seat.bet)
                    charged = True
                elif dealer_bj or (dealer_total <= 21 and total < dealer_total):
                    outcome, net = Outcome.LOSE, -stake
                elif dealer_total > 21 or total > dealer_total:
                    outcome, net = Outcome.WIN, stake
                else:
                    outcome, net = Outcome.PUSH, 0
                results.append(HandResult(seat.name, index, tuple(hand.cards), stake, outcome, net))
        self._results = results
        self._phase = Phase.SETTLED
        self._turn = None
