"""Makao (piekiełko), makao.md: trick-taking with exact bids over one cycle of deals, scored.

A hand is a deal. The table plays `deal` (seat None); each player then `bid`s (amount)
and `play`s cards (target: a card code, only legal ones offered); the move that ends the
last trick scores the deal. After the last deal of the cycle the table plays `end`, which
pays the pot. The score sheet is `deals`: every deal's bids and tricks, from which every
score is computed (`DealRecord.score`), so it can always be checked. `auto_move(seat)`
is the automatic player (npc.py) for any seat at a Gambling level: the NPC's `npc_move`,
and the benchmark's; `baseline_move` the one before levels.

Decisions where makao.md is silent:
- `seats` are listed in the direction of play (to the right): the seat after the dealer
  starts (bids first and leads). The first deal may name its dealer (`target`: the table
  draws one at random or the GM names him); otherwise the first seat deals. The deal
  passes to the right, so each deal's starter deals the next one.
- Cards are dealt one at a time from the starter round to the dealer. Every deal takes a
  fresh pack: the shoe serves one deal (`needs_new_shoe`), the rest of its stock unplayed.
- The seats are fixed for the cycle (its length depends on their number): nobody sits
  down or stands up between the first deal and the end.
- Timeouts: bid 0; play the lowest legal card (lowest rank, a plain card before a trump,
  then suits in the order ♠ ♥ ♦ ♣).
- Stakes (`stake`, cents): every player pays it into `pot:makao` with the first deal (the
  deal is refused while a stack cannot cover it); `end` pays the pot to the highest total,
  shared equally on a tie, the odd cents one each to the tied winners in seat order. The
  GM may `end` before the cycle is complete: the deal in play is abandoned (it stays on
  the sheet, unscored) and everyone takes his stake back (an unfinished cycle has no
  winner).
- The picture of a deal's result (`shown_hands`): the trump card turned (none at the
  cycle's last deal), then each player in play order with the cards he played, trick by
  trick, labelled with his bid and the tricks he took. Every one of those cards was seen
  as it was played; a deal the GM abandoned has no picture.
- The alternative rule: every PC who missed his bid gets a `LostHand` (score = bid + 10).
  The table tells the engine of a spend with `won_back` (seat None, target: the PC), which
  marks the deal as made for him; offers stay open until the next deal or `end` (which
  the table plays for the last deal when its spend window closes).
"""

from __future__ import annotations

import random
from typing import ClassVar, Literal

from pydantic import BaseModel, Field

from bondbot.games.contract import (
    GAMBLING_MAX,
    Event,
    Frozen,
    LostHand,
    Move,
    Option,
    Record,
    SeatKey,
    ShownHand,
    Transfer,
    pot_account,
    seat_account,
)
from bondbot.games.makao.cards import legal_cards, lowness, trick_winner
from bondbot.games.makao.npc import (
    choose_bid,
    choose_card,
    exact_card,
    novice_bid,
    novice_card,
    strong_bid,
)
from bondbot.games.skill import plays_strong
from bondbot.games.trick_taking.engine import TrickTakingEngine, card_order
from bondbot.rules.cards import Card
from bondbot.rules.errors import IllegalAction
from bondbot.rules.shoe import Shoe

PACK = 52
MIN_PLAYERS, MAX_PLAYERS = 3, 8
MADE_BONUS = 10
POT = pot_account("makao")

Phase = Literal["idle", "bidding", "playing", "done", "over"]


def cycle_length(players: int) -> int:
    """Deals in a cycle: deal k gives k cards, up to the largest deal the pack allows."""
    return PACK // players


class MakaoOptions(Frozen):
    """Table options."""

    stake: int = Field(0, ge=0)  # cents each player puts in the pot (0: no stakes)


class Trick(BaseModel):
    """One trick: who led, the cards in play order, who took it (None while in play)."""

    leader: SeatKey
    cards: list[str] = Field(default_factory=list)
    winner: SeatKey | None = None


