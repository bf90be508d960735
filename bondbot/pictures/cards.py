"""Playing cards drawn with Pillow: a hand of cards (or backs) as one small PNG.

A result picture labels its rows in DejaVu Sans (`fonts`). The suits are drawn as shapes,
not as font glyphs: the font Pillow ships (`load_default`)
has no ♠♥♦♣, and the bot must not depend on fonts installed on its host. Each card is
drawn once, four times larger and scaled down (smooth edges), then mapped onto one small
palette shared by every card, so a hand is pasted together in palette mode and its PNG
stays a few kilobytes. A hand's result stacks several hands, one row each, on the same
felt. Pictures are cached by their cards: the same hand shown again is the same bytes,
made once.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFont

from bondbot.pictures.fonts import Font, fitted, font
from bondbot.rules.cards import Card

CARD_W, CARD_H = 72, 102  # one card, in pixels
GAP = 8  # between two cards
MARGIN = 10  # felt around the hand
RGB = tuple[int, int, int]
FELT: RGB = (14, 90, 44)
PAPER: RGB = (255, 255, 255)
EDGE: RGB = (150, 150, 150)
RED: RGB = (200, 16, 32)
BLACK: RGB = (20, 20, 20)
BACK: RGB = (24, 50, 120)
BACK_LINE: RGB = (110, 140, 210)
RED_SUITS = "hd"
HAND_CACHE = 1024  # hands kept as PNG bytes (a few KB each)
STRIP_CACHE = 2048  # labels and headings kept drawn (a few KB each)
PNG_LEVEL = 3  # zlib's effort: half the encoding time of its default 6, files 1.2x
_DRAWN: set[str] = set()  # the codes `_card_paletted` has drawn (and keeps)
# A card is drawn on a 58 × 82 grid, _SCALE times larger, then scaled down to CARD_W × CARD_H:
# smooth edges without font glyphs.
_GRID_W, _GRID_H = 58, 82
_SCALE = 5
_STEPS = 4  # blends between two colours of the palette (smooth edges)

Shown = Card | None  # None: a card face down


def hand_size(count: int) -> tuple[int, int]:
    """Width and height in pixels of the picture of `count` cards."""
    if count < 1:
        raise ValueError("a hand has at least one card")
    return 2 * MARGIN + count * CARD_W + (count - 1) * GAP, 2 * MARGIN + CARD_H


def card_origin(position: int) -> tuple[int, int]:
    """Top-left corner of the card at `position` (from 0) in a hand's picture."""
    return MARGIN + position * (CARD_W + GAP), MARGIN


def rows_size(counts: Sequence[int]) -> tuple[int, int]:
    """Width and height in pixels of the picture of hands of `counts` cards, one a row."""
    if not counts or min(counts) < 1:
        raise ValueError("every row has at least one card")
    width = max(hand_size(count)[0] for count in counts)
    return width, 2 * MARGIN + len(counts) * CARD_H + (len(counts) - 1) * GAP


def row_origin(row: int, position: int) -> tuple[int, int]:
    """Top-left corner of the card at `position` of `row` (both from 0) in a rows picture."""
    x, y = card_origin(position)
    return x, y + row * (CARD_H + GAP)


# A result picture says what each row is: a heading on top ("Coup 12") and a label above
# each row ("Le Chiffre · Banker (7)"), white on the felt, cut short with an ellipsis.
HEADING_H, LABEL_H = 30, 24  # the strips' heights
HEADING_SIZE, LABEL_SIZE = 19, 15  # their type sizes
LABELLED_MIN_W = 400  # the least width of a labelled picture: room for a long name's start


@dataclass(frozen=True)
class Layout:
    """Where a labelled result picture puts its heading, each row's label and cards."""

    counts: tuple[int, ...]  # cards in each row
    heading: bool

    @property
    def size(self) -> tuple[int, int]:
        width = max(rows_size(self.counts)[0], LABELLED_MIN_W)
        rows = len(self.counts)
        height = 2 * MARGIN + self._top + rows * (LABEL_H + CARD_H) + (rows - 1) * GAP
        return width, height

    @property
    def _top(self) -> int:
        return HEADING_H if self.heading else 0

    def heading_box(self) -> tuple[int, int, int, int]:
        return MARGIN, MARGIN, self.size[0] - MARGIN, MARGIN + HEADING_H

    def label_box(self, row: int) -> tuple[int, int, int, int]:
        """The strip above `row` (left, top, right, bottom) that names it."""
        top = MARGIN + self._top + row * (LABEL_H + CARD_H + GAP)
        return MARGIN, top, self.size[0] - MARGIN, top + LABEL_H

    def card_origin(self, row: int, position: int) -> tuple[int, int]:
        return MARGIN + position * (CARD_W + GAP), self.label_box(row)[3]


def hand_png(cards: Iterable[Shown]) -> bytes:
    """The PNG of these cards side by side on felt, left to right (None: face down)."""
    return rows_png([cards])


