"""`/help` and `/rules` through the fake Discord: private answers in the user's language,
within Discord's limits (the fake refuses an embed over them), the full rules attached."""

from __future__ import annotations

from e2e_env import BotEnv

from bondbot.games.registry import all_games
from bondbot.rules_text import GAMES, TOPICS, full_text


async def test_help_teaches_the_first_steps_every_game_and_the_alternative_rule(
    bot_env: BotEnv,
) -> None:
    fake, world = bot_env.fake, bot_env.world
    async with bot_env.run():
        english = await fake.slash(world.player, "help")
        french = await fake.slash(world.player_fr, "help")
    assert english.ephemeral and french.ephemeral
    embed = english.embed
    assert embed is not None and embed["title"] == "BondBot"
    fields = {field["name"]: field["value"] for field in embed["fields"]}
    first = fields["The GM's first three commands"]
    assert first.index("/gm role") < first.index("/sheet create") < first.index("/table open")
    playable = {spec.key for spec in all_games()}
    assert {"punto_banco", "blackjack"} <= playable
    for key, shown in zip(GAMES, list(fields)[1 : 1 + len(GAMES)], strict=True):
        assert shown.endswith("(coming soon)") == (key not in playable), shown
    assert fields["Punto banco"].startswith("Each PC bets against the bank")
    example = fields["The alternative rule, by example"]
    assert "Gambling 8" in example and "$1,000" in example
    assert "/rules game:" in embed["footer"]["text"]

    embed = french.embed
    assert embed is not None
    fields = {field["name"]: field["value"] for field in embed["fields"]}
    assert "/mj rôle" in fields["Les trois premières commandes du MJ"]
    example = fields["La règle alternative, par l'exemple"]
    assert "Jeu 8" in example
    # Amounts as French writes them, in the server's currency: "500 $", not "$500".
    assert "mise 500\u00a0$ sur Joueur" in example and "paie 1\u202f000\u00a0$" in example
    assert "$5" not in example and "$1" not in example
    assert "/règles jeu:" in embed["footer"]["text"]


async def test_rules_answers_in_a_few_lines_with_the_full_text_attached(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    async with bot_env.run():
        answer = await fake.slash(world.player, "rules", game="punto_banco")
        french = await fake.slash(world.player_fr, "rules", game="makao")
        alternative = await fake.slash(world.player_fr, "rules", game="alternative")
    assert answer.ephemeral
    assert answer.embed is not None and answer.embed["title"] == "Punto banco"
    assert "Tie 8:1" in answer.embed["description"]
    (attached,) = answer.attachments
    assert attached.filename == "baccarat.md"
    assert attached.data == full_text("punto_banco")
    assert attached.data.startswith(b"# Baccarat, punto banco")

    assert french.embed is not None and french.embed["title"] == "Makao (piekiełko)"
    assert "annonce" in french.embed["description"]
    assert "en anglais" in french.embed["description"]
    (attached,) = french.attachments
    assert attached.filename == "makao.md" and attached.data == full_text("makao")
    assert alternative.embed is not None
    assert "paie 1\u202f000\u00a0$ (ses 500\u00a0$ rendus" in alternative.embed["description"]


async def test_every_topic_fits_discord_in_both_languages(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    async with bot_env.run():
        synced = fake.command("rules", world.guild)
        for user in (world.player, world.player_fr):
            for topic in TOPICS:
                answer = await fake.slash(user, "rules", game=topic)
                assert answer.embed is not None and answer.attachments, topic
    (option,) = synced["options"]
    assert [choice["value"] for choice in option["choices"]] == list(TOPICS)
    assert synced["name_localizations"]["fr"] == "règles"
