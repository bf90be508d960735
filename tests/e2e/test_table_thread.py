"""A table plays in a public thread started from its message; without the permission to
start one, the GM is told and the table plays in the channel; `thread:False` keeps it
there by choice."""

from __future__ import annotations

from e2e_env import BotEnv
from table_flow import bond, create_cast, join, le_chiffre, table_message, wait_table

from bondbot.local.models import CREATE_PUBLIC_THREADS, Overwrite


async def open_punto_banco(bot_env: BotEnv, **more: object) -> str:
    fake, world = bot_env.fake, bot_env.world
    await fake.slash(world.owner, "gm role", role=world.gm_role)
    opened = await fake.slash(
        world.gm,
        "table open punto_banco",
        npc="Le Chiffre",
        minimum="10",
        maximum="500",
        **more,
    )
    assert opened.ephemeral and opened.content.startswith("Table opened")
    await wait_table(fake, "Le Chiffre")
    return opened.content


async def test_without_the_permission_the_table_plays_in_the_channel(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    world.channel.overwrites.append(
        Overwrite(id=fake.bot_user.id, type=1, deny=CREATE_PUBLIC_THREADS)
    )
    await create_cast(
        bot_env, {"chiffre": le_chiffre(), "bond": bond(world.player)}, {"bond": world.player}
    )
    async with bot_env.run():
        answer = await open_punto_banco(bot_env)
        assert "I may not start a thread here" in answer
        assert "Create Public Threads" in answer
        assert not [c for c in fake.channels.values() if c.is_thread]
        joined = await join(fake, world.player, "100")  # the table works in the channel
        assert joined.content.splitlines() == [
            "You sit down with $100 in chips.",
            "Do you simulate (Hero Points by your Gambling) or play the rulebook's contest?",
        ]
        assert [b["label"] for b in joined.buttons()] == ["Simulate", "Rulebook"]
        assert table_message(fake).channel_id == world.channel.id


async def test_a_table_may_stay_in_the_channel(bot_env: BotEnv) -> None:
    fake = bot_env.fake
    await create_cast(bot_env, {"chiffre": le_chiffre()}, {})
    async with bot_env.run():
        answer = await open_punto_banco(bot_env, thread=False)
        assert "thread" not in answer
        assert not [c for c in fake.channels.values() if c.is_thread]
