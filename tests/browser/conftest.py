"""A real browser on the page of `bondbot try`: Debian's chromium driven by Playwright.

No browser is downloaded: Playwright drives the system's chromium (`.ci/chromium` installs
it); without one, or without the playwright package, these tests skip.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

CHROMIUM = os.environ.get("BONDBOT_CHROMIUM") or shutil.which("chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest_asyncio.fixture
async def browser() -> AsyncIterator[Any]:
    """A headless chromium (a fresh profile); skips where there is none."""
    if CHROMIUM is None:
        pytest.skip("no chromium (bash .ci/chromium installs Debian's)")
    playwright = pytest.importorskip("playwright.async_api")
    async with playwright.async_playwright() as driver:
        launched = await driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield launched
        finally:
            await launched.close()
