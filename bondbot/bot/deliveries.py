"""Which answers reached their user: what tells a retry after a lost answer from a new
command (docs/decisions.md, "Bad input, retries and shutdown").

An answer is marked when Discord accepted it. After a restart nothing is marked, so a
command repeated within the repeat window is treated as a retry: the user is shown what
his first command did before anything is done again.
"""

from __future__ import annotations

import time
from collections.abc import Callable


class Deliveries:
    """Keys (`ledger:<id>`, `roll:<id>`) of answers Discord accepted, for `window_s`."""

    def __init__(self, window_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.window_s = window_s
        self.clock = clock
        self._marked: dict[str, float] = {}

    def mark(self, key: str) -> None:
        now = self.clock()
        self._marked = {k: at for k, at in self._marked.items() if now - at < self.window_s}
        self._marked[key] = now

    def reached(self, key: str) -> bool:
        return key in self._marked
