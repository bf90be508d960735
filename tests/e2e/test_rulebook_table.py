"""A table with several NPCs: nobody simulates, everyone plays the contest for a pot."""

from __future__ import annotations

import asyncio

from e2e_env import BotEnv
from table_flow import (
    balances,
    bond,
    button_labels,
    create_cast,
    join,
    le_chiffre,
    press,
    table_message,
    wait_table,
)


async def test_several_npcs_play_the_rulebook_for_a_pot(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    ids = await create_cast(
        bot_env,
        {
            "chiffre": le_chiffre(),
            "obanno": {"name": "Obanno", "kind": "NPC"},
            "bond": bond(world.player, hero_points=2),
        },
        {"bond": world.player},
    )
    async with bot_env.run():
        await fake.slash(world.owner, "gm role", role=world.gm_role)
        opened = await fake.slash(
            world.gm,
            "table open punto_banco",
            npc="Le Chiffre",
            minimum="10",
            maximum="500",
            other_npcs="Obanno",
        )
        assert opened.ephemeral and "needs exactly one NPC" in opened.content
        await wait_table(fake, "Rulebook only")
        assert "simulate" not in str(table_message(fake).components)

        await join(fake, world.player, "200")
        simulate = await fake.slash(world.player, "table bet", on="player", amount="10")
        assert simulate.ephemeral and "Several NPCs play" in simulate.content

        not_gm = await fake.slash(world.player, "table pot", stake="50")
        assert not_gm.ephemeral and "Only the GM" in not_gm.content
        started = await fake.slash(world.gm, "table pot", stake="50")
        assert started.content.startswith("Pot started: 3 rolls.")
        await wait_table(fake, "Pot in play")

        mine = await press(fake, world.player, "proll")
        assert mine.ephemeral and mine.content.startswith("Your Gambling roll:")
        outsider = await press(fake, world.player_fr, "proll")
        assert outsider.ephemeral and outsider.content == "Vous n'avez pas de jet dans ce pot."

        settled = await press(fake, world.gm, "psettle")
        assert settled.ephemeral
        done = await wait_table(fake, "Takes the pot:")
        text = str(done.embeds)
        assert all(name in text for name in ("James Bond:", "Le Chiffre:", "Obanno:"))
        # Between pots the table has nothing to roll; the GM starts the next from his panel.
        assert button_labels(fake) == ["My seat", "GM"]
        form = await press(fake, world.gm, "gpot")
        assert form.modal is not None
        again = await fake.submit_modal(world.gm, form, {"amount": "20"})
        assert again.embed is not None
        assert again.embed["description"].startswith("Pot started: 3 rolls.")
        await fake.wait_until(lambda: "My roll" in button_labels(fake))
        await fake.slash(world.gm, "table close")

    cash, hero = (await balances(bot_env, ids))["bond"]
    # Bond staked 50 of his 1000, then 20; of each pot he won nothing, a third, a half, or
    # the whole (the second is settled at the close).
    first, second = {0, 5_000, 7_500, 15_000}, {0, 2_000, 3_000, 6_000}
    assert cash - 93_000 in {a + b for a in first for b in second}
    assert hero == 2


async def test_a_rulebook_contest_survives_a_lost_answer_and_a_restart(bot_env: BotEnv) -> None:
    """The contest's private message is gone (a restart): the Contest button brings it
    back; its step button buys one step however often it is clicked."""
    fake, world = bot_env.fake, bot_env.world
    await create_cast(
        bot_env,
        {"chiffre": le_chiffre(), "bond": bond(world.player, hero_points=3)},
        {"bond": world.player},
    )
    async with bot_env.run():
        await fake.slash(world.owner, "gm role", role=world.gm_role)
        await fake.slash(
            world.gm, "table open punto_banco", npc="Le Chiffre", minimum="10", maximum="500"
        )
        await wait_table(fake, "Le Chiffre")
        await join(fake, world.player, "200")
        await press(fake, world.player, "choose", "rulebook")
        contest = await press(fake, world.player, "contest")  # in his panel
        assert contest.modal is not None
        (row,) = contest.modal.components
        (field,) = row.get("components", [row.get("component")])
        assert field["placeholder"].startswith("At most $")  # his chips, the limit
        rolled = await fake.submit_modal(world.player, contest, {"amount": "20"})
        assert rolled.content.startswith("Your Gambling roll")
    async with bot_env.run():  # the bot restarts; the player lost his private message
        await wait_table(fake, "Le Chiffre")
        again = await press(fake, world.player, "contest")
        assert again.modal is None and again.content == rolled.content
        (step,) = [
            button
            for row in again.components
            for button in row["components"]
            if ":cstep:" in button["custom_id"]
        ]
        if not step.get("disabled"):  # his roll can still improve
            clicks = await asyncio.gather(
                *(fake.click(world.player, again, step["custom_id"]) for _ in range(5))
            )
            answers = sorted(c.content or "" for c in clicks)
            assert sum("Hero Points spent: 1." in answer for answer in answers) == 1
            refused = [a for a in answers if "Hero Points spent" not in a]
            assert refused == ["That step was already bought: one click, one step."] * 4
        settle = next(cid for cid in again.custom_ids() if ":csettle:" in cid)
        settled = await fake.click(world.player, again, settle)
        assert settled.content == "Contest settled: the result is on the table."
