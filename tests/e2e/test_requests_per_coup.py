"""What a coup costs of the bot token's budget, in every game (issue 32): the requests the
bot makes outside interaction answers, counted over an evening played through the fake
Discord at a human pace (`budget_evening.py`), with a picture for every hand shown.

At most one request a coup in every game but the trick games: a move clicked on the table
message is answered by redrawing it (the hand's picture on that answer), so the only
requests left are the redraws after a move made in a private panel (Same again in the
seat panel, a pick among several lost hands), one each, and the redraw when a Hero Point
window runs out unspent (its Spend button goes: the table shows only what can be done now;
this evening lets every window run out before the next coup, the worst case). Michigan and
Makao play every card from the player's private hand, so their table is redrawn by an edit
after each such card: no more than one a move, and nothing else."""

from __future__ import annotations

import pytest
from budget_evening import GAMES, cast, measure
from e2e_env import BotEnv

COUPS = 6
TRICK_GAMES = {"michigan", "makao"}  # every card played from a private hand


@pytest.mark.parametrize("game", GAMES)
async def test_requests_a_coup_outside_interaction_answers(bot_env: BotEnv, game: str) -> None:
    await cast(bot_env)
    spent = await measure(bot_env, game, COUPS)
    print(spent.line())
    assert spent.coups == COUPS
    assert spent.pictures == spent.shown > 0, "a picture for every hand shown"
    assert spent.limited == 0
    # Only a move made in a private panel costs requests: the table's redraw (one edit),
    # and the hand's picture in the thread when that move ended a hand.
    assert spent.stale_spend == 0, "a Spend button left on the table after its window"
    assert spent.by_kind["edits"] <= spent.private_moves + spent.windows_closed, spent.line()
    assert spent.by_kind["posts"] <= spent.coups, spent.line()
    assert spent.by_kind["threads"] == spent.by_kind["others"] == 0, spent.line()
    if game not in TRICK_GAMES:  # the moves' cost; a window's close is the clock's
        assert (spent.total - spent.windows_closed) / spent.coups <= 1.0, spent.line()
