"""Chemin de fer on the engine contract (rules/chemin-de-fer.md; seeds 001 and 004).

A hand is one coup, from the first ponte's answer to the settlement; the bank's decisions
(put up, kept, withdrawn, refused) come between hands, so seats may still come and go until
a ponte answers. Its phases:

- before the first coup the table names the first banker (`first_banker`, its target a
  seat: drawn at random by the table, or the GM's choice), once two seats are taken.
- `bank`: the banker puts up a bank (`bank`, an amount) or refuses it (`refuse`); a banker
  who won or tied the last coup keeps his bank (`keep`) or withdraws and passes it
  (`withdraw`). A banker who cannot hold the bank passes it by itself (`pass_bank`).
- `stakes`: every ponte at once stakes (`stake`), calls `banco` or passes (`pass`); when all
  have answered the table deals (`deal`), or plays nothing if all passed (`no_play`).
- `ponte` / `banker` (classic drawing only): the hand-holder's choice at 5, then the
  banker's choice seeing the ponte's third card.

Decisions where the rules are silent (also in docs/decisions.md):

- Seat order runs to the banker's right: the seat after the banker in `seats` (cyclically)
  is on his right, so pontes are covered, and the bank passes, in list order.
- Money: the bank stays in the banker's stack (no pot); stakes stay in the pontes' stacks.
  The coup's settlement moves each covered stake seat to seat; the commission goes to
  `house:commission` (the house's cut: the table books it out of the game). The bank and
  every stake are bounded by the stacks again at the deal, since a Hero Point paid by the
  NPC in between can lower its stack.
- The pontes answer together (one timer) rather than one after the other; coverage and
  banco priority still follow seat order from the banker's right, so the result is the
  same as asking them in turn. Banco suivi outranks every other banco.
- The hand-holder is the banco caller, else the first ponte in seat order with a stake in
  play; he is covered and paid first.
- A tie keeps the bank with the banker, who may keep it or withdraw, as after a win.
- Banco suivi is only against the same bank: it lapses when the bank changes hands, after
  a coup the caller did not lose, and after a coup nobody played.
- A withdrawn bank must be taken at the withdrawn amount; once every seat has refused it at
  that amount, the amount is free again (from the min bank up to the taker's stack).
- Commission: a percentage of the banker's win on the coup, rounded down to the cent.
- A Hero Point: a PC ponte's covered stake lost to the NPC banker pays `2 × stake` (stake
  back and the 1:1 win); a PC banker who lost pays back, per the NPC ponte's covered stake,
  that stake and the win he would have had (less the table's commission). Nothing for a
  hand between two PCs.
- On a turn timer: a running bank is kept (the rule's default), a new bank refused, a ponte
  passes, the hand-holder draws at 5, the banker follows seed 004's table.
- `hand` counts the coups dealt (it moves at the deal, not at the bank's first decision), so
  a Hero Point offer stays open through the next coup's bank and stakes until its deal.
- A table's maximum (`max_bank`, optional) bounds every bank put up; a bank that grows
  past it by a win keeps only the maximum in play (the rest stays in the banker's stack).
- A stacked shoe must hold every card the coup needs (a live shoe has its cut card).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bondbot.games.baccarat_bank.coverage import Cover, cover
from bondbot.games.baccarat_bank.tableau import (
    Drawing,
    banker_draws_fixed,
    is_natural,
    ponte_draws_fixed,
    ponte_recommendation,
    ponte_rule,
    recommendation,
)
from bondbot.games.chemin_de_fer import npc as npc_play
from bondbot.games.chemin_de_fer.events import (
    Abattage,
    BancoCalled,
    BankKept,
    BankOffered,
    BankPut,
    BankRefused,
    BankWithdrawn,
    CoupCovered,
    CoupSettled,
    Dealt,
    NoPlay,
    Passed,
    Side,
    Staked,
    StakeResult,
    Stood,
    ThirdCard,
    Winner,
)
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
    house_account,
    seat_account,
)
from bondbot.rules.baccarat import codes_value
from bondbot.rules.cards import Card, cards_of
from bondbot.rules.errors import IllegalAction
from bondbot.rules.shoe import Shoe

Phase = Literal["bank", "stakes", "ponte", "banker"]
# Moves about the bank, made between coups: a hand (seats locked) begins with a ponte's call.
BANK_MOVES = frozenset({"first_banker", "bank", "keep", "withdraw", "refuse", "pass_bank"})
COMMISSION_ACCOUNT = house_account("commission")


class Settings(Frozen):
    """A table's options (amounts in cents)."""

    drawing: Drawing = "fixed"
    commission: int = Field(0, ge=0, le=5)  # percent of the banker's win
    packs: int = Field(6, ge=1, le=8)
    min_stake: int = Field(100, gt=0)
    min_bank: int = Field(100, gt=0)
    npc_bank: int = Field(100_000, gt=0)  # the NPC's bank, and the most it risks as a ponte
    max_bank: int | None = Field(None, gt=0)  # the largest bank in play (None: no limit)

    @model_validator(mode="after")
    def _a_bank_covers_a_stake(self) -> Settings:
        if self.min_bank < self.min_stake:
            raise ValueError("the minimum bank must cover the minimum stake")
        if self.max_bank is not None and self.max_bank < self.min_bank:
            raise ValueError("the maximum bank is below the minimum bank")
        return self

    def limited(self, bank: int) -> int:
        """A bank as far as the table's maximum lets it play."""
        return bank if self.max_bank is None else min(bank, self.max_bank)


