"""A hand's result picture says what each row is (issue 21 §4): the heading the table uses
for its hands, and above each row whose hand it is, the part it plays and its total; the
attachment's description lists the same rows in words. The label strips of one picture per
game are compared, pixel for pixel, with a reference rendered once and kept beside this
file (`BONDBOT_NEW_LABELS=1` writes them again after a deliberate change)."""

from __future__ import annotations

import io
import os
from pathlib import Path
from types import SimpleNamespace

import pytest
from PIL import Image, ImageChops

from bondbot.bot.tables.results import ALT_MAX, result_picture
from bondbot.games.contract import ShownHand
from bondbot.i18n import Lang
from bondbot.pictures import fonts
from bondbot.pictures.cards import LABEL_SIZE, Layout, label_text, result_png
from bondbot.rules.cards import cards_of

REFERENCES = Path(__file__).parent / "labels"
NPC, BOND, MATHIS = 7, 11, 12
LONG = "Ŵ" * 64  # a 64-character name, of wide letters


def snapshot(game: str, hand: int, seated: dict[int, str]) -> SimpleNamespace:
    """What a result reads of a table: its game, hand, seats' names and its NPC."""
    seats = [SimpleNamespace(character_id=cid, name=name) for cid, name in seated.items()]
    state = SimpleNamespace(
        config=SimpleNamespace(game=game), hand_no=hand, seats=seats, sat=dict(seated),
        npc_id=NPC, npc_name="Le Chiffre", other_npcs=[],
    )  # fmt: skip
    return SimpleNamespace(state=state)


def row(whose: object, codes: str, total: int | None = None, role: str | None = None) -> ShownHand:
    return ShownHand(str(whose), cards_of(codes.split()), total, role)


# One finished hand per game, its rows as the game's engine gives them (tests/games/*_shown),
# and the labels and heading it must carry.
CASES = {
    "punto_banco": (
        12,
        [row("player", "9h Kd", 9), row("banker", "3c 4s", 7)],
        "Coup 12",
        [("", "Player (9)"), ("", "Banker (7)")],
    ),
    "chemin_de_fer": (
        4,
        [row(BOND, "5h Kh 4c", 9, "player"), row(NPC, "3d 3c Kc", 6, "banker")],
        "Coup 4",
        [("James Bond", "Player (9)"), ("Le Chiffre", "Banker (6)")],
    ),
    "deux_tableaux": (
        2,
        [
            row(NPC, "6d 6c", 2, "banker"),
            row(BOND, "5h 5d 4h", 4, "right"),
            row(MATHIS, "5c 2s", 7, "left"),
        ],
        "Coup 2",
        [
            ("Le Chiffre", "Banker (2)"),
            ("James Bond", "Right tableau (4)"),
            ("René Mathis", "Left tableau (7)"),
        ],
    ),
    "blackjack": (
        3,
        [row(NPC, "9d 7c Ks", 26, "dealer"), row(BOND, "5c 6d 9s", 20)],
        "Round 3",
        [("Le Chiffre", "Dealer (26)"), ("James Bond", "20")],
    ),
    "holdem": (
        5,
        [row("board", "Ah Kd 7c 2s 2d"), row(BOND, "As Ac"), row(NPC, "Kh Ks")],
        "Hand 5",
        [("", "Board"), ("James Bond", ""), ("Le Chiffre", "")],
    ),
    "macao": (
        6,
        [row(NPC, "Kd 6c", 6, "banker"), row(MATHIS, "2s 3h 8c", 3)],
        "Coup 6",
        [("Le Chiffre", "Banker (6)"), ("René Mathis", "3")],
    ),
    "michigan": (
        7,
        [row(NPC, "7c 8c Qc", role="went_out"), row("widow", "2h 3h 4h")],
        "Round 7",
        [("Le Chiffre", "Went out"), ("", "Widow")],
    ),
}
SEATED = {BOND: "James Bond", MATHIS: "René Mathis"}


@pytest.mark.parametrize("game", list(CASES))
def test_every_row_is_named_under_the_tables_heading(game: str) -> None:
    hand, rows, heading, labels = CASES[game]
    picture = result_picture(snapshot(game, hand, SEATED), rows, "en")  # type: ignore[arg-type]
    assert picture.heading == heading
    assert list(picture.labels) == labels
    # The alt text: the heading, then each row with its name, part, total and cards.
    assert picture.alt.startswith(f"{heading}. ")
    for (who, what), shown in zip(labels, rows, strict=True):
        words = " · ".join(part for part in (who, what) if part)
        cards = " ".join(card.pretty for card in shown.cards)
        assert f"{words}: {cards}" in picture.alt
    assert "?" not in picture.alt


def test_french_headings_and_parts() -> None:
    _, rows, _, _ = CASES["deux_tableaux"]
    picture = result_picture(snapshot("deux_tableaux", 2, SEATED), rows, "fr")  # type: ignore[arg-type]
    assert picture.heading == "Coup 2"
    assert picture.labels[1] == ("James Bond", "Tableau de droite (4)")
    assert "James Bond · Tableau de droite (4) : " in picture.alt
    blackjack = result_picture(snapshot("blackjack", 3, SEATED), CASES["blackjack"][1], "fr")  # type: ignore[arg-type]
    assert blackjack.heading == "Donne 3" and blackjack.labels[0] == ("Le Chiffre", "Croupier (26)")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_ten_long_names_fit_the_alt_text_and_the_labels(lang: Lang) -> None:
    seated = {100 + i: f"{i:02d}{LONG[2:]}" for i in range(10)}
    rows = [row(NPC, "9d 7c", 16, "dealer"), *(row(cid, "5c 6d 9s Ah", 21) for cid in seated)]
    picture = result_picture(snapshot("blackjack", 1, seated), rows, lang)  # type: ignore[arg-type]
    assert len(picture.alt) <= ALT_MAX
    layout = Layout(tuple(len(r.cards) for r in rows), heading=True)
    left, _, right, _ = layout.label_box(1)
    face = fonts.font(LABEL_SIZE)
    text = label_text(picture.labels[1], face, right - left)
    assert text.startswith("00Ŵ") and text.endswith("… · 21")  # the name cut, the total whole
    assert face.getlength(text) <= right - left


@pytest.mark.parametrize("game", list(CASES))
def test_the_label_strips_match_their_reference(game: str) -> None:
    if fonts.font(LABEL_SIZE).getname()[0] != "DejaVu Sans":
        pytest.skip("the references are drawn in DejaVu Sans (Debian: fonts-dejavu-core)")
    _, rows, heading, labels = CASES[game]
    png = result_png([r.cards for r in rows], labels, heading)
    layout = Layout(tuple(len(r.cards) for r in rows), heading=True)
    with Image.open(io.BytesIO(png)) as opened:
        picture = opened.convert("RGB")
    boxes = [layout.heading_box(), *(layout.label_box(i) for i in range(len(rows)))]
    strips = [picture.crop(box) for box in boxes]
    seen = Image.new("RGB", (strips[0].width, sum(s.height for s in strips)))
    top = 0
    for strip in strips:
        seen.paste(strip, (0, top))
        top += strip.height
    reference = REFERENCES / f"{game}.png"
    if os.environ.get("BONDBOT_NEW_LABELS"):
        seen.save(reference)
    with Image.open(reference) as kept:
        assert ImageChops.difference(seen, kept.convert("RGB")).getbbox() is None
