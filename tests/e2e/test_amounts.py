"""Amounts through every option and modal: read as the user's language writes them, and
every malformed, ambiguous or huge amount answered with a clear refusal (nothing moves)."""

from __future__ import annotations

import json
from typing import Any

from e2e_env import BotEnv
from sheet_helpers import dump, query
from table_flow import (
    bond,
    create_cast,
    join,
    le_chiffre,
    mathis,
    press,
    wait_table,
)

from bondbot.bot.context import ECHO_MAX, clip
from bondbot.i18n import Lang, t
from bondbot.local import InteractionResult
from bondbot.money import EXAMPLES, MAX_AMOUNT, AmountError, format_amount, parse_amount

NNBSP, NBSP = "\u202f", "\u00a0"
# Each hostile text fits a modal's 16 characters; 26 and 400 digits go through options.
HOSTILE = ["1e26", "1e400", "NaN", "Infinity", "-inf", "9" * 16, "-5", "0", "1,000.005", "x"]
LONG = ["9" * 26, "9" * 400]


def refusal(text: str, lang: Lang) -> str:
    """What the bot must answer: the language's own message for why `text` is no amount
    (quoting at most ECHO_MAX characters of it)."""
    try:
        parse_amount(text, lang)
    except AmountError as error:
        return t(
            f"errors.amount.{error.code}",
            lang,
            text=clip(text.strip(), ECHO_MAX),
            example=EXAMPLES[lang],
            max=format_amount(MAX_AMOUNT, "$", lang),
        )
    raise AssertionError(f"{text!r} is an amount in {lang}")


async def _cast(env: BotEnv) -> None:
    world = env.world
    await create_cast(
        env,
        {
            "npc": le_chiffre(),
            "other": {**le_chiffre(), "name": "Mr Big"},
            "bond": bond(world.player),
            "mathis": mathis(world.player_fr),
        },
        {"bond": world.player, "mathis": world.player_fr},
    )


async def test_amounts_are_read_as_the_users_language_writes_them(bot_env: BotEnv) -> None:
    fake, w = bot_env.fake, bot_env.world
    await _cast(bot_env)
    async with bot_env.run() as bot:
        await bot.services.guilds.update(w.guild.id, gm_role_id=w.gm_role.id)

        def cash(amount: str, locale: str = "en-US") -> Any:
            return fake.slash(
                w.gm,
                "gm cash",
                character="James Bond",
                action="give",
                amount=amount,
                reason="per diem",
                _locale=locale,
            )

        thousand = await cash("1,000")  # it was read as $1
        assert thousand.content == t(
            "gm.given", "en", amount="$1,000", name="James Bond", balance="$2,000"
        )
        for text in ("1 000,50", "1000,50", f"1{NNBSP}000,50", "1.000,50"):
            given = await cash(text, "fr")
            # Answered in French, the amount as French writes it.
            assert given.content is not None, text
            assert given.content.startswith(f"1{NNBSP}000,50{NBSP}$ "), text
        before = await dump(bot)
        ambiguous = await cash("1,000", "fr")
        assert ambiguous.ephemeral and ambiguous.content == refusal("1,000", "fr")
        assert f"1{NNBSP}000,50" in ambiguous.content
        assert await dump(bot) == before

        await fake.slash(
            w.gm, "table open punto_banco", npc="Le Chiffre", minimum="10", maximum="1,000"
        )
        await wait_table(fake, "Le Chiffre")
        joined = await fake.slash(w.player, "table join", buy_in="1,500.50")
        assert joined.content.startswith(t("table.joined", "en", chips="$1,500.50"))
        joined_fr = await fake.slash(w.player_fr, "table join", buy_in="250,50")
        assert joined_fr.content.startswith(t("table.joined", "fr", chips=f"250,50{NBSP}$"))
        await press(fake, w.player, "choose", "simulate")
        placed = await fake.slash(w.player, "table bet", amount="1,000", on="player")
        assert placed.ephemeral and "$1,000" in (placed.content or "")
        states = await query(bot, "SELECT state FROM card_tables")
        assert [json.loads(state)["config"]["max_bet"] for (state,) in states] == [100_000]


