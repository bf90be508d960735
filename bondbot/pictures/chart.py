"""The evening's chart: each PC's chips hand after hand, one line each, as a PNG.

Each line has its colour, marker and dash (`line_styles`), so two PCs whose results
coincide both stay visible: lines equal all along sit a few pixels apart, and where lines
meet at a hand (the NPC's among them), each but the first moves to the nearest free place
a few pixels away (`spread`); the NPC has a line of its own (`npc_style`); a Hero Point
that won a hand back is marked on its line (`ChartSpec.marks`).

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
from dataclasses import dataclass
from itertools import pairwise

from PIL import Image, ImageDraw, ImageFont

from bondbot.money import format_amount
from bondbot.pictures.fonts import fitted, font

log = logging.getLogger(__name__)
Point = tuple[int, Mapping[str, int]]  # (hand number, {name: chips after that hand})
RGB = tuple[int, int, int]

WIDTH, HEIGHT = 640, 360  # a chart whose legend needs more rows is taller
PLOT_TOP = 44  # the plot's top edge; its bottom leaves room for hands and three legend rows
PLOT_BOTTOM = HEIGHT - 80
LEGEND_ROW = 18  # legend rows below the plot: ten PCs, the NPC and the Hero Point mark
LEGEND_ROWS = 3  # rows the picture has room for at HEIGHT
LEGEND_TOP = PLOT_BOTTOM + 26  # the first row's middle
LEGEND_SAMPLE = 28  # a line's sample, before its name
LEGEND_GAP = 14  # between one entry's name and the next sample
LEGEND_RIGHT = WIDTH - 16
LEGEND_FONT = 11
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
NPC_COLOUR: RGB = (70, 70, 70)
MARK_COLOUR: RGB = (230, 170, 0)  # a Hero Point: gold
MARKERS = ("circle", "square", "triangle", "diamond", "cross")
DASHES: tuple[tuple[int, int] | None, ...] = (None, (10, 5))  # solid, dashed (on, off)
OFFSET_STEP = 5  # pixels between lines that coincide (a 3-pixel line, then a 2-pixel gap)
MARKERS_MAX = 40  # more points than this: a marker every few points
_SCALE = 2
_COLOURS = 64


@dataclass(frozen=True)
class LineStyle:
    """How one line is drawn: its colour, marker, dash (on, off pixels; None: solid), and
    how many pixels it sits below (positive) or above where its values put it."""

    colour: RGB
    marker: str = ""
    dash: tuple[int, int] | None = None
    offset: int = 0
    width: int = 3


@dataclass(frozen=True)
class ChartSpec:
    """Everything the chart shows: the points, each name's style, and (name, hand) where
    a Hero Point won that hand back."""

    points: Sequence[Point]
    styles: Mapping[str, LineStyle]
    marks: Sequence[tuple[str, int]] = ()


def line_styles(
    names: Sequence[str], series: Mapping[str, Sequence[int | None]] | None = None
) -> dict[str, LineStyle]:
    """A style each, in order: a colour, and markers and dashes that cycle so no two of
    ten share both; names whose `series` are equal all along are spread a few pixels
    apart, so none hides another."""
    styles = {}
    together: dict[tuple[int | None, ...], int] = {}
    for i, name in enumerate(names[:MAX_SERIES]):
        values = tuple(series.get(name, ())) if series else (i,)
        rank = together.get(values, 0)
        together[values] = rank + 1
        offset = OFFSET_STEP * ((rank + 1) // 2) * (1 if rank % 2 else -1) if rank else 0
        styles[name] = LineStyle(
            SERIES_COLOURS[i], MARKERS[i % len(MARKERS)], DASHES[i % len(DASHES)], offset
        )
    return styles


def spread(
    drawn: Sequence[tuple[str, float]], step: float = OFFSET_STEP * _SCALE
) -> dict[str, float]:
    """Where each line passes at one hand (name, y in pixels, in drawing order): a line
    that would pass where an earlier one does (closer than `step`) moves to the nearest
    free place, `step` above or below, then two steps, and so on."""
    placed: dict[str, float] = {}
    for name, y in drawn:
        for k in range(len(drawn) + 1):
            tries = (y,) if k == 0 else (y - k * step, y + k * step)
            free = [
                c for c in tries if all(abs(c - other) >= step - 0.5 for other in placed.values())
            ]
            if free:
                placed[name] = free[0]
                break
    return placed


def npc_style() -> LineStyle:
    """The NPC's line: dark grey, short dashes, thinner, no marker."""
    return LineStyle(NPC_COLOUR, "", (4, 4), 0, 2)


