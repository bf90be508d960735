"""What every game engine promises the table: legal moves, frozen records, automations.

The model is pokerkit's `State`: the engine *is* its state (a pydantic model, serialised
as JSON after every action and restored whole), it says what is legal now (`options`,
`can`, `verify`), applies one move at a time and returns a frozen `Record` of what
happened, and names the steps the table takes by itself (`automation`: the dealer's play,
forced plays; `timeout_move`: the default when a turn timer runs out; `npc_move`: the
NPC's automatic play). The moves of the current hand are its history: replaying them on
the state the hand started from rebuilds the state exactly.

Engines are pure and deterministic: no discord, no database, no clock, no hidden
randomness. Cards come from the `Shoe` the engine was given; a decision drawn at random
(an NPC's bluff) takes the `random.Random` the table passes in, and the decision is then a
recorded `Move` like any other, so a replay never needs the generator.

Money. An engine never touches the ledger: it says which chips move with `Transfer`s
between abstract accounts, which the table books as ledger rows in the same transaction
as the new state:

- `seat:<key>`  a seat's stack of chips (a PC's chips, or the NPC's bankroll);
- `pot:<name>`  chips in the middle (a hold'em pot and its side pots, a Makao pot);
- `layout:<name>` chips lying on the table (Michigan's pay cards);
- `house:<name>` chips leaving the game for the house (a banker's commission): the table
  books them out of the game, a ledger row to the outside with the transfer's reason.

`stacks` is set by the table before every move from the ledger, so an engine can bound
stakes and never emit a transfer that overdraws a stack. The NPC's stack is what its bank
can still pay: its bankroll less what it owes on open Hero Point offers (None: unlimited).
Score games keep their score sheet in the engine's state.

The alternative rule. A hand a PC lost *to the NPC* is reported as a `LostHand`: what one
Hero Point would win back (`pay`, from the NPC to that PC; or `score` for a score game).
Whether the PC may spend, and the payment itself, are the table's, in one place; a game
that keeps its own account of the hand (a score sheet) offers a `won_back` move (seat
None, target: the PC), which the table plays when he spends. A game whose spends depend
on each other (hold'em: several PCs who spend on one pot split it) says what a spend
moves at the moment it is made, `won_back_pays`, instead of the offer's fixed `pay`.

Seats are keyed by strings: the table uses the character id (`"12"`), the NPC's too.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, PlainSerializer, PlainValidator

from bondbot.rules.cards import Card
from bondbot.rules.errors import IllegalAction
from bondbot.rules.shoe import Shoe

# The 007 RPG's highest skill level: an NPC's automatic play takes his Gambling level, 0
# (a novice) to this (the strongest play the game affords).
GAMBLING_MAX = 15

SeatKey = str


def _shoe_in(value: Any) -> Shoe:
    return value if isinstance(value, Shoe) else Shoe.from_dict(value)


# A shoe inside an engine's state: stored as its seed and position (or its stacked cards).
ShoeField = Annotated[Shoe, PlainValidator(_shoe_in), PlainSerializer(lambda shoe: shoe.to_dict())]


class Frozen(BaseModel):
    """A value record: immutable, no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Move(Frozen):
    """One decision or automatic step: who (None: the table or the GM), what, with what."""

    kind: str
    seat: SeatKey | None = None
    amount: int | None = None  # cents (a stake, a bank, a raise) or a count (a bid)
    target: str | None = None  # what it is on: "banker", "right", a suit, a card code
    auto: str | None = None  # why the table made it itself: "timeout", "npc", "timer"


class Option(Frozen):
    """A move that is legal now: its kind, who may make it, and its bounds."""

    kind: str
    seat: SeatKey | None = None
    min: int | None = None  # bounds of `Move.amount`, when the move takes one
    max: int | None = None
    targets: tuple[str, ...] = ()  # the allowed `Move.target`s, when the move takes one

    def admits(self, move: Move) -> bool:
        if move.kind != self.kind or move.seat != self.seat:
            return False
        if self.min is not None or self.max is not None:
            if move.amount is None:
                return False
            if self.min is not None and move.amount < self.min:
                return False
            if self.max is not None and move.amount > self.max:
                return False
        return not self.targets or move.target in self.targets


class Transfer(Frozen):
    """Chips moving between two of the table's accounts (see the module's doc)."""

    src: str
    dst: str
    amount: int = Field(gt=0)
    reason: str  # a ledger reason key: "macao.win", "holdem.pot"


class LostHand(Frozen):
    """A hand a PC lost to the NPC: what one Hero Point wins back for him."""

    seat: SeatKey
    label: str  # what was lost, short, for the table message ("banker 50")
    pay: int = 0  # what the NPC pays him on a spend (his stake back plus the win)
    score: int | None = None  # score games: the score the deal takes instead


