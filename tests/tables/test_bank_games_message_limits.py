"""Chemin de fer and deux tableaux messages stay within Discord's limits with a full table:
ten PCs named with 64 characters, each staking, a coup lost by all of them to the NPC's bank
(every lost hand a spend button), in both languages (the fake Discord's own validator)."""

from __future__ import annotations

import pytest
from table_helpers import GM, Clock, make_character, open_table
from test_chemin_de_fer_service import banker_natural, seed_where

from bondbot.bot.tables.message import table_embed, table_view
from bondbot.local.validation import DiscordAPIError, validate_message
from bondbot.money import Currency
from bondbot.rules import baccarat
from bondbot.storage.db import Database
from bondbot.tables.service import TableService, TableSnapshot

SEATS = 10


def long_name(index: int) -> str:
    return f"{index:02d} " + "Ŵ" * 61  # 64 characters, wide ones


def bank_wins_both_tables(seed: bytes) -> bool:
    """Deux tableaux, both tables staked: right, left, banker, twice; the banker's natural 9."""
    shoe = baccarat.new_shoe(3, seed)
    cards = [shoe.deal().baccarat_value for _ in range(6)]
    right, left = (cards[0] + cards[3]) % 10, (cards[1] + cards[4]) % 10
    banker = (cards[2] + cards[5]) % 10
    return banker == 9 and right < 9 and left < 9


async def full_table(
    db: Database, clock: Clock, game: str, seed: bytes
) -> tuple[TableService, int, dict[str, int], list[int]]:
    tables, table, ids = await open_table(db, clock, [seed], game=game, bankroll=None)
    owners = []
    for index in range(SEATS):
        owner = 100 + index
        pc = await make_character(db, long_name(index), owner=owner, cash=10**9, hero=3)
        await tables.join(table, owner, pc, 10**8)
        await tables.choose(table, owner, "simulate")
        owners.append(owner)
    return tables, table, ids, owners


def assert_fits(snapshots: list[TableSnapshot], clock: Clock) -> None:
    for snapshot in snapshots:
        for lang in ("en", "fr"):
            embed = table_embed(snapshot, lang, Currency("CHF", lang), clock.now)
            view = table_view(snapshot, lang, clock.now, Currency("CHF", lang))
            payload = {
                "embeds": [embed.to_dict()],
                "components": [] if view is None else view.to_components(),
            }
            try:
                validate_message(payload, has_files=False, creating=True)
            except DiscordAPIError as refused:
                pytest.fail(f"Discord would refuse the table message: {refused.to_body()}")


async def test_a_full_chemin_de_fer_table_fits_discord(db: Database) -> None:
    clock = Clock()
    seed = seed_where(banker_natural)
    tables, table, ids, owners = await full_table(db, clock, "chemin_de_fer", seed)
    snapshots = [await tables.act(table, GM, "first_banker", target=str(ids["npc"]), as_gm=True)]
    for owner in owners:  # ten stakes of $50 cover the $500 bank exactly
        snapshots.append(await tables.act(table, owner, "stake", amount=5_000))
    assert len(snapshots[-1].state.offers) == SEATS  # every ponte lost to the bank's natural
    assert_fits(snapshots, clock)


async def test_a_full_deux_tableaux_table_fits_discord(db: Database) -> None:
    clock = Clock()
    seed = next(
        s for s in (n.to_bytes(32, "big") for n in range(20_000)) if bank_wins_both_tables(s)
    )
    tables, table, _, owners = await full_table(db, clock, "deux_tableaux", seed)
    snapshots = [await tables.act(table, GM, "default_bank", as_gm=True)]
    for owner in owners:  # ten stakes of $12.50 on each table cover each $125 half
        snapshots.append(await tables.act(table, owner, "stake", amount=1_250, target="both"))
    assert len(snapshots[-1].state.offers) == 2 * SEATS  # every stake lost on both tables
    assert_fits(snapshots, clock)
