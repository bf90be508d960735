"""Punto banco at a table: each simulating PC wagers against the NPC's bank, the GM deals.

With the table option `auto_deal_s`, the coup's first wager also starts a timer that
deals by itself, for groups who play without waiting on the GM.

A hand is one coup; a PC lost it when his wager lost. The NPC takes no decision (the
drawing rules are fixed), so there is no automatic play to run.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from bondbot.errors import Refusal
from bondbot.money import Cents
from bondbot.rules import baccarat
from bondbot.rules.baccarat import Bet, PuntoBanco
from bondbot.rules.cards import cards_code
from bondbot.rules.shoe import Shoe
from bondbot.tables.context import TableContext, iso
from bondbot.tables.state import Seat, TableConfig


def max_win(bet: Bet, amount: int, tie_pays: int) -> int:
    """The most the bank can owe on a wager: what it pays when it wins."""
    return baccarat.win_amount(bet, amount, tie_pays)


class PuntoBancoGame:
    key = "punto_banco"
    packs_allowed = baccarat.PACK_CHOICES
    default_packs = 8

    def new_engine(self, config: TableConfig, shoe: Shoe) -> dict[str, Any]:
        tie_pays = int(config.options.get("tie_pays", 8))
        return PuntoBanco(shoe, packs=config.packs, tie_pays=tie_pays).to_dict()

    def live_shoe(self, config: TableConfig, seed: bytes) -> Shoe:
        return baccarat.new_shoe(config.packs, seed)

    def shoe(self, engine: dict[str, Any]) -> Shoe:
        return Shoe.from_dict(engine["shoe"])

    def needs_new_shoe(self, engine: dict[str, Any]) -> bool:
        return PuntoBanco.from_dict(engine).shoe_finished

    def replace_shoe(self, engine: dict[str, Any], shoe: Shoe) -> dict[str, Any]:
        game = PuntoBanco.from_dict(engine)
        game.replace_shoe(shoe)
        return game.to_dict()

    def exposure(self, engine: dict[str, Any]) -> int:
        game = PuntoBanco.from_dict(engine)
        return sum(max_win(w.bet, w.amount, game.tie_pays) for w in game.wagers.values())

    def committed(self, engine: dict[str, Any], character_id: int) -> int:
        wager = engine["wagers"].get(str(character_id))
        return 0 if wager is None else int(wager["amount"])

    def release(self, engine: dict[str, Any], character_id: int) -> dict[str, Any]:
        engine["wagers"].pop(str(character_id), None)
        return engine

    async def act(
        self, ctx: TableContext, seat: Seat | None, action: str, args: dict[str, Any]
    ) -> dict[str, Any]:
        if action == "wager":
            if seat is None:
                raise Refusal("table.not_seated")
            return await self._wager(ctx, seat, args["bet"], int(args["amount"]))
        if action == "again":  # the same wager as on the last coup
            if seat is None:
                raise Refusal("table.not_seated")
            last = PuntoBanco.from_dict(ctx.state.engine).last
            previous = next(
                (w for w in (last.settlements if last else ()) if w.seat == str(seat.character_id)),
                None,
            )
            if previous is None:
                raise Refusal("baccarat.no_previous_wager")
            return await self._wager(ctx, seat, str(previous.bet), previous.amount)
        if action == "deal":
            return await self._deal(ctx)
        if action == "auto_deal":  # the table's timer, set by the coup's first wager
            if args.get("deadline") != ctx.state.deadline:
                raise Refusal("table.timer_stale")
            return await self._deal(ctx)
        raise Refusal("table.unknown_action")

    async def _wager(
        self, ctx: TableContext, seat: Seat, bet_name: str, amount: int
    ) -> dict[str, Any]:
        config = ctx.state.config
        game = PuntoBanco.from_dict(ctx.state.engine)
        try:
            bet = Bet(bet_name)
        except ValueError:
            raise Refusal("baccarat.unknown_bet") from None
        await ctx.check_stake(seat.character_id, amount)
        available = await ctx.bank_available()
        if available is not None:
            others = ctx.offers_due() + sum(
                max_win(w.bet, w.amount, game.tie_pays)
                for key, w in game.wagers.items()
                if key != str(seat.character_id)
            )
            if others + max_win(bet, amount, game.tie_pays) > available:
                raise Refusal("table.bank_cannot_cover", available=Cents(available - others))
        game.place_wager(str(seat.character_id), bet, amount)
        ctx.state.engine = game.to_dict()
        auto_deal = int(config.options.get("auto_deal_s") or 0)
        if auto_deal and ctx.state.deadline is None:
            ctx.state.deadline = iso(ctx.now + timedelta(seconds=auto_deal))
            ctx.state.deadline_action = "auto_deal"
        return {"kind": "wager", "character_id": seat.character_id, "bet": bet, "amount": amount}

    async def _deal(self, ctx: TableContext) -> dict[str, Any]:
        game = PuntoBanco.from_dict(ctx.state.engine)
        if not game.wagers:
            raise Refusal("baccarat.no_wagers")
        ctx.state.hand_no += 1
        ctx.state.deadline = ctx.state.deadline_action = None
        result = game.deal()
        ctx.state.engine = game.to_dict()
        lines = []
        for settlement in result.settlements:
            character_id = int(settlement.seat)
            if settlement.net > 0:
                await ctx.pay(character_id, settlement.net, "baccarat.win")
            elif settlement.net < 0:
                await ctx.collect(character_id, -settlement.net, "baccarat.loss")
                won = baccarat.won_back(settlement, game.tie_pays)
                ctx.offer(
                    character_id,
                    f"{settlement.bet}:{settlement.amount}",
                    settlement.amount + won.net,
                )
            lines.append(
                {
                    "character_id": character_id,
                    "bet": str(settlement.bet),
                    "amount": settlement.amount,
                    "net": settlement.net,
                }
            )
        coup = result.coup
        return {
            "kind": "coup",
            "hand": ctx.state.hand_no,
            "player": cards_code(coup.player),
            "banker": cards_code(coup.banker),
            "player_total": coup.player_total,
            "banker_total": coup.banker_total,
            "winner": str(coup.winner),
            "natural": coup.natural,
            "results": lines,
        }
