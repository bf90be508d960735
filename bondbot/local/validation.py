"""Validation of bot-sent payloads with Discord's limits and error format."""

from __future__ import annotations

import re
from typing import Any

import discord

from .models import FLAG_COMPONENTS_V2, walk_components

VALID_LOCALES = frozenset(locale.value for locale in discord.Locale)
_CHAT_INPUT_NAME = re.compile(r"^[-_'\w]{1,32}$")


class DiscordAPIError(Exception):
    """An error response: HTTP status plus Discord's JSON error body."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def to_body(self) -> dict[str, Any]:
        """JSON body Discord would send."""
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body


def not_found(code: int, what: str) -> DiscordAPIError:
    """404 with Discord's "Unknown X" shape."""
    return DiscordAPIError(404, code, f"Unknown {what}")


class FormErrors:
    """Collects Invalid Form Body (50035) errors keyed by a dotted path."""

    def __init__(self) -> None:
        self.errors: dict[str, Any] = {}

    def add(self, path: str, code: str, message: str) -> None:
        """Record an error at ``path`` (e.g. ``"0.options.1.name"``)."""
        node = self.errors
        for part in path.split("."):
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def raise_if_any(self) -> None:
        """Raise a 400/50035 if anything was recorded."""
        if self.errors:
            raise DiscordAPIError(400, 50035, "Invalid Form Body", self.errors)


def _check_len(
    errs: FormErrors, path: str, value: Any, low: int, high: int, *, required: bool = True
) -> None:
    if value is None:
        if required:
            errs.add(path, "BASE_TYPE_REQUIRED", "This field is required")
        return
    if not isinstance(value, str):
        errs.add(path, "STRING_TYPE_CONVERT", "Could not interpret value as string.")
    elif not low <= len(value) <= high:
        errs.add(
            path,
            "BASE_TYPE_BAD_LENGTH",
            f"Must be between {low} and {high} in length.",
        )


