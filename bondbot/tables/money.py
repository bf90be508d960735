"""The money of one table during one action: balances in memory, every move a ledger row.

An action reads the balances it may touch once (`load`), decides in memory, and hands the
rows it produced (`rows`) to the writer job that also saves the state explaining them.
Every chip that moves goes through `move`, which refuses to overdraw a limited account
before the database would, so a refusal changes nothing.

Accounts: a seat's stack (`chips:{table}:{pc}`, or the NPC's bankroll `bank:{table}`,
perhaps unlimited), the table's pots and layout spots, and the characters' sheets (cash
for buy-in and cash-out, Hero Points). Games speak of `seat:<key>`, `pot:<name>`,
`layout:<name>` and `house:<name>` (see `bondbot.games.contract`); `account` translates,
the house being the outside of the game (a commission leaves the table as a ledger row to
NULL, with the game's reason).

Two rules live here and nowhere else:
- `settle` books a hand's transfers losses first, then wins, so a limited bank pays its
  winners with what it has just taken; the Hero Point offers open after it.
- `pay_won_back` is the only way a Hero Point spend moves money: from the NPC to the PC
  who spent, never between two PCs; where spenders share what they won back (a hold'em
  pot), an earlier spender gives the NPC back the later one's share (`give_back`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from bondbot.errors import Refusal
from bondbot.games.contract import Transfer
from bondbot.storage import ledger
from bondbot.storage.conn import Connection, JobConnection
from bondbot.storage.ledger import LedgerKind
from bondbot.tables import accounts

Key = tuple[str, str]  # (ledger account, kind)


@dataclass(frozen=True, slots=True)
class Row:
    """A ledger row to write: `amount` of `kind` from `src` to `dst` (None: outside)."""

    kind: LedgerKind
    amount: int
    src: str | None
    dst: str | None
    reason: str
    hand: int | None = None  # the table's hand it belongs to (the row's note: "hand 7")


def hand_note(hand: int) -> str:
    """The note of a table's ledger row: which of the table's hands it belongs to, so the
    evening's story counts hands as the table does (`tables.summary`)."""
    return f"hand {hand}"


