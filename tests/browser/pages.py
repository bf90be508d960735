"""One person's page in the browser: what he clicks, types and reads, as he would."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bondbot.local.models import FakeUser
from bondbot.local.web import LocalWeb

TIMEOUT_MS = 10_000
FIND = """wanted => {
  const found = [...document.querySelectorAll('#messages button[data-custom-id]')].filter(
    b => { const fields = b.dataset.customId.split(':').slice(3);
           return wanted.every((w, i) => fields[i] === w); });
  return found.length ? found[found.length - 1].dataset.customId : null;
}"""


@dataclass
class View:
    """A user's page; ``console`` collects its errors and warnings."""

    page: Any
    name: str
    console: list[str] = field(default_factory=list)

    @classmethod
    async def open(cls, browser: Any, web: LocalWeb, base: str, user: FakeUser) -> View:
        context = await browser.new_context(viewport={"width": 1100, "height": 900})
        page = await context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        view = cls(page, user.name)
        page.on(
            "console",
            lambda m: (
                view.console.append(f"{m.type}: {m.text}")
                if m.type in ("error", "warning")
                else None
            ),
        )
        page.on("pageerror", lambda e: view.console.append(f"pageerror: {e}"))
        await page.goto(web.link(base, user))
        await page.wait_for_selector("#live.on")
        return view

    async def slash(self, path: str, **options: str) -> None:
        """Type the command, pick it among the suggestions, fill its options, send."""
        page = self.page
        await page.fill("#command", "/" + path[:6])
        await page.click(f"#suggest div[data-path='{path}']")
        for name, value in options.items():
            field_ = page.locator(f"#options [data-option='{name}']")
            if await field_.evaluate("e => e.tagName") == "SELECT":
                await field_.select_option(label=value)
            else:
                await field_.fill(value)
        await page.press("#command", "Enter")
        await page.wait_for_function("document.querySelector('#command').value === ''")

    async def has(self, action: str) -> bool:
        """Whether a button for ``action`` ("seat", "choose:simulate") is drawn."""
        return bool(await self.page.evaluate(FIND, action.split(":")))

    async def click(self, action: str) -> None:
        """Click the newest button for ``action``: its custom id's fields after the table's
        id start with it (``bb:tbl:<id>:deal:…``), whatever else they carry."""
        handle = await self.page.wait_for_function(FIND, arg=action.split(":"))
        custom_id = await handle.json_value()
        await self.page.locator(f'#messages button[data-custom-id="{custom_id}"]').last.click()

    async def form(self, **values: str) -> None:
        """Fill the open form (a select by its option's label) and submit it."""
        page = self.page
        await page.wait_for_selector("#overlay:not([hidden])")
        for name, value in values.items():
            field_ = page.locator(f"#modal [data-custom-id='{name}']")
            if await field_.evaluate("e => e.tagName") == "SELECT":
                await field_.select_option(label=value)
            else:
                await field_.fill(value)
        await page.click("#modal button[type=submit]")
        await page.wait_for_selector("#overlay", state="hidden")

    async def sees(self, text: str) -> None:
        """Wait until the current channel shows ``text``."""
        await self.page.locator("#messages").get_by_text(text).first.wait_for()

    async def text(self) -> str:
        return await self.page.inner_text("#messages")

    async def channel(self, name: str) -> None:
        await self.page.click(f"#channels li[data-name='{name}']")

    async def timings(self) -> list[float]:
        return [t["ms"] for t in await self.page.evaluate("window.__bondbot.timings")]