def validate_embeds(errs: FormErrors, embeds: list[dict[str, Any]], prefix: str = "embeds") -> None:
    """Embed size limits (title 256, description 4096, 25 fields, total 6000)."""
    if len(embeds) > 10:
        errs.add(prefix, "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        p = f"{prefix}.{i}"
        for key, limit in (("title", 256), ("description", 4096)):
            text = embed.get(key)
            if text is not None:
                _check_len(errs, f"{p}.{key}", text, 0, limit)
                total += len(str(text))
        fields = embed.get("fields", [])
        if len(fields) > 25:
            errs.add(f"{p}.fields", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        for j, fld in enumerate(fields):
            _check_len(errs, f"{p}.fields.{j}.name", fld.get("name"), 1, 256)
            _check_len(errs, f"{p}.fields.{j}.value", fld.get("value"), 1, 1024)
            total += len(str(fld.get("name", ""))) + len(str(fld.get("value", "")))
        for key, sub, limit in (("footer", "text", 2048), ("author", "name", 256)):
            if embed.get(key):
                text = embed[key].get(sub, "")
                _check_len(errs, f"{p}.{key}.{sub}", text, 0, limit)
                total += len(str(text))
    if total > 6000:
        errs.add(prefix, "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")


def validate_components(
    errs: FormErrors, components: list[dict[str, Any]], flags: int, prefix: str = "components"
) -> None:
    """Row/button/select limits and unique custom_ids."""
    v2 = bool(flags & FLAG_COMPONENTS_V2)
    if not v2:
        if len(components) > 5:
            errs.add(prefix, "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
        for i, row in enumerate(components):
            if row.get("type") != 1:
                errs.add(
                    f"{prefix}.{i}.type",
                    "UNION_TYPE_CHOICES",
                    "Value of field type must be one of (1,).",
                )
                continue
            children = row.get("components", [])
            if not 1 <= len(children) <= 5:
                errs.add(
                    f"{prefix}.{i}.components",
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 5 in length.",
                )
            selects = [c for c in children if c.get("type") in (3, 5, 6, 7, 8)]
            if selects and len(children) > 1:
                errs.add(
                    f"{prefix}.{i}.components",
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "The specified component exceeds the maximum width",
                )
    elif sum(1 for _ in walk_components(components)) > 40:
        errs.add(prefix, "BASE_TYPE_MAX_LENGTH", "Must be 40 or fewer in length.")
    seen: set[str] = set()
    for comp in walk_components(components):
        ctype = comp.get("type")
        cid = comp.get("custom_id")
        if cid is not None:
            if not 1 <= len(cid) <= 100:
                errs.add(prefix, "BASE_TYPE_BAD_LENGTH", "custom_id must be 1-100 long.")
            if cid in seen:
                errs.add(
                    prefix,
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    f"Component custom id cannot be duplicated ({cid})",
                )
            seen.add(cid)
        if ctype == 2:
            style = comp.get("style", 1)
            if style == 5 and not comp.get("url"):
                errs.add(prefix, "BASE_TYPE_REQUIRED", "Link buttons need a url.")
            if style not in (5, 6) and cid is None:
                errs.add(prefix, "BASE_TYPE_REQUIRED", "Buttons need a custom_id.")
            label = comp.get("label")
            if label is not None and len(label) > 80:
                errs.add(prefix, "BASE_TYPE_MAX_LENGTH", "Button label must be 80 or fewer.")
        if ctype == 3:
            options = comp.get("options", [])
            if not 1 <= len(options) <= 25:
                errs.add(prefix, "BASE_TYPE_BAD_LENGTH", "Select needs 1-25 options.")
            for j, option in enumerate(options):
                _check_len(errs, f"{prefix}.options.{j}.label", option.get("label"), 1, 100)
                _check_len(errs, f"{prefix}.options.{j}.value", option.get("value"), 1, 100)
                _check_len(
                    errs,
                    f"{prefix}.options.{j}.description",
                    option.get("description"),
                    0,
                    100,
                    required=False,
                )
        if ctype in (3, 5, 6, 7, 8):
            _check_len(
                errs, f"{prefix}.placeholder", comp.get("placeholder"), 0, 150, required=False
            )


def validate_message(
    payload: dict[str, Any],
    *,
    has_files: bool,
    creating: bool,
    prefix: str = "",
) -> None:
    """Validate a create/edit message body; raises :class:`DiscordAPIError`."""
    errs = FormErrors()
    pre = f"{prefix}." if prefix else ""
    content = payload.get("content")
    flags = int(payload.get("flags") or 0)
    if content is not None and len(str(content)) > 2000:
        errs.add(f"{pre}content", "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length.")
    if flags & FLAG_COMPONENTS_V2 and (content or payload.get("embeds")):
        errs.add(
            f"{pre}content",
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
            "The 'content' and 'embeds' fields cannot be used with IS_COMPONENTS_V2",
        )
    validate_embeds(errs, payload.get("embeds") or [], f"{pre}embeds")
    for i, attachment in enumerate(payload.get("attachments") or []):
        # An attachment's description (its alt text): at most 1,024 characters.
        _check_len(
            errs,
            f"{pre}attachments.{i}.description",
            attachment.get("description"),
            0,
            1024,
            required=False,
        )
    validate_components(errs, payload.get("components") or [], flags, f"{pre}components")
    errs.raise_if_any()
    if creating and not (
        (content and str(content).strip())
        or payload.get("embeds")
        or payload.get("components")
        or payload.get("sticker_ids")
        or payload.get("poll")
        or has_files
    ):
        raise DiscordAPIError(400, 50006, "Cannot send an empty message")


def _validate_name(errs: FormErrors, path: str, name: Any, chat_input: bool) -> None:
    if not isinstance(name, str) or not 1 <= len(name) <= 32:
        errs.add(path, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length.")
        return
    if chat_input and (not _CHAT_INPUT_NAME.match(name) or name != name.lower()):
        errs.add(
            path,
            "APPLICATION_COMMAND_INVALID_NAME",
            f"Command name is invalid: {name!r}",
        )


def _validate_localizations(
    errs: FormErrors, path: str, values: dict[str, str] | None, *, name: bool, chat_input: bool
) -> None:
    for locale, text in (values or {}).items():
        if locale not in VALID_LOCALES:
            errs.add(f"{path}.{locale}", "LOCALE_INVALID", f"Invalid locale {locale!r}")
        elif name:
            _validate_name(errs, f"{path}.{locale}", text, chat_input)
        else:
            _check_len(errs, f"{path}.{locale}", text, 1, 100)


def _validate_options(errs: FormErrors, path: str, options: list[dict[str, Any]]) -> None:
    if len(options) > 25:
        errs.add(path, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    names: set[str] = set()
    optional_seen = False
    for i, opt in enumerate(options):
        p = f"{path}.{i}"
        _validate_name(errs, f"{p}.name", opt.get("name"), True)
        _check_len(errs, f"{p}.description", opt.get("description"), 1, 100)
        _validate_localizations(
            errs,
            f"{p}.name_localizations",
            opt.get("name_localizations"),
            name=True,
            chat_input=True,
        )
        _validate_localizations(
            errs,
            f"{p}.description_localizations",
            opt.get("description_localizations"),
            name=False,
            chat_input=True,
        )
        if opt.get("name") in names:
            errs.add(
                f"{p}.name", "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Duplicate name"
            )
        names.add(opt.get("name", ""))
        if opt.get("type") in (1, 2):
            _validate_options(errs, f"{p}.options", opt.get("options") or [])
            continue
        if opt.get("required"):
            if optional_seen:
                errs.add(
                    f"{p}.required",
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            optional_seen = True
        choices = opt.get("choices") or []
        if len(choices) > 25:
            errs.add(f"{p}.choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        if choices and opt.get("autocomplete"):
            errs.add(f"{p}.autocomplete", "AUTOCOMPLETE_CHOICES", "Cannot use both.")
        for j, choice in enumerate(choices):
            _check_len(errs, f"{p}.choices.{j}.name", choice.get("name"), 1, 100)
            _validate_localizations(
                errs,
                f"{p}.choices.{j}.name_localizations",
                choice.get("name_localizations"),
                name=False,
                chat_input=False,
            )


COMMAND_SIZE_MAX = 8000  # characters a top-level command may hold, as `command_size` counts


def _longest(entry: dict[str, Any], field: str) -> int:
    """A field's size: its longest form, the default or a localisation."""
    forms = [entry.get(field) or "", *(entry.get(f"{field}_localizations") or {}).values()]
    return max(len(str(form)) for form in forms)


def command_size(entry: dict[str, Any]) -> int:
    """A command's size as Discord counts it against its 8,000 characters: the name,
    description and value of the command, of every option and subcommand under it and of
    their choices, each field counted at its longest localisation (or its default)."""
    size = _longest(entry, "name") + _longest(entry, "description")
    if "value" in entry:  # a choice
        size += len(str(entry["value"]))
    for child in (*(entry.get("options") or ()), *(entry.get("choices") or ())):
        size += command_size(child)
    return size


def validate_commands(commands: list[dict[str, Any]]) -> None:
    """Validate a bulk-overwrite body the way Discord does (names, lengths, locales)."""
    errs = FormErrors()
    seen: set[tuple[int, str]] = set()
    for i, cmd in enumerate(commands):
        ctype = int(cmd.get("type", 1))
        chat = ctype == 1
        _validate_name(errs, f"{i}.name", cmd.get("name"), chat)
        if chat:
            _check_len(errs, f"{i}.description", cmd.get("description"), 1, 100)
        _validate_localizations(
            errs,
            f"{i}.name_localizations",
            cmd.get("name_localizations"),
            name=True,
            chat_input=chat,
        )
        _validate_localizations(
            errs,
            f"{i}.description_localizations",
            cmd.get("description_localizations"),
            name=False,
            chat_input=chat,
        )
        key = (ctype, str(cmd.get("name")))
        if key in seen:
            errs.add(f"{i}.name", "APPLICATION_COMMANDS_DUPLICATE_NAME", "Duplicate command name")
        seen.add(key)
        if chat:
            _validate_options(errs, f"{i}.options", cmd.get("options") or [])
        if command_size(cmd) > COMMAND_SIZE_MAX:
            errs.add(
                str(i),
                "APPLICATION_COMMAND_TOO_LARGE",
                f"Command exceeds maximum size ({COMMAND_SIZE_MAX})",
            )
    if sum(1 for c in commands if int(c.get("type", 1)) == 1) > 100:
        errs.add("_", "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer chat input commands.")
    errs.raise_if_any()


def validate_modal(data: dict[str, Any]) -> None:
    """Modal limits: title <= 45, custom_id <= 100, 1-5 top-level components; a text
    input's label <= 45 (in its row, or in the Label around it), placeholder <= 100,
    value <= 4000, min_length 0-4000, max_length 1-4000; a Label's description <= 100."""
    errs = FormErrors()
    _check_len(errs, "data.title", data.get("title"), 1, 45)
    _check_len(errs, "data.custom_id", data.get("custom_id"), 1, 100)
    comps = data.get("components") or []
    if not 1 <= len(comps) <= 5:
        errs.add("data.components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
    for i, top in enumerate(comps):
        p = f"data.components.{i}"
        if top.get("type") == 18:  # a Label: the text input's label lives here
            _check_len(errs, f"{p}.label", top.get("label"), 1, 45)
            _check_len(errs, f"{p}.description", top.get("description"), 0, 100, required=False)
        for comp in walk_components([top]):
            if comp.get("type") != 4:
                continue
            _check_len(errs, f"{p}.custom_id", comp.get("custom_id"), 1, 100)
            if top.get("type") != 18:
                _check_len(errs, f"{p}.label", comp.get("label"), 1, 45)
            _check_len(errs, f"{p}.placeholder", comp.get("placeholder"), 0, 100, required=False)
            _check_len(errs, f"{p}.value", comp.get("value"), 0, 4000, required=False)
            for key, low in (("min_length", 0), ("max_length", 1)):
                value = comp.get(key)
                if value is not None and not low <= int(value) <= 4000:
                    errs.add(f"{p}.{key}", "NUMBER_TYPE_MAX", f"{key} must be {low}-4000.")
    errs.raise_if_any()


def validate_choices(data: dict[str, Any]) -> None:
    """Autocomplete result: at most 25 choices, names 1-100, string values 1-100."""
    errs = FormErrors()
    choices = data.get("choices") or []
    if len(choices) > 25:
        errs.add("data.choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    for i, choice in enumerate(choices):
        _check_len(errs, f"data.choices.{i}.name", choice.get("name"), 1, 100)
        if isinstance(choice.get("value"), str):
            _check_len(errs, f"data.choices.{i}.value", choice["value"], 1, 100)
    errs.raise_if_any()
