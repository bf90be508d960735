"""The refusal every layer raises for a request a user may not make."""

from __future__ import annotations

from typing import Any


class Refusal(Exception):
    """Refuse a user's request: `key` names a translated message, filled with `params`.

    Raised before anything is written, so a refused request changes nothing; the Discord
    layer answers it ephemerally in the user's language.
    """

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(f"{key} {params}" if params else key)
        self.key = key
        self.params = params
