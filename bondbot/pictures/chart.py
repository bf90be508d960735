"""The evening's chart: each PC's chips hand after hand, one line each, as a PNG.

Drawn with Pillow (already there for the cards; a plotting library would bring far more
than one line chart needs). Drawn twice as large and scaled down, so lines are smooth,
then mapped onto a small palette: a few tens of kilobytes at most. The words (title,
amounts) come from the caller, in the reader's language and the server's currency.

Words are written in DejaVu Sans (Debian's `fonts-dejavu-core`, in the Docker image):
the font Pillow ships has no accents (`é`), `€` or `£`. Without DejaVu the chart still
comes, with Pillow's font, and such letters show as boxes.
"""

from __future__ import annotations

import io
import logging
import math
from collections.abc import Callable, Mapping, Sequence

from PIL import Image, ImageDraw, ImageFont

from bondbot.money import format_amount
from bondbot.pictures.fonts import font

log = logging.getLogger(__name__)
Point = tuple[int, Mapping[str, int]]  # (hand number, {name: chips after that hand})
RGB = tuple[int, int, int]

WIDTH, HEIGHT = 640, 360
PLOT_TOP = 44  # the plot's top edge; its bottom leaves room for hands and two legend rows
PLOT_BOTTOM = HEIGHT - 80
MAX_SERIES = 10  # a table seats at most ten: more lines would repeat colours
NAME_MAX = 20
# Tableau 10: told apart by most people, colour-blind ones included.
SERIES_COLOURS: tuple[RGB, ...] = (
    (31, 119, 180),
    (255, 127, 14),
    (44, 160, 44),
    (214, 39, 40),
    (148, 103, 189),
    (140, 86, 75),
    (227, 119, 194),
    (127, 127, 127),
    (188, 189, 34),
    (23, 190, 207),
)
BACKGROUND: RGB = (255, 255, 255)
GRID: RGB = (225, 225, 225)
AXIS: RGB = (90, 90, 90)
TEXT: RGB = (30, 30, 30)
_SCALE = 2
_COLOURS = 64


def chips_chart(
    points: Sequence[Point],
    *,
    title: str,
    amount: Callable[[int], str] = format_amount,
) -> bytes:
    """A PNG of each name's chips (cents) over the hands of `points`, in hand order.

    A name missing from a point (he had not sat down yet, or had left) breaks his line
    there. `amount` writes the axis's amounts (default: dollars).
    """
    if not points:
        raise ValueError("a chart needs at least one hand")
    points = sorted(points, key=lambda point: point[0])
    names = list(dict.fromkeys(name for _, chips in points for name in chips))[:MAX_SERIES]
    values = [chips[name] for _, chips in points for name in names if name in chips] or [0]
    low, high, step = _ticks(min(values), max(values))
    first, last = points[0][0], points[-1][0]
    s = _SCALE
    picture = Image.new("RGB", (WIDTH * s, HEIGHT * s), BACKGROUND)
    draw = ImageDraw.Draw(picture)
    small, big = font(11 * s), font(16 * s)
    labels = [(value, amount(value)) for value in range(low, high + 1, step)]
    left = max(draw.textlength(text, font=small) for _, text in labels) + 12 * s
    box = (left, PLOT_TOP * s, (WIDTH - 16) * s, PLOT_BOTTOM * s)

    def x_of(hand: int) -> float:
        if last == first:  # one hand: in the middle
            return (box[0] + box[2]) / 2
        return box[0] + (box[2] - box[0]) * (hand - first) / (last - first)

    def y_of(value: int) -> float:
        return box[3] - (box[3] - box[1]) * (value - low) / (high - low)

    draw.text((box[0], 10 * s), title, font=big, fill=TEXT)
    for value, text in labels:
        y = y_of(value)
        draw.line((box[0], y, box[2], y), fill=AXIS if value == 0 else GRID, width=s)
        draw.text((box[0] - 6 * s, y), text, font=small, fill=TEXT, anchor="rm")
    for hand in _hand_ticks(first, last):
        draw.text((x_of(hand), box[3] + 6 * s), str(hand), font=small, fill=TEXT, anchor="mt")
    draw.line((box[0], box[1], box[0], box[3], box[2], box[3]), fill=AXIS, width=s)
    for colour, name in zip(SERIES_COLOURS, names, strict=False):
        run: list[tuple[float, float]] = []
        for hand, chips in [*points, (None, {})]:
            if name in chips and hand is not None:
                run.append((x_of(hand), y_of(chips[name])))
                continue
            if len(run) > 1:
                draw.line(run, fill=colour, width=3 * s, joint="curve")
            for x, y in run if len(run) == 1 else ():
                draw.ellipse((x - 3 * s, y - 3 * s, x + 3 * s, y + 3 * s), fill=colour)
            run = []
    _legend(draw, names, small, box[0], (PLOT_BOTTOM + 26) * s)
    out = io.BytesIO()
    small_picture = picture.resize((WIDTH, HEIGHT), Image.Resampling.LANCZOS)
    small_picture.quantize(_COLOURS, dither=Image.Dither.NONE).save(out, format="PNG")
    return out.getvalue()


def _legend(
    draw: ImageDraw.ImageDraw,
    names: list[str],
    font: ImageFont.FreeTypeFont | ImageFont.ImageFont,
    left: float,
    top: int,
) -> None:
    """A swatch and a name for each line, five a row."""
    s = _SCALE
    column = ((WIDTH - 16) * s - left) / 5
    for i, (colour, name) in enumerate(zip(SERIES_COLOURS, names, strict=False)):
        x, y = left + column * (i % 5), top + 22 * s * (i // 5)
        draw.rectangle((x, y - 5 * s, x + 14 * s, y + 5 * s), fill=colour)
        shown = name if len(name) <= NAME_MAX else name[: NAME_MAX - 1] + "…"
        while draw.textlength(shown, font=font) > column - 22 * s and len(shown) > 2:
            shown = shown[:-2] + "…"
        draw.text((x + 20 * s, y), shown, font=font, fill=TEXT, anchor="lm")


def _ticks(low: int, high: int) -> tuple[int, int, int]:
    """An axis from `low` to `high` (cents) in about four round steps (1, 2 or 5 × 10ⁿ),
    always showing zero's side: its ends and the step."""
    low, high = min(low, 0), max(high, 0)
    if low == high:
        high = low + 100
    raw = (high - low) / 4
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    step = max(int(step), 1)
    return math.floor(low / step) * step, math.ceil(high / step) * step, step


def _hand_ticks(first: int, last: int) -> list[int]:
    """Up to about ten hand numbers along the bottom, at a round step."""
    span = last - first
    if span <= 0:
        return [first]
    step = next(m for m in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000) if span / m <= 10)
    start = math.ceil(first / step) * step
    return sorted({first, *range(start, last + 1, step), last})
