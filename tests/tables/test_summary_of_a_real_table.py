"""The evening's summary of a punto banco table the service really ran, read back from the
ledger: each PC's result is what his sheet gained, and the Hero Points are the award and
the spend the table made."""

from __future__ import annotations

import re

import pytest
from table_helpers import (
    BOND_OWNER,
    GM,
    VESPER_OWNER,
    Clock,
    balance,
    event_of,
    open_table,
    seeds_where,
)

from bondbot.bot.tables import story
from bondbot.bot.tables.story import closed_embed, read_story, summary_embed
from bondbot.money import Currency, format_amount
from bondbot.rules.baccarat import Bet
from bondbot.storage import ledger
from bondbot.storage.db import Database
from bondbot.tables import accounts
from bondbot.tables.summary import evening


async def test_the_summary_tells_what_the_ledger_holds(db: Database) -> None:
    clock = Clock()
    seed = next(seeds_where(lambda coup: coup.winner is Bet.BANKER))
    tables, table, ids = await open_table(db, clock, [seed], game="punto_banco")
    bond, vesper = ids["bond"], ids["vesper"]
    cash_before = {pc: await balance(db, accounts.sheet(pc)) for pc in (bond, vesper)}

    async def step(coroutine):  # type: ignore[no-untyped-def]
        clock.advance(1)  # a person's next click: a later moment
        return await coroutine

    await step(tables.join(table, BOND_OWNER, bond, 20_000))
    await step(tables.join(table, VESPER_OWNER, vesper, 10_000))
    await step(tables.choose(table, BOND_OWNER, "simulate"))  # Gambling 8: 2 Hero Points
    await step(tables.choose(table, VESPER_OWNER, "simulate"))
    results: list[dict[int, int]] = []  # each coup's chips won or lost, by PC
    for coup in range(6):
        await step(tables.act(table, BOND_OWNER, "wager", target="player", amount=5_000))
        await step(tables.act(table, VESPER_OWNER, "wager", target="banker", amount=2_000))
        before = (await tables.snapshot(table)).chips
        dealt = await step(tables.act(table, GM, "deal", as_gm=True))
        results.append({pc: dealt.chips[pc] - before[pc] for pc in (bond, vesper)})
        if coup == 0:  # the banker won: Bond wins his wager back with a Hero Point
            assert event_of(dealt, "coup").winner == "banker"
            (offer,) = [o for o in dealt.state.offers if o.character_id == bond]
            await step(tables.spend(table, BOND_OWNER, offer.id))
    await step(tables.close(table, GM))

    async with db.read() as conn:
        rows = await ledger.table_entries(conn, table)
    assert {row.table_id for row in rows} == {table}
    summary = evening(rows, table)
    by_pc = {p.character_id: p for p in summary.pcs}
    for pc in (bond, vesper):
        gained = await balance(db, accounts.sheet(pc)) - cash_before[pc]
        assert by_pc[pc].net == gained
    assert (by_pc[bond].hero_earned, by_pc[bond].hero_spent, by_pc[bond].hands_won_back) == (
        2,
        1,
        1,
    )
    assert by_pc[bond].won_back == 10_000
    assert (by_pc[vesper].hero_earned, by_pc[vesper].hands_won_back) == (0, 0)
    # Hands are counted as the table dealt them, a push included: each coup is a point of
    # the series, where each PC's step is what the coup moved (the first coup's with the
    # Hero Point that won it back), and the NPC's result is what the PCs' is not.
    assert summary.hands == len(results) == (await tables.snapshot(table)).state.hand_no
    best = max(won for result in results for won in result.values())
    assert summary.biggest is not None and summary.biggest.won == best
    assert summary.series[-1][1] == {bond: by_pc[bond].net, vesper: by_pc[vesper].net}
    steps = [
        {pc: after[pc] - before.get(pc, 0) for pc in (bond, vesper)}
        for (_, before), (_, after) in zip(summary.series, summary.series[1:], strict=False)
    ]
    assert steps[1:] == results[1:]
    assert steps[0] == {bond: results[0][bond] + 10_000, vesper: results[0][vesper]}
    assert [w.hand for w in summary.won_backs] == [1] and summary.won_backs[0].pay == 10_000
    assert summary.npc_net == -(by_pc[bond].net + by_pc[vesper].net)
    assert len(summary.npc_series) == len(summary.series)


async def test_the_summary_and_its_chart_say_coup_as_the_table_does(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A punto banco table says "Coup 1": so do its closed table, summary and chart, in
    French ("le coup 1", "coup après coup"), not "main"."""
    clock = Clock()
    seed = next(seeds_where(lambda coup: coup.winner is Bet.BANKER))
    tables, table, ids = await open_table(db, clock, [seed], game="punto_banco")
    await tables.join(table, BOND_OWNER, ids["bond"], 20_000)
    await tables.choose(table, BOND_OWNER, "simulate")
    await tables.act(table, BOND_OWNER, "wager", target="player", amount=5_000)
    dealt = await tables.act(table, GM, "deal", as_gm=True)
    (offer,) = dealt.state.offers
    await tables.spend(table, BOND_OWNER, offer.id)
    closed = await tables.close(table, GM)
    async with db.read() as conn:
        told = await read_story(conn, closed)
    titles: list[str] = []
    monkeypatch.setattr(story, "evening_chart", lambda spec, **kw: titles.append(kw["title"]))
    for lang in ("fr", "en"):
        summary = summary_embed(closed, told, lang, format_amount).description or ""
        board = str(closed_embed(closed, told, lang, "$", "Punto banco").to_dict())
        story.summary_chart(told, closed, lang, format_amount)
        for text in (summary, board, titles[-1]):
            assert "coup" in text.lower() and not re.search(r"\b(main|hand)s?\b", text.lower())
    assert (
        "regagné le coup 1 (100\u00a0$)"
        in summary_embed(
            closed, told, "fr", lambda c: format_amount(c, Currency("$", "fr"))
        ).description
    )
    assert titles == [
        "Jetons gagnés ou perdus, coup après coup",
        "Chips won or lost, coup after coup",
    ]