def rows_png(rows: Iterable[Iterable[Shown]]) -> bytes:
    """The PNG of several hands on one felt, one row each, top to bottom (a hand's result:
    the banker's cards above the player's)."""
    return _rows_png(tuple(tuple(_code(card) for card in row) for row in rows))


# A row's label: who holds it (a name, cut short when long) and what the row is (its
# role and total, kept whole): ("Le Chiffre", "Banker (7)"). Either may be "".
Label = tuple[str, str]
SEPARATOR = " · "


def result_png(
    rows: Iterable[Iterable[Shown]], labels: Sequence[Label], heading: str | None = None
) -> bytes:
    """A hand's result: each row of cards under its label, the whole under `heading`."""
    codes = tuple(tuple(_code(card) for card in row) for row in rows)
    if len(labels) != len(codes):
        raise ValueError("one label a row")
    return _result_png(codes, tuple(labels), heading)


@lru_cache(maxsize=HAND_CACHE)
def _result_png(
    rows: tuple[tuple[str, ...], ...], labels: tuple[Label, ...], heading: str | None
) -> bytes:
    layout = Layout(tuple(len(row) for row in rows), heading is not None)
    picture = _felt(layout.size)
    if heading is not None:
        _write(picture, layout.heading_box(), heading, HEADING_SIZE)
    for row, (codes, label) in enumerate(zip(rows, labels, strict=True)):
        _write(picture, layout.label_box(row), label, LABEL_SIZE)
        for position, code in enumerate(codes):
            picture.paste(_card_paletted(code), layout.card_origin(row, position))
    return _png(picture)


