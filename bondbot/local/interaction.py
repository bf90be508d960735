"""An interaction as the fake records it: Discord's type numbers, what the bot answered
(`FakeInteraction`, `CallbackAttempt`, `FakeModal`), what a test reads of it
(`InteractionResult`), and how a user's action fails (`InteractionRejected`, `NoResponse`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Self

from .models import FakeAttachment, FakeMessage, walk_components

if TYPE_CHECKING:
    from .server import FakeDiscord

# Interaction types.
PING = 1
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
APPLICATION_COMMAND_AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# Interaction callback (response) types.
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9

# Application command option types.
SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING = 3
INTEGER = 4
BOOLEAN = 5
USER = 6
CHANNEL = 7
ROLE = 8
MENTIONABLE = 9
NUMBER = 10
ATTACHMENT = 11


class InteractionRejected(Exception):
    """The Discord client itself would not send this interaction.

    Raised for unknown/unsynced commands, missing permissions (``default_member_permissions``),
    missing required options, values outside choices/limits, clicking invisible or disabled
    components, or submitting a modal without its required fields.
    """


class NoResponse(AssertionError):
    """The bot did not acknowledge an interaction in time ("The application did not respond")."""


@dataclass
class Upload:
    """A file a user uploads through an ATTACHMENT option or a modal file upload."""

    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None


@dataclass
class CallbackAttempt:
    """One POST to ``/interactions/{id}/{token}/callback`` and what the fake answered."""

    at: float
    status: int
    code: int | None
    response_type: int | None
    message: str


@dataclass
class LatencyRecord:
    """Time from INTERACTION_CREATE dispatch to the bot's (successful) callback."""

    kind: str
    name: str
    seconds: float
    response_type: int


@dataclass
class FakeModal:
    """A modal the bot opened (callback type 9)."""

    custom_id: str
    title: str
    components: list[dict[str, Any]]

    def fields(self) -> list[dict[str, Any]]:
        """The input components (text inputs, selects, uploads, checkboxes...)."""
        return [c for c in walk_components(self.components) if "custom_id" in c]

    @property
    def field_ids(self) -> list[str]:
        """custom_ids of the inputs, in order."""
        return [c["custom_id"] for c in self.fields()]

    def field(self, custom_id: str) -> dict[str, Any]:
        """Input component by custom_id."""
        for comp in self.fields():
            if comp["custom_id"] == custom_id:
                return comp
        raise KeyError(f"modal {self.custom_id!r} has no field {custom_id!r}; has {self.field_ids}")

    def labels(self) -> list[str]:
        """Labels of the inputs (from Label wrappers or legacy text input labels)."""
        out: list[str] = []
        for comp in walk_components(self.components):
            if comp.get("type") == 18:
                out.append(comp.get("label", ""))
            elif comp.get("type") == 4 and comp.get("label"):
                out.append(comp["label"])
        return out


@dataclass(eq=False)
class FakeInteraction:
    """Server-side record of a dispatched interaction and everything the bot did with it."""

    id: int
    token: str
    type: int
    kind: str
    name: str
    user_id: int
    guild_id: int | None
    channel_id: int
    payload: dict[str, Any]
    source_message_id: int | None = None
    dispatched_at: float = 0.0
    response_type: int | None = None
    response_data: dict[str, Any] | None = None
    responded_at: float | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    attempts: list[CallbackAttempt] = field(default_factory=list)
    modal: FakeModal | None = None
    choices: list[dict[str, Any]] | None = None
    token_expired: bool = False

    @property
    def acknowledged(self) -> bool:
        """Whether a callback was accepted."""
        return self.response_type is not None

    @property
    def latency(self) -> float | None:
        """Seconds from dispatch to the accepted callback."""
        if self.responded_at is None:
            return None
        return self.responded_at - self.dispatched_at