@dataclass(frozen=True, slots=True)
class ShownHand:
    """One row of the picture of a hand's result: whose cards, and what they came to."""

    # A seat key, or a role the table names (bot/tables/results.py): "player", "banker",
    # "board", "left", "right", "widow".
    whose: str
    cards: tuple[Card, ...]
    total: int | None = None  # the game's count of them, when it has one (a baccarat 7)
    # The part a seat's row plays, when it plays one: "banker", "player", "right", "left",
    # "dealer", "went_out", "tricks" (the picture labels it "Le Chiffre · Banker").
    role: str | None = None
    # The numbers the role's words say (a Makao row: "bid 2 · took 1"), as (name, value).
    params: tuple[tuple[str, int], ...] = ()


class Event(Frozen):
    """A public thing that happened; each game subclasses it with a literal `kind`."""

    kind: str


class Record(Frozen):
    """What one move did: the game's events, chips to move, hands lost to the NPC."""

    move: Move
    events: tuple[Event, ...] = ()
    transfers: tuple[Transfer, ...] = ()
    lost: tuple[LostHand, ...] = ()
    hand_over: bool = False  # the hand ended with this move (its offers open now)


def seat_account(seat: SeatKey) -> str:
    return f"seat:{seat}"


def pot_account(name: str | int) -> str:
    return f"pot:{name}"


def layout_account(name: str) -> str:
    return f"layout:{name}"


def house_account(name: str) -> str:
    return f"house:{name}"


