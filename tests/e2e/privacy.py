"""What a user could ever have seen in a channel, to prove a private card never showed.

Every message of the channel and of its threads that the user can see (the public ones,
and the ephemeral answers to him alone), with every earlier version of each edited
message: if a card is not in there, nothing Discord showed him ever held it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from bondbot.local import FakeDiscord
from bondbot.local.models import FakeMessage, FakeUser, MessageVersion
from bondbot.rules.cards import Card


def _visible(fake: FakeDiscord, viewer: FakeUser | None) -> list[FakeMessage]:
    """The channel's messages and its tables' threads' (a hand's result is posted there)."""
    channel = fake.channel.id  # the default channel, where the tables play
    where = [channel, *(c.id for c in fake.channels.values() if c.parent_id == channel)]
    messages = [m for place in where for m in fake.channel_messages(place, visible_to=viewer)]
    if viewer is None:
        messages = [m for m in messages if m.ephemeral_for is None]
    return messages


def _text(versions: Iterable[MessageVersion]) -> list[str]:
    texts = []
    for version in versions:
        texts.append(version.content)
        texts.append(json.dumps([version.embeds, version.components], ensure_ascii=False))
    return texts


def seen_by(fake: FakeDiscord, viewer: FakeUser | None) -> str:
    """All text of every version of every message `viewer` (None: anyone) can see."""
    texts = []
    for message in _visible(fake, viewer):
        texts += _text([*message.history, message.snapshot()])
    return "\n".join(texts)


def assert_never_seen(fake: FakeDiscord, viewer: FakeUser | None, cards: Iterable[Card]) -> None:
    """None of `cards` (as the bot shows cards: `A♠`, `10♦`) was ever visible to `viewer`."""
    text = seen_by(fake, viewer)
    shown = [card.pretty for card in cards if card.pretty in text]
    assert shown == [], f"{shown} visible to {viewer.name if viewer else 'the channel'}"


class PrivacyWatch:
    """The same proof over a whole evening, where a new pack deals cards again that were
    public in an earlier hand: each check reads only what each viewer could see since his
    last check, against the cards hidden now. Check before a new deal (what the last hand
    showed is read then) and during each hand."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self._read: dict[tuple[int | None, int], int] = {}  # versions read per message
        self._embeds: dict[tuple[int | None, int], set[str]] = {}  # embeds read per message

    def new_text(self, viewer: FakeUser | None) -> str:
        """The text of every version `viewer` could see that no earlier check read."""
        who = None if viewer is None else viewer.id
        texts = []
        for message in _visible(self.fake, viewer):
            versions = [*message.history, message.snapshot()]
            known = self._embeds.setdefault((who, message.id), set())
            for version in versions[self._read.get((who, message.id), 0) :]:
                # An embed read in an earlier version is not new: the last hand's picture
                # stays under the table message through the next hand's redraws (issue 32),
                # its cards public since that hand, even when a new pack deals them again.
                embeds = [e for e in version.embeds if json.dumps(e, sort_keys=True) not in known]
                known.update(json.dumps(e, sort_keys=True) for e in version.embeds)
                texts.append(version.content)
                texts.append(json.dumps([embeds, version.components], ensure_ascii=False))
            self._read[(who, message.id)] = len(versions)
        return "\n".join(texts)

    def check(self, viewer: FakeUser | None, cards: Iterable[Card]) -> None:
        text = self.new_text(viewer)
        shown = [card.pretty for card in cards if card.pretty in text]
        assert shown == [], f"{shown} visible to {viewer.name if viewer else 'the channel'}"
