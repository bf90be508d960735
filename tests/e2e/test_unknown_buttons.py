"""A click whose custom id belongs to no area is answered (issue 20, item 4).

An old button of an area an upgrade removed, a forged id, or one of another application
used to get no answer at all ("This interaction failed"): it is told, in the clicker's
language, that the button does not exist any more, and nothing changes.
"""

from __future__ import annotations

from e2e_env import BotEnv
from sheet_helpers import dump, make_gm_role

from bondbot.i18n import t

GONE = ["bb:zzz:1:2", "bb:nope:1", "bb", "other-app:confirm:9", "bb:gm:zzz"]


async def test_a_button_of_no_area_is_answered_that_it_does_not_exist(bot_env: BotEnv) -> None:
    fake, w = bot_env.fake, bot_env.world
    async with bot_env.run() as bot:
        await make_gm_role(bot_env)
        shown = await fake.slash(w.gm, "gm ledger")
        message = shown.message
        assert message is not None
        message.components = [
            {
                "type": 1,
                "components": [
                    {"type": 2, "style": 2, "label": f"old {n}", "custom_id": custom}
                    for n, custom in enumerate(GONE)
                ],
            }
        ]
        before = await dump(bot)
        for custom in GONE:
            for lang, locale in (("en", None), ("fr", "fr")):
                answer = await fake.click(w.gm, message, custom, _locale=locale)
                assert answer.ephemeral, custom
                assert answer.content == t("errors.unknown_action", lang), custom
        assert await dump(bot) == before
