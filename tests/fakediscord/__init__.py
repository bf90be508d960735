"""A fake Discord (REST + gateway on 127.0.0.1) to drive the real discord.py client in tests.

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
from .fixtures import DefaultWorld, build_default_world, run_bot
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
    "DefaultWorld",
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
    "build_default_world",
    "run_bot",
]
