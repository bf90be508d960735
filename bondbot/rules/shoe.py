"""Shoes: stacked from an explicit list (tests, replays) or shuffled from a committed seed.

A live shoe is shuffled from a secret seed; the table publishes SHA-256(seed) before the
first card and reveals the seed when the shoe ends, so anyone can re-run `shuffle_order`
and check every card. The recipe (also printed by `bondbot verify`):

1. The unshuffled shoe is `packs` new packs in `Card.ALL` order (spades, hearts, diamonds,
   clubs; 2 up to Ace in each suit), one pack after another.
2. A byte stream is SHA-256(seed || counter) for counter = 0, 1, 2 … as 8-byte big-endian.
3. Fisher–Yates: for i from n-1 down to 1, take the next 8 bytes of the stream as a
   big-endian integer x; reject and take the next 8 bytes while x >= 2**64 - 2**64 % (i+1);
   swap positions i and x % (i+1).
4. The first card of the result is the top of the shoe.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from typing import Any

from bondbot.rules.cards import Card

SEED_BYTES = 32


class ShoeEmpty(Exception):
    """Raised when a card is asked of a shoe that has none left."""


def commitment_of(seed: bytes) -> str:
    """The published commitment of a seed: its SHA-256, in hex."""
    return hashlib.sha256(seed).hexdigest()


def _stream(seed: bytes) -> Iterator[int]:
    counter = 0
    while True:
        block = hashlib.sha256(seed + counter.to_bytes(8, "big")).digest()
        for offset in range(0, 32, 8):
            yield int.from_bytes(block[offset : offset + 8], "big")
        counter += 1


@lru_cache(maxsize=256)
def shuffle_order(seed: bytes, packs: int) -> tuple[Card, ...]:
    """The shoe that `seed` gives for `packs` packs, top card first (recipe above).

    Cached: a table's state stores its seed, not its cards, and is loaded for every
    action, so the same shuffle is asked for again and again.
    """
    cards = list(Card.ALL) * packs
    stream = _stream(seed)
    for i in range(len(cards) - 1, 0, -1):
        bound = i + 1
        limit = 2**64 - (2**64 % bound)
        x = next(stream)
        while x >= limit:
            x = next(stream)
        j = x % bound
        cards[i], cards[j] = cards[j], cards[i]
    return tuple(cards)


class Shoe:
    """The cards left to deal, in order, with what has been dealt so far.

    `cut` is how many cards may be dealt before the shoe is due for a reshuffle (the cut
    card); games check `past_cut` between rounds, never in the middle of one.
    """

    __slots__ = ("_cards", "cut", "packs", "position", "seed")

    def __init__(
        self,
        cards: Sequence[Card],
        *,
        seed: bytes | None = None,
        packs: int = 1,
        cut: int | None = None,
        position: int = 0,
    ) -> None:
        self._cards = cards
        self.seed = seed
        self.packs = packs
        self.cut = len(cards) if cut is None else cut
        self.position = position

    @classmethod
    def stacked(cls, cards: Iterable[Card | str]) -> Shoe:
        """A shoe that deals exactly these cards, first one first."""
        listed = [card if isinstance(card, Card) else Card.parse(card) for card in cards]
        return cls(listed, packs=0)

    @classmethod
    def shuffled(cls, packs: int, seed: bytes | None = None, penetration: float = 1.0) -> Shoe:
        """A live shoe of `packs` packs from `seed` (fresh secret randomness if None)."""
        if not 1 <= packs <= 8:
            raise ValueError("a shoe holds 1 to 8 packs")
        seed = secrets.token_bytes(SEED_BYTES) if seed is None else seed
        cards = shuffle_order(seed, packs)
        return cls(cards, seed=seed, packs=packs, cut=int(len(cards) * penetration))

    @property
    def commitment(self) -> str | None:
        """SHA-256 of the seed, published before the first card; None for a stacked shoe."""
        return None if self.seed is None else commitment_of(self.seed)

    @property
    def remaining(self) -> int:
        return len(self._cards) - self.position

    @property
    def past_cut(self) -> bool:
        return self.position >= self.cut

    @property
    def dealt(self) -> list[Card]:
        return list(self._cards[: self.position])

    def deal(self) -> Card:
        if self.position >= len(self._cards):
            raise ShoeEmpty("the shoe is empty")
        card = self._cards[self.position]
        self.position += 1
        return card

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Shoe):
            return NotImplemented
        return (self.seed, self.packs, self.cut, self.position, tuple(self._cards)) == (
            other.seed,
            other.packs,
            other.cut,
            other.position,
            tuple(other._cards),
        )

    __hash__ = None  # type: ignore[assignment]  # mutable: dealing moves its position

    def __deepcopy__(self, memo: dict[int, object]) -> Shoe:
        """A copy deals on its own; the cards (immutable, often a cached shuffle) are shared."""
        return Shoe(
            self._cards, seed=self.seed, packs=self.packs, cut=self.cut, position=self.position
        )

    def to_dict(self) -> dict[str, Any]:
        """Serialise; a seeded shoe stores its seed (secret until revealed), not its cards."""
        data: dict[str, Any] = {"position": self.position, "cut": self.cut}
        if self.seed is None:
            data["cards"] = " ".join(card.code for card in self._cards)
        else:
            data["seed"] = self.seed.hex()
            data["packs"] = self.packs
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Shoe:
        if "seed" in data:
            seed = bytes.fromhex(data["seed"])
            cards = shuffle_order(seed, data["packs"])
            return cls(
                cards, seed=seed, packs=data["packs"], cut=data["cut"], position=data["position"]
            )
        cards = [Card.parse(code) for code in data["cards"].split()]
        return cls(cards, packs=0, cut=data["cut"], position=data["position"])


def _hex_digits(text: str, what: str, size: int) -> str:
    """`text` as `size` bytes of hexadecimal, lower case; ValueError saying what it must be."""
    digits = text.strip().lower()
    if any(char not in "0123456789abcdef" for char in digits):
        raise ValueError(
            f"{what} is written in hexadecimal digits (0-9, a-f) only: {text.strip()[:80]!r} is not"
        )
    if len(digits) != 2 * size:
        raise ValueError(
            f"{what} is {size} bytes, {2 * size} hexadecimal digits; this one has {len(digits)}"
        )
    return digits


def verify(seed_hex: str, commitment: str, packs: int) -> tuple[Card, ...]:
    """Check a revealed seed against its commitment and return the shoe it made.

    Raises ValueError saying why: a seed or a commitment that is not 32 bytes of hexadecimal
    (a typo, a truncated copy), or a seed that does not match the commitment.
    """
    seed = bytes.fromhex(_hex_digits(seed_hex, "a seed", SEED_BYTES))
    expected = _hex_digits(commitment, "a commitment (SHA-256)", hashlib.sha256().digest_size)
    if commitment_of(seed) != expected:
        raise ValueError("the seed does not match the commitment")
    return shuffle_order(seed, packs)