def evening_chart(
    spec: ChartSpec,
    *,
    title: str,
    amount: Callable[[int], str] = format_amount,
    mark_label: str = "Hero Point",
) -> bytes:
    """The PNG of `spec` (see `chips_chart`); `mark_label` names the Hero Point mark."""
    return chips_chart(
        spec.points,
        title=title,
        amount=amount,
        styles=spec.styles,
        marks=spec.marks,
        mark_label=mark_label,
    )


def chips_chart(
    points: Sequence[Point],
    *,
    title: str,
    amount: Callable[[int], str] = format_amount,
    styles: Mapping[str, LineStyle] | None = None,
    marks: Sequence[tuple[str, int]] = (),
    mark_label: str = "Hero Point",
) -> bytes:
    """A PNG of each name's chips (cents) over the hands of `points`, in hand order.

    A name missing from a point (he had not sat down yet, or had left) breaks his line
    there. `amount` writes the axis's amounts (default: dollars); `styles` (default:
    `line_styles` in order of appearance) says how each line is drawn; `marks` are
    (name, hand) to mark on the lines.
    """
    if not points:
        raise ValueError("a chart needs at least one hand")
    points = sorted(points, key=lambda point: point[0])
    if styles is None:
        styles = line_styles(list(dict.fromkeys(name for _, chips in points for name in chips)))
    names = list(styles)
    values = [chips[name] for _, chips in points for name in names if name in chips] or [0]
    low, high, step = _ticks(min(values), max(values))
    first, last = points[0][0], points[-1][0]
    s = _SCALE
    small, big = font(LEGEND_FONT * s), font(16 * s)
    labels = [(value, amount(value)) for value in range(low, high + 1, step)]
    left = max(small.getlength(text) for _, text in labels) + 12 * s
    drawn = {(name, hand) for hand, chips in points for name in chips if name in styles}
    entries = [(name, styles[name]) for name in names]
    if any(mark in drawn for mark in marks):
        entries.append((mark_label, LineStyle(MARK_COLOUR, "diamond", None, 0, 0)))
    legend = legend_layout([name for name, _ in entries], left / s)
    rows = 1 + max((row for _, row, _ in legend), default=0)
    height = HEIGHT + LEGEND_ROW * max(0, rows - LEGEND_ROWS)
    picture = Image.new("RGB", (WIDTH * s, height * s), BACKGROUND)
    draw = ImageDraw.Draw(picture)
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
    every = max(1, math.ceil(len(points) / MARKERS_MAX))
    at: dict[tuple[str, int], tuple[float, float]] = {}
    ys = [
        spread(
            [(name, y_of(chips[name]) + styles[name].offset * s) for name in names if name in chips]
        )
        for _, chips in points
    ]
    for name in reversed(names):  # the first names on top
        style = styles[name]
        run: list[tuple[float, float]] = []
        for index, (hand, chips) in enumerate([*points, (None, {})]):
            if name in chips and hand is not None:
                xy = (x_of(hand), ys[index][name])
                run.append(xy)
                at[(name, hand)] = xy
                if style.marker and (index % every == 0 or index == len(points) - 1):
                    _marker(draw, style.marker, xy, style.colour)
                continue
            if len(run) > 1:
                _line(draw, run, style)
            for x, y in run if len(run) == 1 and not style.marker else ():
                draw.ellipse((x - 3 * s, y - 3 * s, x + 3 * s, y + 3 * s), fill=style.colour)
            run = []
    for mark in marks:
        if mark in at:
            _marker(draw, "diamond", at[mark], MARK_COLOUR, size=7, outline=TEXT)
    _legend(draw, entries, legend, small)
    out = io.BytesIO()
    small_picture = picture.resize((WIDTH, height), Image.Resampling.LANCZOS)
    small_picture.quantize(_COLOURS, dither=Image.Dither.NONE).save(out, format="PNG")
    return out.getvalue()