class Engine(BaseModel):
    """The base of every game's state. Subclasses implement the `_`-free hooks below.

    `apply` is the only way a state changes: it verifies the move against `options()`
    (and the game's own `check`), lets the game `play` it, and appends it to `history`.
    """

    model_config = ConfigDict(extra="forbid", validate_assignment=False)

    key: ClassVar[str]
    moves: ClassVar[frozenset[str]]  # every kind of move the game knows

    seats: list[SeatKey] = Field(default_factory=list)  # in the game's seat order
    npc: SeatKey | None = None  # the NPC's seat key
    stacks: dict[SeatKey, int | None] = Field(default_factory=dict)  # None: unlimited
    hand: int = 0  # hands started so far
    history: list[Move] = Field(default_factory=list)  # the moves of the current (or last) hand

    @property
    def answer_round(self) -> int:
        """What a button several seats answer at once carries (a stake, a pass), so that it
        is refused once the round of answers it was drawn for is over: the hand's number. A
        game whose round can end with no hand dealt (everyone passed) counts those too."""
        return self.hand

    # -- what is legal -------------------------------------------------------------------

    def options(self) -> list[Option]:
        """Every move that is legal now, for every seat (and the table's own, seat None)."""
        raise NotImplementedError

    def check(self, move: Move) -> None:
        """Refuse with the game's own reason (raise IllegalAction); `verify` calls it before
        it matches the move against `options()`."""

    def verify(self, move: Move) -> None:
        """Raise IllegalAction unless `move` is legal now (the game's own reason first)."""
        if move.kind not in self.moves:
            raise IllegalAction("games.unknown_move", kind=move.kind)
        self.check(move)
        if not any(option.admits(move) for option in self.options()):
            raise IllegalAction("games.illegal_move", kind=move.kind, seat=move.seat)

    def can(self, move: Move) -> bool:
        try:
            self.verify(move)
        except IllegalAction:
            return False
        return True

    # -- doing it ------------------------------------------------------------------------

    def apply(self, move: Move) -> Record:
        """Verify and play one move; on IllegalAction nothing has changed."""
        self.verify(move)
        record = self.play(move)
        self.history.append(move)
        return record

    def begin_hand(self) -> None:
        """Forget the last hand's moves: the game calls this on a new hand's first move."""
        self.history.clear()

    def play(self, move: Move) -> Record:
        """Apply an already verified move (the game's own logic)."""
        raise NotImplementedError

    # -- what the table does by itself ---------------------------------------------------

    def automation(self) -> Move | None:
        """The step the table must take by itself now (a forced play, the dealer), if any."""
        return None

    def turn(self) -> tuple[SeatKey, ...]:
        """The seats whose decision the game is waiting for (their turn timer runs)."""
        return ()

    def scheduled(self) -> tuple[float, Move] | None:
        """A move the table makes by itself after a delay in seconds, counted from when it
        first appears (punto banco's auto-deal); None when there is none."""
        return None

    def after_offers(self) -> Move | None:
        """A move the table makes by itself once the Hero Point offers of the hand just over
        have closed (spent, or their window passed), e.g. a game's end that a spend on its
        last hand must still count in; the window is the server's, unknown to the engine."""
        return None

    def timeout_move(self, seat: SeatKey) -> Move | None:
        """The move made for `seat` when his turn timer runs out (the recommended play)."""
        return None

    def npc_move(self, rng: random.Random, level: int = GAMBLING_MAX) -> Move | None:
        """The NPC's automatic play when it is the NPC's turn (None: nothing to decide),
        as well as a player of Gambling `level` (0, a novice, to GAMBLING_MAX) plays."""
        return None

    def won_back_pays(self, seat: SeatKey) -> dict[SeatKey, int] | None:
        """What a Hero Point spent by `seat` now moves, when the game reckons it itself:
        per PC who spent on the hand, what the NPC pays him (negative: what he gives back
        to the NPC, for a later spender's share). None: the offer's `pay`, to him."""
        return None

    # -- money the table checks after every move ---------------------------------------

    def committed(self, seat: SeatKey) -> int:
        """Chips this seat has staked and not yet transferred (he must still hold them)."""
        return 0

    def exposure(self) -> int:
        """The most the NPC could have to pay on the stakes accepted so far (a limited
        bankroll must cover it)."""
        return 0

    def least_stack(self) -> int:
        """The fewest chips a seat needs to play a hand (one smallest wager, an ante, a
        stake): the table refuses a buy-in below it. 1: any chips at all."""
        return 1

    def chip_value(self) -> int:
        """One chip's worth in cents: stacks are made of whole chips. 1 (a cent) for most
        games; hold'em's chip is one whole unit of the currency, so the table takes only
        whole chips to it (a buy-in's cents stay on the sheet)."""
        return 1

    # -- the shoe ------------------------------------------------------------------------

    def current_shoe(self) -> Shoe | None:
        """The live shoe (its seed is revealed when it is replaced or the table closes)."""
        return None

    @property
    def needs_new_shoe(self) -> bool:
        """True only between hands, once the shoe is finished: the table replaces it."""
        return False

    def replace_shoe(self, shoe: Shoe) -> None:
        raise IllegalAction("games.no_shoe")

    def shoe_packs(self, table_packs: int) -> int:
        """How many packs the next shoe holds: the table's, unless the game counts them by
        how many play (Macao: one pack per five hands)."""
        return table_packs

    # -- what each seat may see ----------------------------------------------------------

    def private_cards(self, seat: SeatKey) -> Sequence[Card]:
        """Cards only this seat may see now (his hole cards, his hand): never public."""
        return ()

    def hidden_cards(self) -> set[Card]:
        """Every card dealt but not public now (for privacy checks in tests)."""
        return set()

    def shown_hands(self) -> Sequence[ShownHand]:
        """The last finished hand's cards that everyone has seen, row by row as the
        picture of its result shows them (posted in the table's thread when a hand ends):
        never a card that stayed private (a hand folded or mucked unseen)."""
        return ()

    def winners(self) -> tuple[SeatKey, ...]:
        """The seats the game itself declares winners (a game over, a score sheet, the
        evening's chips), for the closed table and the summary; () for a game without a
        winner of its own (a bank game: its players' results say who did best)."""
        return ()

    # -- seats between hands -------------------------------------------------------------

    def in_hand(self) -> bool:
        """True while a hand is being played (seats cannot come or go then, by default)."""
        return False

    def can_stand_up(self, seat: SeatKey) -> bool:
        """Whether `seat` may leave now (his seat panel offers Leave only then): the game's
        own `stand_up` tried on a copy, so no game states its rule twice. Leaving never
        draws a card, so the copy shares the shoe (copying its cards was most of the cost
        of drawing a seat panel)."""
        shoe = self.current_shoe()
        trial = copy.deepcopy(self, {} if shoe is None else {id(shoe): shoe})
        try:
            trial.stand_up(seat)
        except IllegalAction:
            return False
        return True

    def sit(self, seat: SeatKey) -> None:
        if seat in self.seats:
            raise IllegalAction("games.already_seated", seat=seat)
        self.seats.append(seat)

    def stand_up(self, seat: SeatKey) -> None:
        if self.in_hand() and seat in self.seats:
            raise IllegalAction("games.in_hand", seat=seat)
        if seat in self.seats:
            self.seats.remove(seat)


def replay(start: Engine, moves: Sequence[Move]) -> Engine:
    """The state `moves` lead to from a copy of `start` (which is left as it was)."""
    state = start.model_copy(deep=True)
    for move in moves:
        state.apply(move)
    return state
