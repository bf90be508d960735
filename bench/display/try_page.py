"""The page of `bondbot try`: time from a click to its drawn answer, over an evening.

    python bench/display/try_page.py [--coups 20] [--screenshot docs/try.png]

Runs `bondbot try`'s stand-in, bot and page in this process, and Debian's chromium (headless,
driven by Playwright; `bash .ci/chromium` installs it) with one page per person: the GM
opens a punto banco table, three players sit through the seat form and simulate, then for
each coup every player bets through the bet form, the GM deals from the table's button and,
when the table offers a Hero Point, the first player asks for it. Each page times each act
itself (performance.now() at the click, and in the frame after the push that carries the
bot's answer was drawn);
the script prints p50, p90, p99 and the worst per kind (click, form, command) and overall.
The bot's message interval is the one `bondbot try` uses (1 s between two edits of a table
message), so a burst of wagers is drawn as the bot sends it, not faster. A deferred
answer is timed to its first drawing (the "thinking" state). `--screenshot` writes the
README's picture: the table and its thread side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "browser")]  # run from a checkout

from conftest import CHROMIUM, FLAGS  # noqa: E402
from pages import View  # noqa: E402
from playwright.async_api import async_playwright  # noqa: E402

from bondbot.local.trying import TryOptions, running  # noqa: E402

BOTTOM = "document.querySelector('#scroller').scrollTop = 1e9"
TABLE = "document.querySelector('#messages .msg').scrollIntoView()"
LOADED = "[...document.querySelectorAll('#messages img')].every(i => i.complete)"


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def evening(coups: int, screenshot: Path | None) -> dict[str, list[float]]:
    with tempfile.TemporaryDirectory(prefix="bondbot-try-bench-") as folder:
        options = TryOptions(port=0, database=Path(folder) / "try.sqlite3", open_browser=False)
        async with running(options) as (web, world, base, _), async_playwright() as driver:
            browser = await driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            gm = await View.open(browser, web, base, world.gm)
            players = [await View.open(browser, web, base, p) for p in world.players]
            await gm.slash("table open punto_banco", npc="Le Chiffre", minimum="10", maximum="500")
            await players[0].sees("Punto banco")
            for view, amount in zip(players, ("200", "150", "180"), strict=True):
                await view.click("seat")
                await view.form(amount=amount)
                await view.click("choose:simulate")
            await gm.sees("Coup 1")
            sides = ["Player", "Banker"]
            for coup in range(1, coups + 1):
                for n, view in enumerate(players):
                    await view.click("bets")
                    side = sides[(coup + n) % 2]
                    await view.form(on=side if view.name != "Camille" else _fr(side), amount="10")
                await gm.page.wait_for_function(
                    "n => document.querySelector('#messages').innerText.includes(`(${n} placed)`)",
                    arg=len(players),
                )
                await gm.click("deal")
                await gm.sees(f"Coup {coup + 1}")
                if await players[0].has("hp"):  # someone lost: the Spend button
                    await players[0].click("hp")
                    await players[0].page.wait_for_timeout(150)
            if screenshot is not None:  # the table, then its thread with the coups' pictures
                page = players[0].page
                await page.evaluate(TABLE)  # the table message at the top
                await page.screenshot(path=str(screenshot))
                thread = next(c for c in web.guild.channels.values() if c.is_thread)
                await players[0].channel(thread.name)
                await page.wait_for_function(LOADED)
                await page.evaluate(BOTTOM)
                thread_shot = await players[0].page.screenshot()
                side_by_side(screenshot, thread_shot)
            found: dict[str, list[float]] = {}
            for view in (gm, *players):
                for timing in await view.page.evaluate("window.__bondbot.timings"):
                    found.setdefault(timing["kind"], []).append(timing["ms"])
                if view.console:
                    print(f"console of {view.name}: {view.console}", file=sys.stderr)
            await browser.close()
            return found


def side_by_side(table_shot: Path, thread_shot: bytes) -> None:
    """The table and its thread in one picture (the README's), at half size."""
    from PIL import Image

    with Image.open(table_shot) as left, Image.open(io.BytesIO(thread_shot)) as right:
        both = Image.new("RGB", (left.width + right.width, max(left.height, right.height)))
        both.paste(left, (0, 0))
        both.paste(right, (left.width, 0))
        both = both.resize((both.width * 3 // 4, both.height * 3 // 4), Image.Resampling.LANCZOS)
        both.save(table_shot, optimize=True)


def _fr(side: str) -> str:
    return {"Player": "Joueur", "Banker": "Banque"}[side]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--coups", type=int, default=20)
    parser.add_argument("--screenshot", type=Path, default=None)
    args = parser.parse_args()
    if CHROMIUM is None:
        print("no chromium: bash .ci/chromium installs Debian's", file=sys.stderr)
        return 2
    found = asyncio.run(evening(args.coups, args.screenshot))
    every = [ms for values in found.values() for ms in values]
    print(f"{'act':<8} {'n':>4} {'p50':>7} {'p90':>7} {'p99':>7} {'max':>7}  (ms, click → drawn)")
    for kind, values in [*sorted(found.items()), ("all", every)]:
        print(
            f"{kind:<8} {len(values):>4} {statistics.median(values):>7.0f} "
            f"{percentile(values, 90):>7.0f} {percentile(values, 99):>7.0f} {max(values):>7.0f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
