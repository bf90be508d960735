"""A table speaks its own language: `/table open … language:fr` on an English server makes
every public payload French (the table message and its buttons, the thread's name, the
result post with its picture's alt text, the closed table, the summary and its chart,
amounts written "20 $"), while each player's private answers stay in his own Discord
language. Without the option, a table speaks the server's language of its opening."""

from __future__ import annotations

import json
import re
from typing import Any

from e2e_env import BotEnv
from table_flow import (
    bond,
    button_id,
    create_cast,
    join,
    le_chiffre,
    mathis,
    redrawn_with,
    table_message,
)

from bondbot.bot.tables.story import read_story, summary_chart
from bondbot.i18n import Lang, catalog, t
from bondbot.local import FakeDiscord
from bondbot.local.models import FakeChannel, FakeMessage
from bondbot.money import Currency, format_amount

NBSP = "\u00a0"
TURN_TIMER = 30
SEED = (2).to_bytes(32, "big")  # the blackjack round of tests/e2e/test_end_of_the_evening.py
ENGLISH_AMOUNT = re.compile(r"\$[0-9]")  # "$20": English's way, never on a French table
FRENCH_AMOUNT = re.compile(rf"[0-9]{NBSP}\$")  # "20 $"


def title(lang: Lang) -> str:
    return t("table.title", lang, game=t("games.blackjack", lang), npc="Le Chiffre")


def only_in(lang: Lang, labels: list[str | None]) -> list[str]:
    """The labels that are words of `lang` the other language's catalog does not share."""
    other = catalog("fr" if lang == "en" else "en")
    words = set(catalog(lang).values()) - set(other.values())
    return [label for label in labels if label in words]


def public_texts(fake: FakeDiscord) -> list[str]:
    """Every version of every message anyone could see (no ephemeral answer), as text,
    with its attachments' descriptions."""
    texts = []
    for message in fake.messages.values():
        if message.ephemeral_for is not None or message.flags & 64:
            continue
        for version in [*message.history, message.snapshot()]:
            texts.append(
                json.dumps(
                    [version.content, version.embeds, version.components], ensure_ascii=False
                )
            )
        texts += [a.description or "" for a in message.attachments]
    return texts


def thread_of(fake: FakeDiscord) -> FakeChannel:
    (thread,) = [c for c in fake.channels.values() if c.is_thread]
    return thread


async def posted(fake: FakeDiscord, thread: FakeChannel, heading: str) -> FakeMessage:
    def titled(m: FakeMessage) -> bool:
        return bool(m.embeds) and m.embeds[0].get("title") == heading

    return await fake.wait_for_message(thread, titled)


def embed_text(message: FakeMessage) -> str:
    return json.dumps(message.embeds, ensure_ascii=False)


