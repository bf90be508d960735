"""A local Discord stand-in (REST + gateway on 127.0.0.1) that the real discord.py client runs
against: the tests drive it (their fixtures are in ``tests/fakediscord/``), `bondbot try` draws it.

Usage::

    async def test_sheet(fake_discord: FakeDiscord, fake_world: DefaultWorld) -> None:
        async with run_bot(make_bot(), fake_discord):
            result = await fake_discord.slash(fake_world.player, "sheet create", name="Bond")
            assert result.ephemeral and "Bond" in (result.content or "")
            clicked = await fake_discord.click(fake_world.player, result, "sheet:confirm")
            assert clicked.response_type == 7
"""

from .client import (
    CallbackAttempt,
    FakeInteraction,
    FakeModal,
    InteractionRejected,
    InteractionResult,
    LatencyRecord,
    NoResponse,
    Upload,
)
from .models import (
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    MessageVersion,
    Overwrite,
)
from .server import CommandSync, FakeDiscord, RecordedRequest
from .validation import DiscordAPIError

__all__ = [
    "CallbackAttempt",
    "CommandSync",
    "DiscordAPIError",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeInteraction",
    "FakeMember",
    "FakeMessage",
    "FakeModal",
    "FakeRole",
    "FakeUser",
    "InteractionRejected",
    "InteractionResult",
    "LatencyRecord",
    "MessageVersion",
    "NoResponse",
    "Overwrite",
    "RecordedRequest",
    "Upload",
]
