"""A punto banco evening played in the browser: the GM and two players, each on his page.

The GM opens the table by typing the command; Alex (English) and Camille (French) sit
through the seat form, choose, bet through the bet form; the GM deals from the table's
button; the bank wins (a stacked shoe), and Alex spends a Hero Point from his page; the GM
closes with the command. Each page shows its user's private answers and nobody else's, the
French player reads French, the thread shows the coup's picture and the summary's chart,
and no page logs an error.
"""

from __future__ import annotations

import statistics
from pathlib import Path

from pages import View

from bondbot.local.trying import TryOptions, running
from bondbot.rules import baccarat
from bondbot.rules.baccarat import Bet


def seed_where_banker_wins() -> bytes:
    for n in range(1000):
        seed = n.to_bytes(32, "big")
        if baccarat.deal_coup(baccarat.new_shoe(8, seed)).winner is Bet.BANKER:
            return seed
    raise AssertionError("no seed")


async def test_a_punto_banco_table_in_the_browser(browser, tmp_path: Path) -> None:
    seed = seed_where_banker_wins()
    options = TryOptions(port=0, database=tmp_path / "try.sqlite3", open_browser=False)
    async with running(options, message_interval=0.05, seed_source=lambda: seed) as (
        web,
        world,
        base,
        _,
    ):
        alex, camille, _dana = world.players
        gm = await View.open(browser, web, base, world.gm)
        bond = await View.open(browser, web, base, alex)
        mathis = await View.open(browser, web, base, camille)

        await gm.slash("table open punto_banco", npc="Le Chiffre", minimum="10", maximum="500")
        await gm.sees("Table opened. Shoe commitment")
        await bond.sees("Le Chiffre holds the bank")  # the table message, in English
        await bond.click("seat")
        await bond.form(amount="200")
        await bond.sees("You sit down with $200 in chips.")
        await mathis.click("seat")
        await mathis.form(amount="100")
        await mathis.sees("Vous vous asseyez avec 100\u00a0$ en jetons.")
        await bond.click("choose:simulate")
        await bond.sees("You simulate the game. Hero Points earned: 2.")
        await mathis.click("choose:simulate")
        await mathis.sees("Vous simulez")

        await bond.click("bets")
        await bond.form(on="Player", amount="50")
        await bond.sees("on Player: $50")
        await mathis.click("bets")
        await mathis.form(on="Joueur", amount="20")  # the form in his language
        await gm.sees("on Player: $20")
        await gm.click("deal")
        await bond.sees("James Bond loses $50")
        # The coup dealt on the table is pictured on the table message (issue 32).
        coup = bond.page.locator("#messages img")
        await coup.first.wait_for()
        drawn = await coup.evaluate_all("imgs => imgs.map(i => i.complete && i.naturalWidth)")
        assert len(drawn) >= 1 and all(drawn), drawn
        await bond.click("hp")
        await bond.sees("You spend a Hero Point and win the hand: the bank pays you $100.")
        await gm.sees("James Bond spends a Hero Point and wins the hand.")

        await gm.slash("table close")
        await gm.sees("This table is closed.")
        thread = next(c for c in web.guild.channels.values() if c.is_thread)
        await gm.channel(thread.name)
        await gm.sees("Punto banco — Le Chiffre")  # the summary's title
        pictures = gm.page.locator("#messages img")
        await pictures.last.wait_for()
        drawn = await pictures.evaluate_all("imgs => imgs.map(i => i.complete && i.naturalWidth)")
        assert len(drawn) >= 1 and all(drawn), drawn  # the summary's chart

        # Each private answer on its owner's page only; the French player reads French.
        bond_text, mathis_text, gm_text = [await v.text() for v in (bond, mathis, gm)]
        assert "You sit down with $200" in bond_text
        assert "You sit down" not in mathis_text and "Vous vous asseyez" not in bond_text
        assert "You spend a Hero Point" not in mathis_text + gm_text
        assert "Shoe commitment" not in bond_text + mathis_text
        assert "Vous simulez la partie" in mathis_text and "You simulate" not in mathis_text
        assert "Vous seul pouvez voir ceci" in mathis_text  # the page speaks his language too
        assert "Le Chiffre holds the bank" in mathis_text  # the table: the server's language
        assert await mathis.page.get_attribute("html", "lang") == "fr"
        await gm.page.screenshot(path=str(tmp_path / "gm.png"))

        timings = [ms for v in (gm, bond, mathis) for ms in await v.timings()]
        assert timings, "the page timed its clicks"
        print(
            f"\nclick→drawn answer over {len(timings)} acts: "
            f"p50 {statistics.median(timings):.0f} ms, max {max(timings):.0f} ms"
        )
        for view in (gm, bond, mathis):
            assert view.console == [], (view.name, view.console)