def legend_layout(
    names: Sequence[str], left: float, right: float = LEGEND_RIGHT
) -> list[tuple[float, int, str]]:
    """Where each legend entry goes, in the picture's pixels: (x of its sample, row, the
    name as written). Entries follow one another, each as wide as its name needs, and
    wrap to a new row at `right`; a PC's name is cut to NAME_MAX characters, and only a
    name wider than a whole row is cut further."""
    face = font(LEGEND_FONT * _SCALE)
    room = right - left - LEGEND_SAMPLE
    placed: list[tuple[float, int, str]] = []
    x, row = left, 0
    for name in names:
        shown = name if len(name) <= NAME_MAX else name[: NAME_MAX - 1] + "…"
        shown = fitted(shown, face, room * _SCALE)
        width = LEGEND_SAMPLE + face.getlength(shown) / _SCALE
        if x > left and x + width > right:
            x, row = left, row + 1
        placed.append((x, row, shown))
        x += width + LEGEND_GAP
    return placed


def _legend(
    draw: ImageDraw.ImageDraw,
    entries: list[tuple[str, LineStyle]],
    layout: list[tuple[float, int, str]],
    font: ImageFont.FreeTypeFont | ImageFont.ImageFont,
) -> None:
    """A sample of each line (its dash and marker) and its name, where `legend_layout`
    put them."""
    s = _SCALE
    for (_, style), (left, row, shown) in zip(entries, layout, strict=True):
        x, y = left * s, (LEGEND_TOP + LEGEND_ROW * row) * s
        if style.width:
            _line(draw, [(x, y), (x + 22 * s, y)], style)
        if style.marker:
            _marker(draw, style.marker, (x + 11 * s, y), style.colour, outline=None)
        draw.text((x + LEGEND_SAMPLE * s, y), shown, font=font, fill=TEXT, anchor="lm")


def _line(draw: ImageDraw.ImageDraw, run: list[tuple[float, float]], style: LineStyle) -> None:
    """A polyline, solid or dashed (the dash runs on across its corners)."""
    s = _SCALE
    width = style.width * s
    if style.dash is None:
        draw.line(run, fill=style.colour, width=width, joint="curve")
        return
    on, off = style.dash[0] * s, style.dash[1] * s
    phase = 0.0  # how far into the current on+off period
    for (x0, y0), (x1, y1) in pairwise(run):
        length = math.hypot(x1 - x0, y1 - y0)
        done = 0.0
        while done < length:
            period_left = (on - phase) if phase < on else (on + off - phase)
            step = min(period_left, length - done)
            if phase < on:
                a, b = done / length, (done + step) / length
                dx, dy = x1 - x0, y1 - y0
                ends = (x0 + dx * a, y0 + dy * a, x0 + dx * b, y0 + dy * b)
                draw.line(ends, fill=style.colour, width=width)
            done += step
            phase = (phase + step) % (on + off)


def _marker(
    draw: ImageDraw.ImageDraw,
    shape: str,
    xy: tuple[float, float],
    colour: RGB,
    *,
    size: int = 4,
    outline: RGB | None = BACKGROUND,
) -> None:
    """A marker centred on `xy`: circle, square, triangle, diamond or cross."""
    s = _SCALE
    r = size * s
    x, y = xy
    if shape == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=outline, width=s)
    elif shape == "square":
        draw.rectangle((x - r, y - r, x + r, y + r), fill=colour, outline=outline, width=s)
    elif shape == "triangle":
        draw.polygon(
            [(x, y - r - s), (x + r + s, y + r), (x - r - s, y + r)],
            fill=colour,
            outline=outline,
        )
    elif shape == "diamond":
        d = r + s
        draw.polygon([(x, y - d), (x + d, y), (x, y + d), (x - d, y)], fill=colour, outline=outline)
    elif shape == "cross":
        draw.line((x - r, y - r, x + r, y + r), fill=colour, width=2 * s)
        draw.line((x - r, y + r, x + r, y - r), fill=colour, width=2 * s)


def _ticks(low: int, high: int) -> tuple[int, int, int]:
    """An axis from `low` to `high` (cents) in about four round steps (1, 2 or 5 × 10ⁿ),
    always showing zero's side (both sides when everything is zero): its ends and the
    step."""
    low, high = min(low, 0), max(high, 0)
    if low == high:  # nobody moved: zero in the middle, lines spread around it
        low, high = -100, 100
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
