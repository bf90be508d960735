"""/roll end to end: the 007 skill roll, and Hero Points spent on it one step per click."""

from __future__ import annotations

import asyncio

from e2e_env import BotEnv
from sheet_helpers import ScriptedRandom, dump, make_gm_role, query, query_file, refused

from bondbot.i18n import t
from bondbot.local import InteractionResult


def fields(result: InteractionResult) -> dict[str, str]:
    assert result.embed is not None, result
    return {f["name"]: f["value"] for f in result.embed["fields"]}


async def _setup(env: BotEnv) -> None:
    """Bond (PER 9, Gambling 8, 3 Hero Points), René (French, no points), Le Chiffre (NPC)."""
    fake, w = env.fake, env.world
    await make_gm_role(env)
    await fake.slash(w.player, "sheet create", name="James Bond", perception=9)
    await fake.slash(w.player, "sheet skill", skill="Gambling", level=8)
    await fake.slash(w.gm, "gm hero", character="James Bond", action="give", amount=3, reason="r")
    await fake.slash(w.player_fr, "sheet create", name="René Mathis", perception=8)
    await fake.slash(w.player_fr, "sheet skill", skill="Jeu", level=4)
    await fake.slash(w.gm, "sheet create", name="Le Chiffre", kind="NPC", perception=17)
    await fake.slash(w.gm, "sheet skill", character="Le Chiffre", skill="Jeu", level=12)


async def test_roll_then_spend_hero_points_step_by_step(bot_env: BotEnv) -> None:
    fake, w = bot_env.fake, bot_env.world
    bot_env.rng = ScriptedRandom([90])
    async with bot_env.run() as bot:
        await _setup(bot_env)
        rolled = await fake.slash(w.player, "roll", skill="gambling")
        assert not rolled.ephemeral  # rolls are public unless secret
        assert rolled.embed["title"] == "James Bond — Gambling"
        assert fields(rolled) == {
            "Characteristic": "PER 9",
            "Skill level": "8",
            "Primary Chance": "17",
            "Ease Factor": "5",
            "Success Chance": "85",
            "Roll (d100)": "**90**",
            "Quality Result": "**failure**",
        }
        assert rolled.custom_ids() == ["bb:roll:step:1:0"]
        assert rolled.button_labels() == ["Spend a Hero Point → Acceptable (QR 4) (3 left)"]

        # Only the owner may spend: the GM's click on it is refused and spends nothing.
        before = await dump(bot)
        gm_click = await fake.click(w.gm, rolled, "bb:roll:step:1:0")
        assert refused(gm_click, "roll.not_your_button")
        fr_click = await fake.click(w.player_fr, rolled, "bb:roll:step:1:0")
        assert refused(fr_click, "roll.not_your_button", "fr")
        assert await dump(bot) == before

        step = await fake.click(w.player, rolled, "bb:roll:step:1:0")
        assert step.response_type == 7  # the roll's message is edited in place
        assert fields(rolled)["Quality Result"].startswith("**Acceptable (QR 4)**")
        assert rolled.custom_ids() == ["bb:roll:step:1:1"]
        await fake.click(w.player, rolled, "bb:roll:step:1:1")
        assert fields(rolled)["Quality Result"] == (
            "**Good (QR 3)**\n" + t("roll.improved", "en", steps=2, rolled="failure")
        )
        assert rolled.button_labels() == ["Spend a Hero Point → Very Good (QR 2) (1 left)"]
        await fake.click(w.player, rolled, "bb:roll:step:1:2")
        # Out of Hero Points: the click is refused and nothing moves.
        before = await dump(bot)
        empty = await fake.click(w.player, rolled, "bb:roll:step:1:3")
        assert refused(empty, "roll.no_hero_points", name="James Bond")
        assert await dump(bot) == before
        rows = await query(
            bot,
            "SELECT kind, amount, src, dst, reason, actor_id, note FROM ledger"
            " WHERE reason = 'roll.step' ORDER BY id",
        )
        assert rows == [("hero", 1, "sheet:1", None, "roll.step", w.player.id, "roll 1")] * 3
        assert await query(bot, "SELECT steps, quality, d100 FROM rolls") == [(3, None, 90)]
        shown = await fake.slash(w.player, "sheet show")
        assert fields(shown)["Hero Points"] == "0"


async def test_double_click_spends_once_and_a_restart_keeps_the_roll(bot_env: BotEnv) -> None:
    fake, w = bot_env.fake, bot_env.world
    bot_env.rng = ScriptedRandom([50, 95])
    async with bot_env.run() as bot:
        await _setup(bot_env)
        rolled = await fake.slash(w.player, "roll", skill="Jeu")
        assert fields(rolled)["Quality Result"] == "**Acceptable (QR 4)**"
        first, second = await asyncio.gather(
            fake.click(w.player, rolled, "bb:roll:step:1:0"),
            fake.click(w.player, rolled, "bb:roll:step:1:0"),
        )
        answers = sorted([first, second], key=lambda r: r.response_type or 0)
        assert answers[0].response_type == 4 and refused(answers[0], "roll.already_spent")
        assert answers[1].response_type == 7
        assert await query(bot, "SELECT steps FROM rolls WHERE id = 1") == [(1,)]
        assert await query(bot, "SELECT COUNT(*) FROM ledger WHERE reason = 'roll.step'") == [(1,)]
        assert fields(rolled)["Quality Result"].startswith("**Good (QR 3)**")

        secret = await fake.slash(w.player, "roll", skill="gambling", secret=True)
        assert secret.ephemeral and fields(secret)["Roll (d100)"] == "**95**"

    # A restart between the roll and the spend: the button still works, once.
    async with bot_env.run() as bot:
        step = await fake.click(w.player, secret, "bb:roll:step:2:0")
        assert step.response_type == 7
        assert fields(secret)["Quality Result"].startswith("**Acceptable (QR 4)**")
        stale = await fake.click(w.player, rolled, "bb:roll:step:1:1")
        assert stale.response_type == 7  # the first roll's button too, at its shown step
    assert await query_file(bot_env.database, "SELECT id, steps FROM rolls ORDER BY id") == [
        (1, 2),
        (2, 1),
    ]
    assert await query_file(
        bot_env.database, "SELECT balance FROM balances WHERE account = 'sheet:1' AND kind = 'hero'"
    ) == [(0,)]


