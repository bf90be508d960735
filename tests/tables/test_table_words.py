"""The table message's words fit its game (issue 21 §8): a game where nobody holds a bank
(Michigan, Makao) neither says the NPC "holds the bank" nor shows a bank; one pack is "1
pack"."""

from __future__ import annotations

import pytest
from table_helpers import Clock, open_table

from bondbot.bot.tables.message import table_embed
from bondbot.i18n import Lang
from bondbot.storage.db import Database


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("game", ["michigan", "makao"])
async def test_a_game_without_a_bank_names_none(db: Database, game: str, lang: Lang) -> None:
    clock = Clock()
    tables, table, _ = await open_table(db, clock, [bytes(32)], game=game, bankroll=None)
    text = str(table_embed(await tables.snapshot(table), lang, "$", clock.now).to_dict())
    for banking in ("holds the bank", "tient la banque", "bank", "banque", "packs", "1 jeux"):
        assert banking not in text
    assert ("1 pack" if lang == "en" else "1 jeu") in text
    assert ("Le Chiffre's table" if lang == "en" else "la table de Le Chiffre") in text


async def test_a_bank_game_still_shows_its_bank_and_counts_its_packs(db: Database) -> None:
    clock = Clock()
    tables, table, _ = await open_table(db, clock, [bytes(32)], game="punto_banco", packs=6)
    text = str(table_embed(await tables.snapshot(table), "en", "$", clock.now).to_dict())
    assert "holds the bank" in text and "· 6 packs · bank $10,000" in text
