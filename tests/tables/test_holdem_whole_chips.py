"""A hold'em chip is one whole unit of the currency (holdem.md), through the table service
on a real SQLite file: a buy-in takes whole units to the table and leaves its cents on the
sheet, a split pot's odd dollar goes by the odd-chip rule, and the table message never
shows a stack in cents."""

from __future__ import annotations

import re

import pytest
from table_helpers import (
    BOND_OWNER,
    GM,
    VESPER_OWNER,
    Clock,
    assert_conserved,
    balance,
    make_character,
)
from test_holdem_message import check_limits
from test_holdem_service import LEITER_OWNER, seat_three, seed_where

from bondbot.bot.tables.message import table_embed
from bondbot.errors import Refusal
from bondbot.money import Currency
from bondbot.storage.db import Database
from bondbot.tables import accounts
from bondbot.tables.service import TableSnapshot

CENTS = {
    "en": re.compile(r"\$[0-9,]+\.[0-9]{2}"),  # $302.50
    "fr": re.compile(r"[0-9\u202f]+,[0-9]{2}\u00a0\$"),  # 302,50 $
}


def amounts_in_cents(snapshot: TableSnapshot, clock: Clock) -> list[str]:
    """Every amount with cents the table message shows, in English and in French."""
    found = []
    for lang, pattern in CENTS.items():
        embed = str(table_embed(snapshot, lang, Currency("$", lang), clock.now).to_dict())
        found += pattern.findall(embed)
    return found


async def test_a_buy_in_takes_whole_units_and_leaves_its_cents_on_the_sheet(
    db: Database,
) -> None:
    clock = Clock()
    tables, table, ids = await seat_three(db, clock, [], auto=True)  # Bond $100, Leiter $300
    bond = ids["bond"]
    await tables.leave(table, BOND_OWNER)
    assert await balance(db, accounts.sheet(bond)) == 100_000
    joined = await tables.join(table, BOND_OWNER, bond, 10_050)  # $100.50
    assert joined.chips[bond] == 10_000  # 100 chips
    assert await balance(db, accounts.sheet(bond)) == 90_000  # the 50 cents stayed
    assert await balance(db, accounts.chips(table, bond)) == 10_000
    assert amounts_in_cents(joined, clock) == []
    await tables.leave(table, BOND_OWNER)
    with pytest.raises(Refusal) as short:  # $49.99 is below the $50 minimum; $50.99 is 50 chips
        await tables.join(table, BOND_OWNER, bond, 4_999)
    assert short.value.key == "table.buy_in_outside"
    assert (await tables.join(table, BOND_OWNER, bond, 5_099)).chips[bond] == 5_000
    await assert_conserved(db)


async def test_a_split_pot_goes_in_whole_units_and_no_stack_shows_cents(db: Database) -> None:
    """Blinds $5/$10: Le Chiffre (the button, played by the GM) calls, Bond folds his small
    blind, Leiter checks, and Leiter and Le Chiffre tie: a pot of $25 splits $13 to Leiter
    (the first winner left of the button) and $12 to Le Chiffre, not $12.50 each."""
    clock = Clock()
    seed = seed_where(3, lambda values: values[1] == values[2])
    tables, table, ids = await seat_three(db, clock, [seed], auto=False)
    bond, leiter, npc = (str(ids[k]) for k in ("bond", "leiter", "npc"))
    dealt = await tables.act(table, GM, "deal", as_gm=True)
    assert dealt.state.engine.players == [bond, leiter, npc]
    await tables.act(table, GM, "call", amount=1_000, as_gm=True, for_npc=True)
    await tables.act(table, BOND_OWNER, "fold")
    snapshot = await tables.act(table, LEITER_OWNER, "check")
    while snapshot.state.engine.in_hand():
        assert amounts_in_cents(snapshot, clock) == []
        if snapshot.state.engine.turn() == (npc,):
            snapshot = await tables.act(table, GM, "check", as_gm=True, for_npc=True)
        else:
            snapshot = await tables.act(table, LEITER_OWNER, "check")
    [pot] = snapshot.state.engine.last_hand()[1]
    assert (pot.amount, pot.winners, pot.shares) == (2_500, (leiter, npc), (1_300, 1_200))
    assert snapshot.chips == {ids["bond"]: 9_500, ids["leiter"]: 30_300}
    shown = check_limits(snapshot, clock.now)
    assert "$13" in shown and "$12" in shown
    assert amounts_in_cents(snapshot, clock) == []
    await assert_conserved(db)


async def test_a_rulebook_contest_at_holdem_stakes_whole_chips(db: Database) -> None:
    """A PC who plays the rulebook's contest at a hold'em table keeps a whole stack too."""
    clock = Clock()
    tables, table, _ = await seat_three(db, clock, [], auto=True)
    vesper = await make_character(db, "Vesper Lynd", owner=VESPER_OWNER, cash=100_000)
    await tables.join(table, VESPER_OWNER, vesper, 10_000)
    await tables.choose(table, VESPER_OWNER, "rulebook")
    with pytest.raises(Refusal) as cents:
        await tables.contest(table, VESPER_OWNER, 5_050)
    assert cents.value.key == "table.whole_chips"
    assert (await tables.snapshot(table)).chips[vesper] == 10_000
    await tables.contest(table, VESPER_OWNER, 5_000)
    await assert_conserved(db)
