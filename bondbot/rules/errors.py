"""The one exception rule engines raise for a move the rules forbid."""

from __future__ import annotations

from typing import Any


class IllegalAction(Exception):
    """A decision the rules do not allow at this point; nothing was changed.

    `code` is a stable key (`blackjack.cannot_split`) that the Discord layer translates,
    with `params` filled into the message; the string form is for logs and tests.
    """

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(f"{code} {params}" if params else code)
        self.code = code
        self.params = params
