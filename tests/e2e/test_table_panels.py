"""The panels behind the table message, through the fake Discord (issue 21, items 1 and 3).

The GM's controls are one **GM** button: a player who clicks it is refused and sees
nothing of them; the GM gets them privately, and the panel answers in place (pause and
resume, seating and unseating a PC, closing after a second click). **My seat** is the
buy-in form to someone without a seat and the player's own panel once seated. **Spend a
Hero Point** is one button for everyone: a player who lost two wagers on the coup picks
which to win back, privately; one who lost nothing is told so and nothing changes.
"""

from __future__ import annotations

import pytest
from e2e_env import BotEnv
from table_flow import (
    balances,
    bond,
    button_id,
    button_labels,
    by_action,
    create_cast,
    le_chiffre,
    mathis,
    press,
    table_message,
    wait_table,
)

from bondbot.local import FakeDiscord
from bondbot.local.client import InteractionRejected
from bondbot.rules import baccarat

NOT_GM = "Only the GM can do that (the server's GM role is set with /gm role)."


async def hero_points(bot_env: BotEnv, ids: dict[str, int]) -> int:
    return (await balances(bot_env, {"bond": ids["bond"]}))["bond"][1]


def seats_field(fake: FakeDiscord) -> str:
    fields = table_message(fake).embeds[0].get("fields", [])
    return next((f["value"] for f in fields if f["name"] == "Players"), "")


async def bond_and_mathis(bot_env: BotEnv) -> dict[str, int]:
    """Le Chiffre, Bond (the English player's) and Mathis (the French player's)."""
    world = bot_env.world
    return await create_cast(
        bot_env,
        {"npc": le_chiffre(), "bond": bond(world.player), "mathis": mathis(world.player_fr)},
        {"bond": world.player, "mathis": world.player_fr},
    )


async def open_punto_banco(bot_env: BotEnv) -> None:
    """The GM role set, Le Chiffre's punto banco table opened, $10 to $500."""
    fake, world = bot_env.fake, bot_env.world
    await fake.slash(world.owner, "gm role", role=world.gm_role)
    await fake.slash(
        world.gm, "table open punto_banco", npc="Le Chiffre", minimum="10", maximum="500"
    )
    await wait_table(fake, "Le Chiffre")


