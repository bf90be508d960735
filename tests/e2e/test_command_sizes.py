"""Every command the bot syncs fits Discord's 8,000 characters, and `/table` keeps room.

Discord counts a top-level command's names, descriptions and choice names and values, of
it and of every option and subcommand under it, each field at its longest form (the
default or a localisation): `command_size`, which the fake also refuses a sync over.
`/table` holds every game's `/table open <game>`, so one more option on every game costs
eight times over: it must keep room for two more on each (docs/decisions.md).

Run with `-s` to see the sizes.
"""

from __future__ import annotations

from typing import Any

from e2e_env import BotEnv

from bondbot.games.registry import all_games
from bondbot.games.table_options import COMMON
from bondbot.local.validation import COMMAND_SIZE_MAX, command_size

# What one more option is reckoned to cost: a name and a description, at their longest
# (English or French), of 100 characters between them, choices included. The games' own
# options average less (asserted below), so the reckoning is not optimistic.
OPTION_COST = 100
MORE_OPTIONS = 2  # on every game


def _game_options(table: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Each game's own options on its `/table open` subcommand (the common ones aside)."""
    (opening,) = [group for group in table["options"] if group["name"] == "open"]
    common = {option.name for option in COMMON}
    return {
        game["name"]: [o for o in game["options"] if o["name"] not in common]
        for game in opening["options"]
    }


async def test_every_command_fits_and_table_has_room_for_two_options_a_game(
    bot_env: BotEnv,
) -> None:
    async with bot_env.run():
        synced = bot_env.fake.commands(bot_env.world.guild)
    sizes = {command["name"]: command_size(command) for command in synced}
    print("\ncommand sizes (of 8,000):", sizes)
    assert {"table", "sheet", "gm", "roll"} <= set(sizes)
    assert all(size <= COMMAND_SIZE_MAX for size in sizes.values()), sizes

    (table,) = [command for command in synced if command["name"] == "table"]
    own = _game_options(table)
    assert set(own) == {spec.key for spec in all_games()}
    costs = [command_size(option) for options in own.values() for option in options]
    mean = sum(costs) / len(costs)
    growth = MORE_OPTIONS * len(own) * OPTION_COST
    headroom = COMMAND_SIZE_MAX - sizes["table"]
    print(
        f"/table: {sizes['table']}, headroom {headroom}; two more options a game cost "
        f"{growth} (a game's own option averages {mean:.0f})"
    )
    assert mean <= OPTION_COST
    assert headroom >= growth