class Call(Frozen):
    """A ponte's answer for the coup."""

    kind: Literal["stake", "pass", "banco"]
    amount: int = 0


class Coup(BaseModel):
    """The coup being played: the bank in play, the stakes it covers, the cards (codes)."""

    model_config = ConfigDict(extra="forbid")

    bank: int
    covers: tuple[Cover, ...]
    holder: SeatKey
    banco: SeatKey | None = None
    ponte: list[str] = Field(default_factory=list)
    banker: list[str] = Field(default_factory=list)


class ChemindeFer(Engine):
    """A chemin de fer table: seats, the banker and his bank, the pontes' calls, the coup."""

    key: ClassVar[str] = "chemin_de_fer"
    moves: ClassVar[frozenset[str]] = frozenset(
        {
            "bank",
            "stake",
            "banco",
            "pass",
            "deal",
            "no_play",
            "draw",
            "stand",
            "keep",
            "withdraw",
            "pass_bank",
            "refuse",
            "first_banker",
        }
    )

    settings: Settings = Field(default_factory=Settings)
    shoe: ShoeField
    banker: SeatKey | None = None
    bank: int = 0  # put up by the banker (0: not yet); held in his stack
    required: int | None = None  # a withdrawn bank: what the next banker must put up
    refused: list[SeatKey] = Field(default_factory=list)  # who refused the required bank
    banco_suivi: SeatKey | None = None
    phase: Phase = "bank"
    calls: dict[SeatKey, Call] = Field(default_factory=dict)
    coup: Coup | None = None
    between_hands: bool = True
    last: CoupSettled | None = None
    last_shown: bool = False  # the hand over last was `last` (not a coup nobody played)
    # Rounds of the pontes' calls that are over: a round nobody played ends without a hand
    # dealt, so the hand's number alone cannot tell a stake or pass button drawn for it
    # from one drawn for the next (`answer_round`).
    rounds_over: int = 0

    @property
    def answer_round(self) -> int:
        return self.rounds_over

    @classmethod
    def new(
        cls,
        shoe: Shoe,
        seats: Sequence[SeatKey],
        banker: SeatKey | None,
        *,
        npc: SeatKey | None = None,
        settings: Settings | None = None,
    ) -> ChemindeFer:
        """A table with `seats` in order; `banker` (drawn at random or the GM's choice) first,
        or None: the table names him (`first_banker`) once its players are seated."""
        if (banker is not None and banker not in seats) or (npc is not None and npc not in seats):
            raise IllegalAction("chemin_de_fer.not_seated", banker=banker, npc=npc)
        if len(set(seats)) != len(seats):
            raise IllegalAction("chemin_de_fer.seated_twice")
        return cls(
            shoe=shoe,
            seats=list(seats),
            npc=npc,
            banker=banker,
            settings=settings or Settings(),
        )

    # -- seats, stacks, order ------------------------------------------------------------

    def _stack(self, seat: SeatKey) -> int | None:
        return self.stacks.get(seat, 0)

    def _affords(self, seat: SeatKey, amount: int) -> bool:
        stack = self._stack(seat)
        return stack is None or stack >= amount

    def _capped(self, seat: SeatKey, amount: int) -> int:
        stack = self._stack(seat)
        return amount if stack is None else min(amount, stack)

    def _right_of(self, seat: SeatKey) -> SeatKey:
        return self.seats[(self.seats.index(seat) + 1) % len(self.seats)]

    def pontes(self) -> list[SeatKey]:
        """The other seats in seat order from the banker's right."""
        if self.banker is None:
            return []
        at = self.seats.index(self.banker)
        return self.seats[at + 1 :] + self.seats[:at]

    def _eligible(self) -> list[SeatKey]:
        """Pontes who have the chips for a stake."""
        return [seat for seat in self.pontes() if self._affords(seat, self.settings.min_stake)]

    def _bank_bounds(self) -> tuple[int, int | None] | None:
        """What the banker may put up now (min, max; None max: unlimited), or None."""
        assert self.banker is not None
        if self.required is not None:
            if not self._affords(self.banker, self.required):
                return None
            return self.required, self.required
        if not self._affords(self.banker, self.settings.min_bank):
            return None
        stack = self._stack(self.banker)
        high = self.settings.max_bank if stack is None else self.settings.limited(stack)
        return self.settings.min_bank, high

    def _banker_can_act(self) -> bool:
        assert self.banker is not None
        if self.bank > 0:
            return self._affords(self.banker, self.settings.min_bank)
        return self._bank_bounds() is not None

    def _decider(self) -> SeatKey:
        """Who draws or stands now: the hand-holder at 5, else the banker."""
        assert self.coup is not None and self.banker is not None
        return self.coup.holder if self.phase == "ponte" else self.banker

    # -- what is legal -------------------------------------------------------------------

    def _due(self) -> Move | None:
        """The table's own step now, if one is due."""
        if self.banker is None:
            return None
        if self.phase == "bank":
            if self._banker_can_act():
                return None
            if not any(self._affords(seat, self.settings.min_bank) for seat in self.seats):
                return None  # nobody can bank: the table waits for chips
            return Move(kind="pass_bank")
        if self.phase == "stakes":
            eligible = self._eligible()
            if not eligible or any(seat not in self.calls for seat in eligible):
                return None
            if all(call.kind == "pass" for call in self.calls.values()):
                return Move(kind="no_play")
            return None if self.needs_new_shoe else Move(kind="deal")
        return None

    def options(self) -> list[Option]:
        due = self._due()
        if due is not None:
            return [Option(kind=due.kind)]
        banker = self.banker
        if banker is None:  # before the first coup: the table names the first banker
            if len(self.seats) < 2:
                return []
            return [Option(kind="first_banker", targets=tuple(self.seats))]
        if self.phase == "bank":
            if self.bank > 0:
                return [Option(kind="keep", seat=banker), Option(kind="withdraw", seat=banker)]
            bounds = self._bank_bounds()
            if bounds is None:
                return []
            low, high = bounds
            return [
                Option(kind="bank", seat=banker, min=low, max=high),
                Option(kind="refuse", seat=banker),
            ]
        if self.phase == "stakes":
            found = []
            for seat in self._eligible():
                if seat in self.calls:
                    continue
                high = self._capped(seat, self.bank)
                found.append(Option(kind="stake", seat=seat, min=self.settings.min_stake, max=high))
                found.append(Option(kind="pass", seat=seat))
                if self._affords(seat, self.bank):
                    found.append(Option(kind="banco", seat=seat))
            return found
        seat = self._decider()
        return [Option(kind="draw", seat=seat), Option(kind="stand", seat=seat)]

    def turn(self) -> tuple[SeatKey, ...]:
        if self._due() is not None or self.banker is None:
            return ()
        if self.phase == "bank":
            return (self.banker,) if self._banker_can_act() else ()
        if self.phase == "stakes":
            return tuple(seat for seat in self._eligible() if seat not in self.calls)
        return (self._decider(),)

    def automation(self) -> Move | None:
        return self._due()

    def coverage(self) -> tuple[Cover, ...]:
        """The stakes as they stand now, in seat order, with the part the bank covers."""
        if self.coup is not None:
            return self.coup.covers
        stakes = [
            (seat, self.calls[seat].amount)
            for seat in self.pontes()
            if seat in self.calls and self.calls[seat].kind == "stake"
        ]
        return cover(stakes, self.bank)

    def advice(self) -> bool | None:
        """The recommended draw (True) or stand for the decision awaited now, if any."""
        if self.coup is None or self.phase not in ("ponte", "banker"):
            return None
        if self.phase == "ponte":
            return ponte_recommendation(codes_value(self.coup.ponte))
        third = Card.parse(self.coup.ponte[2]).baccarat_value if len(self.coup.ponte) > 2 else None
        return recommendation(codes_value(self.coup.banker), third)

    # -- playing -------------------------------------------------------------------------

    def play(self, move: Move) -> Record:
        if self.between_hands:
            self.begin_hand()
            # The bank's decisions come between coups: until a ponte answers, players may
            # still sit down or leave (an NPC banker keeps its bank the moment a coup ends).
            self.between_hands = move.kind in BANK_MOVES
        handler = getattr(self, f"_play_{move.kind}")
        return handler(move)

    def _play_first_banker(self, move: Move) -> Record:
        assert move.target is not None
        self.banker = move.target
        return Record(move=move, events=(BankOffered(seat=move.target),))

    def _play_bank(self, move: Move) -> Record:
        assert self.banker is not None and move.amount is not None
        self.bank = move.amount
        self.required = None
        self.refused = []
        self._open_stakes()
        return Record(move=move, events=(BankPut(seat=self.banker, amount=move.amount),))

    def _play_keep(self, move: Move) -> Record:
        assert self.banker is not None
        self.bank = self.settings.limited(self._capped(self.banker, self.bank))
        self._open_stakes()
        return Record(move=move, events=(BankKept(seat=self.banker, amount=self.bank),))

    def _play_withdraw(self, move: Move) -> Record:
        assert self.banker is not None
        events: list[Event] = [BankWithdrawn(seat=self.banker, amount=self.bank)]
        self.required = self.bank
        self.refused = []
        self._pass_on(events)
        return Record(move=move, events=tuple(events))

    def _play_refuse(self, move: Move) -> Record:
        assert self.banker is not None
        events: list[Event] = [BankRefused(seat=self.banker)]
        self._pass_on(events)
        return Record(move=move, events=tuple(events))

    def _play_pass_bank(self, move: Move) -> Record:
        assert self.banker is not None
        events: list[Event] = [BankRefused(seat=self.banker, forced=True)]
        self._pass_on(events)
        return Record(move=move, events=tuple(events))

    def _pass_on(self, events: list[Event]) -> None:
        """The bank leaves the banker for the seat to his right."""
        assert self.banker is not None
        if self.required is not None:
            self.refused.append(self.banker)
            if set(self.seats) <= set(self.refused):  # refused all round: the amount is free
                self.required = None
                self.refused = []
        self.bank = 0
        self.banco_suivi = None
        self.banker = self._right_of(self.banker)
        events.append(BankOffered(seat=self.banker, required=self.required))

    def _open_stakes(self) -> None:
        self.phase = "stakes"
        self.calls = {}

    def _play_stake(self, move: Move) -> Record:
        assert move.seat is not None and move.amount is not None
        self.calls[move.seat] = Call(kind="stake", amount=move.amount)
        return Record(move=move, events=(Staked(seat=move.seat, amount=move.amount),))

    def _play_pass(self, move: Move) -> Record:
        assert move.seat is not None
        self.calls[move.seat] = Call(kind="pass")
        return Record(move=move, events=(Passed(seat=move.seat),))

    def _play_banco(self, move: Move) -> Record:
        assert move.seat is not None
        self.calls[move.seat] = Call(kind="banco", amount=self.bank)
        suivi = move.seat == self.banco_suivi
        return Record(move=move, events=(BancoCalled(seat=move.seat, suivi=suivi),))

    def _play_no_play(self, move: Move) -> Record:
        self._end_hand()
        self.last_shown = False  # no cards: `last` is a coup before this hand
        self.banco_suivi = None
        return Record(move=move, events=(NoPlay(),), hand_over=True)

    def _play_deal(self, move: Move) -> Record:
        assert self.banker is not None
        bank = self._capped(self.banker, self.bank)
        order = self.pontes()
        bancos = [
            seat
            for seat in order
            if seat in self.calls and self.calls[seat].kind == "banco" and self._affords(seat, bank)
        ]
        if bancos:
            caller = self.banco_suivi if self.banco_suivi in bancos else bancos[0]
            covers: tuple[Cover, ...] = (Cover(seat=caller, stake=bank, covered=bank),)
        else:
            caller = None
            stakes = [
                (seat, self._capped(seat, self.calls[seat].amount))
                for seat in order
                if seat in self.calls and self.calls[seat].kind == "stake"
            ]
            covers = cover(stakes, bank)
        playing = [item.seat for item in covers if item.covered > 0]
        if not playing:
            return self._play_no_play(move)
        self.coup = Coup(bank=bank, covers=covers, holder=playing[0], banco=caller)
        self.hand += 1
        deal = self.shoe.deal
        p1, b1, p2, b2 = deal(), deal(), deal(), deal()
        self.coup.ponte = [p1.code, p2.code]
        self.coup.banker = [b1.code, b2.code]
        events: list[Event] = [
            CoupCovered(bank=bank, stakes=covers, holder=playing[0], banco=caller),
            Dealt(),
        ]
        ponte_total, banker_total = codes_value(self.coup.ponte), codes_value(self.coup.banker)
        if is_natural(ponte_total, 2) or is_natural(banker_total, 2):
            events.append(Abattage(ponte=tuple(self.coup.ponte), banker=tuple(self.coup.banker)))
            return self._settle(move, events)
        if self.settings.drawing == "fixed":
            self._draw_or_stand("ponte", ponte_draws_fixed(ponte_total), events)
            third = self._ponte_third()
            self._draw_or_stand("banker", banker_draws_fixed(banker_total, third), events)
            return self._settle(move, events)
        rule = ponte_rule(ponte_total)
        if rule == "choose":
            self.phase = "ponte"
        else:
            self._draw_or_stand("ponte", rule == "draw", events)
            self.phase = "banker"
        return Record(move=move, events=tuple(events))

    def _play_draw(self, move: Move) -> Record:
        return self._decided(move, draw=True)

    def _play_stand(self, move: Move) -> Record:
        return self._decided(move, draw=False)

    def _decided(self, move: Move, *, draw: bool) -> Record:
        events: list[Event] = []
        if self.phase == "ponte":
            self._draw_or_stand("ponte", draw, events)
            self.phase = "banker"
            return Record(move=move, events=tuple(events))
        self._draw_or_stand("banker", draw, events)
        return self._settle(move, events)

    def _draw_or_stand(self, side: Side, draw: bool, events: list[Event]) -> None:
        assert self.coup is not None
        if draw:
            card = self.shoe.deal().code
            (self.coup.ponte if side == "ponte" else self.coup.banker).append(card)
            events.append(ThirdCard(side=side, card=card))
        else:
            events.append(Stood(side=side))

    def _ponte_third(self) -> int | None:
        assert self.coup is not None
        if len(self.coup.ponte) < 3:
            return None
        return Card.parse(self.coup.ponte[2]).baccarat_value

    def _settle(self, move: Move, events: list[Event]) -> Record:
        coup, banker = self.coup, self.banker
        assert coup is not None and banker is not None
        ponte_total, banker_total = codes_value(coup.ponte), codes_value(coup.banker)
        winner: Winner = (
            "ponte"
            if ponte_total > banker_total
            else "banker"
            if banker_total > ponte_total
            else "tie"
        )
        results: list[StakeResult] = []
        transfers: list[Transfer] = []
        lost: list[LostHand] = []
        percent = self.settings.commission
        for item in coup.covers:
            if item.covered == 0:
                continue
            amount = item.covered
            if winner == "banker":
                net = -amount
                transfers.append(
                    Transfer(
                        src=seat_account(item.seat),
                        dst=seat_account(banker),
                        amount=amount,
                        reason="chemin_de_fer.stake_lost",
                    )
                )
                if banker == self.npc:
                    lost.append(LostHand(seat=item.seat, label=f"stake:{amount}", pay=2 * amount))
            elif winner == "ponte":
                net = amount
                transfers.append(
                    Transfer(
                        src=seat_account(banker),
                        dst=seat_account(item.seat),
                        amount=amount,
                        reason="chemin_de_fer.stake_won",
                    )
                )
                if item.seat == self.npc and banker != self.npc:
                    pay = 2 * amount - amount * percent // 100
                    lost.append(LostHand(seat=banker, label=f"bank:{amount}", pay=pay))
            else:
                net = 0
            results.append(StakeResult(seat=item.seat, covered=amount, net=net))
        won = -sum(result.net for result in results)
        commission = won * percent // 100 if won > 0 else 0
        if commission:
            transfers.append(
                Transfer(
                    src=seat_account(banker),
                    dst=COMMISSION_ACCOUNT,
                    amount=commission,
                    reason="chemin_de_fer.commission",
                )
            )
        bank_after = self.settings.limited(coup.bank + won - commission)
        settled = CoupSettled(
            seat=banker,
            holder=coup.holder,
            moves=(*self.history, move),
            ponte=tuple(coup.ponte),
            banker=tuple(coup.banker),
            ponte_total=ponte_total,
            banker_total=banker_total,
            natural=is_natural(ponte_total, len(coup.ponte))
            or is_natural(banker_total, len(coup.banker)),
            winner=winner,
            results=tuple(results),
            commission=commission,
            bank=bank_after,
        )
        events.append(settled)
        self.last = settled
        self.last_shown = True
        self._end_hand()
        if winner == "ponte":
            self.required = None
            self.refused = []
            self._pass_on(events)
        else:
            self.bank = bank_after
            self.banco_suivi = coup.banco if winner == "banker" else None
        return Record(
            move=move,
            events=tuple(events),
            transfers=tuple(transfers),
            lost=tuple(lost),
            hand_over=True,
        )

    def _end_hand(self) -> None:
        self.rounds_over += 1  # the pontes' calls are over, dealt or not
        self.coup = None
        self.calls = {}
        self.phase = "bank"
        self.between_hands = True

    # -- defaults and the NPC ------------------------------------------------------------

    def timeout_move(self, seat: SeatKey) -> Move | None:
        if seat not in self.turn():
            return None
        if self.phase == "bank":
            return Move(kind="keep" if self.bank > 0 else "refuse", seat=seat)
        if self.phase == "stakes":
            return Move(kind="pass", seat=seat)
        return Move(kind="draw" if self.advice() else "stand", seat=seat)

    def npc_move(self, rng: random.Random, level: int = GAMBLING_MAX) -> Move | None:
        if self.npc is None or self.npc not in self.turn():
            return None
        return npc_play.decide(self, self.npc, rng, level)

    # -- what each seat may see ----------------------------------------------------------

    def private_cards(self, seat: SeatKey) -> Sequence[Card]:
        if self.coup is None:
            return ()
        if seat == self.coup.holder:
            return cards_of(self.coup.ponte[:2])
        if seat == self.banker:
            return cards_of(self.coup.banker[:2])
        return ()

    def hidden_cards(self) -> set[Card]:
        if self.coup is None:
            return set()
        return {Card.parse(code) for code in self.coup.ponte[:2] + self.coup.banker[:2]}

    def shown_hands(self) -> tuple[ShownHand, ...]:
        """The last coup's hands, the ponte's then the bank's (as the table message tells
        them): once a coup is settled both are face up, naturals and third cards included."""
        last = self.last
        if last is None or not self.last_shown:
            return ()
        return (
            ShownHand(last.holder or "player", cards_of(last.ponte), last.ponte_total, "player"),
            ShownHand(last.seat or "banker", cards_of(last.banker), last.banker_total, "banker"),
        )

    # -- seats and the shoe between hands ------------------------------------------------

    def in_hand(self) -> bool:
        return not self.between_hands

    def sit(self, seat: SeatKey) -> None:
        if self.in_hand():
            raise IllegalAction("games.in_hand", seat=seat)
        super().sit(seat)

    def stand_up(self, seat: SeatKey) -> None:
        if self.in_hand() and seat in self.seats:
            raise IllegalAction("games.in_hand", seat=seat)
        if seat not in self.seats:
            return
        if seat == self.banker:  # his bank leaves with him, before any ponte answered
            self.bank = 0
            self.banker = self._right_of(seat) if len(self.seats) > 1 else None
            self.phase = "bank"
        if self.banco_suivi == seat:
            self.banco_suivi = None
        if seat in self.refused:
            self.refused.remove(seat)
        super().stand_up(seat)

    def least_stack(self) -> int:
        return self.settings.min_stake  # a ponte's smallest stake

    def current_shoe(self) -> Shoe:
        return self.shoe

    @property
    def needs_new_shoe(self) -> bool:
        return self.coup is None and self.shoe.past_cut

    def replace_shoe(self, shoe: Shoe) -> None:
        if self.coup is not None:
            raise IllegalAction("chemin_de_fer.coup_in_play")
        self.shoe = shoe
