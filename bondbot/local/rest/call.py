"""A REST call to the fake: parsed for its handler (`ApiCall`, `UploadedFile`), recorded
(`RecordedRequest`, `CommandSync`), or refused by an injected fault (`Fault`); JSON answers."""

from __future__ import annotations

import json
import mimetypes
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from ..validation import DiscordAPIError

MAX_UPLOAD_BYTES = 10 * 1024 * 1024


@dataclass
class RecordedRequest:
    """One REST call the bot made."""

    method: str
    path: str
    query: dict[str, str]
    body: Any
    status: int = 0
    code: int | None = None
    files: list[str] = field(default_factory=list)
    at: float = field(default_factory=time.monotonic)

    def __str__(self) -> str:
        return f"{self.method} {self.path} -> {self.status}" + (
            f" ({self.code})" if self.code else ""
        )


@dataclass
class CommandSync:
    """One bulk overwrite of application commands."""

    guild_id: int | None
    names: list[str]
    at: float = field(default_factory=time.monotonic)


@dataclass
class UploadedFile:
    """A ``files[n]`` part of a multipart request."""

    index: int
    filename: str
    data: bytes
    content_type: str | None


@dataclass
class ApiCall:
    """A parsed REST request handed to a route handler."""

    method: str
    path: str
    params: dict[str, str]
    query: dict[str, str]
    body: Any
    files: list[UploadedFile]

    def json(self) -> dict[str, Any]:
        """The body as a JSON object."""
        if not isinstance(self.body, dict):
            raise DiscordAPIError(400, 50109, "The request body contains invalid JSON.")
        return self.body

    def int_param(self, name: str) -> int:
        """A snowflake path parameter."""
        try:
            return int(self.params[name])
        except ValueError:
            raise DiscordAPIError(
                400,
                50035,
                "Invalid Form Body",
                {name: {"_errors": [{"code": "NUMBER_TYPE_COERCE"}]}},
            ) from None


Handler = Callable[[ApiCall], Awaitable[tuple[int, Any]]]


@dataclass
class Fault:
    """Answers Discord gives instead of doing a request (`FakeDiscord.inject`): a 429
    storm or a 5xx on one route, for `count` requests or until `until` (monotonic)."""

    method: str
    path: re.Pattern[str]
    status: int
    count: int | None
    until: float | None
    retry_after: float
    served: int = 0

    def matches(self, method: str, path: str) -> bool:
        if self.count is not None and self.served >= self.count:
            return False
        if self.until is not None and time.monotonic() >= self.until:
            return False
        return method == self.method and self.path.fullmatch(path) is not None

    def response(self) -> web.Response:
        self.served += 1
        if self.status != 429:
            return json_response(self.status, {"message": "Server Error", "code": 0})
        body = {"message": "You are being rate limited.", "retry_after": self.retry_after}
        return web.Response(
            status=429,
            body=json.dumps({**body, "global": False}).encode(),
            headers={
                "Content-Type": "application/json",
                "Via": "1.1 google",  # discord.py takes a 429 without it for Cloudflare's ban
                "Retry-After": str(self.retry_after),
                "X-RateLimit-Scope": "user",
            },
        )


def json_response(status: int, body: Any) -> web.Response:
    if status == 204:
        return web.Response(status=204)
    # Exactly "application/json": discord.py compares the header verbatim.
    return web.Response(
        status=status,
        body=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )


async def parse_body(request: web.Request) -> tuple[Any, list[UploadedFile]]:
    """The JSON body, or a multipart form's ``payload_json`` and ``files[n]`` parts."""
    if request.content_type.startswith("multipart/"):
        form = await request.post()
        raw = form.get("payload_json")
        body = json.loads(raw) if isinstance(raw, str) else None
        files: list[UploadedFile] = []
        for key, value in form.items():
            m = re.fullmatch(r"files\[(\d+)\]", key)
            if m and isinstance(value, web.FileField):
                data = value.file.read()
                if len(data) > MAX_UPLOAD_BYTES:
                    raise DiscordAPIError(413, 40005, "Request entity too large")
                ctype = mimetypes.guess_type(value.filename)[0] or value.content_type
                files.append(UploadedFile(int(m[1]), value.filename, data, ctype))
        return body, sorted(files, key=lambda f: f.index)
    if request.body_exists:
        text = await request.text()
        if text:
            try:
                return json.loads(text), []
            except json.JSONDecodeError:
                raise DiscordAPIError(
                    400, 50109, "The request body contains invalid JSON."
                ) from None
    return None, []
