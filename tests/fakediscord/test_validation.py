"""The fake refuses every payload over Discord's documented limits, as Discord does.

Each case builds a payload at a limit (accepted) and one past it (refused with 400 /
50035), so a bot message that would break on real Discord breaks the tests too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bondbot.local.validation import (
    COMMAND_SIZE_MAX,
    DiscordAPIError,
    command_size,
    validate_choices,
    validate_commands,
    validate_message,
    validate_modal,
)

Payload = Callable[[int], dict[str, Any]]


def embed(**fields: Any) -> dict[str, Any]:
    return {"embeds": [fields]}


def button(n: int, label: str = "b") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": f"c{n}"}


def rows(count: int, per_row: int) -> dict[str, Any]:
    return {
        "components": [
            {"type": 1, "components": [button(r * 10 + b) for b in range(per_row)]}
            for r in range(count)
        ]
    }


def select(options: int, text: int = 5) -> dict[str, Any]:
    choices = [{"label": "x" * text, "value": f"{i:0{text}d}"[-text:]} for i in range(options)]
    return {
        "components": [
            {"type": 1, "components": [{"type": 3, "custom_id": "s", "options": choices}]}
        ]
    }


def modal(title: int = 5, label: int = 5, custom_id: int = 5) -> dict[str, Any]:
    text_input = {"type": 4, "custom_id": "i" * custom_id, "style": 1, "label": "l" * label}
    return {
        "title": "t" * title,
        "custom_id": "m",
        "components": [{"type": 1, "components": [text_input]}],
    }


def labelled_modal(label: int) -> dict[str, Any]:
    text_input = {"type": 4, "custom_id": "i", "style": 1}
    return {
        "title": "t",
        "custom_id": "m",
        "components": [{"type": 18, "label": "l" * label, "component": text_input}],
    }


def choices(count: int, name: int = 5, value: int = 5) -> dict[str, Any]:
    return {"choices": [{"name": "n" * name, "value": "v" * value} for _ in range(count)]}


MESSAGE_LIMITS: list[tuple[str, Payload, int]] = [
    ("content", lambda n: {"content": "x" * n}, 2000),
    ("embed title", lambda n: embed(title="x" * n), 256),
    ("embed description", lambda n: embed(description="x" * n), 4096),
    ("field name", lambda n: embed(fields=[{"name": "x" * n, "value": "v"}]), 256),
    ("field value", lambda n: embed(fields=[{"name": "n", "value": "x" * n}]), 1024),
    ("fields", lambda n: embed(fields=[{"name": "n", "value": "v"}] * n), 25),
    ("footer", lambda n: embed(footer={"text": "x" * n}), 2048),
    ("author", lambda n: embed(author={"name": "x" * n}), 256),
    (
        "embed total",
        lambda n: embed(title="t" * 256, description="d" * 4096, footer={"text": "f" * (n - 4352)}),
        6000,
    ),
    (
        "button label",
        lambda n: {"components": [{"type": 1, "components": [button(0, "x" * n)]}]},
        80,
    ),
    ("action rows", lambda n: rows(n, 1), 5),
    ("buttons in a row", lambda n: rows(1, n), 5),
    ("select options", lambda n: select(n), 25),
    ("select option text", lambda n: select(1, n), 100),
    (
        "custom_id",
        lambda n: {
            "components": [{"type": 1, "components": [{**button(0), "custom_id": "x" * n}]}]
        },
        100,
    ),
    (
        "attachment description",
        lambda n: {
            "content": "c",
            "attachments": [{"id": "0", "filename": "a.png", "description": "x" * n}],
        },
        1024,
    ),
]


@pytest.mark.parametrize(
    ("what", "payload", "limit"), MESSAGE_LIMITS, ids=[c[0] for c in MESSAGE_LIMITS]
)
def test_message_limits(what: str, payload: Payload, limit: int) -> None:
    validate_message(payload(limit), has_files=False, creating=True)
    with pytest.raises(DiscordAPIError) as refused:
        validate_message(payload(limit + 1), has_files=False, creating=True)
    assert (refused.value.status, refused.value.code) == (400, 50035), what


OTHER_LIMITS: list[tuple[str, Callable[[dict[str, Any]], None], Payload, int]] = [
    ("modal title", validate_modal, lambda n: modal(title=n), 45),
    ("text input label", validate_modal, lambda n: modal(label=n), 45),
    ("label component", validate_modal, labelled_modal, 45),
    ("text input custom_id", validate_modal, lambda n: modal(custom_id=n), 100),
    ("autocomplete choices", validate_choices, lambda n: choices(n), 25),
    ("autocomplete name", validate_choices, lambda n: choices(1, name=n), 100),
    ("autocomplete value", validate_choices, lambda n: choices(1, value=n), 100),
]


@pytest.mark.parametrize(
    ("what", "check", "payload", "limit"), OTHER_LIMITS, ids=[c[0] for c in OTHER_LIMITS]
)
def test_modal_and_autocomplete_limits(
    what: str, check: Callable[[dict[str, Any]], None], payload: Payload, limit: int
) -> None:
    check(payload(limit))
    with pytest.raises(DiscordAPIError) as refused:
        check(payload(limit + 1))
    assert (refused.value.status, refused.value.code) == (400, 50035), what


def big_command(size: int) -> dict[str, Any]:
    """A slash command of `size` characters as Discord counts them: options (4 each)
    filled with choices (a name up to 100, a 3-character value)."""
    command: dict[str, Any] = {"name": "big", "description": "d", "options": []}
    left = size - 4
    while left > 0:
        option: dict[str, Any] = {"name": f"o{len(command['options'])}", "type": 3}
        option |= {"description": "d", "choices": []}
        left -= len(option["name"]) + 1
        while left > 0 and len(option["choices"]) < 25:
            name = "x" * min(100, left - 3)
            option["choices"].append({"name": name, "value": f"v{len(option['choices']):02d}"})
            left -= len(name) + 3
        command["options"].append(option)
    return command


def test_a_command_size_counts_each_field_at_its_longest_form() -> None:
    command = {
        "name": "table",
        "name_localizations": {"fr": "tableau"},  # 7, longer than "table"
        "description": "abc",
        "description_localizations": {"fr": "a"},  # 3: the English is longer
        "options": [
            {
                "name": "x",
                "description": "yy",
                "choices": [{"name": "One", "value": 10, "name_localizations": {"fr": "Un"}}],
            }
        ],
    }
    assert command_size(command) == 7 + 3 + (1 + 2) + (3 + 2)


def test_a_command_over_8000_characters_is_refused() -> None:
    at_limit, over = big_command(COMMAND_SIZE_MAX), big_command(COMMAND_SIZE_MAX + 1)
    assert (command_size(at_limit), command_size(over)) == (8000, 8001)
    validate_commands([at_limit])
    with pytest.raises(DiscordAPIError) as refused:
        validate_commands([over])
    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert refused.value.errors == {
        "0": {
            "_errors": [
                {
                    "code": "APPLICATION_COMMAND_TOO_LARGE",
                    "message": "Command exceeds maximum size (8000)",
                }
            ]
        }
    }