async def test_every_amount_option_and_modal_refuses_bad_amounts_clearly(bot_env: BotEnv) -> None:
    fake, w = bot_env.fake, bot_env.world
    casino = fake.add_channel("casino", guild=w.guild)
    await _cast(bot_env)
    answers: list[tuple[str, str, InteractionResult, str]] = []
    async with bot_env.run() as bot:
        await bot.services.guilds.update(w.guild.id, gm_role_id=w.gm_role.id)
        await fake.slash(
            w.gm, "table open punto_banco", npc="Le Chiffre", minimum="10", maximum="500"
        )
        await wait_table(fake, "Le Chiffre")
        await join(fake, w.player, "500")
        await fake.slash(
            w.gm,
            "table open blackjack",
            npc="Mr Big",
            minimum="10",
            maximum="500",
            _channel=casino,
        )
        await fake.wait_for_message(casino, lambda m: bool(m.embeds))
        await fake.slash(w.player_fr, "table join", buy_in="100", _channel=casino)
        await press(fake, w.player, "choose", "rulebook")  # his contest's form below
        before = await dump(bot)

        for text in [*HOSTILE, *LONG]:
            for lang in ("en", "fr"):
                locale = "fr" if lang == "fr" else "en-US"
                grant = {"character": "James Bond", "action": "give", "reason": "r"}
                table = {"npc": "Mr Big", "minimum": "10"}
                table |= {"maximum": "500", "_channel": casino}
                options: list[tuple[str, dict[str, Any]]] = [
                    ("gm cash", {**grant, "amount": text}),
                    *[
                        ("table open punto_banco", {**table, name: text})
                        for name in ("minimum", "maximum")
                    ],
                    ("table open punto_banco", {**table, "bankroll": text}),
                    ("table seat", {"character": "René Mathis", "buy_in": text}),
                    ("table pot", {"stake": text}),
                ]
                for command, values in options:
                    if command == "gm cash" and len(text) > 32:
                        continue  # Discord itself keeps this option to 32 characters
                    result = await fake.slash(w.gm, command, _locale=locale, **values)
                    answers.append((command, text, result, refusal(text, lang)))
                player, player_lang = (w.player, "en") if lang == "en" else (w.player_fr, "fr")
                channel = w.channel if player is w.player else casino
                for command, values in (
                    ("table join", {"buy_in": text}),
                    ("table bet", {"amount": text, "on": "banker"}),
                    ("table contest", {"stake": text}),
                ):
                    if command == "table bet" and player is w.player_fr:
                        values = {"amount": text}
                    result = await fake.slash(player, command, _channel=channel, **values)
                    answers.append((command, text, result, refusal(text, player_lang)))
            if len(text) > 16:
                continue
            # Every form a button opens: the buy-in (My seat, to someone seated elsewhere),
            # the rulebook contest (in the rulebook player's own panel).
            for user, lang, channel, action in (
                (w.player, "en", w.channel, "contest"),
                (w.player, "en", casino, "seat"),
                (w.player_fr, "fr", w.channel, "seat"),
            ):
                message = next(
                    m
                    for m in fake.channel_messages(channel)
                    if m.embeds and m.ephemeral_for is None and not m.deleted
                )
                seat = next(c for c in message.custom_ids() if c.endswith(":seat"))
                modal = await fake.click(user, message, seat)
                if action != "seat":  # his panel, then the button in it
                    button = next(c for c in modal.custom_ids() if c.endswith(f":{action}"))
                    modal = await fake.click(user, modal, button)
                assert modal.modal is not None, action
                result = await fake.submit_modal(user, modal, {"amount": text})
                answers.append((f"modal {action}", text, result, refusal(text, lang)))
        assert await dump(bot) == before
        assert await query(bot, "SELECT COUNT(*) FROM card_tables") == [(2,)]
    wrong = [
        (command, text[:20], result.content)
        for command, text, result, expected in answers
        if not (result.ephemeral and result.content == expected)
    ]
    assert wrong == []
    assert len(answers) > 150
