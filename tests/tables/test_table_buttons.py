"""The table message shows only what someone may do now, within a few buttons.

Every game is played at a full table (ten PCs with 64-character names, all simulating)
by random legal moves through the table service, and the table message is drawn after
every move in both languages. Targets (issue 21): at most 5 buttons in each phase a game
names common (`COMMON_PHASES` on its UI), at most 10 anywhere.

The walk also writes the table of buttons per game and phase kept in
`docs/table-buttons.md`: the test fails when the document no longer says what the code
draws (`BONDBOT_NEW_BUTTONS=1` writes it again).
"""

from __future__ import annotations

import hashlib
import os
import random
import re
from collections import defaultdict
from pathlib import Path

import pytest
from table_helpers import GM, Clock, make_character, random_move, service

from bondbot.bot.tables.games import optional, ui_for
from bondbot.bot.tables.message import table_view
from bondbot.errors import Refusal
from bondbot.games.registry import all_games
from bondbot.storage.db import Database
from bondbot.tables.service import TableSnapshot

SEATS = 10
STEPS = 160
MOST = 10  # buttons on the table message, anywhere
COMMON_MOST = 5  # … in a game's common phases
DOC = Path(__file__).resolve().parents[2] / "docs" / "table-buttons.md"
GAMES = sorted(spec.key for spec in all_games())
NUMBER = re.compile(r"\d[\d,.\u202f\u00a0 ]*\d|\d")


def long_name(index: int) -> str:
    return f"{index:02d} " + "Ŵ" * 61  # 64 characters, wide ones


def phase_of(snapshot: TableSnapshot) -> str:
    """The game's name for its phase (its UI's `phase`), else in or between hands."""
    named = optional(ui_for(snapshot.state.config.game), "phase", None)(snapshot)
    if named:
        return str(named)
    return "in hand" if snapshot.state.engine.in_hand() else "between hands"


async def walk(db: Database, game: str, seed: int) -> dict[str, list[list[str]]]:
    """Each phase met → the labels (English) of every table message drawn in it."""
    clock = Clock()
    # Every shoe from the walk's own seeds: the same walk, the same document, every run.
    shoes = [hashlib.sha256(f"{game} {seed} {n}".encode()).digest() for n in range(64)]
    tables = service(db, clock, shoes)
    npc = await make_character(db, "Le Chiffre", kind="NPC", gambling=12, per=12, survival=2)
    opened = await tables.open_table(
        guild_id=1000,
        channel_id=2000 + seed,
        actor_id=GM,
        game=game,
        npc_id=npc,
        min_bet=1_000,
        max_bet=50_000,
        bankroll=None,
    )
    table = opened.id
    owners: dict[str, int] = {}
    for index in range(SEATS):
        owner = 100 + index
        pc = await make_character(db, long_name(index), owner=owner, cash=10**9, hero=5)
        snapshot = await tables.snapshot(table)
        least = max(snapshot.state.engine.least_stack(), 1_000)
        buy_in = min(50_000, max(least, 40_000))
        await tables.join(table, owner, pc, buy_in)
        try:
            await tables.choose(table, owner, "simulate")
        except Refusal:  # the game is full (hold'em seats ten with the NPC): he sits by
            await tables.choose(table, owner, "rulebook")  # the rulebook
            continue
        owners[str(pc)] = owner
    rng = random.Random(seed)
    seen: dict[str, list[list[str]]] = defaultdict(list)
    for _ in range(STEPS):
        snapshot = await tables.snapshot(table)
        for lang in ("en", "fr"):
            view = table_view(snapshot, lang, clock.now, "$")
            assert view is not None
            labels = [item.label or "" for item in view.children]  # type: ignore[attr-defined]
            if lang == "en":
                seen[phase_of(snapshot)].append(labels)
            assert len(labels) <= MOST, (game, phase_of(snapshot), lang, labels)
        move = random_move(snapshot, rng)
        if move is None:
            clock.advance(30)
            await tables.run_due()
            continue
        option, amount, target = move
        user = owners.get(option.seat or "")
        try:
            await tables.act(
                table,
                GM if user is None else user,
                option.kind,
                amount=amount,
                target=target,
                as_gm=user is None,
                for_npc=option.seat == snapshot.state.npc_key,
            )
        except Refusal:
            clock.advance(5)
        if rng.random() < 0.1:  # a Hero Point window runs out now and then
            clock.advance(120)
            await tables.run_due()
    await tables.close(table, GM)
    return seen


def document(found: dict[str, dict[str, list[list[str]]]]) -> str:
    lines = [
        "# The table message's buttons, by game and phase",
        "",
        "Written by `tests/tables/test_table_buttons.py` (`BONDBOT_NEW_BUTTONS=1` writes it",
        "again) from a full table: ten PCs with 64-character names, all simulating, playing",
        "random legal moves. Every table message also has **My seat** (a player's private",
        "panel: his cards, chips and moves; the buy-in form to someone without a seat) and",
        "**GM** (the GM's private panel); **Spend a Hero Point** appears while a hand can be",
        "won back. *Most* is the largest count drawn in the phase; a phase marked common",
        f"must stay within {COMMON_MOST} buttons, every phase within {MOST}.",
        "",
        "| game | phase | common | buttons seen (English) | most |",
        "|---|---|---|---|---:|",
    ]
    for game, phases in found.items():
        common = getattr(ui_for(game), "COMMON_PHASES", ())
        for phase, drawn in sorted(phases.items()):
            labels: list[str] = []
            for row in drawn:
                for label in (NUMBER.sub("N", label) for label in row):  # "Call $N"
                    if label not in labels:
                        labels.append(label)
            names = ", ".join(label.replace("|", "/") for label in labels)
            most = max(len(row) for row in drawn)
            mark = "yes" if phase in common else ""
            lines.append(f"| {game} | {phase} | {mark} | {names} | {most} |")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def walks(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, list[list[str]]]]:
    import asyncio

    async def run() -> dict[str, dict[str, list[list[str]]]]:
        found = {}
        for index, game in enumerate(GAMES):
            db = await Database.open(tmp_path_factory.mktemp(game) / "walk.db")
            await db.migrate()
            try:
                found[game] = await walk(db, game, index + 1)
            finally:
                await db.close()
        return found

    return asyncio.run(run())


@pytest.mark.parametrize("game", GAMES)
def test_common_phases_show_at_most_five_buttons(
    walks: dict[str, dict[str, list[list[str]]]], game: str
) -> None:
    common = getattr(ui_for(game), "COMMON_PHASES", ())
    assert common, f"{game} names no common phase"
    for phase in common:
        assert phase in walks[game], f"{game}: the walk never met its common phase {phase!r}"
        worst = max(walks[game][phase], key=len)
        assert len(worst) <= COMMON_MOST, (game, phase, worst)


def test_the_document_says_what_the_code_draws(
    walks: dict[str, dict[str, list[list[str]]]],
) -> None:
    text = document(walks)
    # The lines read follow the buttons (test_table_lines.py keeps that part).
    _, mark, lines = DOC.read_text(encoding="utf-8").partition("## Lines read")
    if os.environ.get("BONDBOT_NEW_BUTTONS"):
        DOC.write_text(text + ("\n" + mark + lines if mark else ""), encoding="utf-8")
    kept = DOC.read_text(encoding="utf-8").partition("## Lines read")[0].rstrip("\n") + "\n"
    assert kept == text, "run with BONDBOT_NEW_BUTTONS=1"
