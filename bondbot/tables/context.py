"""What a game adapter may do to a table during one action, inside its transaction.

Adapters settle through `pay` and `collect`, so every chip that moves between a PC and
the NPC's bank is a ledger row of the same transaction as the state that explains it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from bondbot.errors import Refusal
from bondbot.money import Cents
from bondbot.storage import ledger
from bondbot.storage.sqlite import Connection
from bondbot.tables import accounts
from bondbot.tables.state import SpendOffer, TableState


def iso(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds")


@dataclass
class TableContext:
    conn: Connection
    table_id: int
    guild_id: int
    state: TableState
    now: datetime
    actor_id: int | None
    spend_window: timedelta
    # How long a PC has for a timed decision (a blackjack turn): the server's turn_timer_s.
    turn_timer: timedelta = timedelta(seconds=90)
    closed: bool = False  # set by the action that closes the table

    async def move(self, amount: int, src: str | None, dst: str | None, reason: str) -> None:
        """Move cash between two accounts (None: outside the game), ledgered with the table."""
        if amount <= 0:
            return
        try:
            await ledger.transfer(
                self.conn,
                guild_id=self.guild_id,
                kind="cash",
                amount=amount,
                src=src,
                dst=dst,
                reason=reason,
                table_id=self.table_id,
                actor_id=self.actor_id,
                now=iso(self.now),
            )
        except ledger.InsufficientFunds as exc:
            key = "table.bank_cannot_pay" if src and src.startswith("bank:") else "table.no_chips"
            raise Refusal(key) from exc

    async def pay(self, character_id: int, amount: int, reason: str) -> None:
        """The NPC's bank pays a PC's chips."""
        await self.move(
            amount,
            accounts.bank(self.table_id),
            accounts.chips(self.table_id, character_id),
            reason,
        )

    async def collect(self, character_id: int, amount: int, reason: str) -> None:
        """A PC's chips go to the NPC's bank."""
        await self.move(
            amount,
            accounts.chips(self.table_id, character_id),
            accounts.bank(self.table_id),
            reason,
        )

    async def chips(self, character_id: int) -> int:
        return await ledger.balance(self.conn, accounts.chips(self.table_id, character_id), "cash")

    async def bank_available(self) -> int | None:
        """What the bank can still pay; None when unlimited."""
        if self.state.config.bankroll is None:
            return None
        return await ledger.balance(self.conn, accounts.bank(self.table_id), "cash")

    async def check_stake(self, character_id: int, amount: int) -> None:
        """Refuse a stake outside the table's limits or beyond the PC's chips."""
        config = self.state.config
        if not config.min_bet <= amount <= config.max_bet:
            raise Refusal(
                "table.outside_limits", min=Cents(config.min_bet), max=Cents(config.max_bet)
            )
        if amount > await self.chips(character_id):
            raise Refusal("table.wager_over_chips")

    def offers_due(self) -> int:
        """What the bank may still pay on open Hero Point offers (the next hand closes them)."""
        return sum(offer.pay for offer in self.state.open_offers(iso(self.now)))

    async def hero_points(self, character_id: int) -> int:
        return await ledger.balance(self.conn, accounts.sheet(character_id), "hero")

    async def spend_hero_point(self, character_id: int, reason: str) -> None:
        """One of the PC's Hero Points leaves the game (refused when he has none)."""
        if await self.hero_points(character_id) < 1:
            raise Refusal("table.no_hero_points")
        await ledger.transfer(
            self.conn,
            guild_id=self.guild_id,
            kind="hero",
            amount=1,
            src=accounts.sheet(character_id),
            dst=None,
            reason=reason,
            table_id=self.table_id,
            actor_id=self.actor_id,
            now=iso(self.now),
        )

    def offer(self, character_id: int, label: str, pay: int) -> SpendOffer:
        """Open the Hero Point window on a hand this PC lost to the NPC."""
        offer = SpendOffer(
            id=self.state.new_id(),
            character_id=character_id,
            hand=self.state.hand_no,
            label=label,
            pay=pay,
            expires_at=iso(self.now + self.spend_window),
        )
        self.state.offers.append(offer)
        return offer
