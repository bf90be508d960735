"""The tests' side of the Discord stand-in: pytest fixtures and the fake's own tests.

The stand-in itself lives in :mod:`bondbot.local`; this package re-exports it with the
fixtures' helpers so ``from fakediscord import FakeDiscord, run_bot`` keeps working.
"""

from bondbot.local import *  # noqa: F403
from bondbot.local import __all__ as _local_all

from .fixtures import DefaultWorld, build_default_world, run_bot

__all__ = [*_local_all, "DefaultWorld", "build_default_world", "run_bot"]