class DealRecord(BaseModel):
    """A deal on the score sheet: everything its scores are computed from."""

    number: int  # k: the cards each player got
    dealer: SeatKey
    players: list[SeatKey]  # in play order, the starter first
    trump: str | None  # the turned card (None: the cycle's last deal)
    bids: dict[SeatKey, int] = Field(default_factory=dict)
    tricks: list[Trick] = Field(default_factory=list)
    won_back: list[SeatKey] = Field(default_factory=list)  # scored as made by a Hero Point

    @property
    def trump_suit(self) -> str | None:
        return None if self.trump is None else self.trump[1]

    @property
    def complete(self) -> bool:
        return len(self.tricks) == self.number and self.tricks[-1].winner is not None

    def taken(self, seat: SeatKey) -> int:
        return sum(1 for trick in self.tricks if trick.winner == seat)

    def made(self, seat: SeatKey) -> bool:
        return self.taken(seat) == self.bids[seat]

    def score(self, seat: SeatKey) -> int | None:
        """Bid + 10 for an exact bid (or a Hero Point), else 0; None while being played."""
        if not self.complete:
            return None
        if self.made(seat) or seat in self.won_back:
            return self.bids[seat] + MADE_BONUS
        return 0


class Dealt(Event):
    kind: Literal["dealt"] = "dealt"
    number: int
    dealer: SeatKey
    starter: SeatKey
    trump: str | None


class Bid(Event):
    kind: Literal["bid"] = "bid"
    seat: SeatKey
    bid: int


class Played(Event):
    kind: Literal["played"] = "played"
    seat: SeatKey
    card: str


class TrickTaken(Event):
    kind: Literal["trick"] = "trick"
    seat: SeatKey
    cards: tuple[str, ...]


class Scored(Event):
    kind: Literal["scored"] = "scored"
    number: int
    bids: dict[SeatKey, int]
    taken: dict[SeatKey, int]
    scores: dict[SeatKey, int]
    totals: dict[SeatKey, int]


class WonBack(Event):
    kind: Literal["won_back"] = "won_back"
    seat: SeatKey
    score: int


class GameOver(Event):
    kind: Literal["game_over"] = "game_over"
    complete: bool  # False: the GM ended it before the cycle's last deal
    winners: tuple[SeatKey, ...]
    totals: dict[SeatKey, int]
    paid: dict[SeatKey, int]  # cents from the pot