class InteractionResult:
    """What the bot did in reply to one interaction; message fields are live views."""

    def __init__(self, fake: FakeDiscord, interaction: FakeInteraction) -> None:
        self.fake = fake
        self.interaction = interaction

    def __repr__(self) -> str:
        inter = self.interaction
        return (
            f"<InteractionResult {inter.kind} {inter.name!r} response_type={inter.response_type} "
            f"content={self.content!r} followups={len(inter.followup_ids)}>"
        )

    # -- response ---------------------------------------------------------------------------

    @property
    def response_type(self) -> int | None:
        """Callback type (4 message, 5 deferred, 6 deferred update, 7 update, 8, 9)."""
        return self.interaction.response_type

    @property
    def response_data(self) -> dict[str, Any]:
        """Raw ``data`` of the accepted callback."""
        return self.interaction.response_data or {}

    @property
    def latency(self) -> float | None:
        """Dispatch -> callback seconds."""
        return self.interaction.latency

    @property
    def deferred(self) -> bool:
        """Whether the bot deferred (type 5 or 6)."""
        return self.response_type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE)

    @property
    def message(self) -> FakeMessage | None:
        """The original response message (for 6/7: the message the component is on)."""
        mid = self.interaction.original_message_id
        return None if mid is None else self.fake.messages.get(mid)

    def _msg(self) -> FakeMessage:
        msg = self.message
        if msg is None:
            raise AttributeError(f"{self!r} has no message (response_type={self.response_type})")
        return msg

    @property
    def content(self) -> str | None:
        """Current content of the original response (``None`` if there is none)."""
        msg = self.message
        return None if msg is None else msg.content

    @property
    def embeds(self) -> list[dict[str, Any]]:
        """Embeds of the original response."""
        msg = self.message
        return [] if msg is None else msg.embeds

    @property
    def embed(self) -> dict[str, Any] | None:
        """First embed or ``None``."""
        return self.embeds[0] if self.embeds else None

    @property
    def components(self) -> list[dict[str, Any]]:
        """Components of the original response."""
        msg = self.message
        return [] if msg is None else msg.components

    @property
    def attachments(self) -> list[FakeAttachment]:
        """Files attached to the original response."""
        msg = self.message
        return [] if msg is None else msg.attachments

    @property
    def ephemeral(self) -> bool:
        """Whether the original response is only visible to the invoking user."""
        msg = self.message
        return msg is not None and msg.ephemeral

    @property
    def modal(self) -> FakeModal | None:
        """Modal opened by the bot."""
        return self.interaction.modal

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete choices."""
        return self.interaction.choices or []

    @property
    def followups(self) -> list[FakeMessage]:
        """Follow-up messages (the first one after a type-5 defer *is* the original message)."""
        return [self.fake.messages[mid] for mid in self.interaction.followup_ids]

    def buttons(self) -> list[dict[str, Any]]:
        """Buttons on the original response."""
        return self._msg().buttons()

    def custom_ids(self) -> list[str]:
        """custom_ids on the original response."""
        return self._msg().custom_ids()

    def button_labels(self) -> list[str | None]:
        """Button labels on the original response."""
        return self._msg().button_labels()

    # -- waiting ----------------------------------------------------------------------------

    async def wait_until(self, predicate: Callable[[Self], bool], timeout: float = 5.0) -> Self:
        """Wait until ``predicate(self)`` holds (re-checked on every fake state change)."""
        await self.fake.wait_until(lambda: predicate(self), timeout=timeout, what=repr(self))
        return self

    async def wait_followup(self, n: int = 1, timeout: float = 5.0) -> FakeMessage:
        """Wait until there are at least ``n`` follow-ups; returns the ``n``-th."""
        await self.wait_until(lambda r: len(r.interaction.followup_ids) >= n, timeout)
        return self.followups[n - 1]

    async def wait_edit(self, n: int = 1, timeout: float = 5.0) -> FakeMessage:
        """Wait until the original message was edited ``n`` times (a deferred fill is not one)."""

        def edited(r: InteractionResult) -> bool:
            msg = r.message
            return msg is not None and not msg.loading and msg.edit_count >= n

        await self.wait_until(edited, timeout)
        return self._msg()

    async def wait_content(self, timeout: float = 5.0) -> FakeMessage:
        """Wait until a deferred original response got its real content."""
        await self.wait_until(lambda r: r.message is not None and not r.message.loading, timeout)
        return self._msg()
