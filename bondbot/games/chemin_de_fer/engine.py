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

from pydantic import BaseModel, ConfigDict, Field

from bondbot.games.baccarat_bank.coverage import Cover, cover
from bondbot.games.baccarat_bank.engine import (
    COMMON_MOVES,
    BankGame,
    BankSettings,
    Settlement,
    winner_of,
)
from bondbot.games.baccarat_bank.events import Dealt, Staked
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
)
from bondbot.games.contract import (
    Event,
    Frozen,
    Move,
    Option,
    Record,
    SeatKey,
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


class Settings(BankSettings):
    """A table's options (amounts in cents): the bank's, the drawing and the commission."""

    drawing: Drawing = "fixed"
    commission: int = Field(0, ge=0, le=5)  # percent of the banker's win
    packs: int = Field(6, ge=1, le=8)


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


class ChemindeFer(BankGame):
    """A chemin de fer table: seats, the banker and his bank, the pontes' calls, the coup."""

    key: ClassVar[str] = "chemin_de_fer"
    moves: ClassVar[frozenset[str]] = COMMON_MOVES | BANK_MOVES
    between_moves: ClassVar[frozenset[str]] = BANK_MOVES

    settings: Settings = Field(default_factory=Settings)
    required: int | None = None  # a withdrawn bank: what the next banker must put up
    refused: list[SeatKey] = Field(default_factory=list)  # who refused the required bank
    banco_suivi: SeatKey | None = None
    phase: Phase = "bank"
    calls: dict[SeatKey, Call] = Field(default_factory=dict)
    coup: Coup | None = None
    last: CoupSettled | None = None
    last_shown: bool = False  # the hand over last was `last` (not a coup nobody played)

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

    def _right_of(self, seat: SeatKey) -> SeatKey:
        return self.seats[(self.seats.index(seat) + 1) % len(self.seats)]

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
        return self._answers_due() if self.phase == "stakes" else None

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
        return self._draw_options()

    def turn(self) -> tuple[SeatKey, ...]:
        if self._due() is not None or self.banker is None:
            return ()
        if self.phase == "bank":
            return (self.banker,) if self._banker_can_act() else ()
        if self.phase == "stakes":
            return self._unanswered()
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

    def call_kinds(self) -> dict[SeatKey, str]:
        return {seat: call.kind for seat, call in self.calls.items()}

    def _record_call(self, seat: SeatKey, kind: str, amount: int = 0) -> None:
        self.calls[seat] = Call(kind=kind, amount=amount)  # type: ignore[arg-type]

    def _banco_priority(self) -> SeatKey | None:
        return self.banco_suivi  # he chases the banco he lost, against the same bank

    def _banco_called(self, seat: SeatKey) -> BancoCalled:
        return BancoCalled(seat=seat, suivi=seat == self.banco_suivi)

    def _play_no_play(self, move: Move) -> Record:
        self._end_hand()
        self.last_shown = False  # no cards: `last` is a coup before this hand
        self.banco_suivi = None
        return self._no_play(move)

    def _play_deal(self, move: Move) -> Record:
        assert self.banker is not None
        bank = self._capped(self.banker, self.bank)
        caller = self._banco_caller(bank)
        if caller is not None:
            covers: tuple[Cover, ...] = (Cover(seat=caller, stake=bank, covered=bank),)
        else:
            stakes = [
                (seat, self._capped(seat, self.calls[seat].amount))
                for seat in self.pontes()
                if seat in self.calls and self.calls[seat].kind == "stake"
            ]
            covers = cover(stakes, bank)
        playing = [item.seat for item in covers if item.covered > 0]
        if not playing:
            return self._play_no_play(move)
        self.coup = Coup(bank=bank, covers=covers, holder=playing[0], banco=caller)
        self.hand += 1
        self._deal_two([self.coup.ponte], self.coup.banker)
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

    def _decided(self, move: Move, *, draw: bool) -> Record:
        events: list[Event] = []
        if self.phase == "ponte":
            self._draw_or_stand("ponte", draw, events)
            self.phase = "banker"
            return Record(move=move, events=tuple(events))
        self._draw_or_stand("banker", draw, events)
        return self._settle(move, events)

    def _hand_cards(self, side: str) -> list[str]:
        assert self.coup is not None
        return self.coup.ponte if side == "ponte" else self.coup.banker

    def _ponte_third(self) -> int | None:
        assert self.coup is not None
        if len(self.coup.ponte) < 3:
            return None
        return Card.parse(self.coup.ponte[2]).baccarat_value

    def _settle(self, move: Move, events: list[Event]) -> Record:
        coup, banker = self.coup, self.banker
        assert coup is not None and banker is not None
        ponte_total, banker_total = codes_value(coup.ponte), codes_value(coup.banker)
        winner = winner_of(ponte_total, banker_total)
        money = Settlement()
        results = self._settle_covers(coup.covers, winner, None, money)
        won = -sum(result.net for result in results)
        commission = won * self.settings.commission // 100 if won > 0 else 0
        if commission:
            money.transfers.append(
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
        return self._coup_over(move, events, money)

    def _end_hand(self) -> None:
        self.rounds_over += 1  # the pontes' calls are over, dealt or not
        self.coup = None
        self.calls = {}
        self.phase = "bank"
        self.between_hands = True

    # -- defaults and the NPC ------------------------------------------------------------

    def _timer_default(self, seat: SeatKey) -> Move:
        if self.phase == "bank":
            return Move(kind="keep" if self.bank > 0 else "refuse", seat=seat)
        if self.phase == "stakes":
            return Move(kind="pass", seat=seat)
        return Move(kind="draw" if self.advice() else "stand", seat=seat)

    def _npc_decides(self, seat: SeatKey, rng: random.Random, level: int) -> Move:
        return npc_play.decide(self, seat, rng, level)

    def commission_percent(self) -> int:
        return self.settings.commission

    # -- what each seat may see ----------------------------------------------------------

    def _face_down(self) -> list[tuple[SeatKey, list[str]]]:
        if self.coup is None or self.banker is None:
            return []
        return [(self.coup.holder, self.coup.ponte), (self.banker, self.coup.banker)]

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

    def _leaving(self, seat: SeatKey) -> None:
        if seat == self.banker:  # his bank leaves with him, before any ponte answered
            self.bank = 0
            self.banker = self._right_of(seat) if len(self.seats) > 1 else None
            self.phase = "bank"
        if self.banco_suivi == seat:
            self.banco_suivi = None
        if seat in self.refused:
            self.refused.remove(seat)

    def replace_shoe(self, shoe: Shoe) -> None:
        if self.coup is not None:
            raise IllegalAction("chemin_de_fer.coup_in_play")
        self.shoe = shoe