class Makao(TrickTakingEngine):
    """A Makao table's whole state; cards are stored as their codes (the shoe, the hands
    and the open won-back scores are `TrickTakingEngine`'s)."""

    key: ClassVar[str] = "makao"
    moves: ClassVar[frozenset[str]] = frozenset({"deal", "bid", "play", "end", "won_back"})
    min_players: ClassVar[int] = MIN_PLAYERS
    max_players: ClassVar[int] = MAX_PLAYERS

    settings: MakaoOptions = Field(default_factory=MakaoOptions)
    shoe_used: bool = False
    phase: Phase = "idle"
    deals: list[DealRecord] = Field(default_factory=list)
    pot: int = 0  # cents in pot:makao

    # -- reading the state ---------------------------------------------------------------

    @property
    def cycle(self) -> int:
        return cycle_length(max(len(self.seats), 1))

    @property
    def current(self) -> DealRecord | None:
        """The deal being bid or played."""
        return self.deals[-1] if self.phase in ("bidding", "playing") else None

    @property
    def needs_new_shoe(self) -> bool:
        number = len(self.deals) + 1
        needed = number * len(self.seats) + (number < self.cycle)
        return self.shoe_used or self.shoe.remaining < needed

    def least_stack(self) -> int:
        """The stake (the first deal is refused while a stack cannot cover it)."""
        return max(self.settings.stake, 1)

    def replace_shoe(self, shoe: Shoe) -> None:
        super().replace_shoe(shoe)
        self.shoe_used = False

    def in_hand(self) -> bool:
        return self.phase in ("bidding", "playing")

    def totals(self) -> dict[SeatKey, int]:
        """Each seat's total over the complete deals."""
        totals = dict.fromkeys(self.seats, 0)
        for deal in self.deals:
            if deal.complete:
                for seat in deal.players:
                    totals[seat] = totals.get(seat, 0) + (deal.score(seat) or 0)
        return totals

    def winners(self) -> tuple[SeatKey, ...]:
        """The seats with the highest total, in seat order."""
        totals = self.totals()
        if not totals:
            return ()
        best = max(totals.values())
        return tuple(seat for seat in self.seats if totals[seat] == best)

    def bidder(self) -> SeatKey | None:
        deal = self.current
        if deal is None or self.phase != "bidding":
            return None
        return deal.players[len(deal.bids)]

    def player(self) -> SeatKey | None:
        """Whose card the trick in play waits for."""
        deal = self.current
        if deal is None or self.phase != "playing":
            return None
        trick = deal.tricks[-1]
        start = deal.players.index(trick.leader)
        return deal.players[(start + len(trick.cards)) % len(deal.players)]

    def legal(self, seat: SeatKey) -> list[str]:
        """The cards `seat` may play now (empty unless it is his turn to play)."""
        deal = self.current
        if deal is None or seat != self.player():
            return []
        trick = deal.tricks[-1]
        return legal_cards(self.hands[seat], trick.cards[0][1] if trick.cards else None)

    # -- what is legal -------------------------------------------------------------------

    def options(self) -> list[Option]:
        found: list[Option] = []
        deal = self.current
        if self.phase == "idle":
            found.append(Option(kind="deal"))
        elif self.phase == "bidding" and deal is not None:
            found.append(Option(kind="bid", seat=self.bidder(), min=0, max=deal.number))
        elif self.phase == "playing":
            seat = self.player()
            assert seat is not None
            found.append(Option(kind="play", seat=seat, targets=tuple(self.legal(seat))))
        return found + self.closing_options()

    def check(self, move: Move) -> None:
        if move.kind != "deal":
            return
        if self.in_hand():  # its pack is spent, but that is not why: the deal is not over
            raise IllegalAction("makao.deal_in_play")
        if self.phase != "idle":
            return  # the cycle is complete: nothing to explain beyond "not now"
        self.check_table()
        if move.target is not None and (self.deals or move.target not in self.seats):
            raise IllegalAction("makao.bad_dealer", seat=move.target)
        if not self.deals and self.settings.stake:
            for seat in self.seats:
                stack = self.stacks.get(seat, 0)
                if stack is not None and stack < self.settings.stake:
                    raise IllegalAction("makao.cannot_stake", seat=seat)

    # -- doing it ------------------------------------------------------------------------

    def _booked(self, account: str, cents: int) -> None:
        """Chips between a seat and the pot (`_transfer`): the pot's are mirrored in `pot`."""
        if account == POT:
            self.pot += cents

    def _deal(self, move: Move) -> Record:
        number = len(self.deals) + 1
        # The deal passes to the right: the last starter deals.
        dealer = self.deals[-1].players[0] if self.deals else (move.target or self.seats[0])
        start = self.seats.index(dealer) + 1
        players = self.seats[start:] + self.seats[:start]
        position = self.shoe.position
        cards = [self.shoe.deal().code for _ in range(number * len(players))]
        trump = self.shoe.deal().code if number < self.cycle else None
        if len(set(cards) | {trump}) != len(cards) + 1:
            self.shoe.position = position
            raise IllegalAction("makao.bad_pack")
        transfers: list[Transfer] = []
        if not self.deals and self.settings.stake:
            transfers = [
                self._transfer(seat_account(seat), POT, self.settings.stake, "makao.stake")
                for seat in players
            ]
        self.shoe_used = True
        self.hand += 1
        self.begin_hand()
        self.offers = {}
        self.hands = {
            seat: sorted(cards[i :: len(players)], key=card_order) for i, seat in enumerate(players)
        }
        self.deals.append(DealRecord(number=number, dealer=dealer, players=players, trump=trump))
        self.phase = "bidding"
        event = Dealt(number=number, dealer=dealer, starter=players[0], trump=trump)
        return Record(move=move, events=(event,), transfers=tuple(transfers))

    def _bid(self, move: Move) -> Record:
        deal = self.deals[-1]
        assert move.seat is not None and move.amount is not None
        deal.bids[move.seat] = move.amount
        if len(deal.bids) == len(deal.players):
            self.phase = "playing"
            deal.tricks.append(Trick(leader=deal.players[0]))
        return Record(move=move, events=(Bid(seat=move.seat, bid=move.amount),))

    def _play(self, move: Move) -> Record:
        deal = self.deals[-1]
        assert move.seat is not None and move.target is not None
        self.hands[move.seat].remove(move.target)
        trick = deal.tricks[-1]
        trick.cards.append(move.target)
        events: list[Event] = [Played(seat=move.seat, card=move.target)]
        if len(trick.cards) < len(deal.players):
            return Record(move=move, events=tuple(events))
        start = deal.players.index(trick.leader)
        won = trick_winner(trick.cards, deal.trump_suit)
        trick.winner = deal.players[(start + won) % len(deal.players)]
        events.append(TrickTaken(seat=trick.winner, cards=tuple(trick.cards)))
        if len(deal.tricks) < deal.number:
            deal.tricks.append(Trick(leader=trick.winner))
            return Record(move=move, events=tuple(events))
        return self._score(move, deal, events)

    def _score(self, move: Move, deal: DealRecord, events: list[Event]) -> Record:
        scores = {seat: deal.score(seat) or 0 for seat in deal.players}
        lost: list[LostHand] = []
        for seat in deal.players:
            if seat != self.npc and not deal.made(seat):
                bid = deal.bids[seat]
                self.offers[seat] = bid + MADE_BONUS
                label = f"bid {bid}, took {deal.taken(seat)}"
                lost.append(LostHand(seat=seat, label=label, score=bid + MADE_BONUS))
        events.append(
            Scored(
                number=deal.number,
                bids=dict(deal.bids),
                taken={seat: deal.taken(seat) for seat in deal.players},
                scores=scores,
                totals=self.totals(),
            )
        )
        self.hands = {}
        self.phase = "done" if deal.number == self.cycle else "idle"
        return Record(move=move, events=tuple(events), lost=tuple(lost), hand_over=True)

    def _won_back(self, move: Move) -> Record:
        assert move.target is not None
        score = self.offers.pop(move.target)
        self.deals[-1].won_back.append(move.target)
        return Record(move=move, events=(WonBack(seat=move.target, score=score),))

    def _end(self, move: Move) -> Record:
        abandoned = self.in_hand()
        self.hands = {}
        complete = self.phase == "done"
        self.phase = "over"
        self.offers = {}
        transfers: list[Transfer] = []
        paid: dict[SeatKey, int] = {}
        winners = self.winners() if complete else ()
        if self.pot:
            if complete:
                share, odd = divmod(self.pot, len(winners))
                paid = {seat: share + (i < odd) for i, seat in enumerate(winners)}
            else:
                share = self.pot // len(self.seats)
                paid = dict.fromkeys(self.seats, share)
            transfers = [
                self._transfer(POT, seat_account(seat), cents, "makao.pot")
                for seat, cents in paid.items()
                if cents
            ]
        event = GameOver(complete=complete, winners=winners, totals=self.totals(), paid=paid)
        return Record(move=move, events=(event,), transfers=tuple(transfers), hand_over=abandoned)

    # -- turns ---------------------------------------------------------------------------

    def turn(self) -> tuple[SeatKey, ...]:
        seat = self.bidder() or self.player()
        return () if seat is None else (seat,)

    def after_offers(self) -> Move | None:
        """The cycle's end, once the last deal's Hero Point offers have closed: a spend on
        that deal must count before the pot is paid."""
        return Move(kind="end") if self.phase == "done" else None

    def timeout_move(self, seat: SeatKey) -> Move | None:
        if seat == self.bidder():
            return Move(kind="bid", seat=seat, amount=0)
        legal = self.legal(seat)
        if not legal:
            return None
        trump = self.deals[-1].trump_suit
        return Move(kind="play", seat=seat, target=min(legal, key=lambda c: lowness(c, trump)))

    def npc_move(self, rng: random.Random, level: int = GAMBLING_MAX) -> Move | None:
        return None if self.npc is None else self.auto_move(self.npc, level, rng)

    def auto_move(
        self, seat: SeatKey, level: int = GAMBLING_MAX, rng: random.Random | None = None
    ) -> Move | None:
        """The automatic player's move for `seat` on its turn, at Gambling `level`
        (games/skill.py; `rng` is needed below 15): the exact bid and play (npc.py), or a
        novice's. It sees only its hand, the turned card and the cards played."""
        deal = self.current
        if deal is None or seat not in (self.bidder(), self.player()):
            return None
        if rng is None and level < GAMBLING_MAX:
            raise ValueError("a level below 15 draws from the table's generator")
        strong = rng is None or plays_strong(level, rng)
        hand = self.hands[seat]
        if seat == self.bidder():
            if strong:
                bid = strong_bid(hand, deal.trump, len(deal.players))
            else:
                assert rng is not None
                bid = novice_bid(hand, deal.trump, rng)
            return Move(kind="bid", seat=seat, amount=bid)
        legal = self.legal(seat)
        trick = deal.tricks[-1]
        need = deal.bids[seat] - deal.taken(seat)
        if not strong:
            return Move(kind="play", seat=seat, target=novice_card(legal, deal.trump_suit, need))
        seen = {*hand, *(code for done in deal.tricks for code in done.cards)}
        if deal.trump is not None:
            seen.add(deal.trump)
        last = len(trick.cards) == len(deal.players) - 1
        card = exact_card(legal, trick.cards, deal.trump_suit, need, last, hand, seen)
        return Move(kind="play", seat=seat, target=card)

    def baseline_move(self, seat: SeatKey) -> Move | None:
        """The automatic player before levels (a baseline for bench/): the bid rounded from
        the expected tricks, win while short and shed once made (npc.py)."""
        deal = self.current
        if deal is None:
            return None
        if seat == self.bidder():
            bid = choose_bid(self.hands[seat], deal.trump, len(deal.players))
            return Move(kind="bid", seat=seat, amount=bid)
        legal = self.legal(seat)
        if not legal:
            return None
        trick = deal.tricks[-1]
        card = choose_card(
            legal,
            trick.cards,
            deal.trump_suit,
            need=deal.bids[seat] - deal.taken(seat),
            last=len(trick.cards) == len(deal.players) - 1,
        )
        return Move(kind="play", seat=seat, target=card)

    # -- what each seat may see ----------------------------------------------------------

    def shown_hands(self) -> tuple[ShownHand, ...]:
        """The last deal once scored: its trump, then each player's cards in the order he
        played them, with his bid and the tricks he took (the picture's labels)."""
        if not self.deals or self.in_hand() or not self.deals[-1].complete:
            return ()
        deal = self.deals[-1]
        rows = [ShownHand("trump", (Card.parse(deal.trump),))] if deal.trump else []
        count = len(deal.players)
        for place, seat in enumerate(deal.players):
            played = []
            for trick in deal.tricks:  # its cards in play order, from its leader
                turn = (place - deal.players.index(trick.leader)) % count
                played.append(Card.parse(trick.cards[turn]))
            params = (("bid", deal.bids[seat]), ("taken", deal.taken(seat)))
            rows.append(ShownHand(seat, tuple(played), role="tricks", params=params))
        return tuple(rows)

    # -- seats: fixed for the cycle ------------------------------------------------------

    def sit(self, seat: SeatKey) -> None:
        if self.deals:
            raise IllegalAction("makao.cycle_under_way", seat=seat)
        super().sit(seat)  # a ninth player: the game is full

    def stand_up(self, seat: SeatKey) -> None:
        if self.deals and self.phase != "over":
            raise IllegalAction("makao.cycle_under_way", seat=seat)
        super().stand_up(seat)
