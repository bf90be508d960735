"""Each game's own words, everywhere (issue 34), over an evening of each game at three
players (the walk of `lines.py`):

- the table message, the hand's picture, the closed table and the summary name a hand with
  the one word of the game (`games.hand_word.<game>`: "Coup 3" at the table is "coup 3"
  in the summary, "Main 3" at a French hold'em table);
- a French table's every public payload (and each player's private note under his cards)
  is checked against a list of slips: plural agreement with 0, 1 and 2, "temps écoulé",
  "$" before an amount, "banque" at a game where nobody holds a bank.
"""

from __future__ import annotations

import asyncio
import re

import pytest
from lines import evening
from table_helpers import Clock

from bondbot.bot.tables.games import optional, ui_for
from bondbot.bot.tables.glance import by_hand_word
from bondbot.bot.tables.message import table_embed
from bondbot.bot.tables.panels import _offer_label, spendable
from bondbot.bot.tables.results import ended_hand, result_picture
from bondbot.bot.tables.story import closed_embed, read_story, summary_embed, table_title
from bondbot.games.registry import all_games
from bondbot.i18n import t
from bondbot.money import Currency, format_amount
from bondbot.storage.db import Database
from bondbot.tables.service import TableSnapshot

GAMES = sorted(spec.key for spec in all_games())
NO_BANK = ("holdem", "michigan", "makao")  # nobody holds a bank at these games
HAND = re.compile(r"\b(coup|main|hand|round|deal|tour|donne|manche)s? (\d+)\b", re.I)
# Blackjack's split hands are hands within its round ("James Bond, hand 1").
SPLIT = {"blackjack": {"hand", "main"}}
SLIPS = {
    "an amount after $": re.compile(r"\$\s?\d"),
    "time up, not running out": re.compile(r"temps écoulé (dans|<t:)", re.I),
    "a plural after 0 or 1": re.compile(
        r"(?<![\d,.])[01] (cartes|jetons|mains|coups|plis|points|joueurs|mises|actions|donnes"
        r"|tours|parties|\w+és|\w+ées)\b"
    ),
    "a singular after 2 or more": re.compile(
        r"(?<![\d,.])([2-9]|\d\d+) (carte|jeton|pli|joueur|action|donne|mise)\b(?! \d)"
    ),
    "an English plural after 1": re.compile(
        r"(?<![\d,.])1 (cards|chips|hands|tricks|points|players|moves|packs)\b"
    ),
}


def word_of(game: str, lang: str) -> str:
    """The game's word for a hand in `lang`, as its table says it ("Coup", "Main")."""
    return t(by_hand_word("dealt_by", game, lang), lang, hand=1).split()[0].lower()  # type: ignore[arg-type]


def embed_text(embed: dict) -> str:  # type: ignore[type-arg]
    parts = [embed.get("title") or "", embed.get("description") or ""]
    for f in embed.get("fields", []):
        parts += [f.get("name") or "", f.get("value") or ""]
    return "\n".join(parts)


