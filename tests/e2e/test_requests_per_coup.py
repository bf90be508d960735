"""What a coup costs of the bot token's budget, in every game (issue 32): the requests the
bot makes outside interaction answers, counted over an evening played through the fake
Discord at a human pace (`budget_evening.py`), with a picture for every hand."""

from __future__ import annotations

import pytest
from budget_evening import GAMES, cast, measure
from e2e_env import BotEnv

COUPS = 6


@pytest.mark.parametrize("game", GAMES)
async def test_requests_a_coup_outside_interaction_answers(bot_env: BotEnv, game: str) -> None:
    await cast(bot_env)
    spent = await measure(bot_env, game, COUPS)
    print(spent.line())
    assert spent.coups == COUPS
    assert spent.pictures == spent.shown > 0, "a picture for every hand shown"
    assert spent.limited == 0
