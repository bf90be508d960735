"""Macao (`rules/macao.md`) on the engine contract: private hands, three countings, naturals.

A coup, move by move:

1. `deal` (the table or the GM, seat None): two cards each, one at a time, to the players in
   seat order from the banker's left, the banker last. Each hand is private to its seat.
2. `wager` / `pass`: every player at once, seeing only his own cards. A player who passes
   sits the coup out; his hand is never shown.
3. `naturals` (automatic): a banker's natural is shown and settles every player (a higher
   natural beats it, an equal one is void); otherwise each player's natural is shown and
   paid at once. Under `bust` a player whose two cards bust shows them and loses.
4. `draw` / `stand`: the players left, in seat order (0–5 may draw; a 6 may only stand,
   but gets his turn like the others so that nobody learns his total). Then the banker,
   if his rule lets him draw.
5. `showdown` (automatic): the banker and every player left show their hands; each wager
   is settled against the banker.

Decisions where macao.md is silent (also in docs/decisions.md, "Macao"):
- Third cards are dealt face up: the banker's restricted table depends on them and the
  bot shows which one let him draw. First cards are shown only when a hand is revealed.
- Equal naturals are a tie: the tie wager wins at the tie odds, the hand wagers are void.
  Naturals' multiples apply to the hand wagers only; a tie wager loses one stake.
- Under `bust` a player who busts loses even to a banker who busts later (he gave up his
  stake first); a two-card bust is shown and settled with the naturals.
- Chips never overdraw a stack: a hand wager can lose three stakes (a banker's natural 9,
  or the player's own 9 against a banker's-hand wager), so it is bounded by a third of the
  player's stack; the banker must cover what he could owe on every wager taken (three
  stakes on a hand, the tie odds on a tie), first come first served.
- A player's timeout passes (no chips are risked for an absent player); a draw's timeout
  is the recommended play, for the banker too.
- Rotating bank: the first seat in seat order banks first, then the bank passes to the
  next seat after each coup, skipping a seat that cannot cover one minimum hand wager.
- The shoe is dealt to its end and replaced between coups when it cannot give every hand
  three cards, or when the table has grown past what its packs serve.
- A lost wager against the NPC banker is a lost hand; the spend pays everything the wager
  lost plus the win (see `settlement.won_back`). All of a coup's lost hands are reported
  by the move that ends it, when the Hero Point offers open.
- The winner of the evening is the seat with the most chips (the NPC banker excluded).

Beyond the contract: `packs` (the packs the table should shuffle, which `shoe_packs`
tells the table), `banker_allowance` (the card that lets a restricted banker draw, for his
private view), `bank_expectation` (told to the GM at open) and `winners`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

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
    seat_account,
)
from bondbot.games.macao import npc as npc_play
from bondbot.games.macao.counting import (
    Counting,
    card_value,
    hand_total,
    is_bust,
    natural_of,
)
from bondbot.games.macao.drawing import (
    allowing_third,
    banker_may_draw,
    player_may_draw,
    recommended_banker_draw,
    recommended_draw,
)
from bondbot.games.macao.events import (
    CardField,
    CoupOver,
    Dealt,
    Drew,
    EveningOver,
    Passed,
    Revealed,
    Settled,
    Stood,
    Wagered,
)
from bondbot.games.macao.odds import BankExpectation, bank_expectation
from bondbot.games.macao.settlement import (
    Target,
    Verdict,
    max_loss,
    max_win,
    natural_verdict,
    showdown_verdict,
    wager_net,
    won_back,
)
from bondbot.money import Cents
from bondbot.rules.cards import Card
from bondbot.rules.errors import IllegalAction
from bondbot.rules.shoe import Shoe

CARDS_PER_HAND_MAX = 3
HANDS_PER_PACK = 5  # one pack up to 5 hands, two up to 10 …
MAX_PACKS = 8


def packs_for(hands: int) -> int:
    """The packs a table of `hands` hands (players and banker) plays with by default."""
    return min(MAX_PACKS, max(1, -(-hands // HANDS_PER_PACK)))


class Bank(StrEnum):
    NPC = "npc"  # the NPC banks every coup
    ROTATE = "rotate"  # each seat banks in turn


class MacaoRules(Frozen):
    """A table's options, set when it opens. Amounts in cents."""

    counting: Counting = Counting.MINUS9
    packs: int | None = Field(default=None, ge=1, le=MAX_PACKS)  # None: by table size
    bank: Bank = Bank.NPC
    min_stake: int = Field(default=100, gt=0)
    max_stake: int = Field(default=100_000, gt=0)
    tie_pays: int = Field(default=8, ge=1, le=20)
    coups: int | None = Field(default=None, ge=1)  # the evening's length; None: the GM ends it

    @model_validator(mode="after")
    def _limits_in_order(self) -> MacaoRules:
        if self.min_stake > self.max_stake:
            raise ValueError("the table minimum is above its maximum")
        return self