async def test_roll_rules_options_and_refusals(bot_env: BotEnv) -> None:
    fake, w = bot_env.fake, bot_env.world
    bot_env.rng = ScriptedRandom([5, 10, 15, 40, 60, 80])
    async with bot_env.run() as bot:
        await _setup(bot_env)
        # QR 1 needs no Hero Point: no button.
        best = await fake.slash(w.player, "roll", skill="Gambling")
        assert fields(best)["Quality Result"] == "**Excellent (QR 1)**"
        assert best.components == []
        # Without the skill: the characteristic alone, Ease Factor 3 lower.
        unskilled = await fake.slash(w.player, "roll", skill="Driving")
        got = fields(unskilled)
        assert (got["Characteristic"], got["Skill level"], got["Primary Chance"]) == (
            "DEX 5",
            "none (Ease Factor −3)",
            "5",
        )
        assert got["Ease Factor"] == "2 (asked 5, −3 without the skill)"
        assert got["Success Chance"] == "10" and got["Quality Result"] == "**Acceptable (QR 4)**"
        # A chosen characteristic and Ease Factor.
        custom = await fake.slash(
            w.player, "roll", skill="Gambling", characteristic="INT", ease=2.5
        )
        got = fields(custom)
        assert (got["Characteristic"], got["Primary Chance"], got["Ease Factor"]) == (
            "INT 5",
            "13",
            "2½",
        )
        assert got["Success Chance"] == "32" and got["Quality Result"] == "**Good (QR 3)**"

        # French: names, labels and the roll's characteristic in French.
        fr = await fake.slash(w.player_fr, "roll", skill="jeu")
        assert fr.embed["title"] == "René Mathis — Jeu"
        got = fields(fr)
        assert got["Caractéristique"] == "PER 8" and got["Chance de Réussite"] == "60"
        assert got["Qualité de Réussite"] == "**Acceptable (QR 4)**"
        assert fr.button_labels() == ["Dépenser un Point d'Héroïsme → Bon (QR 3) (reste 0)"]
        before = await dump(bot)
        poor = await fake.click(w.player_fr, fr, fr.custom_ids()[0])
        assert refused(poor, "roll.no_hero_points", "fr", name="René Mathis")
        assert await dump(bot) == before
        choices = await fake.autocomplete(w.player_fr, "roll", focused="skill", value="séd")
        assert choices == [{"name": "Séduction", "value": "seduction"}]

        # The GM rolls for anyone; an NPC's roll has no Hero Point button.
        npc = await fake.slash(w.gm, "roll", skill="Gambling", character="Le Chiffre", secret=True)
        assert npc.ephemeral and fields(npc)["Primary Chance"] == "29" and npc.components == []
        for_bond = await fake.slash(w.gm, "roll", skill="Gambling", character="James Bond")
        assert fields(for_bond)["Roll (d100)"] == "**80**"
        spend = await fake.click(w.player, for_bond, for_bond.custom_ids()[0])
        assert spend.response_type == 7  # the PC's player spends on the GM's roll for him

        # The spend window closes (the server's Hero Point spend window, 60 s by default).
        bot_env.clock.advance(61)
        before = await dump(bot)
        late = await fake.click(w.player, for_bond, for_bond.custom_ids()[0])
        assert late.response_type == 7 and for_bond.components == []  # the button goes
        said = await late.wait_followup()
        assert said.ephemeral and said.content == t("roll.window_closed", "en", seconds=60)
        assert await dump(bot) == before

        # Refusals: someone else's PC, a hidden NPC, a bad Ease Factor, no active character.
        before = await dump(bot)
        others = await fake.slash(w.player, "roll", skill="Gambling", character="René Mathis")
        assert refused(others, "roll.not_yours", name="René Mathis")
        hidden = await fake.slash(w.player_fr, "roll", skill="Jeu", character="Le Chiffre")
        assert refused(hidden, "characters.not_found", "fr", name="Le Chiffre")
        ease = await fake.slash(w.player, "roll", skill="Gambling", ease=2.3)
        assert refused(ease, "roll.bad_ease", ease="2.3")
        nobody = await fake.slash(w.owner, "roll", skill="Gambling")
        assert refused(nobody, "sheet.no_active")
        skill = await fake.slash(w.player, "roll", skill="x" * 41)
        assert refused(skill, "roll.bad_skill")
        assert await dump(bot) == before
