"""The table message stays within Discord's limits with a full table of long names: ten
PCs named with 64 characters, each with a wager and a lost hand to spend on, in both
languages and both games (checked by the fake Discord's own validator), and so does the
message of the hand's result posted with its picture."""

from __future__ import annotations

import pytest
from table_helpers import GM, Clock, make_character, open_table, seeds_where

from bondbot.bot.tables.message import table_embed, table_view
from bondbot.bot.tables.results import PICTURE, result_embed, result_picture
from bondbot.local.validation import DiscordAPIError, validate_message
from bondbot.money import Currency
from bondbot.rules.baccarat import Bet
from bondbot.storage.db import Database

SEATS = 10


def long_name(index: int) -> str:
    return f"{index:02d} " + "Ŵ" * 61  # 64 characters, wide ones


async def full_table(db: Database, clock: Clock, game: str) -> tuple[object, int]:
    seed = next(seeds_where(lambda coup: coup.winner is Bet.BANKER))
    tables, table, _ = await open_table(db, clock, [seed], game=game, bankroll=None)
    for index in range(SEATS):
        owner = 100 + index
        pc = await make_character(db, long_name(index), owner=owner, cash=10**9, hero=3)
        await tables.join(table, owner, pc, 10**8)
        await tables.choose(table, owner, "simulate")
        if game == "punto_banco":
            await tables.act(table, owner, "wager", target="player", amount=50_000)
        else:
            await tables.act(table, owner, "wager", amount=50_000)
    return tables, table


@pytest.mark.parametrize("game", ["punto_banco", "blackjack"])
@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_full_table_of_long_names_fits_discord(db: Database, game: str, lang: str) -> None:
    clock = Clock()
    tables, table = await full_table(db, clock, game)
    snapshots = [await tables.snapshot(table)]  # everyone has wagered
    snapshots.append(await tables.act(table, GM, "deal", as_gm=True))  # type: ignore[attr-defined]
    for _ in range(40):  # blackjack: nobody plays, every turn times out and stands
        if snapshots[-1].state.deadline is None:
            break
        clock.advance(100)
        await tables.run_due()  # type: ignore[attr-defined]
        snapshots.append(await tables.snapshot(table))  # type: ignore[attr-defined]
    assert snapshots[-1].state.offers  # hands were lost: spend buttons are drawn
    for snapshot in snapshots:
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
    rows = snapshots[-1].state.engine.shown_hands()
    # The hand's picture: the player's and banker's hands, or the dealer's and every seat's.
    assert len(rows) == (2 if game == "punto_banco" else SEATS + 1)
    picture = result_picture(snapshots[-1], rows, lang)
    result = {
        "embeds": [result_embed(picture).to_dict()],
        "attachments": [{"id": "0", "filename": PICTURE, "description": picture.alt}],
    }
    try:
        validate_message(result, has_files=True, creating=True)
    except DiscordAPIError as refused:
        pytest.fail(f"Discord would refuse the hand's result: {refused.to_body()}")
