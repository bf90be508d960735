"""Card pictures: valid PNGs of the announced size whose pixels show the cards asked for.

Each card's place in a hand is compared with that card drawn alone (so the order and the
pasting are right), every card differs from every other (so a wrong card would show), and
the pixels are read back independently of the drawing code: the colour of the ink, and
the shape of the big suit in the middle (a heart's two lobes, a club's round top).
"""

from __future__ import annotations

import io
from collections import deque
from collections.abc import Callable
from itertools import combinations

import pytest
from PIL import Image, ImageChops

from bondbot.pictures.cards import (
    _DRAWN,
    CARD_H,
    CARD_W,
    _card_paletted,
    _rows_png,
    card_image,
    card_origin,
    drawn,
    hand_png,
    hand_size,
    row_origin,
    rows_png,
    rows_size,
)
from bondbot.rules.cards import Card, parse_cards

Pixel = tuple[int, int, int]


def _open(data: bytes) -> Image.Image:
    Image.open(io.BytesIO(data)).verify()  # a complete, uncorrupted PNG
    picture = Image.open(io.BytesIO(data))
    assert picture.format == "PNG"
    return picture.convert("RGB")


def _crop(picture: Image.Image, position: int) -> Image.Image:
    x, y = card_origin(position)
    return picture.crop((x, y, x + CARD_W, y + CARD_H))


def _is_red(p: Pixel) -> bool:
    return p[0] > 150 and p[1] < 90 and p[2] < 90


def _is_black(p: Pixel) -> bool:
    return max(p) < 70


def _pixels(card: Image.Image) -> list[Pixel]:
    raw = card.tobytes()
    return [(raw[i], raw[i + 1], raw[i + 2]) for i in range(0, len(raw), 3)]


def _count(card: Image.Image, test: Callable[[Pixel], bool]) -> int:
    return sum(1 for p in _pixels(card) if test(p))


def _pip(card: Image.Image) -> list[list[bool]]:
    """The ink shape at the card's centre: the pixels of ink connected to the middle one,
    as rows of its bounding box."""
    w, h = card.size
    px = card.load()
    assert px is not None

    def ink(x: int, y: int) -> bool:
        p = px[x, y]
        return _is_red(p) or _is_black(p)  # type: ignore[arg-type]

    start = (w // 2, h // 2)
    assert ink(*start), "no suit in the middle of the card"
    seen, todo = {start}, deque([start])
    while todo:
        x, y = todo.popleft()
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < w and 0 <= ny < h and (nx, ny) not in seen and ink(nx, ny):
                seen.add((nx, ny))
                todo.append((nx, ny))
    xs, ys = [x for x, _ in seen], [y for _, y in seen]
    return [
        [(x, y) in seen for x in range(min(xs), max(xs) + 1)] for y in range(min(ys), max(ys) + 1)
    ]


def _runs(row: list[bool]) -> int:
    return sum(1 for i, on in enumerate(row) if on and (i == 0 or not row[i - 1]))


def _suit_seen(card: Image.Image) -> str:
    """Which suit the pixels show: red or black ink, then the top of the middle shape."""
    red = _count(card, _is_red) > _count(card, _is_black)
    shape = _pip(card)
    top = shape[len(shape) // 8]
    widest = max(sum(row) for row in shape)
    if red:
        return "h" if _runs(top) == 2 else "d"  # a heart's two lobes, a diamond's point
    return "c" if sum(top) > widest / 3 else "s"  # a club's round leaf, a spade's point


def test_a_hand_is_a_png_of_the_announced_size() -> None:
    for count in (1, 2, 5, 13):
        picture = _open(hand_png(Card.ALL[:count]))
        assert picture.size == hand_size(count)
    assert hand_size(5) == (5 * CARD_W + 4 * 8 + 20, CARD_H + 20)


def test_each_card_of_a_hand_is_that_card_in_its_place() -> None:
    cards = parse_cards("As Td 7h Qc Kd")
    hand: list[Card | None] = [*cards, None]
    picture = _open(hand_png(hand))
    for position, card in enumerate(hand):
        difference = ImageChops.difference(_crop(picture, position), card_image(card))
        assert difference.getbbox() is None, f"{card} at {position} differs from its drawing"


def test_every_card_and_the_back_look_different() -> None:
    pictures = {card.code: card_image(card).tobytes() for card in Card.ALL}
    pictures["back"] = card_image(None).tobytes()
    same = [(a, b) for a, b in combinations(pictures, 2) if pictures[a] == pictures[b]]
    assert same == []


@pytest.mark.parametrize("card", Card.ALL, ids=str)
def test_the_pixels_show_the_suit_in_its_colour(card: Card) -> None:
    picture = _crop(_open(hand_png([Card.parse("2c"), card])), 1)
    red, black = _count(picture, _is_red), _count(picture, _is_black)
    if card.suit in "hd":
        assert red > 300 and black == 0
    else:
        assert black > 300 and red == 0
    assert _suit_seen(picture) == card.suit


def test_a_card_face_down_shows_no_suit_and_no_rank() -> None:
    back = card_image(None)
    assert _count(back, _is_red) == 0 and _count(back, _is_black) == 0
    blue = _count(back, lambda p: p[2] > p[0] + 60 and p[2] > p[1] + 40)
    assert blue > CARD_W * CARD_H // 2


def test_a_hand_is_made_once_and_stays_small() -> None:
    cards = parse_cards("2s 3d 4h 9c Jd")
    first = hand_png(cards)
    assert hand_png(tuple(cards)) is first  # cached: the same bytes, not drawn again
    assert len(first) < 8 * 1024
    assert len(hand_png([None] * 5)) < 8 * 1024


def test_an_empty_hand_has_no_picture() -> None:
    with pytest.raises(ValueError):
        hand_png([])


def test_a_result_shows_each_hand_on_its_row_and_felt_elsewhere() -> None:
    rows = [parse_cards("9h Kd"), parse_cards("4s 5c Ah"), [Card.parse("Ts")]]
    picture = _open(rows_png(rows))
    assert picture.size == rows_size([2, 3, 1]) == (hand_size(3)[0], 20 + 3 * CARD_H + 2 * 8)
    for row, cards in enumerate(rows):
        for position, card in enumerate(cards):
            x, y = row_origin(row, position)
            drawn = picture.crop((x, y, x + CARD_W, y + CARD_H))
            assert ImageChops.difference(drawn, card_image(card)).getbbox() is None
    felt = picture.getpixel((picture.width - 5, picture.height - 5))
    x, y = row_origin(2, 1)  # where a second card of the last row would be: felt
    empty = picture.crop((x, y, x + CARD_W, y + CARD_H))
    assert set(_pixels(empty)) == {felt}


def test_one_row_is_the_hand_itself() -> None:
    cards = parse_cards("Qs Jh")
    assert rows_png([cards]) == hand_png(cards)
    with pytest.raises(ValueError):
        rows_png([cards, []])


def test_a_picture_knows_whether_its_cards_were_drawn_before() -> None:
    """`drawn` tells a picture that only pastes (drawn on the loop) from one that must
    first draw a card (drawn in a thread)."""
    ace, king = parse_cards("Ac Kd")
    _card_paletted.cache_clear()  # as in a new process
    _rows_png.cache_clear()
    _DRAWN.clear()
    assert not drawn([[ace, None]])
    rows_png([[ace, None], [king]])
    assert drawn([[ace, None]]) and drawn([[king], [None]])
    assert not drawn([[ace, parse_cards("2c")[0]]])
