"""The evening's chart: a PNG of the announced size whose lines go where the chips went."""

from __future__ import annotations

import io
from itertools import pairwise
from typing import Any

import pytest
from PIL import Image, ImageDraw

from bondbot.pictures import fonts
from bondbot.pictures.chart import (
    HEIGHT,
    PLOT_BOTTOM,
    PLOT_TOP,
    SERIES_COLOURS,
    WIDTH,
    chips_chart,
    line_styles,
    npc_style,
    spread,
)

RGB = tuple[int, int, int]


def _open(data: bytes) -> Image.Image:
    Image.open(io.BytesIO(data)).verify()
    picture = Image.open(io.BytesIO(data))
    assert picture.format == "PNG" and picture.size == (WIDTH, HEIGHT)
    return picture.convert("RGB")


def _ink(picture: Image.Image, colour: RGB, columns: range) -> list[int]:
    """Rows of the plot where `colour` is drawn in these columns."""
    px = picture.load()
    assert px is not None
    return [
        y
        for x in columns
        for y in range(PLOT_TOP - 4, PLOT_BOTTOM + 4)
        if all(abs(a - b) < 24 for a, b in zip(px[x, y], colour, strict=True))  # type: ignore[arg-type]
    ]


def _mean(values: list[int]) -> float:
    assert values, "no line there"
    return sum(values) / len(values)