async def test_the_gm_panel_is_the_gms_alone_and_answers_in_place(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    await bond_and_mathis(bot_env)
    async with bot_env.run():
        await open_punto_banco(bot_env)
        assert button_labels(fake)[-2:] == ["My seat", "GM"]
        assert not [
            label for label in button_labels(fake) if "(GM)" in label and "Deal" not in label
        ]

        refused = await fake.click(world.player, table_message(fake), button_id(fake, "gm"))
        assert refused.ephemeral and refused.content == NOT_GM and not refused.components

        panel = await fake.click(world.gm, table_message(fake), button_id(fake, "gm"))
        assert panel.ephemeral and panel.embed is not None
        assert panel.embed["title"] == "GM controls"
        assert "Le Chiffre — Gambling" in panel.embed["description"]
        labels = [b["label"] for b in panel.buttons()]
        assert {"Pause", "Seat a PC", "Close the table"} <= set(labels)
        assert "Unseat a PC" not in labels  # nobody is seated yet
        assert all("(GM)" not in label for label in labels)

        # Pause: the panel is drawn again in place, and the table says so.
        paused = await fake.click(world.gm, panel, by_action(panel, "gpause:1"))
        assert paused.response_type == 7 and paused.embed is not None
        assert paused.embed["description"].startswith("Table paused.")
        assert "Resume" in [b["label"] for b in paused.buttons()]
        await wait_table(fake, "Paused by the GM.")
        resumed = await fake.click(world.gm, paused, by_action(paused, "gpause:0"))
        assert resumed.embed["description"].startswith("Table resumed.")
        await fake.wait_until(lambda: "Paused by the GM." not in str(table_message(fake).embeds))

        # Seating from the panel: a form with the character and the buy-in (its limits said).
        form = await fake.click(world.gm, resumed, by_action(resumed, "gseat"))
        assert form.modal is not None
        seated = await fake.submit_modal(
            world.gm, form, {"character": "René Mathis", "amount": "100"}
        )
        assert seated.embed is not None and seated.embed["description"].startswith(
            "René Mathis is seated."
        )
        await fake.wait_until(lambda: "René Mathis" in seats_field(fake))
        unseat = await fake.click(world.gm, seated, by_action(seated, "gunseat"))
        assert [b["label"] for b in unseat.buttons()] == ["René Mathis"]
        gone = await fake.click(world.gm, unseat, unseat.custom_ids()[0])
        assert gone.content == "René Mathis leaves the table with his chips."
        await fake.wait_until(lambda: "René Mathis" not in seats_field(fake))

        # The panel is the GM's alone: a player cannot even see it to click it.
        with pytest.raises(InteractionRejected, match="cannot see"):
            await fake.click(world.player, panel, by_action(panel, "gseat"))

        # Closing takes a second click; "Keep playing" brings the panel back.
        panel = await fake.click(world.gm, table_message(fake), button_id(fake, "gm"))
        ask = await fake.click(world.gm, panel, by_action(panel, "gclose:0"))
        assert ask.response_type == 7 and ask.content.startswith("Close the table?")
        assert [b["label"] for b in ask.buttons()] == ["Yes, close it", "Keep playing"]
        kept = await fake.click(world.gm, ask, by_action(ask, "gm"))
        assert kept.response_type == 7 and kept.embed["title"] == "GM controls" and not kept.content
        assert "This table is closed." not in str(table_message(fake).embeds)
        ask = await fake.click(world.gm, kept, by_action(kept, "gclose:0"))
        (sure,) = [c for c in ask.custom_ids() if ":gclose:" in c]  # the question's token
        closed = await fake.click(world.gm, ask, sure)
        assert closed.followups or closed.content
        await wait_table(fake, "Final scores")


async def test_my_seat_is_the_buy_in_form_then_the_players_panel(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    await bond_and_mathis(bot_env)
    async with bot_env.run():
        await open_punto_banco(bot_env)

        # Without a character to seat (the GM here), My seat says so before any form.
        nobody = await fake.click(world.gm, table_message(fake), button_id(fake, "seat"))
        assert nobody.modal is None and nobody.content.startswith("You have no active character")
        # No seat: My seat is the buy-in form, and it says what a buy-in may be.
        form = await fake.click(world.player, table_message(fake), button_id(fake, "seat"))
        assert form.modal is not None
        (field,) = [
            c
            for row in form.modal.components
            for c in row.get("components", [row.get("component", {})])
        ]
        assert field["placeholder"] == "At least $10"
        joined = await fake.submit_modal(world.player, form, {"amount": "300"})
        assert joined.content.startswith("You sit down with $300 in chips.")
        simulate = next(c for c in joined.custom_ids() if c.endswith(":choose:simulate"))
        chose = await fake.click(world.player, joined, simulate)
        assert chose.ephemeral and "Hero Points" in chose.content

        # Seated: his own panel, in his language, with Leave between coups.
        seat = await fake.click(world.player, table_message(fake), button_id(fake, "seat"))
        assert seat.ephemeral and seat.embed["title"] == "James Bond"
        assert seat.embed["description"].startswith("Chips: $300 · simulates")
        assert "Leave" in [b["label"] for b in seat.buttons()]
        fr_form = await fake.click(world.player_fr, table_message(fake), button_id(fake, "seat"))
        await fake.submit_modal(world.player_fr, fr_form, {"amount": "50"})  # he bets nothing
        fr_seat = await fake.click(world.player_fr, table_message(fake), button_id(fake, "seat"))
        assert fr_seat.embed["title"] == "René Mathis"
        assert fr_seat.embed["description"].startswith("Jetons : ")
        assert [b["label"] for b in fr_seat.buttons()][:2] == ["Simuler", "Règles du livre"]

        assert fr_seat.embed["title"] == "René Mathis"


def bank_wins_both_tables(seed: bytes) -> bool:
    """Deux tableaux, both tables staked: right, left, banker, twice; the banker's natural 9."""
    shoe = baccarat.new_shoe(3, seed)
    cards = [shoe.deal().baccarat_value for _ in range(6)]
    right, left = (cards[0] + cards[3]) % 10, (cards[1] + cards[4]) % 10
    return (cards[2] + cards[5]) % 10 == 9 and right < 9 and left < 9


async def test_one_hero_point_button_and_a_private_pick(bot_env: BotEnv) -> None:
    """Bond stakes on both tableaux and the bank wins both: two lost hands, one button."""
    fake, world = bot_env.fake, bot_env.world
    ids = await bond_and_mathis(bot_env)
    seeds = (n.to_bytes(32, "big") for n in range(20_000))
    bot_env.seeds.append(next(seed for seed in seeds if bank_wins_both_tables(seed)))
    async with bot_env.run():
        await fake.slash(world.owner, "gm role", role=world.gm_role)
        await fake.slash(
            world.gm,
            "table open deux_tableaux",
            npc="Le Chiffre",
            minimum="10",
            maximum="500",
            packs=3,
        )
        await wait_table(fake, "Le Chiffre")
        for user, amount in ((world.player, "300"), (world.player_fr, "100")):
            form = await fake.click(user, table_message(fake), button_id(fake, "seat"))
            joined = await fake.submit_modal(user, form, {"amount": amount})
            await fake.click(user, joined, by_action(joined, "choose:simulate"))
        await press(fake, world.gm, "start")
        await fake.slash(world.player_fr, "table bet", amount="10")  # he stakes, and wins
        await fake.slash(world.player, "table bet", amount="20")  # both tableaux
        await fake.wait_until(lambda: "Spend a Hero Point" in button_labels(fake))
        assert button_labels(fake).count("Spend a Hero Point") == 1
        before = await hero_points(bot_env, ids)
        pick = await fake.click(world.player, table_message(fake), button_id(fake, "hp"))
        assert pick.ephemeral and pick.content == "Which hand do you win back with a Hero Point?"
        labels = [b["label"] for b in pick.buttons()]
        assert len(labels) == 2 and len(set(labels)) == 2  # the two tableaux, told apart
        assert await hero_points(bot_env, ids) == before  # picking spends nothing
        spent = await fake.click(world.player, pick, pick.custom_ids()[0])
        assert spent.ephemeral and spent.content.startswith("You spend a Hero Point")
        assert await hero_points(bot_env, ids) == before - 1