class Phase(StrEnum):
    IDLE = "idle"  # between coups
    WAGERS = "wagers"
    NATURALS = "naturals"
    DRAWS = "draws"
    BANKER = "banker"
    SHOWDOWN = "showdown"
    OVER = "over"  # the evening is over


class Wager(Frozen):
    target: Target
    stake: int


class PlayerHand(BaseModel):
    """A player's part of the coup: his cards, his wager, and how it ended."""

    model_config = ConfigDict(extra="forbid")

    seat: SeatKey
    cards: list[CardField]
    decided: bool = False  # wagered or passed
    wager: Wager | None = None
    net: int | None = None  # once settled: what he won (+) or lost (−)
    shown: bool = False

    @property
    def live(self) -> bool:
        """Wagered and not settled yet."""
        return self.wager is not None and self.net is None


@dataclass(frozen=True, slots=True)
class Allowance:
    """The player's third card that lets a restricted banker draw."""

    seat: SeatKey
    card: Card


@dataclass(slots=True)
class _Step:
    """What one move produces, gathered as the coup goes on."""

    events: list[Event] = field(default_factory=list)
    transfers: list[Transfer] = field(default_factory=list)


class Macao(Engine):
    """A Macao table's whole state; `history` holds the moves of the current coup."""

    key: ClassVar[str] = "macao"
    moves: ClassVar[frozenset[str]] = frozenset(
        {"deal", "end", "wager", "pass", "naturals", "draw", "stand", "showdown"}
    )

    rules: MacaoRules = Field(default_factory=MacaoRules)
    shoe: ShoeField
    phase: Phase = Phase.IDLE
    banker: SeatKey | None = None  # this coup's banker (between coups: the last one)
    bank_cards: list[CardField] = Field(default_factory=list)
    bank_shown: bool = False
    players: list[PlayerHand] = Field(default_factory=list)  # this coup, in drawing order
    actor: SeatKey | None = None  # whose draw it is
    lost: list[LostHand] = Field(default_factory=list)  # this coup's, reported at its end

    # -- the table's size and its shoe ---------------------------------------------------

    @property
    def packs(self) -> int:
        """How many packs the table's shoe should hold now."""
        if self.rules.packs is not None:
            return self.rules.packs
        banker = self.next_banker()
        return packs_for(len(self._players_for(banker)) + 1)

    @property
    def needs_new_shoe(self) -> bool:
        """The shoe cannot serve the next coup: the table must `replace_shoe` first."""
        hands = len(self._players_for(self.next_banker())) + 1
        short = self.shoe.remaining < CARDS_PER_HAND_MAX * hands
        return short or 0 < self.shoe.packs < self.packs

    def current_shoe(self) -> Shoe:
        return self.shoe

    def replace_shoe(self, shoe: Shoe) -> None:
        if self.in_hand():
            raise IllegalAction("macao.in_coup")
        self.shoe = shoe

    # -- what is legal -------------------------------------------------------------------

    def options(self) -> list[Option]:
        match self.phase:
            case Phase.IDLE:
                deal = [Option(kind="deal")] if self._can_deal() else []
                return [*deal, Option(kind="end")]
            case Phase.WAGERS:
                return [
                    option
                    for hand in self.players
                    if not hand.decided
                    for option in self._wager_options(hand.seat)
                ]
            case Phase.DRAWS:
                may = player_may_draw(self._total(self._player(self.actor).cards))
                draw = [Option(kind="draw", seat=self.actor)] if may else []
                return [*draw, Option(kind="stand", seat=self.actor)]
            case Phase.BANKER:
                return [Option(kind="draw", seat=self.actor), Option(kind="stand", seat=self.actor)]
            case Phase.NATURALS:
                return [Option(kind="naturals")]
            case Phase.SHOWDOWN:
                return [Option(kind="showdown")]
        return []

    def check(self, move: Move) -> None:
        """The reason a player is told when his move is refused (`options` has the bounds)."""
        if move.kind in ("wager", "pass"):
            if self.phase is not Phase.WAGERS:
                raise IllegalAction("macao.wagers_closed")
            if self._player(move.seat).decided:
                raise IllegalAction("macao.already_decided")
            if move.kind == "wager":
                self._check_stake(str(move.seat), move.target, move.amount or 0)
        elif move.kind in ("draw", "stand"):
            if self.phase not in (Phase.DRAWS, Phase.BANKER):
                raise IllegalAction("macao.no_draw_now")
            if move.seat != self.actor:
                raise IllegalAction("macao.not_your_turn", seat=self.actor)
            drawing = move.kind == "draw" and self.phase is Phase.DRAWS
            if drawing and not player_may_draw(self._total(self._player(move.seat).cards)):
                raise IllegalAction("macao.cannot_draw")
        elif move.kind in ("deal", "end"):
            if self.phase is Phase.OVER:
                raise IllegalAction("macao.evening_over")
            if self.in_hand():
                raise IllegalAction("macao.in_coup")
            if move.kind == "deal" and self.next_banker() is None:
                raise IllegalAction("macao.no_banker")
            if move.kind == "deal" and not self._players_for(self.next_banker()):
                raise IllegalAction("macao.no_players")

    def _check_stake(self, seat: SeatKey, target: str | None, stake: int) -> None:
        if target not in tuple(Target):
            raise IllegalAction("macao.unknown_target")
        rules = self.rules
        if not rules.min_stake <= stake <= rules.max_stake:
            raise IllegalAction(
                "table.outside_limits", min=Cents(rules.min_stake), max=Cents(rules.max_stake)
            )
        kind = Target(target)
        stack = self._stack(seat)
        if stack is not None and stake * max_loss(kind, 1) > stack:
            key = "macao.tie_over_chips" if kind is Target.TIE else "macao.hand_over_chips"
            raise IllegalAction(key, max=Cents(stack // max_loss(kind, 1)))
        cover = self._cover_left()
        if cover is not None and stake * max_win(kind, 1, rules.tie_pays) > cover:
            raise IllegalAction("table.bank_cannot_cover", available=Cents(max(cover, 0)))

    def _wager_options(self, seat: SeatKey) -> list[Option]:
        options = [Option(kind="pass", seat=seat)]
        for targets in ((Target.OWN, Target.BANKER), (Target.TIE,)):
            top = self._max_stake(seat, targets[0])
            if top >= self.rules.min_stake:
                options.append(
                    Option(
                        kind="wager",
                        seat=seat,
                        min=self.rules.min_stake,
                        max=top,
                        targets=tuple(str(target) for target in targets),
                    )
                )
        return options

    def _max_stake(self, seat: SeatKey, target: Target) -> int:
        """The largest stake on `target` the table, the player's chips and the bank allow."""
        top = self.rules.max_stake
        stack = self._stack(seat)
        if stack is not None:
            top = min(top, stack // max_loss(target, 1))
        cover = self._cover_left()
        if cover is not None:
            top = min(top, cover // max_win(target, 1, self.rules.tie_pays))
        return top

    def _cover_left(self) -> int | None:
        """What the banker's stack can still cover (None: an unlimited bankroll)."""
        stack = self._stack(self.banker)
        if stack is None:
            return None
        committed = sum(
            max_win(hand.wager.target, hand.wager.stake, self.rules.tie_pays)
            for hand in self.players
            if hand.wager is not None
        )
        return stack - committed

    def _stack(self, seat: SeatKey | None) -> int | None:
        return self.stacks.get(seat, 0) if seat is not None else 0

    # -- whose turn ------------------------------------------------------------------------

    def turn(self) -> tuple[SeatKey, ...]:
        if self.phase is Phase.WAGERS:
            return tuple(hand.seat for hand in self.players if not hand.decided)
        if self.phase in (Phase.DRAWS, Phase.BANKER) and self.actor is not None:
            return (self.actor,)
        return ()

    def automation(self) -> Move | None:
        if self.phase is Phase.NATURALS:
            return Move(kind="naturals")
        if self.phase is Phase.SHOWDOWN:
            return Move(kind="showdown")
        return None

    def timeout_move(self, seat: SeatKey) -> Move | None:
        """A player who has not wagered passes; a draw is the recommended play."""
        if seat not in self.turn():
            return None
        if self.phase is Phase.WAGERS:
            return Move(kind="pass", seat=seat)
        if self.phase is Phase.DRAWS:
            draws = recommended_draw(self._total(self._player(seat).cards))
        else:
            draws = recommended_banker_draw(self._total(self.bank_cards), self._third_values())
        return Move(kind="draw" if draws else "stand", seat=seat)

    def npc_move(self, rng: random.Random, level: int = GAMBLING_MAX) -> Move | None:
        """The NPC's wager or draw, as well as its Gambling `level` plays (`npc.py`)."""
        if self.npc is None or self.npc not in self.turn():
            return None
        return npc_play.decide(self, self.npc, rng, level)

    # -- money the table checks ---------------------------------------------------------

    def least_stack(self) -> int:
        return self.rules.min_stake

    def committed(self, seat: SeatKey) -> int:
        """The most this seat may still pay on the coup's open wagers: a player his wager's
        worst loss, the banker what he would owe every player in the worst case."""
        if seat == self.banker and self.in_hand():
            return sum(
                max_win(hand.wager.target, hand.wager.stake, self.rules.tie_pays)
                for hand in self.players
                if hand.live and hand.wager is not None
            )
        hand = self._find(seat) if self.in_hand() else None
        if hand is None or not hand.live or hand.wager is None:
            return 0
        return max_loss(hand.wager.target, hand.wager.stake)

    def exposure(self) -> int:
        """What the NPC may still pay on this coup (its bank must keep it for the coup)."""
        return 0 if self.npc is None else self.committed(self.npc)

    def shoe_packs(self, table_packs: int) -> int:
        """The GM's packs, or by the table's size (`packs`)."""
        return self.packs

    # -- what each seat may see ----------------------------------------------------------

    def private_cards(self, seat: SeatKey) -> Sequence[Card]:
        """A seat's own hand, while it has not been shown."""
        if seat == self.banker and not self.bank_shown:
            return tuple(self.bank_cards)
        hand = self._find(seat)
        if hand is None or hand.shown:
            return ()
        return tuple(hand.cards)

    def hidden_cards(self) -> set[Card]:
        hidden = set() if self.bank_shown else set(self.bank_cards[:2])
        for hand in self.players:
            if not hand.shown:
                hidden.update(hand.cards[:2])
        return hidden

    def shown_hands(self) -> tuple[ShownHand, ...]:
        """The hands the last coup revealed, as its results show them: the banker's (when
        shown), then the players' in drawing order, each with its total under the table's
        counting. A hand never revealed (a pass, a loss to the banker's natural) is not
        there. The coup's hands are kept until the next deal: nothing while one is played."""
        if self.in_hand():
            return ()
        rows: list[ShownHand] = []
        if self.bank_shown and self.banker is not None:
            cards = tuple(self.bank_cards)
            rows.append(ShownHand(self.banker, cards, self._total(cards), "banker"))
        for hand in self.players:
            if hand.shown:
                rows.append(ShownHand(hand.seat, tuple(hand.cards), self._total(hand.cards)))
        return tuple(rows)

    def banker_allowance(self) -> Allowance | None:
        """The first player's third card that lets a restricted banker draw (the bot shows
        it); None when the restricted table does not apply or no card allows a draw."""
        drawn = [(hand.seat, hand.cards[2]) for hand in self.players if len(hand.cards) == 3]
        index = allowing_third(self._total(self.bank_cards), [card_value(c) for _, c in drawn])
        return None if index is None else Allowance(*drawn[index])

    # -- seats ---------------------------------------------------------------------------

    def in_hand(self) -> bool:
        return self.phase not in (Phase.IDLE, Phase.OVER)

    def stand_up(self, seat: SeatKey) -> None:
        if self.in_hand() and seat in self.seats:
            raise IllegalAction("games.in_hand", seat=seat)
        if self.rules.bank is Bank.ROTATE and seat == self.banker and len(self.seats) > 1:
            # The bank passes on from the seat before, as if he had never sat.
            self.banker = self.seats[self.seats.index(seat) - 1]
        super().stand_up(seat)

    # -- the evening ---------------------------------------------------------------------

    def winners(self) -> tuple[SeatKey, ...]:
        """The seats with the most chips (`stacks` as the table last set them), in seat
        order; the NPC's bank does not compete."""
        chips = {
            seat: stack
            for seat in self.seats
            if (stack := self.stacks.get(seat)) is not None
            and not (self.rules.bank is Bank.NPC and seat == self.npc)
        }
        if not chips:
            return ()
        best = max(chips.values())
        return tuple(seat for seat, stack in chips.items() if stack == best)

    def bank_expectation(self) -> BankExpectation:
        """What the bank may expect per stake and per coup, told to the GM at open."""
        return bank_expectation(self.rules.counting, self.packs, self.rules.tie_pays)

    # -- playing -------------------------------------------------------------------------

    def play(self, move: Move) -> Record:
        step = _Step()
        hand_over = False
        match move.kind:
            case "deal":
                self._deal(step)
            case "end":
                self.phase = Phase.OVER
                step.events.append(EveningOver(coups=self.hand))
            case "wager" | "pass":
                self._decide(move, step)
            case "naturals":
                hand_over = self._naturals(step)
            case "draw" | "stand" if self.phase is Phase.DRAWS:
                self._player_draws(move, step)
            case "draw" | "stand":
                self._banker_draws(move.kind == "draw", step)
            case "showdown":
                self._showdown(step)
                hand_over = True
        lost = ()
        if hand_over:
            lost = tuple(self.lost)
            self._end_coup(step)
        return Record(
            move=move,
            events=tuple(step.events),
            transfers=tuple(step.transfers),
            lost=lost,
            hand_over=hand_over,
        )

    def _deal(self, step: _Step) -> None:
        banker = self.next_banker()
        assert banker is not None  # `deal` is offered only when a bank is possible
        order = self._players_for(banker)
        self.begin_hand()  # the moves of this coup only
        self.hand += 1
        self.banker = banker
        self.bank_shown = False
        self.actor = None
        self.lost = []
        first = [self.shoe.deal() for _ in range(len(order) + 1)]
        second = [self.shoe.deal() for _ in range(len(order) + 1)]
        self.players = [
            PlayerHand(seat=seat, cards=[a, b])
            for seat, a, b in zip(order, first, second, strict=False)
        ]
        self.bank_cards = [first[-1], second[-1]]
        self.phase = Phase.WAGERS
        step.events.append(Dealt(coup=self.hand, banker=banker, players=tuple(order)))

    def _decide(self, move: Move, step: _Step) -> None:
        hand = self._player(move.seat)
        hand.decided = True
        if move.kind == "wager":
            assert move.amount is not None and move.target is not None
            hand.wager = Wager(target=Target(move.target), stake=move.amount)
            step.events.append(Wagered(seat=hand.seat, target=hand.wager.target, stake=move.amount))
        else:
            step.events.append(Passed(seat=hand.seat))
        if all(other.decided for other in self.players):
            self.phase = Phase.NATURALS

    def _naturals(self, step: _Step) -> bool:
        """Settle what the first two cards decide; True when that ends the coup."""
        bank_total = self._total(self.bank_cards)
        bank_natural = natural_of(bank_total, 2)
        live = [hand for hand in self.players if hand.live]
        if bank_natural is not None and live:
            self._reveal_bank("natural", step)
        for hand in live:
            total = self._total(hand.cards)
            natural = natural_of(total, 2)
            verdict = natural_verdict(natural, bank_natural)
            if natural is not None:
                self._reveal(hand, "natural", step)
            elif verdict is None and is_bust(total):
                self._reveal(hand, "bust", step)
                verdict = showdown_verdict(total, bank_total)
            if verdict is not None:
                self._settle(hand, verdict, "macao.natural", step)
        if not any(hand.live for hand in self.players):
            return True
        self.phase = Phase.DRAWS
        self._next_drawer(None)
        return False

    def _player_draws(self, move: Move, step: _Step) -> None:
        hand = self._player(move.seat)
        if move.kind == "draw":
            card = self.shoe.deal()
            hand.cards.append(card)
            step.events.append(Drew(seat=hand.seat, card=card))
            total = self._total(hand.cards)
            if is_bust(total):
                self._reveal(hand, "bust", step)
                verdict = showdown_verdict(total, self._total(self.bank_cards))
                self._settle(hand, verdict, "macao.bust", step)
        else:
            step.events.append(Stood(seat=hand.seat))
        self._next_drawer(hand.seat)

    def _next_drawer(self, after: SeatKey | None) -> None:
        """Give the turn to the next live player. A 6 gets his turn too, though he can only
        stand: skipping him would tell the table his total. After the last player, the
        banker's turn if his rule lets him draw; else the showdown."""
        seats = [hand.seat for hand in self.players]
        start = 0 if after is None else seats.index(after) + 1
        self.actor = next((hand.seat for hand in self.players[start:] if hand.live), None)
        if self.actor is not None:
            return
        self.phase = Phase.SHOWDOWN
        live = any(hand.live for hand in self.players)
        if live and banker_may_draw(self._total(self.bank_cards), self._third_values()):
            self.phase = Phase.BANKER
            self.actor = self.banker

    def _banker_draws(self, draws: bool, step: _Step) -> None:
        assert self.banker is not None
        if draws:
            allowance = self.banker_allowance()
            card = self.shoe.deal()
            self.bank_cards.append(card)
            step.events.append(
                Drew(
                    seat=self.banker,
                    card=card,
                    allowed_by=allowance.seat if allowance else None,
                    allowing=allowance.card if allowance else None,
                )
            )
        else:
            step.events.append(Stood(seat=self.banker))
        self.actor = None
        self.phase = Phase.SHOWDOWN

    def _showdown(self, step: _Step) -> None:
        live = [hand for hand in self.players if hand.live]
        if not live:
            return
        bank_total = self._total(self.bank_cards)
        self._reveal_bank("showdown", step)
        for hand in live:
            self._reveal(hand, "showdown", step)
            verdict = showdown_verdict(self._total(hand.cards), bank_total)
            self._settle(hand, verdict, "macao.coup", step)

    def _end_coup(self, step: _Step) -> None:
        step.events.append(CoupOver(coup=self.hand))
        self.actor = None
        self.phase = Phase.IDLE
        if self.rules.coups is not None and self.hand >= self.rules.coups:
            self.phase = Phase.OVER
            step.events.append(EveningOver(coups=self.hand))

    # -- settling ------------------------------------------------------------------------

    def _settle(self, hand: PlayerHand, verdict: Verdict, reason: str, step: _Step) -> None:
        assert hand.wager is not None and self.banker is not None
        wager = hand.wager
        net = wager_net(wager.target, wager.stake, verdict, self.rules.tie_pays)
        hand.net = net
        player, bank = seat_account(hand.seat), seat_account(self.banker)
        if net > 0:
            step.transfers.append(Transfer(src=bank, dst=player, amount=net, reason=reason))
        elif net < 0:
            step.transfers.append(Transfer(src=player, dst=bank, amount=-net, reason=reason))
            if self.banker == self.npc:
                natural = natural_of(self._total(hand.cards[:2]), 2)
                pay = won_back(wager.target, wager.stake, net, natural, self.rules.tie_pays)
                label = f"{wager.target}:{wager.stake}"
                self.lost.append(LostHand(seat=hand.seat, label=label, pay=pay))
        step.events.append(
            Settled(
                seat=hand.seat,
                target=wager.target,
                stake=wager.stake,
                winner=verdict.winner,
                multiple=verdict.multiple,
                net=net,
            )
        )

    def _reveal(self, hand: PlayerHand, why: str, step: _Step) -> None:
        hand.shown = True
        step.events.append(
            Revealed(
                seat=hand.seat,
                cards=tuple(hand.cards),
                total=self._total(hand.cards),
                why=why,
            )
        )

    def _reveal_bank(self, why: str, step: _Step) -> None:
        assert self.banker is not None
        self.bank_shown = True
        step.events.append(
            Revealed(
                seat=self.banker,
                cards=tuple(self.bank_cards),
                total=self._total(self.bank_cards),
                why=why,
            )
        )

    # -- helpers -------------------------------------------------------------------------

    def _total(self, cards: Sequence[Card]) -> int:
        return hand_total(cards, self.rules.counting)

    def _third_values(self) -> list[int]:
        return [card_value(hand.cards[2]) for hand in self.players if len(hand.cards) == 3]

    def _find(self, seat: SeatKey) -> PlayerHand | None:
        return next((hand for hand in self.players if hand.seat == seat), None)

    def _player(self, seat: SeatKey | None) -> PlayerHand:
        hand = None if seat is None else self._find(seat)
        if hand is None:
            raise IllegalAction("macao.not_in_coup", seat=seat)
        return hand

    def _can_deal(self) -> bool:
        banker = self.next_banker()
        return banker is not None and bool(self._players_for(banker)) and not self.needs_new_shoe

    def next_banker(self) -> SeatKey | None:
        """Who banks the next coup: the NPC, or the next seat able to cover a minimum hand
        wager after the last banker (the first seat at the first coup)."""
        if self.rules.bank is Bank.NPC:
            return self.npc
        seats = self.seats
        start = seats.index(self.banker) + 1 if self.banker in seats else 0
        for i in range(len(seats)):
            seat = seats[(start + i) % len(seats)]
            stack = self._stack(seat)
            if stack is None or stack >= max_win(
                Target.OWN, self.rules.min_stake, self.rules.tie_pays
            ):
                return seat
        return None

    def _players_for(self, banker: SeatKey | None) -> list[SeatKey]:
        """The players of a coup with this banker: seat order from the banker's left."""
        seats = self.seats
        if banker in seats:
            at = seats.index(banker)
            seats = seats[at + 1 :] + seats[:at]
        return [seat for seat in seats if seat != banker]
