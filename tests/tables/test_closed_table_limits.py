"""The end of a full table of long names, within Discord's limits in both languages: the
closed table's scoreboard, the evening's summary and the Verify answer of a table that
changed shoes many times (checked by the fake Discord's own validator); and everyone is
still named once all are cashed out."""

from __future__ import annotations

import re

import pytest
from table_helpers import (
    BOND_OWNER,
    GM,
    VESPER_OWNER,
    Clock,
    make_character,
    open_table,
    seeds_where,
)

from bondbot.bot.tables.common import names, short
from bondbot.bot.tables.story import (
    SHOES_FILE,
    SHOES_SHOWN,
    closed_embed,
    closed_view,
    read_story,
    summary_embed,
    verify_answer,
)
from bondbot.local.validation import DiscordAPIError, validate_message
from bondbot.money import Currency, format_amount
from bondbot.rules.baccarat import Bet
from bondbot.storage.db import Database
from bondbot.tables.state import ShoeRecord
from bondbot.tables.summary import leaders

SEATS = 10


def long_name(index: int) -> str:
    return f"{index:02d} " + "Ŵ" * 61  # 64 characters, wide ones


def fits(payload: dict[str, object], *, files: bool = False) -> None:
    try:
        validate_message(payload, has_files=files, creating=True)
    except DiscordAPIError as refused:
        pytest.fail(f"Discord would refuse it: {refused.to_body()}")


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_the_end_of_a_full_table_fits_and_names_everyone(db: Database, lang: str) -> None:
    clock = Clock()
    seed = next(seeds_where(lambda coup: coup.winner is Bet.BANKER))
    tables, table, _ = await open_table(db, clock, [seed], game="punto_banco", bankroll=None)
    pcs = []
    for index in range(SEATS):
        owner = 100 + index
        pc = await make_character(db, long_name(index), owner=owner, cash=10**9, hero=3)
        pcs.append(pc)
        await tables.join(table, owner, pc, 10**8)
        await tables.choose(table, owner, "simulate")
        await tables.act(table, owner, "wager", target="player", amount=40_000 + index * 100)
    dealt = await tables.act(table, GM, "deal", as_gm=True)
    for offer in dealt.state.offers[:3]:  # three of the losers win their wager back
        await tables.spend(table, 100 + pcs.index(offer.character_id), offer.id)
    closed = await tables.close(table, GM)
    # A table that changed shoes many times (a Michigan evening changes every round).
    extra = [ShoeRecord(commitment=f"{n:064x}", packs=1, seed=f"{n + 1:064x}") for n in range(12)]
    closed.state.shoes[:0] = extra

    assert closed.state.seats == []  # all cashed out, and yet all named
    assert {pc: short(long_name(i)) for i, pc in enumerate(pcs)}.items() <= names(closed).items()
    async with db.read() as conn:
        told = await read_story(conn, closed)
    embed = closed_embed(closed, told, lang, Currency("CHF", lang), "Punto banco")
    fits({"embeds": [embed.to_dict()], "components": closed_view(closed, lang).to_components()})
    text = str(embed.to_dict())
    assert all(short(long_name(i)) in text for i in range(SEATS))
    assert re.search(r"[0-9a-f]{64}", text) is None and "?" not in text

    story = summary_embed(closed, told, lang, lambda c: format_amount(c, "CHF"))
    story.set_image(url="attachment://evening.png")
    fits({"embeds": [story.to_dict()]}, files=True)
    assert all(long_name(i) in story.description for i in range(SEATS))  # type: ignore[operator]

    proof, files = verify_answer(closed, lang)
    fits({"embeds": [proof.to_dict()], "flags": 64}, files=True)
    assert [f.filename for f in files] == [SHOES_FILE]
    every = files[0].fp.read().decode()
    assert all(f"{n:064x}" in every for n in range(13))  # every shoe is in the file
    assert proof.description.count("bondbot verify") == SHOES_SHOWN  # type: ignore[union-attr]


@pytest.mark.parametrize("game", ["macao", "makao"])
async def test_a_game_closed_before_its_first_hand_names_no_winner(db: Database, game: str) -> None:
    """Nobody has won yet: the closed table says so by naming nobody, not everyone."""
    clock = Clock()
    tables, table, ids = await open_table(db, clock, [bytes(32)], game=game)
    await tables.join(table, BOND_OWNER, ids["bond"], 5_000)
    await tables.join(table, VESPER_OWNER, ids["vesper"], 5_000)
    for owner in (BOND_OWNER, VESPER_OWNER):
        await tables.choose(table, owner, "simulate")
    closed = await tables.close(table, GM)
    assert closed.state.engine.winners()  # the engine ties everyone at nothing
    async with db.read() as conn:
        told = await read_story(conn, closed)
    assert leaders(told.evening) == []
    text = str(closed_embed(closed, told, "en", "$", game).to_dict())
    assert "Winner" not in text and "James Bond" in text and "Vesper Lynd" in text
