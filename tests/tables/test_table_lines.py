"""A table read at a glance (issue 34): the lines a player reads on the table message.

An evening of each game, by random legal moves at three and at ten PCs, counting the lines
of the description and the field values after every move, in both languages (`lines.py`).
Targets: at three players at most 12 lines at the median and 18 at most; at ten, the
table says what it waits for rather than every seat's history: at most 28 lines (the ten
seat lines and 18), 22 at the median.

`BONDBOT_PRINT_LINES=1` prints each game's figures and its longest message.
"""

from __future__ import annotations

import asyncio
import os

import pytest
from lines import Counts, evening

from bondbot.games.registry import all_games
from bondbot.storage.db import Database

# Makao's score sheet still repeats each player beside the deal's lines (its history is
# asserted by test_makao_table.py): left for a follow-up, marked so it cannot be forgotten.
LEFT = pytest.mark.xfail(reason="issue 34: Makao's score sheet beside the deal", strict=True)
GAMES = [
    pytest.param(key, marks=LEFT) if key == "makao" else key
    for key in sorted(spec.key for spec in all_games())
]
MEDIAN, MOST = 12, 18  # three players
MEDIAN_FULL, MOST_FULL = 22, 28  # ten players: ten seat lines more than 12 and 18


@pytest.fixture(scope="module")
def evenings(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, int], Counts]:
    async def run() -> dict[tuple[str, int], Counts]:
        found = {}
        for index, game in enumerate(sorted(spec.key for spec in all_games())):
            for seats in (3, 10):
                db = await Database.open(tmp_path_factory.mktemp(game) / f"lines{seats}.db")
                await db.migrate()
                try:
                    found[game, seats] = await evening(db, game, seats, index + 1)
                finally:
                    await db.close()
        return found

    found = asyncio.run(run())
    if os.environ.get("BONDBOT_PRINT_LINES"):
        for (game, seats), counts in found.items():
            print(f"\n{game} {seats} seats: median {counts.median} most {counts.most}")
            print("\n".join("    " + line for line in counts.longest))
    return found


@pytest.mark.parametrize("game", GAMES)
def test_three_players_read_a_short_table(
    evenings: dict[tuple[str, int], Counts], game: str
) -> None:
    counts = evenings[game, 3]
    assert counts.median <= MEDIAN and counts.most <= MOST, (
        game,
        counts.median,
        counts.most,
        counts.longest,
    )


@pytest.mark.parametrize("game", GAMES)
def test_ten_players_read_what_the_table_waits_for(
    evenings: dict[tuple[str, int], Counts], game: str
) -> None:
    counts = evenings[game, 10]
    assert counts.median <= MEDIAN_FULL and counts.most <= MOST_FULL, (
        game,
        counts.median,
        counts.most,
        counts.longest,
    )
