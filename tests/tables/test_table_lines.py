"""A table read at a glance (issue 34): the lines a player reads on the table message.

An evening of each game, by random legal moves at three and at ten PCs, counting the lines
of the description and the field values after every move, in both languages (`lines.py`).
Targets: at most 12 lines at the median and 18 at most, with three players and with ten:
at ten the table names the seats that matter now and folds the others into one line
("Also seated: …"), and says what it waits for rather than every seat's history.

`BONDBOT_PRINT_LINES=1` prints each game's figures and its longest message. The figures
are kept in `docs/table-buttons.md` beside the buttons, with those of the same evenings
before issue 34 (`BEFORE`); the test fails when the document no longer says what the code
draws (`BONDBOT_NEW_BUTTONS=1` writes it again).
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from lines import Counts, evening

from bondbot.games.registry import all_games
from bondbot.storage.db import Database

GAMES = sorted(spec.key for spec in all_games())
DOC = Path(__file__).resolve().parents[2] / "docs" / "table-buttons.md"
MARK = "## Lines read"  # where the buttons' table ends and the line counts begin
# Median / most, three then ten players, of the same evenings on the code before issue 34.
BEFORE = {
    "blackjack": (13, 18, 22, 39),
    "chemin_de_fer": (15, 19, 32, 39),
    "deux_tableaux": (13, 25, 42, 52),
    "holdem": (9, 14, 21, 45),
    "macao": (14, 24, 23, 44),
    "makao": (18, 19, 32, 36),
    "michigan": (18, 21, 29, 40),
    "punto_banco": (8, 11, 22, 27),
}
MEDIAN, MOST = 12, 18  # three players
MEDIAN_FULL, MOST_FULL = 12, 18  # ten players: the same, the seats folded


@pytest.fixture(scope="module")
def evenings(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, int], Counts]:
    async def run() -> dict[tuple[str, int], Counts]:
        found = {}
        for index, game in enumerate(GAMES):
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


def figure(value: float) -> str:
    return f"{value:g}"


def section(evenings: dict[tuple[str, int], Counts]) -> str:
    lines = [
        MARK,
        "",
        "Written by `tests/tables/test_table_lines.py`: the lines a player reads on the table",
        "message (the description and the field values, not the title, field names, footer",
        "or buttons), median / most over an evening of random legal moves, in the worse of",
        "the two languages; *before* is the same evening on the code before issue 34.",
        f"Targets: with three players at most {MEDIAN} at the median and {MOST} at most; with",
        f"ten, at most {MEDIAN_FULL} and {MOST_FULL} (the seats that matter now named, the others",
        "on one line).",
        "",
        "| game | 3 players before | 3 players now | 10 players before | 10 players now |",
        "|---|---:|---:|---:|---:|",
    ]
    for game in GAMES:
        b3m, b3x, b10m, b10x = BEFORE[game]
        now3, now10 = evenings[game, 3], evenings[game, 10]
        lines.append(
            f"| {game} | {b3m} / {b3x} | {figure(now3.median)} / {now3.most}"
            f" | {b10m} / {b10x} | {figure(now10.median)} / {now10.most} |"
        )
    return "\n".join(lines) + "\n"


def test_the_document_says_how_much_is_read(evenings: dict[tuple[str, int], Counts]) -> None:
    buttons, _, _ = DOC.read_text(encoding="utf-8").partition(MARK)
    text = buttons + section(evenings)
    if os.environ.get("BONDBOT_NEW_BUTTONS"):
        DOC.write_text(text, encoding="utf-8")
    assert DOC.read_text(encoding="utf-8") == text, "run with BONDBOT_NEW_BUTTONS=1"


@pytest.mark.parametrize("game", ["deux_tableaux", "holdem", "makao"])
def test_ten_long_names_stay_named_and_within_limits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str
) -> None:
    """Ten seats folded to a line or two: every seated name still shown in full (as the
    table shows names), never "?", and every field within Discord's 1,024 characters."""
    import lines

    from bondbot.bot.tables.common import FIELD_MAX, short
    from bondbot.bot.tables.message import table_embed
    from bondbot.money import Currency

    long_names = tuple(f"{index:02d} " + "Ŵ" * 61 for index in range(10))  # 64 characters
    monkeypatch.setattr(lines, "NAMES", long_names)
    checked = []

    def seen(snapshot, clock) -> None:  # type: ignore[no-untyped-def]
        for lang in ("en", "fr"):
            payload = table_embed(snapshot, lang, Currency("$", lang), clock.now).to_dict()
            fields = payload.get("fields", [])
            assert all(len(f["value"]) <= FIELD_MAX for f in fields), game
            text = "\n".join([payload.get("description") or "", *(f["value"] for f in fields)])
            missing = [s.name for s in snapshot.state.seats if short(s.name) not in text]
            assert not missing, (game, lang, missing)
            checked.append(len(snapshot.state.seats))

    async def run() -> None:
        db = await Database.open(tmp_path / "long.db")
        await db.migrate()
        try:
            await evening(db, game, 10, 7, steps=40, seen=seen)
        finally:
            await db.close()

    asyncio.run(run())
    assert max(checked) >= 9  # the fold was drawn (hold'em seats its tenth by the rulebook)