@dataclass
class TableMoney:
    table_id: int
    npc_id: int
    balances: dict[Key, int] = field(default_factory=dict)
    unlimited: set[Key] = field(default_factory=set)
    rows: list[Row] = field(default_factory=list)
    # The table's hand the next rows belong to: set by the action (`TableContext`) to the
    # hand a move was played in, or the hand a Hero Point spend wins back.
    hand: int | None = None

    @classmethod
    async def load(
        cls, conn: Connection, table_id: int, npc_id: int, character_ids: Iterable[int]
    ) -> TableMoney:
        """The table's accounts and the sheets of these characters, in one query."""
        wanted = [accounts.bank(table_id)]
        for character_id in dict.fromkeys(character_ids):
            wanted += [accounts.chips(table_id, character_id), accounts.sheet(character_id)]
        found = await ledger.account_states(conn, wanted, accounts.table_prefixes(table_id))
        return cls(
            table_id,
            npc_id,
            {key: value for key, (value, _) in found.items()},
            {key for key, (_, unlimited) in found.items() if unlimited},
        )

    def copy(self) -> TableMoney:
        """The same balances, no rows yet: the next action's money."""
        return TableMoney(self.table_id, self.npc_id, dict(self.balances), set(self.unlimited))

    async def include(self, conn: Connection, character_id: int) -> None:
        """Also read this character's sheet and chips (a PC sitting down)."""
        wanted = [accounts.chips(self.table_id, character_id), accounts.sheet(character_id)]
        for key, (value, unlimited) in (await ledger.account_states(conn, wanted)).items():
            self.balances[key] = value
            if unlimited:
                self.unlimited.add(key)

    # -- naming ----------------------------------------------------------------------------

    def account(self, name: str) -> str | None:
        """The ledger account of a game's `seat:`, `pot:` or `layout:` name; None (outside
        the game) for the house's."""
        kind, _, rest = name.partition(":")
        if kind == "seat":
            return self._seat(rest)
        if kind == "pot":
            return accounts.pot(self.table_id, rest)
        if kind == "layout":
            return accounts.layout(self.table_id, rest)
        if kind == "house":
            return None
        raise ValueError(f"not a table account: {name!r}")

    def _seat(self, seat: str) -> str:
        return (
            accounts.bank(self.table_id)
            if int(seat) == self.npc_id
            else accounts.chips(self.table_id, int(seat))
        )

    # -- reading ---------------------------------------------------------------------------

    def balance(self, account: str, kind: LedgerKind = "cash") -> int:
        return self.balances.get((account, kind), 0)

    def is_unlimited(self, account: str, kind: LedgerKind = "cash") -> bool:
        return (account, kind) in self.unlimited

    def chips(self, character_id: int) -> int:
        return self.balance(accounts.chips(self.table_id, character_id))

    def hero_points(self, character_id: int) -> int:
        return self.balance(accounts.sheet(character_id), "hero")

    def bank(self) -> int | None:
        """The NPC's bankroll; None when unlimited."""
        account = accounts.bank(self.table_id)
        return None if self.is_unlimited(account) else self.balance(account)

    def stacks(self, seats: Sequence[str]) -> dict[str, int | None]:
        """Each game seat's stack as the engine sees it (None: the NPC's unlimited bank)."""
        found: dict[str, int | None] = {}
        for seat in seats:
            account = self._seat(seat)
            found[seat] = None if self.is_unlimited(account) else self.balance(account)
        return found

    def held(self, prefix: str) -> dict[str, int]:
        """Non-empty accounts of the table under `pot:` or `layout:` (by the game's name)."""
        start = (accounts.pot if prefix == "pot" else accounts.layout)(self.table_id, "")
        return {
            account[len(start) :]: value
            for (account, kind), value in self.balances.items()
            if kind == "cash" and account.startswith(start) and value
        }

    # -- moving ----------------------------------------------------------------------------

    def move(
        self,
        amount: int,
        src: str | None,
        dst: str | None,
        reason: str,
        kind: LedgerKind = "cash",
    ) -> None:
        """Move `amount` between two ledger accounts (None: outside the game)."""
        if amount <= 0:
            return
        if src is not None:
            if not self.is_unlimited(src, kind) and self.balance(src, kind) < amount:
                raise Refusal(_short_of(src, kind))
            self.balances[(src, kind)] = self.balance(src, kind) - amount
        if dst is not None:
            self.balances[(dst, kind)] = self.balance(dst, kind) + amount
        self.rows.append(Row(kind, amount, src, dst, reason, self.hand))

    def transfer(self, transfer: Transfer) -> None:
        if transfer.src.startswith("house:"):
            raise ValueError("the house takes chips out of the game, it never pays")
        self.move(
            transfer.amount,
            self.account(transfer.src),
            self.account(transfer.dst),
            transfer.reason,
        )

    def settle(self, transfers: Sequence[Transfer]) -> None:
        """Book a hand's transfers: what players pay first, then what they are paid."""
        paying = [t for t in transfers if self._from_player(t.src)]
        for transfer in paying:
            self.transfer(transfer)
        for transfer in transfers:
            if not self._from_player(transfer.src):
                self.transfer(transfer)

    def _from_player(self, name: str) -> bool:
        return name.startswith("seat:") and int(name[5:]) != self.npc_id

    def pay_won_back(self, character_id: int, amount: int, reason: str) -> None:
        """What a Hero Point wins back: always from the NPC, always to the PC who spent."""
        if character_id == self.npc_id:
            raise ValueError("the NPC never spends Hero Points")
        self.move(
            amount,
            accounts.bank(self.table_id),
            accounts.chips(self.table_id, character_id),
            reason,
        )

    def give_back(self, character_id: int, amount: int, reason: str) -> None:
        """A PC returns to the NPC part of what he won back, which a later spender shares."""
        if character_id == self.npc_id:
            raise ValueError("the NPC never spends Hero Points")
        self.move(
            amount,
            accounts.chips(self.table_id, character_id),
            accounts.bank(self.table_id),
            reason,
        )

    def spend_hero_point(self, character_id: int, reason: str) -> None:
        """One of the PC's Hero Points leaves the game (refused when he has none)."""
        if self.hero_points(character_id) < 1:
            raise Refusal("table.no_hero_points")
        self.move(1, accounts.sheet(character_id), None, reason, "hero")

    def write(self, conn: JobConnection, *, guild_id: int, actor_id: int | None, now: str) -> None:
        """Write the rows this action produced (in the writer job that saves the table)."""
        ledger.append_transfers(
            conn,
            [
                ledger.Transfer(
                    row.kind,
                    row.amount,
                    row.src,
                    row.dst,
                    row.reason,
                    None if row.hand is None else hand_note(row.hand),
                )
                for row in self.rows
            ],
            guild_id=guild_id,
            table_id=self.table_id,
            actor_id=actor_id,
            now=now,
        )


def _short_of(account: str, kind: LedgerKind) -> str:
    if kind == "hero":
        return "table.no_hero_points"
    if account.startswith("bank:"):
        return "table.bank_cannot_pay"
    if account.startswith("sheet:"):
        return "table.buy_in_over_cash"
    return "table.no_chips"
