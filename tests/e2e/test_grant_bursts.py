"""Identical GM grants sent at once are one intent (issue 20, item 2).

Twenty `/gm hero` or `/gm cash` with the same character, give or take, amount and reason,
sent at the same moment by one GM or split between two: one is applied, the others are
asked whether to do it again (nothing done), and the ledger holds exactly one row.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from e2e_env import BotEnv
from fakediscord import InteractionResult
from sheet_helpers import make_gm_role, query

BURST = 20
AMOUNTS = {"hero": 1, "cash": "25"}


def _applied(answer: InteractionResult, action: str) -> bool:
    word = "given to" if action == "give" else "taken from"
    return word in (answer.content or "") and not answer.components


async def _burst(
    env: BotEnv, gms: list[Any], command: str, action: str, reason: str
) -> list[InteractionResult]:
    options = {
        "character": "James Bond",
        "action": action,
        "amount": AMOUNTS[command.split()[1]],
        "reason": reason,
    }
    return list(
        await asyncio.gather(
            *(env.fake.slash(gms[i % len(gms)], command, **options) for i in range(BURST))
        )
    )


@pytest.mark.parametrize("command", ["gm hero", "gm cash"])
async def test_identical_grants_sent_at_once_are_applied_once(
    bot_env: BotEnv, command: str
) -> None:
    fake, w = bot_env.fake, bot_env.world
    felix = fake.add_user(None, "gm2", global_name="Felix", roles=[w.gm_role])
    async with bot_env.run() as bot:
        await make_gm_role(bot_env)
        await fake.slash(w.player, "sheet create", name="James Bond")
        kind = command.split()[1]
        # Enough to take from: 40 Hero Points or $1,000, one row before the bursts.
        await fake.slash(
            w.gm,
            command,
            character="James Bond",
            action="give",
            amount=40 if kind == "hero" else "1000",
            reason="stake",
        )
        for action in ("give", "take"):
            for gms, who in (([w.gm], "one"), ([w.gm, felix], "two")):
                reason = f"{action} by {who}"
                answers = await _burst(bot_env, gms, command, action, reason)
                rows = await query(bot, "SELECT id FROM ledger WHERE note = ?", reason)
                assert len(rows) == 1, (action, who, len(rows))
                (entry,) = rows[0]
                assert all(a.ephemeral and a.content for a in answers)
                assert sum(_applied(a, action) for a in answers) == 1
                # The others are asked, about that one row, and changed nothing.
                asked = [a for a in answers if not _applied(a, action)]
                assert len(asked) == BURST - 1
                for answer in asked:
                    assert answer.custom_ids() == [f"bb:gm:again:{entry}", f"bb:gm:once:{entry}"]
                    assert "at the same moment" in answer.content
        # Sequential grants stay two rows: an answer that arrived means the next is meant.
        for _ in range(2):
            again = await fake.slash(
                w.gm,
                command,
                character="James Bond",
                action="give",
                amount=AMOUNTS[kind],
                reason="give by one",
            )
            assert _applied(again, "give"), again.content
        rows = await query(bot, "SELECT id FROM ledger WHERE note = 'give by one'")
        assert len(rows) == 3
