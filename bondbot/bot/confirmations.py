"""The token a question draws for its confirming button, so that only the button it drew
confirms (a forged, guessed or older id is refused) and clicks crossing each other draw one.

Kept in this process's memory: after a restart a question is asked again.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Hashable


class Confirmations:
    """Tokens by what they confirm (a table, a table and its GM…): the same token for every
    ask of one key until it is used up or `ttl_s` has passed."""

    def __init__(self, *, nbytes: int, ttl_s: float | None = None) -> None:
        self._nbytes, self._ttl_s = nbytes, ttl_s
        self._drawn: dict[Hashable, tuple[str, float]] = {}  # key → its token, its expiry

    def ask(self, key: Hashable) -> str:
        """The token of `key`'s confirming button (drawn on the first ask)."""
        now = time.monotonic()
        self._drawn = {k: v for k, v in self._drawn.items() if v[1] > now}
        expiry = now + self._ttl_s if self._ttl_s is not None else float("inf")
        return self._drawn.setdefault(key, (secrets.token_hex(self._nbytes), expiry))[0]

    def confirms(self, key: Hashable, token: str) -> bool:
        """Whether `token` is the one drawn for `key`, and still valid."""
        known = self._drawn.get(key)
        return (
            known is not None
            and known[1] > time.monotonic()
            and secrets.compare_digest(known[0], token)
        )

    def used(self, key: Hashable) -> None:
        """The question is answered: its next ask draws a new token."""
        self._drawn.pop(key, None)
