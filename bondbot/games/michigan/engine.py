"""Michigan (Newmarket), michigan.md: a shedding game with chips on four pay cards, no bank.

A hand is a round. The table plays `deal` (seat None); the leader's only decision is the
suit (`lead`, targets: the suits he holds); every later card of the run is forced and
comes back from `automation()` as a `follow` (seat None) until an Ace or a stop. The first
player out ends the round and is paid by the others.

Decisions where michigan.md is silent:
- `seats` are listed clockwise: the seat after the dealer is on his left. The first deal
  may name its dealer (`target`: the table draws one at random or the GM names him);
  otherwise the first seat deals. The deal then passes to the left.
- The deal goes one card at a time from the dealer's left round to the dealer, then the
  widow, until the 52 cards are out; the hands first in that order get the odd cards. A
  deal takes 52 cards from the shoe (`needs_new_shoe` after each round with a 52-card shoe).
- A chip's value is the table option `chip` (cents); antes and payments move whole chips.
  The ante is 2 chips on each pay card for the dealer, 1 for everyone else. A player short
  for it antes the chips he has, one at a time over J♠ Q♦ K♣ A♥ in turn.
- Paying the winner of a round: one chip per card left; a player short pays the chips he
  has (a part of a chip, if his stack holds one, stays with him).
- A stop by a card in the widow shows that card (everyone sees that nobody played it, so
  it is in the widow): the `stop` event names it. When the round ends the widow is shown.
  The picture of a round's result (`shown_hands`): the cards the first out played, which
  went face up in front of him, and the widow; the others' cards left are only counted.
- The game is over (`automation` plays `end`) after a round leaves a player without a
  whole chip; the GM may `end` it at any time, and a round in play is then abandoned (no
  payment; its antes stay on the pay cards). At the end the chips left on the pay cards
  are shared out one at a time from the dealer's left, so nobody gains from the ending.
- The winner is the player who won the most over the game (`net`): stacks at a bot table
  start unequal and the NPC's bankroll may be unlimited, so "the most chips" means the
  most chips won.
- The alternative rule: when the NPC goes out first, every PC in the round lost it to the
  NPC; a Hero Point makes him pay nothing and be paid one chip per card he held, so
  `LostHand.pay` = (chips he paid + chips for the cards he held) x chip, paid by the NPC,
  even if he was short and paid fewer. Pay-card chips are never affected. A round a PC
  went out first gives no LostHand. The table pays a spend itself and tells the engine
  with `won_back` (seat None, target: the PC), which only counts it in `net`; offers stay
  open until the next deal, also after the game ended.
"""

from __future__ import annotations

import random
from typing import ClassVar, Literal

from pydantic import Field

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
    layout_account,
    seat_account,
)
from bondbot.games.michigan.npc import View, look_ahead_lead, novice_lead
from bondbot.games.skill import plays_strong
from bondbot.games.trick_taking.engine import TrickTakingEngine, card_order
from bondbot.rules.cards import RANKS, Card, cards_of
from bondbot.rules.errors import IllegalAction

PAY_CARDS = ("Js", "Qd", "Kc", "Ah")
PACK = 52
MIN_PLAYERS, MAX_PLAYERS = 3, 8
DEALER_ANTE, PLAYER_ANTE = 2, 1  # chips on each pay card

Phase = Literal["idle", "lead", "run", "over"]


class MichiganOptions(Frozen):
    """Table options."""

    chip: int = Field(100, gt=0)  # a chip's value in cents


class Dealt(Event):
    kind: Literal["dealt"] = "dealt"
    dealer: SeatKey
    antes: dict[SeatKey, int]  # chips each seat put on the pay cards
    cards: dict[SeatKey, int]  # cards in each hand
    widow: int


class Played(Event):
    kind: Literal["played"] = "played"
    seat: SeatKey
    card: str
    lead: bool  # True: the leader's choice; False: a forced play


