"""A full Macao table stays within Discord's limits: ten PCs with 64-character names and
the largest amounts, mid-coup and after a coup where the banker's natural 9 beats them
all (ten lost hands, one Spend button), in both languages, under two countings (checked
by the fake Discord's own validator)."""

from __future__ import annotations

from typing import Any

import pytest
from table_helpers import GM, Clock, make_character, service

from bondbot.bot.tables.message import table_embed, table_view
from bondbot.games.macao.counting import Counting, hand_total
from bondbot.local.validation import validate_message
from bondbot.money import Currency
from bondbot.rules.shoe import Shoe
from bondbot.storage.db import Database
from bondbot.tables.service import TableService, TableSnapshot

SEATS = 10
CHIPS = 10**11 - 1  # $999,999,999.99
STAKE = 10**10  # a third of the chips: the largest hand wager


def long_name(i: int) -> str:
    return f"Agent {i:02d} " + "X" * 55  # 64 characters, the most a sheet allows


def bank_natural_nine(seed: bytes) -> bool:
    """Eleven hands from three packs: the banker alone holds a natural 9."""
    shoe = Shoe.shuffled(3, seed)
    first = [shoe.deal() for _ in range(SEATS + 1)]
    second = [shoe.deal() for _ in range(SEATS + 1)]
    totals = [hand_total(pair, Counting.MINUS9) for pair in zip(first, second, strict=True)]
    return totals[-1] == 9 and 9 not in totals[:-1]


async def full_table(db: Database, seeds: list[bytes], counting: str) -> tuple[TableService, int]:
    npc = await make_character(db, "N" * 64, kind="NPC")
    tables = service(db, Clock(), seeds)
    opened = await tables.open_table(
        guild_id=1000,
        channel_id=2000,
        actor_id=GM,
        game="macao",
        npc_id=npc,
        min_bet=100,
        max_bet=STAKE,
        options={"counting": counting},
    )
    for i in range(SEATS):
        owner = 100 + i
        pc = await make_character(db, long_name(i), owner=owner, gambling=8, cash=CHIPS, hero=3)
        await tables.join(opened.id, owner, pc, CHIPS)
        await tables.choose(opened.id, owner, "simulate")
    return tables, opened.id


def assert_fits(snapshot: TableSnapshot, clock: Clock) -> dict[str, Any]:
    for lang in ("en", "fr"):
        embed = table_embed(snapshot, lang, Currency("$", lang), clock.now)  # type: ignore[arg-type]
        view = table_view(snapshot, lang, clock.now, Currency("$", lang))  # type: ignore[arg-type]
        payload = {"embeds": [embed.to_dict()], "components": view.to_components() if view else []}
        validate_message(payload, has_files=False, creating=True)
    return payload


@pytest.mark.parametrize("counting", ["minus9", "bust"])
async def test_a_full_macao_table_fits(db: Database, counting: str) -> None:
    scene = next(seed for n in range(10_000) if bank_natural_nine(seed := n.to_bytes(32, "big")))
    # The first shoe (one pack) cannot serve eleven hands: the deal brings three packs.
    tables, table = await full_table(db, [b"1" * 32, scene], counting)
    clock = Clock()
    dealt = await tables.act(table, GM, "deal", as_gm=True)
    assert dealt.state.shoes[-1].packs == 3
    for i in range(SEATS - 1):
        await tables.act(table, 100 + i, "wager", target="own", amount=STAKE)
    assert_fits(await tables.snapshot(table), clock)
    settled = await tables.act(table, 100 + SEATS - 1, "wager", target="tie", amount=STAKE)
    assert len(settled.state.offers) == SEATS  # the banker's natural 9 beats every wager
    payload = assert_fits(settled, clock)
    fields = [field["name"] for field in payload["embeds"][0]["fields"]]
    assert "Coup 1" in fields and "Points d'Héroïsme" in fields  # nothing had to give way
    labels = [b["label"] for row in payload["components"] for b in row["components"]]
    # Ten lost hands, one Spend button (each spender picks his own hand): within the
    # table message's ten buttons.
    assert labels.count("Dépenser un Point d'Héroïsme") == 1 and len(labels) <= 10
