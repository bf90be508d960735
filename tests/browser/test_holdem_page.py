"""A hold'em hand with two players' pages open at once: each sees his own hole cards, in
his own language, and never the other's."""

from __future__ import annotations

from pathlib import Path

from pages import View

from bondbot.local.trying import TryOptions, running
from bondbot.rules.cards import Card, cards_pretty
from bondbot.rules.shoe import Shoe

SEED = (7).to_bytes(32, "big")


def holes_of(seed: bytes) -> list[tuple[Card, Card]]:
    """The hole cards a pack deals three players (in order of play: the two who sat first,
    then Le Chiffre on the button)."""
    shoe = Shoe.shuffled(1, seed)
    dealt = [shoe.deal() for _ in range(6)]
    return [(dealt[i], dealt[i + 3]) for i in range(3)]


async def test_each_player_sees_only_his_hole_cards(browser, tmp_path: Path) -> None:
    bond_hole, mathis_hole, npc_hole = (cards_pretty(list(h)) for h in holes_of(SEED))
    options = TryOptions(port=0, database=tmp_path / "try.sqlite3", open_browser=False)
    async with running(options, message_interval=0.05, seed_source=lambda: SEED) as (
        web,
        world,
        base,
        _,
    ):
        alex, camille, _dana = world.players
        gm = await View.open(browser, web, base, world.gm)
        bond = await View.open(browser, web, base, alex)
        mathis = await View.open(browser, web, base, camille)
        await gm.slash(
            "table open holdem", npc="Le Chiffre", minimum="50", maximum="500", big_blind="10"
        )
        await bond.sees("Texas hold'em")
        await bond.click("seat")
        await bond.form(amount="100")
        await mathis.click("seat")
        await mathis.form(amount="300")
        await bond.click("choose:simulate")
        await mathis.click("choose:simulate")
        await gm.sees("René Mathis")
        await gm.click("deal")
        await bond.sees("Hand 1")
        await bond.click("seat")
        await mathis.click("seat")
        await bond.sees(f"Your cards: {bond_hole}")
        await mathis.sees(f"Vos cartes : {mathis_hole}")
        bond_text, mathis_text, gm_text = [await v.text() for v in (bond, mathis, gm)]
        assert mathis_hole not in bond_text and npc_hole not in bond_text
        assert bond_hole not in mathis_text and npc_hole not in mathis_text
        assert bond_hole not in gm_text and mathis_hole not in gm_text
        for view in (gm, bond, mathis):
            assert view.console == [], (view.name, view.console)
