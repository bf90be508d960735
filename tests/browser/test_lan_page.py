"""The page off localhost (a LAN game night): each link carries its user's secret, the page
works with it (its stream, its acts, its pictures), offers no switching, and a link
without it is refused."""

from __future__ import annotations

from pathlib import Path

from pages import View

from bondbot.local.trying import TryOptions, running


async def test_a_players_link_works_on_the_lan_and_only_with_its_secret(
    browser, tmp_path: Path
) -> None:
    # 127.0.0.2 stands for a LAN address: any host but 127.0.0.1, localhost or ::1 is.
    options = TryOptions(
        host="127.0.0.2", port=0, database=tmp_path / "lan.sqlite3", open_browser=False
    )
    async with running(options, message_interval=0.05) as (web, world, base, _):
        gm = await View.open(browser, web, base, world.gm)
        alex = await View.open(browser, web, base, world.players[0])
        assert await alex.page.is_hidden("#switch")  # no becoming someone else
        await gm.slash("table open punto_banco", npc="Le Chiffre", minimum="10", maximum="500")
        await alex.sees("Le Chiffre holds the bank")
        await alex.click("seat")
        await alex.form(amount="200")
        await alex.sees("You sit down with $200 in chips.")
        stranger = await browser.new_page()
        refused = await stranger.goto(f"{base}/?as=Alex")
        assert refused is not None and refused.status == 403
        for view in (gm, alex):
            assert view.console == [], (view.name, view.console)