class PayCardWon(Event):
    kind: Literal["pay_card"] = "pay_card"
    seat: SeatKey
    card: str
    chips: int


class Stop(Event):
    kind: Literal["stop"] = "stop"
    seat: SeatKey  # who played the stop and leads again
    card: str
    reason: Literal["ace", "played", "widow"]
    widow_card: str | None = None  # the next card, shown to be in the widow


class RoundOver(Event):
    kind: Literal["round_over"] = "round_over"
    seat: SeatKey  # the first out
    cards_left: dict[SeatKey, int]
    paid: dict[SeatKey, int]  # chips each other seat paid him
    widow: tuple[str, ...]


class WonBack(Event):
    kind: Literal["won_back"] = "won_back"
    seat: SeatKey
    pay: int


class GameOver(Event):
    kind: Literal["game_over"] = "game_over"
    reason: Literal["no_chips", "gm"]
    winners: tuple[SeatKey, ...]
    net: dict[SeatKey, int]  # cents won (+) or lost (-) over the game
    shares: dict[SeatKey, int]  # pay-card chips each seat took back at the end


def next_card(code: str) -> str | None:
    """The card above `code` in its suit (None above an Ace)."""
    rank = RANKS.index(code[0])
    return None if rank == len(RANKS) - 1 else RANKS[rank + 1] + code[1]