def test_a_winner_ends_above_a_loser_and_both_start_together() -> None:
    points = [(hand, {"Bond": hand * 5_000, "Mathis": -hand * 5_000}) for hand in range(21)]
    picture = _open(chips_chart(points, title="Chips"))
    bond, mathis = SERIES_COLOURS[0], SERIES_COLOURS[1]
    right = range(WIDTH - 40, WIDTH - 20)
    assert _mean(_ink(picture, bond, right)) < _mean(_ink(picture, mathis, right)) - 150
    start = range(0, WIDTH // 4)
    assert abs(_mean(_ink(picture, bond, start)) - _mean(_ink(picture, mathis, start))) < 60


def test_a_pc_away_for_some_hands_has_no_line_there() -> None:
    points = [
        (hand, {"Bond": 10_000} if 8 <= hand <= 12 else {"Bond": 10_000, "Leiter": 20_000})
        for hand in range(21)
    ]
    picture = _open(chips_chart(points, title="Chips"))
    leiter = SERIES_COLOURS[1]
    assert _ink(picture, leiter, range(WIDTH // 2 - 5, WIDTH // 2 + 5)) == []
    assert _ink(picture, leiter, range(WIDTH - 40, WIDTH - 20)) != []
    assert _ink(picture, SERIES_COLOURS[0], range(WIDTH // 2 - 5, WIDTH // 2 + 5)) != []


def test_one_hand_shows_a_dot_for_each_pc() -> None:
    picture = _open(chips_chart([(1, {"Bond": 500, "Mathis": -500})], title="Chips"))
    middle = range(WIDTH // 2 - 30, WIDTH // 2 + 30)
    assert _mean(_ink(picture, SERIES_COLOURS[0], middle)) < _mean(
        _ink(picture, SERIES_COLOURS[1], middle)
    )


def test_the_axis_is_written_by_the_callers_amounts_at_round_steps_around_zero() -> None:
    asked: list[int] = []

    def amount(cents: int) -> str:
        asked.append(cents)
        return f"{cents / 100:.0f} €"

    chips_chart([(1, {"Bond": 12_345}), (2, {"Bond": 73_000})], title="Chips", amount=amount)
    steps = {b - a for a, b in pairwise(asked)}
    assert len(steps) == 1
    step = steps.pop()
    assert step in {m * 10**n for m in (1, 2, 5) for n in range(8)}
    assert asked[0] <= 0 <= asked[-1] and asked[-1] >= 73_000 and 3 <= len(asked) <= 7


def test_without_dejavu_the_chart_still_comes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fonts, "FONT", "no-such-font.ttf")
    fonts.font.cache_clear()
    try:
        _open(chips_chart([(1, {"René": 100}), (2, {"René": 300})], title="Soirée"))
    finally:
        monkeypatch.undo()
        fonts.font.cache_clear()


def test_no_hand_no_chart() -> None:
    with pytest.raises(ValueError):
        chips_chart([], title="Chips")


def _drawn_texts(monkeypatch: pytest.MonkeyPatch) -> list[tuple[float, float, str, float]]:
    """Every text the chart writes: (x, y, text, its width), in the picture's pixels as
    drawn (twice the PNG's size)."""
    drawn: list[tuple[float, float, str, float]] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, words: str, *args: Any, **kwargs: Any) -> None:
        face = kwargs["font"]
        drawn.append((xy[0], xy[1], words, face.getlength(words)))
        original(self, xy, words, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    return drawn


LEGENDS = {
    "fr": ("Jetons gagnés ou perdus, coup après coup", "Point d'Héroïsme"),
    "en": ("Chips won or lost, coup after coup", "Hero Point"),
}


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("seats", [3, 10])
def test_the_legend_writes_every_word_whole_within_the_picture(
    monkeypatch: pytest.MonkeyPatch, lang: str, seats: int
) -> None:
    """The French legend was cut to "Point d'Héroï…": each entry now takes the room its
    words need, on as many rows as it takes, each row's text within the picture and apart
    from the next entry's sample."""
    title, mark = LEGENDS[lang]
    names = (
        ["James Bond", "René Mathis", "Vesper Lynd"]
        if seats == 3
        else [f"{n} Ŵilhelmina Ŵolfram"[:20] for n in range(seats)]
    )
    points = [
        (hand, {name: (i - 1) * hand * 1_000 for i, name in enumerate(names)}) for hand in range(7)
    ]
    points = [(hand, {**chips, "Le Chiffre": -sum(chips.values())}) for hand, chips in points]
    styles = {**line_styles(names), "Le Chiffre": npc_style()}
    drawn = _drawn_texts(monkeypatch)
    data = chips_chart(points, title=title, styles=styles, marks=[(names[0], 2)], mark_label=mark)
    picture = Image.open(io.BytesIO(data))
    legend = [(x, y, text, width) for x, y, text, width in drawn if y > PLOT_BOTTOM * 2 + 20]
    shown = [text for _, _, text, _ in legend]
    assert shown == [*names, "Le Chiffre", mark]  # whole: not one cut
    for x, y, _, width in legend:
        assert x + width <= (WIDTH - 8) * 2 and y < picture.size[1] * 2 - 8
    rows: dict[float, list[tuple[float, float]]] = {}
    for x, y, _, width in legend:
        rows.setdefault(y, []).append((x, x + width))
    for spans in rows.values():  # a name ends before the next entry's sample begins
        for (_, end), (start, _) in pairwise(sorted(spans)):
            assert end + 8 * 2 <= start - 28 * 2


def test_lines_that_meet_in_places_are_drawn_apart_there() -> None:
    """Bond and Mathis part at hands 1–2 and end level from hand 3; Le Chiffre is flat at
    zero beside Leiter, who never moves. Where lines meet, each stays visible: its colour
    drawn on rows of its own, a few pixels from the other's."""
    points = [
        (
            hand,
            {
                "Bond": 5_000 if hand >= 3 else 0,
                "Mathis": 5_000 if hand >= 3 else -2_000 * min(hand, 1),
                "Leiter": 0,
                "Le Chiffre": 0 if hand < 3 else -10_000,
            },
        )
        for hand in range(7)
    ]
    styles = {**line_styles(["Bond", "Mathis", "Leiter"]), "Le Chiffre": npc_style()}
    picture = _open(chips_chart(points, title="Chips", styles=styles))
    end = range(WIDTH - 60, WIDTH - 30)  # hands 5–6: Bond and Mathis level
    bond, mathis = (
        _mean(_ink(picture, SERIES_COLOURS[0], end)),
        _mean(_ink(picture, SERIES_COLOURS[1], end)),
    )
    assert abs(bond - mathis) >= 3
    start = range(WIDTH // 5, WIDTH // 4)  # hands 1–2: Leiter and Le Chiffre level at zero
    leiter = _mean(_ink(picture, SERIES_COLOURS[2], start))
    npc = _mean(_ink(picture, (70, 70, 70), start))
    assert abs(leiter - npc) >= 3


def test_spread_moves_a_line_to_the_nearest_free_place() -> None:
    assert spread([("a", 100.0), ("b", 100.0), ("c", 100.0), ("d", 200.0)], step=10) == {
        "a": 100.0,
        "b": 90.0,
        "c": 110.0,
        "d": 200.0,
    }
    assert spread([("a", 100.0), ("b", 104.0)], step=10) == {"a": 100.0, "b": 114.0}