async def test_a_french_table_on_an_english_server(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    await create_cast(
        bot_env,
        {"npc": le_chiffre(), "bond": bond(world.player), "mathis": mathis(world.player_fr)},
        {"bond": world.player, "mathis": world.player_fr},
    )
    bot_env.seeds.append(SEED)
    async with bot_env.run() as bot:
        await bot.services.guilds.update(
            world.guild.id, gm_role_id=world.gm_role.id, turn_timer_s=TURN_TIMER
        )
        assert (await bot.services.guilds.get(world.guild.id)).locale == "en"
        # The option is offered in both languages, its choices too.
        (blackjack,) = [
            sub
            for group in fake.command("table", world.guild)["options"]
            if group["name"] == "open"
            for sub in group["options"]
            if sub["name"] == "blackjack"
        ]
        (option,) = [o for o in blackjack["options"] if o["name"] == "language"]
        assert option["name_localizations"]["fr"] == "langue"
        assert option["description_localizations"]["fr"].startswith("La langue de la table")
        assert {c["value"]: c["name_localizations"]["fr"] for c in option["choices"]} == {
            "fr": "Français",
            "en": "Anglais",
        }

        opened = await fake.slash(
            world.gm,
            "table open blackjack",
            npc="Le Chiffre",
            minimum="10",
            maximum="1000",
            bankroll="10000",
            language="fr",
        )
        assert opened.ephemeral and opened.content.startswith("Table opened")  # the GM's own
        table = await fake.wait_for_message(
            predicate=lambda m: bool(m.embeds) and m.embeds[0].get("title") == title("fr")
        )
        limits = table.embeds[0]["fields"][0]
        assert limits["name"] == t("table.limits", "fr")
        assert f"10{NBSP}$" in limits["value"] and f"1\u202f000{NBSP}$" in limits["value"]
        # Whichever buttons the table shows now, they are French.
        labels = table_message(fake).button_labels()
        assert only_in("fr", labels) and only_in("en", labels) == []
        thread = thread_of(fake)
        assert thread.name == t(
            "table.thread_name", "fr", game=t("games.blackjack", "fr"), npc="Le Chiffre"
        )

        # Private answers: each player's own language, amounts as it writes them.
        joined = await join(fake, world.player, "200")
        assert joined.content.startswith(t("table.joined", "en", chips="$200"))
        joined_fr = await join(fake, world.player_fr, "200")
        assert joined_fr.content.startswith(t("table.joined", "fr", chips=f"200{NBSP}$"))
        for player in (world.player, world.player_fr):
            await bot.services.tables.choose(1, player.id, "simulate")
        await fake.wait_until(  # the table is drawn again with Bet once someone plays
            lambda: any(c.endswith(":bet") for c in table_message(fake).custom_ids())
        )
        form = await fake.click(world.player, table_message(fake), button_id(fake, "bet"))
        assert form.modal is not None and form.modal.title == t("blackjack.modal_bet", "en")
        bet = await fake.submit_modal(world.player, form, {"amount": "20"})
        # The table's own form is answered by the table redrawn, in the table's language
        assert redrawn_with(bet, t("blackjack.bet_line", "fr", amount=f"20{NBSP}$"))
        again = await fake.slash(world.player, "table bet", amount="20")  # a private answer
        assert again.content == t("blackjack.bet_placed", "en", amount="$20")
        bet_fr = await fake.slash(world.player_fr, "table bet", amount="20")
        assert bet_fr.content == t("blackjack.bet_placed", "fr", amount=f"20{NBSP}$")
        await fake.wait_until(
            lambda: f"20{NBSP}$" in embed_text(table_message(fake)), what="the bets, in French"
        )
        labels = table_message(fake).button_labels()
        assert t("blackjack.btn_bet", "fr") in labels and only_in("en", labels) == []

        await fake.slash(world.gm, "table deal")
        tables = bot.services.tables
        for _ in range(20):  # every decision left to the timer: each hand stands
            if not (await tables.snapshot(1)).state.engine.in_hand():
                break
            bot_env.clock.advance(TURN_TIMER + 1)
            await tables.run_due()
        assert not (await tables.snapshot(1)).state.engine.in_hand()

        # The result, posted in the thread: French heading, rows and alt text.
        heading = t("games.result_heading.blackjack", "fr", hand=1)
        result = await posted(fake, thread, heading)
        dealer = t("table.shown_dealer", "fr")
        assert dealer in result.embeds[0]["description"]
        (picture,) = result.attachments
        assert picture.description is not None
        assert picture.description.startswith(heading) and dealer in picture.description
        assert "Dealer" not in picture.description

        closed = await fake.slash(world.gm, "table close")
        assert closed.content.startswith("Table closed")  # the GM's own answer, English
        await fake.wait_for_message(
            predicate=lambda m: t("table.closed_banner", "fr") in embed_text(m)
        )
        story = await posted(fake, thread, t("summary.title", "fr"))
        told = embed_text(story)
        # A blackjack table says "Donne 1": so does its summary, not "Mains jouées".
        assert "Donnes jouées : 1." in told and "Mains jouées" not in told
        assert "James Bond" in told and "René Mathis" in told and "Le Chiffre" in told
        # The chart, drawn in French: its title, its amounts.
        (chart,) = story.attachments
        snapshot = await tables.snapshot(1)
        async with bot.db.read() as conn:  # type: ignore[union-attr]
            evening = await read_story(conn, snapshot)

        def drawn(lang: Lang) -> bytes | None:
            money = Currency("$", lang)
            return summary_chart(evening, snapshot, lang, lambda c: format_amount(c, money))

        assert chart.data == drawn("fr") != drawn("en")

        # On the closed French table, the English player is still answered in English.
        verify = await fake.slash(world.player, "table verify")
        assert verify.ephemeral and verify.embeds[0]["title"] == t("table.verify_title", "en")

    texts = public_texts(fake)
    assert [text for text in texts if ENGLISH_AMOUNT.search(text)] == []
    assert any(FRENCH_AMOUNT.search(text) for text in texts)


async def test_without_the_option_a_table_speaks_the_servers_language(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    casino = fake.add_channel("casino", guild=world.guild)
    await create_cast(
        bot_env, {"npc": le_chiffre(), "bond": bond(world.player)}, {"bond": world.player}
    )
    async with bot_env.run() as bot:
        guilds = bot.services.guilds
        await guilds.update(world.guild.id, gm_role_id=world.gm_role.id)

        def table_in(channel: FakeChannel) -> FakeMessage:
            (found,) = [
                m
                for m in fake.channel_messages(channel)
                if m.embeds and m.ephemeral_for is None and m.author.id == fake.bot_user.id
            ]
            return found

        async def open_in(channel: FakeChannel, lang: Lang) -> dict[str, Any]:
            await fake.slash(
                world.gm,
                "table open blackjack",
                npc="Le Chiffre",
                minimum="10",
                maximum="1000",
                _channel=channel,
            )
            await fake.wait_until(
                lambda: any(
                    m.embeds and m.embeds[0].get("title") == title(lang)
                    for m in fake.channel_messages(channel)
                ),
                what=f"the table in {lang}",
            )
            return table_in(channel).embeds[0]

        english = await open_in(world.channel, "en")
        assert "$10" in english["fields"][0]["value"]
        await guilds.update(world.guild.id, locale="fr")
        french = await open_in(casino, "fr")
        assert f"10{NBSP}$" in french["fields"][0]["value"]
        assert [s.state.config.language for s in await bot.services.tables.open_tables()] == [
            "en",
            "fr",
        ]
        # The first table keeps the language it was opened in when it is redrawn.
        joined = await join(fake, world.player, "200")
        assert joined.content.startswith(t("table.joined", "en", chips="$200"))
        await fake.wait_until(lambda: "James Bond" in embed_text(table_in(world.channel)))
        assert table_in(world.channel).embeds[0]["title"] == title("en")
