"""What a user could ever have seen in a channel, to prove a private card never showed.

Every message of the channel that the user can see (the public ones, and the ephemeral
answers to him alone), with every earlier version of each edited message: if a card is
not in there, nothing Discord showed him ever held it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from fakediscord import FakeDiscord
from fakediscord.models import FakeUser

from bondbot.rules.cards import Card


def seen_by(fake: FakeDiscord, viewer: FakeUser | None) -> str:
    """All text of every version of every message `viewer` (None: anyone) can see."""
    messages = fake.channel_messages(visible_to=viewer)
    if viewer is None:
        messages = [m for m in messages if m.ephemeral_for is None]
    versions = []
    for message in messages:
        for version in [*message.history, message.snapshot()]:
            versions.append(version.content)
            versions.append(json.dumps([version.embeds, version.components], ensure_ascii=False))
    return "\n".join(versions)


def assert_never_seen(fake: FakeDiscord, viewer: FakeUser | None, cards: Iterable[Card]) -> None:
    """None of `cards` (as the bot shows cards: `A♠`, `10♦`) was ever visible to `viewer`."""
    text = seen_by(fake, viewer)
    shown = [card.pretty for card in cards if card.pretty in text]
    assert shown == [], f"{shown} visible to {viewer.name if viewer else 'the channel'}"