class Michigan(TrickTakingEngine):
    """A Michigan table's whole state; cards are stored as their codes (the shoe, the
    hands and the open won-back pays, cents, are `TrickTakingEngine`'s)."""

    key: ClassVar[str] = "michigan"
    moves: ClassVar[frozenset[str]] = frozenset({"deal", "lead", "follow", "end", "won_back"})
    min_players: ClassVar[int] = MIN_PLAYERS
    max_players: ClassVar[int] = MAX_PLAYERS

    settings: MichiganOptions = Field(default_factory=MichiganOptions)
    phase: Phase = "idle"
    dealer: SeatKey | None = None
    leader: SeatKey | None = None  # who leads now, or who played the run's last card
    pending: str | None = None  # the next card of the run (phase "run")
    widow: list[str] = Field(default_factory=list)
    shown: list[str] = Field(default_factory=list)  # widow cards shown by a stop
    played: dict[SeatKey, list[str]] = Field(default_factory=dict)  # in front of each
    layout: dict[str, int] = Field(default_factory=lambda: dict.fromkeys(PAY_CARDS, 0))
    net: dict[SeatKey, int] = Field(default_factory=dict)  # cents over the game
    last: RoundOver | None = None  # the last round's end, shown until the next one ends
    went_out: list[str] = Field(default_factory=list)  # the cards the last round's first
    # out played, in order (empty from the deal until a round ends by a player going out)

    # -- reading the state ---------------------------------------------------------------

    @property
    def needs_new_shoe(self) -> bool:
        return self.shoe.remaining < PACK

    def least_stack(self) -> int:
        """A player's ante: a chip on each pay card."""
        return PLAYER_ANTE * len(PAY_CARDS) * self.settings.chip

    def in_hand(self) -> bool:
        return self.phase in ("lead", "run")

    def chips(self, seat: SeatKey) -> int | None:
        """Whole chips in a seat's stack (None: unlimited; a seat the table did not set: 0)."""
        stack = self.stacks.get(seat, 0)
        return None if stack is None else stack // self.settings.chip

    def holder(self, code: str) -> SeatKey | None:
        """The seat holding a card now, if any."""
        for seat, hand in self.hands.items():
            if code in hand:
                return seat
        return None

    def dead_cards(self) -> set[str]:
        """Cards everyone knows are out of play this round: played, or shown in the widow."""
        dead = set(self.shown)
        for cards in self.played.values():
            dead.update(cards)
        return dead

    def winners(self) -> tuple[SeatKey, ...]:
        """The seats that won the most over the game (several on a tie)."""
        if not self.net:
            return ()
        best = max(self.net.values())
        return tuple(seat for seat, value in self.net.items() if value == best)

    def out_of_chips(self) -> list[SeatKey]:
        return [seat for seat in self.seats if self.chips(seat) == 0]

    def _left_of(self, seat: SeatKey) -> SeatKey:
        return self.seats[(self.seats.index(seat) + 1) % len(self.seats)]

    def _from_left_of_dealer(self) -> list[SeatKey]:
        assert self.dealer is not None
        start = self.seats.index(self.dealer) + 1
        return self.seats[start:] + self.seats[:start]

    # -- what is legal -------------------------------------------------------------------

    def options(self) -> list[Option]:
        found: list[Option] = []
        if self.phase == "idle":
            found.append(Option(kind="deal"))
        elif self.phase == "lead":
            assert self.leader is not None
            suits = tuple(dict.fromkeys(code[1] for code in self.hands[self.leader]))
            found.append(Option(kind="lead", seat=self.leader, targets=suits))
        elif self.phase == "run":
            assert self.pending is not None
            found.append(Option(kind="follow", targets=(self.pending,)))
        return found + self.closing_options()

    def check(self, move: Move) -> None:
        if move.kind != "deal" or not any(o.kind == "deal" for o in self.options()):
            return  # nothing to explain beyond "not now"
        self.check_table()
        broke = self.out_of_chips()
        if broke:
            raise IllegalAction("michigan.no_chips", seat=broke[0])
        if move.target is not None and (self.hand > 0 or move.target not in self.seats):
            raise IllegalAction("michigan.bad_dealer", seat=move.target)

    # -- doing it ------------------------------------------------------------------------

    def _lead(self, move: Move) -> Record:
        """The leader's suit: its lowest card in his hand is played."""
        assert move.seat is not None and move.target is not None
        suit = move.target
        card = min((code for code in self.hands[move.seat] if code[1] == suit), key=card_order)
        return self._play_card(move, move.seat, card, lead=True)

    def _follow(self, move: Move) -> Record:
        """The run's next card, forced: its holder plays it."""
        assert move.target is not None
        seat = self.holder(move.target)
        assert seat is not None
        return self._play_card(move, seat, move.target, lead=False)

    def _chips_move(self, src: str, dst: str, chips: int, reason: str) -> Transfer:
        """Move whole chips between two accounts (`_transfer`)."""
        return self._transfer(src, dst, chips * self.settings.chip, reason)

    def _booked(self, account: str, cents: int) -> None:
        """A seat's chips moved count in what he won or lost over the game, `net`."""
        if account.startswith("seat:"):
            seat = account.removeprefix("seat:")
            self.net[seat] = self.net.get(seat, 0) + cents

    def _deal(self, move: Move) -> Record:
        cards = [self.shoe.deal() for _ in range(PACK)]
        if len(set(cards)) != PACK:
            self.shoe.position -= PACK
            raise IllegalAction("michigan.bad_pack")
        if self.dealer in self.seats:
            self.dealer = self._left_of(self.dealer)
        else:
            self.dealer = move.target or self.seats[0]
        order = self._from_left_of_dealer()
        self.hand += 1
        self.begin_hand()
        self.offers = {}
        self.went_out = []
        transfers: list[Transfer] = []
        antes: dict[SeatKey, int] = {}
        for seat in order:
            per_card = DEALER_ANTE if seat == self.dealer else PLAYER_ANTE
            want = per_card * len(PAY_CARDS)
            have = self.chips(seat)
            given = want if have is None else min(want, have)
            antes[seat] = given
            on_card = [given // len(PAY_CARDS) + (i < given % len(PAY_CARDS)) for i in range(4)]
            for pay_card, count in zip(PAY_CARDS, on_card, strict=True):
                if count:
                    self.layout[pay_card] += count
                    transfers.append(
                        self._chips_move(
                            seat_account(seat), layout_account(pay_card), count, "michigan.ante"
                        )
                    )
        piles: list[list[str]] = [[] for _ in range(len(order) + 1)]
        for i, card in enumerate(cards):
            piles[i % len(piles)].append(card.code)
        self.hands = {
            seat: sorted(pile, key=card_order) for seat, pile in zip(order, piles[:-1], strict=True)
        }
        self.widow = piles[-1]
        self.shown = []
        self.played = {seat: [] for seat in order}
        self.phase = "lead"
        self.leader = order[0]
        self.pending = None
        event = Dealt(
            dealer=self.dealer,
            antes=antes,
            cards={seat: len(hand) for seat, hand in self.hands.items()},
            widow=len(self.widow),
        )
        return Record(move=move, events=(event,), transfers=tuple(transfers))

    def _play_card(self, move: Move, seat: SeatKey, card: str, *, lead: bool) -> Record:
        self.hands[seat].remove(card)
        self.played[seat].append(card)
        self.leader = seat
        self.pending = None
        events: list[Event] = [Played(seat=seat, card=card, lead=lead)]
        transfers: list[Transfer] = []
        chips = self.layout.get(card, 0)
        if chips:
            self.layout[card] = 0
            transfers.append(
                self._chips_move(
                    layout_account(card), seat_account(seat), chips, "michigan.pay_card"
                )
            )
            events.append(PayCardWon(seat=seat, card=card, chips=chips))
        if not self.hands[seat]:
            return self._round_over(move, seat, events, transfers)
        following = next_card(card)
        if following is not None and self.holder(following) is not None:
            self.phase = "run"
            self.pending = following
        else:
            self.phase = "lead"
            if following is None:
                events.append(Stop(seat=seat, card=card, reason="ace"))
            elif following in self.widow:
                self.shown.append(following)
                events.append(Stop(seat=seat, card=card, reason="widow", widow_card=following))
            else:
                events.append(Stop(seat=seat, card=card, reason="played"))
        return Record(move=move, events=tuple(events), transfers=tuple(transfers))

    def _round_over(
        self, move: Move, winner: SeatKey, events: list[Event], transfers: list[Transfer]
    ) -> Record:
        chip = self.settings.chip
        cards_left: dict[SeatKey, int] = {}
        paid: dict[SeatKey, int] = {}
        lost: list[LostHand] = []
        for seat, hand in self.hands.items():
            if seat == winner:
                continue
            owed = len(hand)
            have = self.chips(seat)
            paid[seat] = owed if have is None else min(owed, have)
            cards_left[seat] = owed
            if paid[seat]:
                transfers.append(
                    self._chips_move(
                        seat_account(seat), seat_account(winner), paid[seat], "michigan.round"
                    )
                )
            if winner == self.npc:
                pay = (paid[seat] + owed) * chip
                self.offers[seat] = pay
                lost.append(LostHand(seat=seat, label=f"{owed} cards", pay=pay))
        self.last = RoundOver(
            seat=winner, cards_left=cards_left, paid=paid, widow=tuple(self.widow)
        )
        self.went_out = list(self.played[winner])
        events.append(self.last)
        self._clear_round()
        return Record(
            move=move,
            events=tuple(events),
            transfers=tuple(transfers),
            lost=tuple(lost),
            hand_over=True,
        )

    def _clear_round(self) -> None:
        self.phase = "idle"
        self.hands = {}
        self.widow = []
        self.shown = []
        self.played = {}
        self.leader = None
        self.pending = None

    def _won_back(self, move: Move) -> Record:
        assert move.target is not None and self.npc is not None
        pay = self.offers.pop(move.target)
        self.net[move.target] = self.net.get(move.target, 0) + pay
        self.net[self.npc] = self.net.get(self.npc, 0) - pay
        return Record(move=move, events=(WonBack(seat=move.target, pay=pay),))

    def _end(self, move: Move) -> Record:
        abandoned = self.in_hand()
        reason: Literal["no_chips", "gm"] = (
            "no_chips" if not abandoned and self.hand and self.out_of_chips() else "gm"
        )
        self._clear_round()
        self.phase = "over"
        transfers: list[Transfer] = []
        shares: dict[SeatKey, int] = {}
        order = self._from_left_of_dealer() if self.dealer in self.seats else list(self.seats)
        if order:
            got: dict[tuple[str, SeatKey], int] = {}
            turn = 0
            for pay_card in PAY_CARDS:
                for _ in range(self.layout[pay_card]):
                    seat = order[turn % len(order)]
                    got[pay_card, seat] = got.get((pay_card, seat), 0) + 1
                    shares[seat] = shares.get(seat, 0) + 1
                    turn += 1
                self.layout[pay_card] = 0
            for (pay_card, seat), count in got.items():
                transfers.append(
                    self._chips_move(
                        layout_account(pay_card), seat_account(seat), count, "michigan.share"
                    )
                )
        event = GameOver(reason=reason, winners=self.winners(), net=dict(self.net), shares=shares)
        return Record(move=move, events=(event,), transfers=tuple(transfers), hand_over=abandoned)

    # -- what the table does by itself ---------------------------------------------------

    def automation(self) -> Move | None:
        if self.phase == "run":
            return Move(kind="follow", target=self.pending)
        if self.phase == "idle" and self.hand and self.out_of_chips():
            return Move(kind="end")
        return None

    def turn(self) -> tuple[SeatKey, ...]:
        if self.phase == "lead" and self.leader is not None:
            return (self.leader,)
        return ()

    def view(self, seat: SeatKey) -> View:
        """What `seat` sees when he leads: his hand, the cards out of play, the widow cards
        still unseen, the pay cards' chips and how many cards the others hold."""
        return View(
            hand=frozenset(self.hands[seat]),
            dead=frozenset(self.dead_cards()),
            widow_hidden=len(self.widow) - len(self.shown),
            layout=dict(self.layout),
            opponents_cards=sum(len(h) for s, h in self.hands.items() if s != seat),
        )

    def timeout_move(self, seat: SeatKey) -> Move | None:
        """The strongest lead (level 15's): the advice, and what a timer plays."""
        if self.phase != "lead" or seat != self.leader:
            return None
        return Move(kind="lead", seat=seat, target=look_ahead_lead(self.view(seat)))

    def npc_move(self, rng: random.Random, level: int = GAMBLING_MAX) -> Move | None:
        """The NPC's lead at his Gambling level (games/skill.py): the lead that looks ahead,
        or a novice's suit picked without a plan."""
        if self.npc is None or self.phase != "lead" or self.leader != self.npc:
            return None
        if plays_strong(level, rng):
            return self.timeout_move(self.npc)
        return Move(kind="lead", seat=self.npc, target=novice_lead(self.hands[self.npc], rng))

    # -- what each seat may see ----------------------------------------------------------

    def hidden_cards(self) -> set[Card]:
        hidden = super().hidden_cards()
        hidden.update(Card.parse(code) for code in self.widow if code not in self.shown)
        return hidden

    def shown_hands(self) -> tuple[ShownHand, ...]:
        """The last round's end: the hand the first out went out with, in the order he
        played it, and the widow shown at the end (sorted). The others' cards left stay
        theirs (only counted); nothing while a round is in play or after one abandoned."""
        if not self.went_out or self.last is None or self.in_hand():
            return ()
        rows = [ShownHand(self.last.seat, cards_of(self.went_out), role="went_out")]
        if self.last.widow:
            rows.append(ShownHand("widow", cards_of(sorted(self.last.widow, key=card_order))))
        return tuple(rows)

    # -- seats between rounds ------------------------------------------------------------

    def stand_up(self, seat: SeatKey) -> None:
        if self.dealer == seat and not self.in_hand() and len(self.seats) > 1:
            # The deal then passes on to the seat that was on the leaver's left.
            self.dealer = self.seats[self.seats.index(seat) - 1]
        super().stand_up(seat)