def text_strip(label: Label | str, width: int, height: int, size: int) -> Image.Image:
    """A label (or a heading) in white on the felt, within `width` pixels, centred in
    `height` (RGB); a name too long is cut short, what the row is stays whole."""
    face = font(size)
    shown = label_text(label, face, width)
    strip = Image.new("RGB", (width, height), FELT)
    ImageDraw.Draw(strip).text((0, height // 2), shown, font=face, fill=PAPER, anchor="lm")
    return strip


def label_text(label: Label | str, face: Font, width: float) -> str:
    """The words of a label within `width` pixels: "Le Chiffre · Banker (7)", the name
    cut short with an ellipsis when the whole would not fit."""
    who, what = (label, "") if isinstance(label, str) else label
    if who and what:
        return fitted(who, face, width - face.getlength(SEPARATOR + what)) + SEPARATOR + what
    return fitted(who or what, face, width)


def _write(
    picture: Image.Image, box: tuple[int, int, int, int], text: Label | str, size: int
) -> None:
    left, top, right, bottom = box
    picture.paste(_strip(text, right - left, bottom - top, size), (left, top))


@lru_cache(maxsize=STRIP_CACHE)
def _strip(text: Label | str, width: int, height: int, size: int) -> Image.Image:
    """A label drawn once in the picture's palette: a table's names, parts and headings
    come back hand after hand (rendering text was a third of a result's time)."""
    strip = text_strip(text, width, height, size)
    return strip.quantize(palette=_palette(), dither=Image.Dither.NONE)


def _felt(size: tuple[int, int]) -> Image.Image:
    picture = Image.new("P", size, 0)  # the palette's first colour: felt
    picture.putpalette(_palette().getpalette() or [])
    return picture


def _png(picture: Image.Image) -> bytes:
    out = io.BytesIO()
    picture.save(out, format="PNG", compress_level=PNG_LEVEL)
    return out.getvalue()


@lru_cache(maxsize=HAND_CACHE)
def _rows_png(rows: tuple[tuple[str, ...], ...]) -> bytes:
    picture = _felt(rows_size([len(row) for row in rows]))
    for row, codes in enumerate(rows):
        for position, code in enumerate(codes):
            picture.paste(_card_paletted(code), row_origin(row, position))
    return _png(picture)


def drawn(rows: Iterable[Iterable[Shown]]) -> bool:
    """Whether every card of these rows was drawn before: a picture of them is then only
    pasted and encoded (about a millisecond), where a card's first drawing takes a few."""
    return all(_code(card) in _DRAWN for row in rows for card in row)


def card_image(card: Shown) -> Image.Image:
    """One card as the hand shows it (RGB, CARD_W × CARD_H, on felt at the corners)."""
    return _card_paletted(_code(card)).convert("RGB")


def _code(card: Shown) -> str:
    return "??" if card is None else card.code  # "??": the back, a card face down


@cache
def _card_paletted(code: str) -> Image.Image:
    card = _card_rgb(code).quantize(palette=_palette(), dither=Image.Dither.NONE)
    _DRAWN.add(code)
    return card


@cache
def _palette() -> Image.Image:
    """One palette for every card: its colours and the blends a smooth edge makes of them."""
    blends = [
        (PAPER, BLACK), (PAPER, RED), (PAPER, EDGE), (FELT, EDGE), (FELT, PAPER),
        (FELT, BACK), (BACK, BACK_LINE), (BACK, PAPER),
    ]  # fmt: skip
    colours = [FELT, PAPER, EDGE, RED, BLACK, BACK, BACK_LINE]
    for a, b in blends:
        colours += [_mix(a, b, step / _STEPS) for step in range(1, _STEPS)]
    palette = Image.new("P", (1, 1))
    palette.putpalette([channel for colour in colours for channel in colour])
    return palette


def _mix(a: RGB, b: RGB, share: float) -> RGB:
    return tuple(round(x + (y - x) * share) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


@cache
def _card_rgb(code: str) -> Image.Image:
    """A card drawn large on felt, then scaled down to CARD_W × CARD_H."""
    w, h = _GRID_W * _SCALE, _GRID_H * _SCALE
    big = Image.new("RGB", (w, h), FELT)
    draw = ImageDraw.Draw(big)
    radius = 6 * _SCALE
    if code == "??":
        draw.rounded_rectangle((0, 0, w - 1, h - 1), radius, fill=BACK, outline=PAPER, width=8)
        _lattice(draw, w, h)
    else:
        card = Card.parse(code)
        ink = RED if card.suit in RED_SUITS else BLACK
        draw.rounded_rectangle((0, 0, w - 1, h - 1), radius, fill=PAPER, outline=EDGE, width=4)
        corner = _corner(card, ink)
        big.paste(corner, (3 * _SCALE, 3 * _SCALE))
        big.paste(
            corner.rotate(180), (w - corner.width - 3 * _SCALE, h - corner.height - 3 * _SCALE)
        )
        pip = 26 * _SCALE
        _suit(draw, card.suit, ((w - pip) // 2, (h - pip) // 2), pip, ink)
    return big.resize((CARD_W, CARD_H), Image.Resampling.LANCZOS)


def _corner(card: Card, ink: RGB) -> Image.Image:
    """The rank and a small suit, as in a card's corner."""
    rank = "10" if card.rank == "T" else card.rank
    size = (16 if len(rank) == 1 else 13) * _SCALE  # "10" as wide as a letter
    corner = Image.new("RGB", (14 * _SCALE, 28 * _SCALE), PAPER)
    draw = ImageDraw.Draw(corner)
    font = _font(size)
    left, top, right, bottom = draw.textbbox((0, 0), rank, font=font)
    draw.text(((corner.width - (right - left)) // 2 - left, -top), rank, font=font, fill=ink)
    pip = 10 * _SCALE
    _suit(draw, card.suit, ((corner.width - pip) // 2, bottom - top + 2 * _SCALE), pip, ink)
    return corner


@cache
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size)


def _lattice(draw: ImageDraw.ImageDraw, w: int, h: int) -> None:
    """The back's pattern: a diagonal lattice inside a border."""
    inset = 5 * _SCALE
    step = 6 * _SCALE
    for start in range(-h, w, step):
        draw.line((start, inset, start + h, inset + h), fill=BACK_LINE, width=_SCALE)
        draw.line((start + h, inset, start, inset + h), fill=BACK_LINE, width=_SCALE)
    draw.rectangle((0, 0, w - 1, inset), fill=BACK)
    draw.rectangle((0, h - inset, w - 1, h - 1), fill=BACK)
    draw.rectangle((0, 0, inset, h - 1), fill=BACK)
    draw.rectangle((w - inset, 0, w - 1, h - 1), fill=BACK)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), 6 * _SCALE, outline=PAPER, width=2 * _SCALE)
    draw.rectangle((inset, inset, w - inset, h - inset), outline=BACK_LINE, width=_SCALE)


def _suit(
    draw: ImageDraw.ImageDraw,
    suit: str,
    origin: tuple[int, int],
    size: int,
    ink: RGB,
) -> None:
    """A suit symbol filling the square `size` at `origin`, drawn from circles and polygons."""
    x0, y0 = origin

    def at(x: float, y: float) -> tuple[float, float]:
        return x0 + x * size, y0 + y * size

    def circle(x: float, y: float, r: float) -> None:
        (cx, cy), radius = at(x, y), r * size
        draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=ink)

    def polygon(*points: tuple[float, float]) -> None:
        draw.polygon([at(x, y) for x, y in points], fill=ink)

    if suit == "d":
        polygon((0.5, 0.0), (0.88, 0.5), (0.5, 1.0), (0.12, 0.5))
    elif suit == "h":
        circle(0.28, 0.3, 0.25)
        circle(0.72, 0.3, 0.25)
        polygon((0.04, 0.38), (0.96, 0.38), (0.5, 0.98))
    elif suit == "s":
        circle(0.28, 0.58, 0.23)
        circle(0.72, 0.58, 0.23)
        polygon((0.06, 0.5), (0.94, 0.5), (0.5, 0.02))
        polygon((0.5, 0.6), (0.3, 1.0), (0.7, 1.0))
    else:
        circle(0.5, 0.25, 0.22)
        circle(0.26, 0.58, 0.22)
        circle(0.74, 0.58, 0.22)
        circle(0.5, 0.5, 0.14)
        polygon((0.5, 0.5), (0.32, 1.0), (0.68, 1.0))