class Answering:
    """What a label needs of a reply: its language and its money."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.currency = Currency("$", lang)  # type: ignore[arg-type]

    def t(self, key: str, **params: object) -> str:
        return t(key, self.lang, **params)  # type: ignore[arg-type]

    def money(self, cents: int) -> str:
        return format_amount(cents, self.currency)


class Reading:
    """Every text of one game's evening, by where it was read, in both languages."""

    def __init__(self, game: str, db: Database) -> None:
        self.game, self.db = game, db
        self.texts: dict[tuple[str, str], list[str]] = {}

    def add(self, where: str, lang: str, text: str) -> None:
        self.texts.setdefault((where, lang), []).append(text)

    def seen(self, snapshot: TableSnapshot, clock: Clock) -> None:
        for lang in ("en", "fr"):
            money = Currency("$", lang)
            self.add(
                "table", lang, embed_text(table_embed(snapshot, lang, money, clock.now).to_dict())
            )
            rows = ended_hand(snapshot)
            if rows:
                picture = result_picture(snapshot, rows, lang)
                self.add("picture", lang, "\n".join([picture.heading, *picture.lines]))
            reply = Answering(lang)
            for offer, pay in spendable(snapshot, clock.now):  # the Spend buttons' labels
                self.add("spend button", lang, _offer_label(offer, pay, reply, self.game))  # type: ignore[arg-type]
            note = optional(ui_for(self.game), "hand_note", None)
            for seat in snapshot.state.engine.seats:
                said = note(snapshot, seat, lang)
                if said:
                    self.add("private note", lang, said)

    async def closed(self, snapshot: TableSnapshot) -> None:
        async with self.db.read() as conn:
            story = await read_story(conn, snapshot)
        for lang in ("en", "fr"):
            money = Currency("$", lang)
            title = table_title(snapshot.state, lang)  # type: ignore[arg-type]
            closed = closed_embed(snapshot, story, lang, money, title).to_dict()
            self.add("closed table", lang, embed_text(closed))
            summary = summary_embed(snapshot, story, lang, lambda c, m=money: format_amount(c, m))
            self.add("summary", lang, embed_text(summary.to_dict()))


@pytest.fixture(scope="module")
def readings(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Reading]:
    async def run() -> dict[str, Reading]:
        found = {}
        for index, game in enumerate(GAMES):
            db = await Database.open(tmp_path_factory.mktemp(game) / "words.db")
            await db.migrate()
            try:
                reading = Reading(game, db)
                await evening(db, game, 3, index + 1, seen=reading.seen, closed=reading.closed)
                found[game] = reading
            finally:
                await db.close()
        return found

    return asyncio.run(run())


@pytest.mark.parametrize("game", GAMES)
def test_every_text_names_a_hand_with_the_games_word(
    readings: dict[str, Reading], game: str
) -> None:
    wrong = set()
    for (where, lang), texts in readings[game].texts.items():
        allowed = {word_of(game, lang)} | SPLIT.get(game, set())
        for text in texts:
            for found in HAND.finditer(text):
                if found.group(1).lower() not in allowed:
                    wrong.add((where, lang, found.group(0)))
    assert not wrong, sorted(wrong)[:10]


@pytest.mark.parametrize("game", GAMES)
def test_a_french_table_says_nothing_on_the_list_of_slips(
    readings: dict[str, Reading], game: str
) -> None:
    slips = dict(SLIPS)
    if game in NO_BANK:
        slips["a bank where nobody holds one"] = re.compile(r"\bbanque\b", re.I)
    found = set()
    for (where, lang), texts in readings[game].texts.items():
        for text in texts:
            for name, slip in slips.items():
                if name.startswith("an English") != (lang == "en"):
                    continue
                for hit in slip.finditer(text):
                    line = next(x for x in text.split("\n") if hit.group(0) in x)
                    found.add((where, name, line[:160]))
    assert not found, sorted(found)[:10]


def test_holdem_names_its_board_with_one_word() -> None:
    """The table's board line and the hand's picture say the same word for the board."""
    for lang in ("en", "fr"):
        board = t("table.shown_board", lang)  # type: ignore[arg-type]
        assert t("holdem.board", lang, cards="").startswith(board), lang  # type: ignore[arg-type]


def test_a_holdem_seat_line_gives_one_chip_figure(readings: dict[str, Reading]) -> None:
    """His chips once on his seat line (his bet besides), not his chips and what is behind."""
    amount = re.compile(r"(?<!bet )\$[\d,.]+")
    seat_lines = [
        line
        for text in readings["holdem"].texts[("table", "en")]
        for line in text.split("\n")
        if line.startswith("**") and "(<@" in line
    ]
    assert seat_lines
    assert all(len(amount.findall(line)) <= 1 for line in seat_lines), next(
        line for line in seat_lines if len(amount.findall(line)) > 1
    )
