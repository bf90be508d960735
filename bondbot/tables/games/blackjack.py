"""Blackjack at a table: each simulating PC plays his hands against the NPC dealer's bank.

A round: PCs wager between rounds, the GM deals (seat order of the PCs who bet), every
seat answers insurance when the dealer shows an Ace, then each PC plays his hands in turn;
the engine plays the dealer after the last hand and the round settles into chips. A PC
who does not act in time (the server's `turn_timer_s`) stands; an unanswered insurance is
declined. Each lost hand (each split hand on its own, busts included) opens a Hero Point
offer paying 1:1 on everything staked on that hand; insurance and surrender never do.

Money (decisions recorded in docs/decisions.md, "Blackjack at the table"):
- Chips stay in the PC's account until the round settles: then each hand's net and each
  insurance's net moves between his chips and the bank, losses collected before wins are
  paid. Every stake added mid-round (insurance, double, split) must fit in his chips
  beside what he already has on the table, so the settlement can always collect.
- A limited bank accepts a stake only if it can still pay the worst case of everything it
  has accepted this round: an original hand may win 3:2, any other hand 1:1 on its stake,
  an insurance 2:1; open Hero Point offers count too until the deal closes them.
- A PC cannot leave while he has a hand in play (between rounds his bet is dropped).
- A shoe that runs dry mid-round (only possible with few packs and many hands) voids the
  round: no chip has moved yet, so every stake simply stays with its player, and the
  next deal brings a fresh shoe.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from bondbot.errors import Refusal
from bondbot.money import Cents
from bondbot.rules.blackjack import (
    LOST,
    Action,
    Blackjack,
    BlackjackRules,
    HandResult,
    Outcome,
    Phase,
    hand_total,
)
from bondbot.rules.cards import cards_code
from bondbot.rules.errors import IllegalAction
from bondbot.rules.shoe import Shoe, ShoeEmpty
from bondbot.tables.context import TableContext, iso
from bondbot.tables.state import Seat, TableConfig, TableState

KEY = "blackjack"
TIMEOUT = "timeout"
PLAY_ACTIONS = tuple(action.value for action in Action)
LOG_MAX = 12
_IN_ROUND = (Phase.INSURANCE, Phase.PLAYING)


def rules_of(config: TableConfig) -> BlackjackRules:
    """The engine's rules from the table's options (unknown keys ignored)."""
    options = config.options
    try:
        return BlackjackRules(
            packs=config.packs,
            deal=options.get("deal", "american"),
            european_lose_all=bool(options.get("european_lose_all", True)),
            hit_soft_17=bool(options.get("hit_soft_17", False)),
            split_by=options.get("split_by", "value"),
            max_hands=int(options.get("max_hands", 3)),
            surrender=bool(options.get("surrender", True)),
        )
    except (TypeError, ValueError):
        raise Refusal("blackjack.bad_options") from None


@dataclass
class BlackjackTable:
    """The table's engine state: the engine itself plus what the table adds around it.

    `moves` counts accepted decisions (a button carries it, so a double click or a stale
    message cannot play twice); `log` is the current round's public story; `last_deadline`
    keeps every turn's deadline distinct, so a late timer never stands the wrong turn.
    """

    game: Blackjack
    moves: int = 0
    log: list[dict[str, Any]] = field(default_factory=list)
    last_deadline: str | None = None

    @classmethod
    def load(cls, engine: dict[str, Any]) -> BlackjackTable:
        return cls(
            Blackjack.from_dict(engine["game"]),
            int(engine.get("moves", 0)),
            list(engine.get("log", [])),
            engine.get("last_deadline"),
        )

    def dump(self) -> dict[str, Any]:
        return {
            "game": self.game.to_dict(),
            "moves": self.moves,
            "log": self.log[-LOG_MAX:],
            "last_deadline": self.last_deadline,
        }

    # -- money on the table ----------------------------------------------------------------

    def committed(self, seat: str) -> int:
        """What the seat has on the table this round and could still lose."""
        game = self.game
        if seat not in game.seats or game.phase is Phase.SETTLED:
            return 0
        hands = game.hands(seat)
        staked = sum(hand.stake for hand in hands) if hands else game.bet(seat)
        return staked + game.insurance(seat)

    def exposure(self, *, without: str | None = None) -> int:
        """The most the bank could pay on the stakes it has accepted (see the module doc)."""
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


def max_win(rules: BlackjackRules, amount: int) -> int:
    num, den = rules.blackjack_pays
    return max(amount, amount * num // den)


class BlackjackGame:
    key = KEY
    packs_allowed = tuple(range(1, 9))
    default_packs = 6

    # -- the protocol's bookkeeping --------------------------------------------------------

    def new_engine(self, config: TableConfig, shoe: Shoe) -> dict[str, Any]:
        return BlackjackTable(Blackjack(shoe, rules_of(config))).dump()

    def live_shoe(self, config: TableConfig, seed: bytes) -> Shoe:
        return Shoe.shuffled(config.packs, seed, rules_of(config).penetration)

    def shoe(self, engine: dict[str, Any]) -> Shoe:
        return Shoe.from_dict(engine["game"]["shoe"])

    def needs_new_shoe(self, engine: dict[str, Any]) -> bool:
        game = BlackjackTable.load(engine).game
        return game.phase not in _IN_ROUND and game.needs_shuffle

    def replace_shoe(self, engine: dict[str, Any], shoe: Shoe) -> dict[str, Any]:
        table = BlackjackTable.load(engine)
        table.game.replace_shoe(shoe)
        return table.dump()

    def exposure(self, engine: dict[str, Any]) -> int:
        return BlackjackTable.load(engine).exposure()

    def committed(self, engine: dict[str, Any], character_id: int) -> int:
        return BlackjackTable.load(engine).committed(str(character_id))

    def release(self, engine: dict[str, Any], character_id: int) -> dict[str, Any]:
        """Drop a bet placed for the next round; refuse while his hands are in play."""
        table = BlackjackTable.load(engine)
        game, seat = table.game, str(character_id)
        if seat not in game.seats:
            return engine
        if game.phase in _IN_ROUND:
            raise Refusal("blackjack.leave_mid_round")
        if game.phase is Phase.BETTING:
            game.cancel_bet(seat)
        return table.dump()

    # -- decisions -------------------------------------------------------------------------

    async def act(
        self, ctx: TableContext, seat: Seat | None, action: str, args: dict[str, Any]
    ) -> dict[str, Any]:
        table = BlackjackTable.load(ctx.state.engine)
        try:
            if action == "wager":
                event = await self._wager(ctx, table, _need_seat(seat), args)
            elif action == "deal":
                if seat is not None:
                    raise Refusal("blackjack.gm_deals")
                event = await self._deal(ctx, table)
            elif action in ("insure", "no_insurance"):
                event = await self._insure(ctx, table, _need_seat(seat), action == "insure")
            elif action in PLAY_ACTIONS:
                event = await self._play(ctx, table, _need_seat(seat), Action(action), args)
            elif action == TIMEOUT and seat is None:
                event = await self._timeout(ctx, table, args)
            else:
                raise Refusal("table.unknown_action")
        except IllegalAction as illegal:
            raise Refusal(illegal.code, **illegal.params) from None
        except ShoeEmpty:
            return self._void(ctx)
        ctx.state.engine = table.dump()
        return event

    async def _wager(
        self, ctx: TableContext, table: BlackjackTable, seat: Seat, args: dict[str, Any]
    ) -> dict[str, Any]:
        game, name = table.game, str(seat.character_id)
        if game.phase in _IN_ROUND:
            raise Refusal("blackjack.round_in_progress")
        try:
            amount = int(args["amount"])
        except (KeyError, TypeError, ValueError):
            raise Refusal("blackjack.bad_amount") from None
        await ctx.check_stake(seat.character_id, amount)
        if game.phase is Phase.SETTLED:
            game.next_round()
        available = await ctx.bank_available()
        if available is not None:
            others = table.exposure(without=name) + ctx.offers_due()
            if others + max_win(game.rules, amount) > available:
                left = Cents(max(available - others, 0))
                raise Refusal("table.bank_cannot_cover", available=left)
        if name in game.seats:  # a new bet replaces his bet for this round
            game.cancel_bet(name)
        game.place_bet(name, amount)
        return {"kind": "bj_wager", "character_id": seat.character_id, "amount": amount}

    async def _deal(self, ctx: TableContext, table: BlackjackTable) -> dict[str, Any]:
        game = table.game
        if game.phase is Phase.SETTLED or (game.phase is Phase.BETTING and not game.seats):
            raise Refusal("blackjack.no_bets")
        if game.phase is not Phase.BETTING:
            raise Refusal("blackjack.round_in_progress")
        available = await ctx.bank_available()
        if available is not None and table.exposure() > available:
            raise Refusal("blackjack.bank_short_for_bets", available=Cents(available))
        order = [str(s.character_id) for s in ctx.state.seats if str(s.character_id) in game.seats]
        ctx.state.hand_no += 1
        game.start_round(order)
        table.log = [{"kind": "dealt", "hand": ctx.state.hand_no}]
        settled = await self._after(ctx, table, new_turn=True)
        return settled or {
            "kind": "bj_dealt",
            "hand": ctx.state.hand_no,
            "seats": [int(s) for s in game.seats],
            "insurance": game.insurance_open,
        }

    async def _insure(
        self, ctx: TableContext, table: BlackjackTable, seat: Seat, take: bool
    ) -> dict[str, Any]:
        game, name = table.game, str(seat.character_id)
        if not game.insurance_open:
            raise Refusal("blackjack.no_insurance")
        if name not in game.seats:
            raise Refusal("blackjack.not_in_round")
        if name not in game.insurance_pending:
            raise Refusal("blackjack.already_answered")
        cost = game.insurance_cost(name) if take else 0
        if take:
            await self._can_stake(ctx, table, seat, cost)
        game.insure(name, take)
        table.log.append(
            {
                "kind": "insure" if take else "no_insurance",
                "character_id": seat.character_id,
                "amount": cost,
            }
        )
        settled = await self._after(ctx, table, new_turn=game.phase is not Phase.INSURANCE)
        return settled or {
            "kind": "bj_insurance",
            "character_id": seat.character_id,
            "take": take,
            "amount": cost,
        }

    async def _play(
        self,
        ctx: TableContext,
        table: BlackjackTable,
        seat: Seat,
        action: Action,
        args: dict[str, Any],
    ) -> dict[str, Any]:
        game, name = table.game, str(seat.character_id)
        if game.phase is not Phase.PLAYING:
            raise Refusal("blackjack.not_playing")
        current = game.current()
        if current is None or current[0] != name:
            who = None if current is None else ctx.state.seat_of_character(int(current[0]))
            raise Refusal("blackjack.not_your_turn", name=who.name if who else "—")
        if "move" in args and str(args["move"]) != str(table.moves):
            raise Refusal("blackjack.stale_button")
        if action not in game.legal_actions(name):
            raise Refusal(f"blackjack.cannot_{action.value}")
        cost = game.action_cost(name, action)
        if cost:
            await self._can_stake(ctx, table, seat, cost)
        index = current[1]
        game.act(name, action)
        return await self._moved(ctx, table, seat.character_id, action.value, index)

    async def _timeout(
        self, ctx: TableContext, table: BlackjackTable, args: dict[str, Any]
    ) -> dict[str, Any]:
        game = table.game
        if ctx.state.deadline is None or args.get("deadline") != ctx.state.deadline:
            raise Refusal("blackjack.stale_timer")
        if game.insurance_open:
            pending = list(game.insurance_pending)
            for name in pending:
                game.insure(name, False)
                table.log.append({"kind": "timeout_insurance", "character_id": int(name)})
            settled = await self._after(ctx, table, new_turn=True)
            return settled or {"kind": "bj_timeout", "declined": [int(n) for n in pending]}
        current = game.current()
        if current is None:
            raise Refusal("blackjack.stale_timer")
        game.act(current[0], Action.STAND)
        return await self._moved(ctx, table, int(current[0]), "timeout", current[1])

    async def _moved(
        self, ctx: TableContext, table: BlackjackTable, character_id: int, action: str, index: int
    ) -> dict[str, Any]:
        """Log a decision on hand `index`, then move the round on."""
        game = table.game
        hand = game.hands(str(character_id))[index]
        hidden = action == "double" and not game.rules.european and game.phase is not Phase.SETTLED
        entry: dict[str, Any] = {"kind": action, "character_id": character_id, "hand": index}
        if action in ("hit", "double") and not hidden:
            entry["card"] = hand.cards[-1].code
            entry["total"] = hand.total
        if action == "split":
            entry["hands"] = len(game.hands(str(character_id)))
        table.log.append(entry)
        settled = await self._after(ctx, table, new_turn=True)
        return settled or {
            "kind": "bj_move",
            "character_id": character_id,
            "action": action,
            "hand": index,
            "cards": cards_code(hand.cards[:-1] if hidden else hand.cards),
            "hidden": hidden,
            "total": None if hidden else hand.total,
            "done": hand.done,
        }

    # -- after every decision ----------------------------------------------------------------

    async def _after(
        self, ctx: TableContext, table: BlackjackTable, *, new_turn: bool
    ) -> dict[str, Any] | None:
        """Count the move; settle a finished round, or give the next decision its timer."""
        table.moves += 1
        if table.game.phase is Phase.SETTLED:
            ctx.state.deadline = ctx.state.deadline_action = None
            return await self._settle(ctx, table)
        if new_turn or ctx.state.deadline is None:
            deadline = ctx.now + ctx.turn_timer
            if table.last_deadline is not None:
                after_last = datetime.fromisoformat(table.last_deadline) + timedelta(milliseconds=1)
                deadline = max(deadline, after_last)
            table.last_deadline = ctx.state.deadline = iso(deadline)
            ctx.state.deadline_action = TIMEOUT
        return None

    async def _settle(self, ctx: TableContext, table: BlackjackTable) -> dict[str, Any]:
        game = table.game
        insurance = {
            int(seat): (game.insurance(seat), net) for seat, net in game.insurance_results.items()
        }
        # Losses first: a limited bank then pays the winners with what it just took.
        for result in game.results:
            if result.net < 0:
                await ctx.collect(int(result.seat), -result.net, _reason(result))
        for character_id, (_, net) in insurance.items():
            if net < 0:
                await ctx.collect(character_id, -net, "blackjack.insurance")
        for result in game.results:
            if result.net > 0:
                await ctx.pay(int(result.seat), result.net, _reason(result))
        for character_id, (_, net) in insurance.items():
            if net > 0:
                await ctx.pay(character_id, net, "blackjack.insurance")
        lines = []
        for result in game.results:
            character_id = int(result.seat)
            offer_id = None
            if result.outcome in LOST and result.net < 0:  # never a surrender or insurance
                label = f"{result.hand_index}:{result.outcome.value}:{result.stake}"
                offer_id = ctx.offer(character_id, label, result.stake - result.net).id
            lines.append(
                {
                    "character_id": character_id,
                    "hand": result.hand_index,
                    "cards": cards_code(result.cards),
                    "total": hand_total(result.cards)[0],
                    "stake": result.stake,
                    "outcome": result.outcome.value,
                    "net": result.net,
                    "offer": offer_id,
                }
            )
        dealer = game.dealer_cards
        event = {
            "kind": "bj_settled",
            "hand": ctx.state.hand_no,
            "dealer": cards_code(dealer),
            "dealer_total": hand_total(dealer)[0],
            "dealer_blackjack": len(dealer) == 2 and hand_total(dealer)[0] == 21,
            "results": lines,
            "insurance": [
                {"character_id": cid, "amount": amount, "net": net}
                for cid, (amount, net) in insurance.items()
            ],
        }
        table.log.append({"kind": "settled"})
        ctx.state.last = event
        return event

    def _void(self, ctx: TableContext) -> dict[str, Any]:
        """The shoe ran dry mid-round: forget the round (no chip moved), empty the shoe."""
        before = BlackjackTable.load(ctx.state.engine)
        shoe = before.game.shoe
        shoe.position += shoe.remaining
        voided = BlackjackTable(
            Blackjack(shoe, before.game.rules),
            before.moves + 1,
            [*before.log, {"kind": "void"}],
            before.last_deadline,
        )
        ctx.state.engine = voided.dump()
        ctx.state.deadline = ctx.state.deadline_action = None
        event = {"kind": "bj_void", "hand": ctx.state.hand_no}
        ctx.state.last = event
        return event

    async def _can_stake(
        self, ctx: TableContext, table: BlackjackTable, seat: Seat, cost: int
    ) -> None:
        """Refuse an added stake his chips, or a limited bank, cannot cover."""
        on_table = table.committed(str(seat.character_id))
        chips = await ctx.chips(seat.character_id)
        if on_table + cost > chips:
            raise Refusal("blackjack.chips_short", need=Cents(cost), free=Cents(chips - on_table))
        available = await ctx.bank_available()
        if available is not None:
            exposure = table.exposure()
            if exposure + 2 * cost > available:
                raise Refusal(
                    "table.bank_cannot_cover", available=Cents(max(available - exposure, 0))
                )


def _need_seat(seat: Seat | None) -> Seat:
    if seat is None:
        raise Refusal("table.not_seated")
    return seat


def _reason(result: HandResult) -> str:
    return {
        Outcome.BLACKJACK: "blackjack.blackjack",
        Outcome.WIN: "blackjack.win",
        Outcome.LOSE: "blackjack.loss",
        Outcome.BUST: "blackjack.bust",
        Outcome.SURRENDER: "blackjack.surrender",
    }.get(result.outcome, "blackjack.push")


def table_of(state: TableState) -> BlackjackTable:
    """The blackjack state of a table (for the Discord layer)."""
    return BlackjackTable.load(state.engine)
