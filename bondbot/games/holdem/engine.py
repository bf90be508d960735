"""No-limit Texas hold'em (`holdem.md`): the engine on the games contract, over pokerkit.

The hand itself is pokerkit's (`hand.py`); this module seats players, moves the button,
posts the blinds of the schedule, deals from our shoe, names the moves, settles the pots
into transfers and reports the hands PCs lost to the NPC. The state keeps the hand's
pokerkit actions; the pokerkit `State` is a cache rebuilt from them after a restart.

Moves. Players: `fold`, `check`, `call` (amount: the chips it adds, fixed), `bet`/`raise`
(amount: what his bet in the round comes to, "raise to", between the option's min and
max), `all_in`, and at any time `sit_out`/`sit_in` (effective from the next deal). The
table (seat None): `deal` between hands, and `won_back` after a Hero Point is spent;
`show`, `flop`, `turn`, `river` are `automation()` steps within a hand. The move that
ends the hand settles it.

Decisions where holdem.md is silent:
- A fresh pack every hand: once a hand has been dealt, `needs_new_shoe` asks the table for
  a new shoe (its seed revealed, so every hand is proved on its own). Only one-pack
  (or stacked) shoes are accepted. No card is burned.
- The first hand's button is the first seat dealt in; then the button moves to the next
  seat dealt in. Seats sitting out or without chips are skipped; no dead or missed blinds:
  a player who comes back plays his next hand with no blind owed.
- A player with fewer chips than a blind posts what he has (all-in); the others call what
  he posted (pokerkit's rule), and a raise adds at least a big blind to it.
- An NPC with an unlimited bankroll plays each hand with as many chips as the deepest
  other stack (never less than the big blind): he covers everyone, and chips beyond that
  could never be bet against anyone.
- Folding is refused when checking is free (pokerkit's tournament mode); the timeout
  checks when it can, else folds.
- A player who already acted may raise again only when the bets he faces have grown by a
  full raise since (see `hand.py`): holdem.md's rule, before and after the flop.
- Every hand still in at the showdown is shown (all-ins as soon as the betting is over);
  a hand won by the last player left is not shown. The picture of a hand's result
  (`shown_hands`): the board as far as it was dealt, then the hands shown, in that order.
- Split pots: equal shares; odd chips one at a time to the winners from the first left
  of the button (holdem.md), not pokerkit's whole remainder to one player.
- A chip is one whole unit of the currency (`chip`, 100 cents; holdem.md): each hand is
  dealt with the whole chips of each stack (cents a stack may hold, from a table saved
  before, stay on its account), blinds are rounded up to whole chips (`level`), a bet or
  raise of part of a chip is refused, and pots and what Hero Points win back are split in
  whole chips. The table takes only whole chips to a seat (`chip_value`).
- Chips move at the end of the hand: each player's part of each pot from `seat:<key>` to
  `pot:<n>` (0 the main pot, then the side pots in pokerkit's order), then each pot to
  its winners. Uncalled bets never move.
- A lost hand: a PC still in at the showdown (all-in included) who did not win a pot the
  NPC won and he was eligible for. `HoldemLostHand.pots` lists those pots with the NPC's
  share, and the label says the same (`pot:0=1200 pot:1=300`: a stored record keeps only
  `LostHand`'s fields); `pay` is their sum (what he gets if he alone spends). When several
  PCs spend on the same pot they split the NPC's share of it equally, odd chips from the
  first left of the button: `winback_pay`. Folded hands and pots lost to other PCs are
  never lost hands.
- Spends come one at a time, so the engine keeps the last hand's account: the table asks
  `won_back_pays(seat)` what a spend moves now (the NPC pays the new spender his share;
  those who spent on the same pots before him give back to the NPC what he takes of
  theirs), then plays `won_back` (seat None, target: the PC), which records it. Whoever
  spends first, the shares end as `winback_pay`'s. A spender who leaves the table keeps
  what he took; later spenders share what is left of the pot.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from typing import Any, ClassVar, Literal

from pokerkit import (
    BlindOrStraddlePosting,
    BoardDealing,
    CheckingOrCalling,
    CompletionBettingOrRaisingTo,
    Folding,
    State,
)
from pydantic import Field, PrivateAttr, model_validator

from bondbot.games.contract import (
    GAMBLING_MAX,
    Engine,
    Event,
    Frozen,
    LostHand,
    Move,
    Option,
    Record,
    SeatKey,
    ShoeField,
    ShownHand,
    Transfer,
    pot_account,
    seat_account,
)
from bondbot.games.holdem import hand as kit
from bondbot.games.holdem import ranges
from bondbot.games.holdem.names import HandName, hand_name
from bondbot.games.holdem.npc import Situation, decide
from bondbot.games.holdem.ranges import Seen
from bondbot.games.skill import strong_share
from bondbot.money import Cents
from bondbot.rules.cards import Card, cards_of, parse_cards
from bondbot.rules.errors import IllegalAction
from bondbot.rules.shoe import Shoe

MAX_SEATS = 10
CHIP = 100  # one chip's worth in cents: a whole unit of the currency (holdem.md)
STREETS = {0: "flop", 3: "turn", 4: "river"}  # board size before the deal -> its name
DEALS = {"flop": 3, "turn": 1, "river": 1}


class BlindLevel(Frozen):
    small: int = Field(gt=0)
    big: int = Field(gt=0)

    @model_validator(mode="after")
    def _small_not_above_big(self) -> BlindLevel:
        if self.small > self.big:
            raise ValueError("the small blind cannot exceed the big blind")
        return self


class HoldemOptions(Frozen):
    """The GM's table options: blind levels, the next one every `raise_every` hands."""

    levels: tuple[BlindLevel, ...] = Field(default=(BlindLevel(small=500, big=1000),), min_length=1)
    raise_every: int | None = Field(default=None, ge=1)

    def blinds(self, hand: int) -> BlindLevel:
        """The blinds of hand number `hand` (1 for the first)."""
        if self.raise_every is None:
            return self.levels[0]
        return self.levels[min((hand - 1) // self.raise_every, len(self.levels) - 1)]


# -- events ------------------------------------------------------------------------------


class HandStarted(Event):
    kind: Literal["hand_started"] = "hand_started"
    hand: int
    button: SeatKey
    players: tuple[SeatKey, ...]  # in order of play, first left of the button
    stacks: tuple[int, ...]  # chips each brings into the hand
    blinds: BlindLevel


class BlindPosted(Event):
    kind: Literal["blind"] = "blind"
    seat: SeatKey
    blind: Literal["small", "big"]
    amount: int


class Acted(Event):
    kind: Literal["acted"] = "acted"
    seat: SeatKey
    action: Literal["fold", "check", "call", "bet", "raise", "all_in"]
    amount: int = 0  # chips this action put in
    to: int = 0  # his bet in the round after it
    all_in: bool = False


class BoardDealt(Event):
    kind: Literal["board"] = "board"
    street: Literal["flop", "turn", "river"]
    cards: tuple[str, ...]


class Shown(Event):
    kind: Literal["shown"] = "shown"
    seat: SeatKey
    cards: tuple[str, str]


class ShowdownHand(Event):
    """A hand at the showdown, named on the whole board."""

    kind: Literal["showdown_hand"] = "showdown_hand"
    seat: SeatKey
    cards: tuple[str, str]
    name: HandName


class PotAwarded(Event):
    kind: Literal["pot_awarded"] = "pot_awarded"
    pot: int  # 0 the main pot, then the side pots
    amount: int
    eligible: tuple[SeatKey, ...]
    winners: tuple[SeatKey, ...]
    shares: tuple[int, ...]  # per winner, same order
    shown: bool  # False: the last player left took it without showing


class SatOut(Event):
    kind: Literal["sat_out", "sat_in"]
    seat: SeatKey


class WonBack(Event):
    """A PC spent a Hero Point on the last hand: what each spender's holding changed by."""

    kind: Literal["won_back"] = "won_back"
    seat: SeatKey
    pays: dict[SeatKey, int]  # the NPC pays (negative: gives back to the NPC for the others)


class PotClaim(Frozen):
    """A pot the NPC won from a PC: its number and the NPC's share of it."""

    pot: int
    amount: int


class HoldemLostHand(LostHand):
    """A lost hand with the pots it is made of (several spenders split each pot)."""

    pots: tuple[PotClaim, ...]


class PotView(Frozen):
    """A pot on the table now (bets of the current round not included)."""

    pot: int
    amount: int
    eligible: tuple[SeatKey, ...]


def pot_claims(hand: LostHand) -> tuple[PotClaim, ...]:
    """The pots of a hold'em lost hand, from its label when it was stored as a `LostHand`
    (`pot:0=1200 pot:1=300`)."""
    if isinstance(hand, HoldemLostHand):
        return hand.pots
    claims = []
    for part in hand.label.split():
        account, amount = part.split("=")
        claims.append(PotClaim(pot=int(account.removeprefix("pot:")), amount=int(amount)))
    return tuple(claims)


Holdings = dict[int, dict[SeatKey, int]]  # per pot: what each spender holds of it


def won_back_shares(
    lost: Sequence[LostHand],
    spenders: Collection[SeatKey],
    kept: Holdings | None = None,
    chip: int = 1,
) -> Holdings:
    """Who holds what of each pot the NPC won, once `spenders` have spent on it: the NPC's
    share split equally between the spenders who lost it in whole chips of `chip`, odd
    chips one at a time in `lost`'s order (the engine lists lost hands from the first
    player left of the button).
    `kept`: what spenders who have left the table took with them, which stays theirs; the
    others share what is left of the pot."""
    kept = kept or {}
    claims: dict[int, list[tuple[SeatKey, int]]] = {}
    for hand in lost:
        if hand.seat in spenders:
            for claim in pot_claims(hand):
                claims.setdefault(claim.pot, []).append((hand.seat, claim.amount))
    shares: Holdings = {}
    for pot, claimants in claims.items():
        gone = kept.get(pot, {})
        present = [seat for seat, _ in claimants if seat not in gone]
        left = claimants[0][1] - sum(gone.values())
        split = kit.split(left, range(len(present)), len(present), chip) if present else ()
        shares[pot] = {**gone, **dict(zip(present, split, strict=True))}
    return shares


def totals(holdings: Holdings) -> dict[SeatKey, int]:
    """What each spender holds of a hand's pots in all."""
    found: dict[SeatKey, int] = {}
    for held in holdings.values():
        for seat, amount in held.items():
            found[seat] = found.get(seat, 0) + amount
    return found


def winback_pay(
    lost: Sequence[LostHand], spenders: Collection[SeatKey], chip: int = 1
) -> dict[str, int]:
    """What each spending PC of one hand gets when all of them spend at once."""
    pay = {hand.seat: 0 for hand in lost if hand.seat in spenders}
    return {**pay, **totals(won_back_shares(lost, spenders, chip=chip))}


class _Kit:
    """The pokerkit State of the hand in play: a cache, rebuilt from the actions when
    missing, so it is equal to any other and is not copied with the engine."""

    __slots__ = ("count", "owner", "state")

    def __init__(self) -> None:
        self.state: State | None = None
        self.count = 0
        self.owner = 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Kit)

    __hash__ = None  # type: ignore[assignment]

    def __deepcopy__(self, memo: dict[int, Any]) -> _Kit:
        return _Kit()


class Holdem(Engine):
    """A no-limit hold'em table; seats play in `seats` order (clockwise)."""

    key: ClassVar[str] = "holdem"
    moves: ClassVar[frozenset[str]] = frozenset(
        {
            "deal",
            "flop",
            "turn",
            "river",
            "show",
            "fold",
            "check",
            "call",
            "bet",
            "raise",
            "all_in",
            "sit_out",
            "sit_in",
            "won_back",
        }
    )

    rules: HoldemOptions = Field(default_factory=HoldemOptions)
    shoe: ShoeField
    chip: int = Field(default=CHIP, ge=1)  # one chip's worth in cents
    sitting_out: list[SeatKey] = Field(default_factory=list)
    button: SeatKey | None = None
    # The hand in play, or the last one: its players in pokerkit's order (first left of
    # the button, the button last), their chips at the start, the blinds, the hole cards,
    # the pokerkit actions, who showed.
    players: list[SeatKey] = Field(default_factory=list)
    starting: list[int] = Field(default_factory=list)
    blinds: BlindLevel | None = None
    holes: dict[SeatKey, tuple[str, str]] = Field(default_factory=dict)
    actions: list[str] = Field(default_factory=list)
    shown: list[SeatKey] = Field(default_factory=list)
    over: bool = True  # no hand in play
    # The last hand's Hero Points: the hands PCs lost to the NPC, who spent on them (in
    # order), what each spender holds of each pot, and the spenders who left since.
    lost: list[HoldemLostHand] = Field(default_factory=list)
    spent: list[SeatKey] = Field(default_factory=list)
    won_back: Holdings = Field(default_factory=dict)
    gone: list[SeatKey] = Field(default_factory=list)
    # The NPC's notes on the other players: what each of their last hands said of them in
    # public (`ranges.hand_note`, the last `ranges.NOTES` hands), written as a hand ends.
    notes: dict[SeatKey, list[str]] = Field(default_factory=dict)
    # The NPC's line this hand: its draw for the level's mix (`skill.strong_by_draw`),
    # taken at its first decision of the hand from the table's generator; None till then.
    npc_line: float | None = None

    _kit: _Kit = PrivateAttr(default_factory=_Kit)

    @model_validator(mode="after")
    def _one_pack_ten_seats(self) -> Holdem:
        if self.shoe.packs > 1:
            raise ValueError("hold'em deals from one pack")
        if len(self.seats) > MAX_SEATS:
            raise ValueError(f"a hold'em table seats at most {MAX_SEATS}")
        return self

    # -- the pokerkit state ---------------------------------------------------------------

    def _poker(self) -> State:
        cache = self._kit
        if cache.state is None or cache.owner != id(self) or cache.count != len(self.actions):
            blinds = self.blinds
            assert blinds is not None
            cache.state = kit.rebuild(self.starting, blinds.small, blinds.big, self.actions)
            cache.owner, cache.count = id(self), len(self.actions)
        return cache.state

    def _act(self, action: str) -> None:
        state = self._poker()
        try:
            kit.act(state, action)
        except Exception:
            self._kit.state = None  # pokerkit may have done half of it
            raise
        self.actions.append(action)
        self._kit.count += 1

    def _seat_of(self, index: int) -> SeatKey:
        return self.players[index]

    def _index_of(self, seat: SeatKey) -> int:
        return self.players.index(seat)

    # -- what the table shows -------------------------------------------------------------

    @property
    def board(self) -> tuple[str, ...]:
        """The community cards of the hand in play (or of the last hand)."""
        if not self.players:
            return ()
        return tuple(repr(card) for card in self._poker().get_board_cards(0))

    @property
    def bets(self) -> dict[SeatKey, int]:
        """Each player's bet in the current round (not yet in a pot)."""
        if self.over:
            return {}
        return dict(zip(self.players, self._poker().bets, strict=True))

    @property
    def chips(self) -> dict[SeatKey, int]:
        """Chips each player of the hand has behind (not bet), at the end: what he has, the
        pots split by holdem.md in whole chips (pokerkit's own split may leave cents)."""
        if not self.players:
            return {}
        state = self._poker()
        stacks = kit.stacks_after(state, self.chip) if self.over else state.stacks
        return dict(zip(self.players, stacks, strict=True))

    @property
    def folded(self) -> tuple[SeatKey, ...]:
        if not self.players:
            return ()
        operations = self._poker().operations
        return tuple(self.players[op.player_index] for op in operations if isinstance(op, Folding))

    def pots(self) -> list[PotView]:
        """The pots now (bets of the round not included), with who is eligible for each."""
        if self.over:
            return []
        return [
            PotView(
                pot=number,
                amount=pot.amount,
                eligible=tuple(self.players[i] for i in pot.player_indices),
            )
            for number, pot in enumerate(self._poker().pots)
        ]

    def to_call(self, seat: SeatKey) -> int:
        """What `seat` must add to stay in (capped by his chips)."""
        if self.over or seat not in self.players:
            return 0
        state = self._poker()
        index = self._index_of(seat)
        return min(state.stacks[index], max(state.bets) - state.bets[index])

    # -- the shoe -------------------------------------------------------------------------

    @property
    def needs_new_shoe(self) -> bool:
        """Between hands: the pack has dealt a hand (a fresh pack every hand), or is short."""
        if not self.over:
            return False
        return self.shoe.position > 0 or self.shoe.remaining < 2 * len(self._dealt_in()) + 5

    def current_shoe(self) -> Shoe:
        return self.shoe

    def replace_shoe(self, shoe: Shoe) -> None:
        if not self.over:
            raise IllegalAction("games.in_hand")
        if shoe.packs > 1:
            raise ValueError("hold'em deals from one pack")
        self.shoe = shoe

    # -- seats ----------------------------------------------------------------------------

    def sit(self, seat: SeatKey) -> None:
        if seat not in self.seats and len(self.seats) >= MAX_SEATS:
            raise IllegalAction("holdem.table_full", seats=MAX_SEATS)
        super().sit(seat)

    def stand_up(self, seat: SeatKey) -> None:
        if not self.over and seat in self.players:
            raise IllegalAction("games.in_hand", seat=seat)
        if seat not in self.seats:
            return
        if seat in self.spent and seat not in self.gone:  # what he won back leaves with him
            self.gone.append(seat)
        if seat == self.button:  # the next button is the seat after the one who left
            position = self.seats.index(seat)
            self.button = self.seats[position - 1] if len(self.seats) > 1 else None
        self.seats.remove(seat)
        if seat in self.sitting_out:
            self.sitting_out.remove(seat)

    def chip_value(self) -> int:
        return self.chip

    def least_stack(self) -> int:
        """One chip: a stack of less than a whole unit plays nothing."""
        return self.chip

    def level(self, hand: int) -> BlindLevel:
        """The blinds of hand number `hand`, in whole chips (rounded up: a level set in
        cents, on a table saved before chips were whole, still deals)."""
        blinds = self.rules.blinds(hand)
        chip = self.chip
        small, big = -(-blinds.small // chip) * chip, -(-blinds.big // chip) * chip
        return (
            blinds
            if (small, big) == (blinds.small, blinds.big)
            else BlindLevel(small=small, big=big)
        )

    def _chips_of(self, seat: SeatKey) -> int | None:
        """The seat's whole chips from the table (None: the NPC's unlimited bankroll). A limited
        NPC's stack is its bankroll less what it owes on open Hero Point offers, which can
        exceed it: then it has nothing to play with."""
        stack = self.stacks.get(seat, 0)
        return None if stack is None else max(stack - stack % self.chip, 0)

    def _dealt_in(self) -> list[SeatKey]:
        """The seats the next deal would deal in, in seat order."""
        return [
            seat
            for seat in self.seats
            if seat not in self.sitting_out and self._chips_of(seat) != 0
        ]

    def in_hand(self) -> bool:
        return not self.over

    # -- what is legal --------------------------------------------------------------------

    def options(self) -> list[Option]:
        options: list[Option] = []
        if self.over:
            if len(self._dealt_in()) >= 2 and not self.needs_new_shoe:
                options.append(Option(kind="deal"))
            if targets := self._may_win_back():
                options.append(Option(kind="won_back", targets=targets))
        else:
            step = self.automation()
            if step is not None:
                options.append(Option(kind=step.kind))
            options.extend(self._player_options())
        for seat in self.seats:
            kind = "sit_in" if seat in self.sitting_out else "sit_out"
            options.append(Option(kind=kind, seat=seat))
        return options

    def _player_options(self) -> list[Option]:
        state = self._poker()
        index = state.actor_index
        if index is None:
            return []
        seat = self._seat_of(index)
        assert self.blinds is not None
        options = []
        if state.can_fold():
            options.append(Option(kind="fold", seat=seat))
        call = state.checking_or_calling_amount
        assert call is not None
        if call == 0:
            options.append(Option(kind="check", seat=seat))
        else:
            options.append(Option(kind="call", seat=seat, min=call, max=call))
        raising = state.can_complete_bet_or_raise_to() and kit.may_raise(
            state, index, self.blinds.big
        )
        if raising:
            kind = "bet" if max(state.bets) == 0 else "raise"
            low = state.min_completion_betting_or_raising_to_amount
            high = state.max_completion_betting_or_raising_to_amount
            options.append(Option(kind=kind, seat=seat, min=low, max=high))
        if raising or state.stacks[index] <= call:
            options.append(Option(kind="all_in", seat=seat))
        return options

    # -- what the table does by itself ----------------------------------------------------

    def automation(self) -> Move | None:
        if self.over:
            return None
        state = self._poker()
        if state.showdown_index is not None:
            return Move(kind="show")
        if state.card_burning_status or any(state.board_dealing_counts):
            return Move(kind=STREETS[len(self.board)])
        return None

    def turn(self) -> tuple[SeatKey, ...]:
        if self.over:
            return ()
        index = self._poker().actor_index
        return () if index is None else (self._seat_of(index),)

    def timeout_move(self, seat: SeatKey) -> Move | None:
        """Check when it is free, else fold."""
        if seat not in self.turn():
            return None
        kinds = {option.kind for option in self._player_options()}
        return Move(kind="check" if "check" in kinds else "fold", seat=seat, auto="timeout")

    def npc_move(self, rng: random.Random, level: int = GAMBLING_MAX) -> Move | None:
        """The NPC's move at this Gambling level. Between 0 and 15 one draw from `rng`
        at its first decision of a hand says which player it is for the whole hand (kept
        in `npc_line`, so a replay from the saved table decides the same)."""
        if self.npc is None or self.npc not in self.turn():
            return None
        if self.npc_line is None and 0 < strong_share(level) < 1:
            self.npc_line = rng.random()
        return decide(self._situation(self.npc), rng, level, self.npc_line)

    def _situation(self, seat: SeatKey) -> Situation:
        """What `seat` may know now: its cards, the table, its options, and the public
        actions of the hand (never another player's cards)."""
        state = self._poker()
        assert self.blinds is not None
        index = self._index_of(seat)
        folded = self.folded
        live = [i for i, seat in enumerate(self.players) if seat not in folded]
        first, second = self.private_cards(seat)
        others = [i for i in live if i != index]
        return Situation(
            hole=(first, second),
            board=tuple(parse_cards(" ".join(self.board))),
            opponents=len(live) - 1,
            pot=state.total_pot_amount,
            to_call=self.to_call(seat),
            chips=state.stacks[index],
            in_position=index == max(live),
            options=tuple(o for o in self._player_options() if o.seat == seat),
            chip=self.blinds.small,
            big=self.blinds.big,
            bet=state.bets[index],
            me=index,
            players=len(self.players),
            live=tuple(others),
            history=self._history(),
            effective=max((state.stacks[i] + state.bets[i] for i in others), default=0),
            reads=tuple(ranges.read_of(self.notes.get(seat, ())) for seat in self.players),
        )

    def _history(self) -> tuple[Seen, ...]:
        """The players' actions of the hand in play, by street, each with the pot it
        faced (the cards dealt are not read)."""
        street, pot = 0, 0
        bets = [0] * len(self.players)
        seen: list[Seen] = []
        for operation in self._poker().operations:
            if isinstance(operation, BoardDealing):
                street, bets = street + 1, [0] * len(self.players)
            elif isinstance(operation, BlindOrStraddlePosting):
                bets[operation.player_index] += operation.amount
                pot += operation.amount
            elif isinstance(operation, Folding):
                seen.append(Seen(operation.player_index, street, "fold", pot=pot))
            elif isinstance(operation, CheckingOrCalling):
                kind = "call" if operation.amount else "check"
                seen.append(Seen(operation.player_index, street, kind, pot=pot))
                bets[operation.player_index] += operation.amount
                pot += operation.amount
            elif isinstance(operation, CompletionBettingOrRaisingTo):
                index, to = operation.player_index, operation.amount
                seen.append(Seen(index, street, "raise", to, pot, to - bets[index]))
                pot += to - bets[index]
                bets[index] = to
        return tuple(seen)

    # -- Hero Points ----------------------------------------------------------------------

    def _may_win_back(self) -> tuple[SeatKey, ...]:
        """The PCs at the table who lost the last hand to the NPC and have not spent on it."""
        return tuple(
            hand.seat
            for hand in self.lost
            if hand.seat in self.seats and hand.seat not in self.spent
        )

    def _kept(self) -> Holdings:
        """What the spenders who left took of each pot: theirs, whoever spends after."""
        return {
            pot: {seat: amount for seat, amount in held.items() if seat in self.gone}
            for pot, held in self.won_back.items()
        }

    def won_back_pays(self, seat: SeatKey) -> dict[SeatKey, int] | None:
        """What a Hero Point spent by `seat` now moves: the NPC pays him his share of each
        pot he lost to it, and the PCs who spent on those pots before him give back to the
        NPC what he takes of their holding (several spenders split a pot equally). None
        when he has nothing to spend on (the table then pays the offer as it stands)."""
        if not self.over or seat not in self._may_win_back():
            return None
        before = totals(self.won_back)
        after = totals(won_back_shares(self.lost, [*self.spent, seat], self._kept(), self.chip))
        pays = {s: after.get(s, 0) - before.get(s, 0) for s in [*self.spent, seat]}
        return {s: amount for s, amount in pays.items() if amount or s == seat}

    def check(self, move: Move) -> None:
        if move.kind == "sit_out" and move.seat in self.sitting_out:
            raise IllegalAction("holdem.already_out", seat=move.seat)
        if move.kind == "sit_in" and move.seat in self.seats and move.seat not in self.sitting_out:
            raise IllegalAction("holdem.already_in", seat=move.seat)
        if move.kind == "won_back" and move.target in self._may_win_back():
            pays = self.won_back_pays(move.target)
            if pays is not None and pays[move.target] <= 0:
                raise IllegalAction("holdem.nothing_to_win_back", seat=move.target)
        if move.kind in ("bet", "raise") and move.amount is not None and move.amount % self.chip:
            raise IllegalAction("holdem.whole_chips", chip=Cents(self.chip))

    def _won_back(self, move: Move) -> Record:
        assert move.target is not None
        pays = self.won_back_pays(move.target)
        assert pays is not None
        kept = self._kept()
        self.spent.append(move.target)
        self.won_back = won_back_shares(self.lost, self.spent, kept, self.chip)
        return Record(move=move, events=(WonBack(seat=move.target, pays=pays),))

    # -- what each seat may see -----------------------------------------------------------

    def private_cards(self, seat: SeatKey) -> Sequence[Card]:
        return [Card.parse(code) for code in self.holes.get(seat, ())]

    def hidden_cards(self) -> set[Card]:
        return {
            Card.parse(code)
            for seat, cards in self.holes.items()
            if seat not in self.shown
            for code in cards
        }

    def shown_hands(self) -> tuple[ShownHand, ...]:
        """The finished hand's board (what was dealt of it), then the hole cards of each
        hand shown at the showdown, in the order shown; nothing while a hand is in play. A
        hand won by the last player left shows the board only, or nothing without one."""
        if not self.over or not self.players:
            return ()
        board = cards_of(self.board)
        rows = [ShownHand("board", board)] if board else []
        folded = self.folded
        rows += [
            ShownHand(seat, tuple(self.private_cards(seat)))
            for seat in self.shown
            if seat not in folded
        ]
        return tuple(rows)

    # -- doing it -------------------------------------------------------------------------

    def play(self, move: Move) -> Record:
        if move.kind == "deal":
            return self._deal(move)
        if move.kind == "won_back":
            return self._won_back(move)
        if move.kind in ("sit_out", "sit_in"):
            assert move.seat is not None
            if move.kind == "sit_out":
                self.sitting_out.append(move.seat)
            else:
                self.sitting_out.remove(move.seat)
            kind = "sat_out" if move.kind == "sit_out" else "sat_in"
            return Record(move=move, events=(SatOut(kind=kind, seat=move.seat),))
        if move.kind == "show":
            events = self._show()
        elif move.kind in DEALS:
            events = self._deal_board(move.kind)
        else:
            events = [self._player_action(move)]
        return self._after(move, events)

    def _deal(self, move: Move) -> Record:
        dealt = self._dealt_in()
        button = self._next_button(dealt)
        at = dealt.index(button)
        players = dealt[at + 1 :] + dealt[: at + 1]
        chips = [self._chips_of(seat) for seat in players]
        blinds = self.level(self.hand + 1)
        cover = max([c for c in chips if c is not None] + [blinds.big])
        starting = [cover if c is None else c for c in chips]

        # One card each from the first left of the button, twice around; nothing changes
        # unless pokerkit takes them all.
        position = self.shoe.position
        try:
            cards = [self.shoe.deal().code for _ in range(2 * len(players))]
            holes = {seat: (cards[i], cards[i + len(players)]) for i, seat in enumerate(players)}
            actions = [f"d dh p{i + 1} {''.join(holes[seat])}" for i, seat in enumerate(players)]
            state = kit.rebuild(starting, blinds.small, blinds.big, actions)
        except Exception:
            self.shoe.position = position
            raise

        self.hand += 1
        self.begin_hand()
        self.button, self.players, self.starting, self.blinds = button, players, starting, blinds
        self.holes, self.actions, self.shown, self.over = holes, actions, [], False
        self.lost, self.spent, self.won_back, self.gone = [], [], {}, []
        self.npc_line = None
        self._kit.state, self._kit.count, self._kit.owner = state, len(actions), id(self)

        small = 1 if len(players) == 2 else 0  # heads-up, the button posts the small blind
        events: list[Event] = [
            HandStarted(
                hand=self.hand,
                button=button,
                players=tuple(players),
                stacks=tuple(starting),
                blinds=blinds,
            )
        ]
        posts = [op for op in state.operations if isinstance(op, BlindOrStraddlePosting)]
        for post in sorted(posts, key=lambda op: op.player_index != small):
            events.append(
                BlindPosted(
                    seat=players[post.player_index],
                    blind="small" if post.player_index == small else "big",
                    amount=post.amount,
                )
            )
        return self._after(move, events)

    def _next_button(self, dealt: list[SeatKey]) -> SeatKey:
        """The next seat dealt in after the last button (the first one for the first hand)."""
        if self.button is None or self.button not in self.seats:
            return dealt[0]
        start = self.seats.index(self.button)
        for step in range(1, len(self.seats) + 1):
            seat = self.seats[(start + step) % len(self.seats)]
            if seat in dealt:
                return seat
        raise AssertionError("no seat to deal in")

    def _player_action(self, move: Move) -> Event:
        assert move.seat is not None
        state = self._poker()
        index = self._index_of(move.seat)
        bet, stack, done = state.bets[index], state.stacks[index], len(state.operations)
        player = f"p{index + 1}"
        if move.kind == "fold":
            self._act(f"{player} f")
        elif move.kind in ("check", "call") or stack <= max(state.bets) - bet:
            self._act(f"{player} cc")  # an all-in for no more than the call is a call
        else:
            self._act(f"{player} cbr {stack + bet if move.kind == 'all_in' else move.amount}")
        operation = state.operations[done]  # what pokerkit did next is not his
        if isinstance(operation, CheckingOrCalling):
            added = operation.amount
        elif isinstance(operation, CompletionBettingOrRaisingTo):
            added = operation.amount - bet
        else:
            added = 0
        return Acted(
            seat=move.seat,
            action=move.kind,  # type: ignore[arg-type]
            amount=added,
            to=bet + added,
            all_in=added > 0 and added == stack,
        )

    def _show(self) -> list[Event]:
        state = self._poker()
        events: list[Event] = []
        while state.showdown_index is not None:
            seat = self._seat_of(state.showdown_index)
            self._act(f"p{state.showdown_index + 1} sm -")
            self.shown.append(seat)
            events.append(Shown(seat=seat, cards=self.holes[seat]))
        return events

    def _deal_board(self, street: str) -> list[Event]:
        position = self.shoe.position
        try:
            cards = tuple(self.shoe.deal().code for _ in range(DEALS[street]))
            self._act(f"d db {''.join(cards)}")
        except Exception:
            self.shoe.position = position
            raise
        return [BoardDealt(street=street, cards=cards)]  # type: ignore[arg-type]

    # -- the end of a hand ----------------------------------------------------------------

    def _after(self, move: Move, events: list[Event]) -> Record:
        """The record of a move; if it ended the hand, with the settlement."""
        if self.over or self._poker().status:
            return Record(move=move, events=tuple(events))
        self.over = True
        self._take_notes()
        pots = kit.outcome(self._poker(), self.chip)
        live = [seat for seat in self.players if seat not in self.folded]
        showdown = len(live) > 1
        if showdown:
            events.extend(self._showdown_hands(live))
        events.extend(self._awards(pots, showdown))
        transfers: list[Transfer] = []
        for number, pot in enumerate(pots):
            account = pot_account(number)
            for index, paid in enumerate(pot.paid):
                if paid:
                    transfers.append(
                        Transfer(
                            src=seat_account(self.players[index]),
                            dst=account,
                            amount=paid,
                            reason="holdem.bet",
                        )
                    )
            for index in pot.winners:
                transfers.append(
                    Transfer(
                        src=account,
                        dst=seat_account(self.players[index]),
                        amount=pot.shares[index],
                        reason="holdem.pot",
                    )
                )
        self.lost = self._lost_hands(pots, live) if showdown else []
        return Record(
            move=move,
            events=tuple(events),
            transfers=tuple(transfers),
            lost=tuple(self.lost),
            hand_over=True,
        )

    def _take_notes(self) -> None:
        """The NPC's notes on each other player from the hand just over: its public actions,
        and the cards he turned face up at the showdown (`shown`, public)."""
        if self.npc is None:
            return
        history = self._history()
        board = parse_cards(" ".join(self.board))
        for index, seat in enumerate(self.players):
            if seat != self.npc:
                shown = parse_cards(" ".join(self.holes[seat])) if seat in self.shown else []
                note = ranges.hand_note(index, history, shown, board)
                kept = [*self.notes.get(seat, []), note]
                self.notes[seat] = kept[-ranges.NOTES :]

    def _showdown_hands(self, live: list[SeatKey]) -> list[ShowdownHand]:
        board = parse_cards(" ".join(self.board))
        hands = []
        for seat in live:
            cards = self.holes[seat]
            name = hand_name([*parse_cards(" ".join(cards)), *board])
            hands.append(ShowdownHand(seat=seat, cards=cards, name=name))
        return hands

    def _awards(self, pots: list[kit.PotOutcome], shown: bool) -> list[PotAwarded]:
        return [
            PotAwarded(
                pot=number,
                amount=pot.amount,
                eligible=tuple(self.players[i] for i in pot.eligible),
                winners=tuple(self.players[i] for i in pot.winners),
                shares=tuple(pot.shares[i] for i in pot.winners),
                shown=shown,
            )
            for number, pot in enumerate(pots)
        ]

    def last_hand(self) -> tuple[list[ShowdownHand], list[PotAwarded]]:
        """The finished hand's shown hands (none when the last player left took it) and its
        pots, recomputed from the hand's state for the table message between hands."""
        if not self.over or not self.players:
            return [], []
        live = [seat for seat in self.players if seat not in self.folded]
        showdown = len(live) > 1
        hands = self._showdown_hands(live) if showdown else []
        return hands, self._awards(kit.outcome(self._poker(), self.chip), showdown)

    def _lost_hands(self, pots: list[kit.PotOutcome], live: list[SeatKey]) -> list[HoldemLostHand]:
        """Each PC at the showdown who lost, to the NPC, pots he was eligible for."""
        if self.npc not in self.players:
            return []
        npc = self._index_of(self.npc)
        lost: list[HoldemLostHand] = []
        for seat in live:
            if seat == self.npc:
                continue
            index = self._index_of(seat)
            claims = tuple(
                PotClaim(pot=number, amount=pot.shares[npc])
                for number, pot in enumerate(pots)
                if index in pot.eligible and index not in pot.winners and npc in pot.winners
            )
            if claims:
                lost.append(
                    HoldemLostHand(
                        seat=seat,
                        label=" ".join(f"{pot_account(c.pot)}={c.amount}" for c in claims),
                        pay=sum(claim.amount for claim in claims),
                        pots=claims,
                    )
                )
        return lost
