"""What a table makes of Discord's answers (bondbot/bot/tables/mending.py): which are
mended, told, tried again; the nonce of a table posted again; the refusal's words."""

from __future__ import annotations

from types import SimpleNamespace

import aiohttp
import discord
import pytest

from bondbot.bot.tables.mending import (
    BACKOFF_MAX_S,
    backoff,
    outcome,
    refused_line,
    repost_nonce,
)
from bondbot.errors import Refusal


def http_error(kind: type[discord.HTTPException], status: int, code: int) -> Exception:
    response = SimpleNamespace(status=status, reason="x")
    return kind(response, {"message": "x", "code": code})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (http_error(discord.NotFound, 404, 10008), "gone"),
        (http_error(discord.NotFound, 404, 10003), "gone"),
        (http_error(discord.HTTPException, 400, 50083), "closed"),
        (http_error(discord.Forbidden, 403, 50013), "refused"),
        (http_error(discord.Forbidden, 403, 50001), "refused"),
        (http_error(discord.HTTPException, 429, 0), "later"),
        (http_error(discord.DiscordServerError, 503, 0), "later"),
        (aiohttp.ClientConnectionError(), "later"),
        (TimeoutError(), "later"),
        (Refusal("errors.busy"), "later"),
        (http_error(discord.HTTPException, 400, 50035), "bug"),
        (ValueError("ours"), "bug"),
    ],
)
def test_each_answer_has_its_outcome(error: Exception, expected: str) -> None:
    assert outcome(error) == expected


def test_the_pause_doubles_up_to_a_minute() -> None:
    assert [backoff(n) for n in range(1, 9)] == [1, 2, 4, 8, 16, 32, 60, 60]
    assert backoff(100) == BACKOFF_MAX_S


def test_a_repost_nonce_is_one_per_deletion_and_within_discord_s_limit() -> None:
    biggest = 2**64 - 1  # a snowflake
    nonces = {repost_nonce(999_999_999, m) for m in (biggest, biggest - 1, 1)}
    assert len(nonces) == 3
    assert all(len(n) <= 25 for n in nonces)
    assert repost_nonce(7, 1576152403831423008) == repost_nonce(7, 1576152403831423008)
    assert repost_nonce(7, 35) == "t7rz"


def test_a_refusal_names_the_permission_in_both_languages() -> None:
    en = refused_line("pictures", ["attach_files"], "BondBot", "en")
    assert en == "⚠️ I can't post the hands' pictures here: give BondBot Attach Files."
    fr = refused_line("summary", ["send_messages"], "BondBot", "fr")
    assert fr == (
        "⚠️ Je ne peux pas publier le résumé de la soirée ici : donnez à BondBot"
        " Envoyer des messages."
    )
    unknown = refused_line("table", [], "BondBot", "en")
    assert unknown == "⚠️ I can't post this table here: Discord refuses it."
