"""An aiohttp app that draws the stand-in for each user and turns the page's acts into
interactions.

The page asks nothing it could not ask Discord: every act goes through the stand-in's user
side (:meth:`FakeDiscord.click`, :meth:`~FakeDiscord.slash`, ...), which refuses what a
Discord client would refuse (a hidden message, a disabled button, another user's form).
Each user sees only what he could see on Discord: his own ephemeral answers, forms and
their pictures. Views are pushed as server-sent events whenever the stand-in changes.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hmac
import json
import logging
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from aiohttp import web

from bondbot import background

from ..client import InteractionRejected, InteractionResult, NoResponse, Upload
from ..models import FakeGuild, FakeMessage, FakeUser, iso
from ..server import FakeDiscord
from ..validation import DiscordAPIError

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
KEEPALIVE_S = 15.0  # a comment line this often, so a closed page is noticed
ACT_TIMEOUT_S = 5.0
# Option types whose value the page sends as an id (user, channel, role, mentionable).
_ID_OPTIONS = {6, 7, 8, 9}
_ATTACHMENT_OPTION = 11
_SUB = {1, 2}
LOOPBACK_NAMES = {"127.0.0.1", "localhost", "::1"}


@dataclass
class WebUser:
    """A user of the stand-in the page can act as; ``token`` guards his link off localhost."""

    user: FakeUser
    token: str | None = None

    @property
    def name(self) -> str:
        return self.user.name


@dataclass
class _Sent:
    """What one open page was last sent, so each push carries only what changed."""

    meta: dict[str, Any] = field(default_factory=dict)
    messages: dict[int, tuple[int, int]] = field(default_factory=dict)
    acked: set[int] = field(default_factory=set)


class LocalWeb:
    """The page's server: ``/`` (the page), ``/api/events`` (pushes), ``/api/act``, ``/files``.

    ``secure=True`` (listening beyond 127.0.0.1) gives each user a secret token: a request
    without his token is refused, and the page offers no switching to another user.
    """

    def __init__(
        self, fake: FakeDiscord, guild: FakeGuild, users: Iterable[FakeUser], *, secure: bool
    ) -> None:
        self.fake = fake
        self.guild = guild
        self.secure = secure
        self.users = {
            u.name.casefold(): WebUser(u, secrets.token_urlsafe(18) if secure else None)
            for u in users
        }
        self._closed_modals: set[int] = set()
        self._pages: set[asyncio.Event] = set()
        self._watcher: asyncio.Task[None] | None = None
        self.app = web.Application()
        self.app.router.add_get("/", self._index)
        self.app.router.add_get("/api/events", self._events)
        self.app.router.add_get("/api/view", self._view)
        self.app.router.add_post("/api/act", self._act)
        self.app.router.add_get("/files/{attachment}", self._file)
        self.app.on_startup.append(self._start_watching)
        self.app.on_cleanup.append(self._stop_watching)

    # -- links and who asks -----------------------------------------------------------------

    def link(self, base: str, user: FakeUser) -> str:
        """The page of ``user``: ``base/?as=Name`` (and his token when secure)."""
        web_user = self.users[user.name.casefold()]
        link = f"{base.rstrip('/')}/?as={quote(web_user.name)}"
        return link + (f"&t={web_user.token}" if web_user.token else "")

    def _who(self, request: web.Request) -> WebUser:
        if not self.secure and _hostname(request.host) not in LOOPBACK_NAMES:
            # Without secrets, only this machine's own address: another name resolving
            # here (DNS rebinding) is another site's page, not the user's.
            raise web.HTTPForbidden(text="Open this page at 127.0.0.1 or localhost.")
        name = request.query.get("as", "")
        if not name and not self.secure:
            name = next(iter(self.users.values())).name
        web_user = self.users.get(name.casefold())
        if self.secure:
            token = request.query.get("t", "")
            if web_user is None or not hmac.compare_digest(token, web_user.token or ""):
                raise web.HTTPForbidden(text="This page needs the link bondbot try printed.")
        if web_user is None:
            raise web.HTTPNotFound(text=f"No user {name!r} here.")
        return web_user

    # -- pushes -------------------------------------------------------------------------------

    async def _start_watching(self, _app: web.Application) -> None:
        self._watcher = background.spawn(self._watch(), name="local-web-watch")

    async def _stop_watching(self, _app: web.Application) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watcher
        for page in self._pages:
            page.set()

    async def _watch(self) -> None:
        """Wake every open page whenever the stand-in's state changes (it notifies after each
        request the bot makes and each event it dispatches)."""
        changed = self.fake._changed
        while True:
            async with changed:
                await changed.wait()
            self._wake()

    def _wake(self) -> None:
        for page in self._pages:
            page.set()

    async def _events(self, request: web.Request) -> web.StreamResponse:
        web_user = self._who(request)
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-cache",
                "X-Accel-Buffering": "no",
            }
        )
        await response.prepare(request)
        wake = asyncio.Event()
        wake.set()
        self._pages.add(wake)
        sent = _Sent()
        try:
            while True:
                try:
                    await asyncio.wait_for(wake.wait(), KEEPALIVE_S)
                except TimeoutError:
                    await response.write(b": keepalive\n\n")
                    continue
                wake.clear()
                if self._watcher is None or self._watcher.done():
                    break
                update = self.diff(web_user, sent)
                if update:
                    data = json.dumps(update, ensure_ascii=False, separators=(",", ":"))
                    await response.write(f"data: {data}\n\n".encode())
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self._pages.discard(wake)
        return response

    async def _view(self, request: web.Request) -> web.Response:
        """The whole view at once (what the first push carries): for scripts and tests."""
        return web.json_response(self.diff(self._who(request), _Sent()))

    # -- views --------------------------------------------------------------------------------

    def diff(self, web_user: WebUser, sent: _Sent) -> dict[str, Any]:
        """What changed in ``web_user``'s view since ``sent`` (which it updates)."""
        out: dict[str, Any] = {}
        for key, value in self._meta(web_user).items():
            if sent.meta.get(key) != value:
                out[key] = value
                sent.meta[key] = value
        uid = web_user.user.id
        upsert: list[dict[str, Any]] = []
        seen: set[int] = set()
        for msg in self._visible(uid):
            seen.add(msg.id)
            signature = (len(msg.history), msg.flags)
            if sent.messages.get(msg.id) != signature:
                sent.messages[msg.id] = signature
                upsert.append(self._message(msg))
        gone = [mid for mid in sent.messages if mid not in seen]
        for mid in gone:
            del sent.messages[mid]
        if upsert:
            out["upsert"] = upsert
        if gone:
            out["remove"] = [str(mid) for mid in gone]
        acks = [
            inter
            for inter in self.fake.interactions.values()
            if inter.user_id == uid and inter.acknowledged and inter.id not in sent.acked
        ]
        if acks:
            sent.acked.update(inter.id for inter in acks)
            out["acks"] = [str(inter.id) for inter in acks]
        return out

    def _visible(self, user_id: int) -> list[FakeMessage]:
        channels = self.guild.channels
        return [
            m
            for m in self.fake.messages.values()
            if m.channel_id in channels and m.visible_to(user_id)
        ]

    def _meta(self, web_user: WebUser) -> dict[str, Any]:
        user = web_user.user
        members = [
            {"id": str(m.user.id), "name": _shown(m.user), "bot": m.user.bot}
            for m in self.guild.members.values()
        ]
        return {
            "me": {
                "id": str(user.id),
                "name": user.name,
                "shown": _shown(user),
                "locale": user.locale,
                "token": web_user.token,
            },
            # Switching to another user is for one person on his own machine only.
            "users": [] if self.secure else [u.name for u in self.users.values()],
            "guild": {"id": str(self.guild.id), "name": self.guild.name},
            "channels": [
                {
                    "id": str(c.id),
                    "name": c.name,
                    "thread": c.is_thread,
                    "parent_id": None if c.parent_id is None else str(c.parent_id),
                    "archived": c.archived,
                    "position": c.position,
                }
                for c in self.guild.channels.values()
                if c.type in (0, 11, 12)
            ],
            "members": members,
            "roles": [
                {"id": str(r.id), "name": r.name}
                for r in self.guild.roles.values()
                if r.id != self.guild.id and not r.name.endswith(" perms")
            ],
            "commands": self._commands(user),
            "modal": self._modal(user.id),
        }

    def _commands(self, user: FakeUser) -> list[dict[str, Any]]:
        """The synced commands this user may use here, as Discord lists them to him (a
        command needing permissions he lacks is not offered)."""
        member = self.guild.members[user.id]
        allowed = []
        for command in [*self.fake.commands(self.guild), *self.fake.commands(None)]:
            try:
                self.fake._check_command_allowed(command, member, self.guild)
            except InteractionRejected:
                continue
            allowed.append(command)
        return allowed

    def _modal(self, user_id: int) -> dict[str, Any] | None:
        for inter in reversed(list(self.fake.interactions.values())):
            if inter.user_id != user_id or inter.modal is None:
                continue
            if inter.id in self._closed_modals:
                return None
            return {
                "interaction_id": str(inter.id),
                "custom_id": inter.modal.custom_id,
                "title": inter.modal.title,
                "components": inter.modal.components,
            }
        return None

    def _message(self, msg: FakeMessage) -> dict[str, Any]:
        meta = msg.interaction_metadata or {}
        who = self.fake.users.get(int(meta["user"]["id"])) if meta.get("user") else None
        return {
            "id": str(msg.id),
            "channel_id": str(msg.channel_id),
            "author": {"name": _shown(msg.author), "bot": msg.author.bot},
            "content": msg.content,
            "embeds": msg.embeds,
            "components": msg.components,
            "flags": msg.flags,
            "ephemeral": msg.ephemeral_for is not None,
            "loading": msg.loading,
            "edited": msg.edited_at is not None,
            "timestamp": iso(msg.created_at),
            "interaction": None
            if who is None
            else {"user": _shown(who), "name": meta.get("name"), "type": meta.get("type")},
            "reference": (msg.message_reference or {}).get("message_id"),
            "attachments": [
                {
                    "id": str(a.id),
                    "filename": a.filename,
                    "content_type": a.content_type,
                    "description": a.description,
                    "size": a.size,
                }
                for a in msg.attachments
            ],
        }

    # -- files --------------------------------------------------------------------------------

    async def _file(self, request: web.Request) -> web.Response:
        web_user = self._who(request)
        try:
            aid = int(request.match_info["attachment"])
        except ValueError:
            raise web.HTTPNotFound() from None
        for msg in self._visible(web_user.user.id):
            for att in msg.attachments:
                if att.id == aid:
                    return web.Response(
                        body=att.data,
                        content_type=att.content_type or "application/octet-stream",
                        headers={"Cache-Control": "private, max-age=3600"},
                    )
        raise web.HTTPNotFound()

    # -- the page -----------------------------------------------------------------------------

    async def _index(self, request: web.Request) -> web.Response:
        self._who(request)
        page = (STATIC / "index.html").read_text(encoding="utf-8")
        page = page.replace("/*STYLE*/", (STATIC / "style.css").read_text(encoding="utf-8"))
        page = page.replace("/*SCRIPT*/", (STATIC / "app.js").read_text(encoding="utf-8"))
        return web.Response(
            text=page,
            content_type="text/html",
            headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"},
        )

    # -- acts ---------------------------------------------------------------------------------

    async def _act(self, request: web.Request) -> web.Response:
        web_user = self._who(request)
        if request.content_type != "application/json":
            # Only a JSON body: a browser asks before sending one from another site's page
            # (CORS preflight, which this server never grants); a form or text/plain post
            # from there would not ask.
            raise web.HTTPUnsupportedMediaType(text="application/json only")
        try:
            body = await request.json()
            if not isinstance(body, dict):
                raise ValueError("a JSON object")
            answer = await self.act(web_user.user, body)
        except (InteractionRejected, DiscordAPIError) as exc:
            return web.json_response({"ok": False, "error": str(exc)})
        except NoResponse:
            return web.json_response({"ok": False, "error": "The application did not respond."})
        except (KeyError, ValueError, TypeError) as exc:
            return web.json_response({"ok": False, "error": f"bad request: {exc!r}"}, status=400)
        return web.json_response({"ok": True, **answer})

    async def act(self, user: FakeUser, body: dict[str, Any]) -> dict[str, Any]:
        """Do what the page asks as ``user``: ``kind`` is click, slash, autocomplete, modal
        or close_modal. Raises what the stand-in raises for what Discord would refuse."""
        fake, kind = self.fake, body["kind"]
        result: InteractionResult
        if kind == "click":
            values = body.get("values")
            result = await fake.click(
                user,
                int(body["message_id"]),
                str(body["custom_id"]),
                values=None if values is None else [str(v) for v in values],
                _timeout=ACT_TIMEOUT_S,
            )
        elif kind in ("slash", "autocomplete"):
            channel = fake.channels[int(body["channel_id"])]
            if channel.guild_id != self.guild.id:
                raise InteractionRejected("no such channel")
            path = str(body["path"])
            options = self._options(path, dict(body.get("options") or {}), body.get("focused"))
            if kind == "autocomplete":
                focused = str(body["focused"])
                result = await fake.autocomplete_result(
                    user,
                    path,
                    focused=focused,
                    value=str(body.get("value", "")),
                    _channel=channel,
                    _options=options,
                    _timeout=ACT_TIMEOUT_S,
                )
                return {"interaction_id": str(result.interaction.id), "choices": result.choices}
            result = await fake.slash(
                user, path, _channel=channel, _options=options, _timeout=ACT_TIMEOUT_S
            )
        elif kind in ("modal", "close_modal"):
            inter = fake.interactions[int(body["interaction_id"])]
            if inter.user_id != user.id or inter.modal is None:
                raise InteractionRejected("only the user the form was shown to can answer it")
            self._closed_modals.add(inter.id)
            if kind == "close_modal":
                self._wake()
                return {}
            try:
                result = await fake.submit_modal(
                    user,
                    InteractionResult(fake, inter),
                    dict(body.get("values") or {}),
                    _timeout=ACT_TIMEOUT_S,
                )
            except InteractionRejected:
                self._closed_modals.discard(inter.id)  # the form stays open, as Discord's does
                raise
        else:
            raise ValueError(f"unknown kind {kind!r}")
        return {"interaction_id": str(result.interaction.id)}

    def _options(self, path: str, given: dict[str, Any], focused: Any) -> dict[str, Any]:
        """The page's option values typed as the stand-in takes them: ids as ints, a file
        as an :class:`Upload`; empty ones left out (an option not given)."""
        parts = path.split()
        node: dict[str, Any] = self.fake.command(parts[0], self.guild)
        for part in parts[1:]:
            node = next(
                o for o in node.get("options") or [] if o["type"] in _SUB and o["name"] == part
            )
        types = {o["name"]: int(o["type"]) for o in node.get("options") or []}
        out: dict[str, Any] = {}
        for name, value in given.items():
            if value is None or value == "" or name == focused:
                continue
            otype = types.get(name)
            if otype in _ID_OPTIONS:
                out[name] = int(value)
            elif otype == _ATTACHMENT_OPTION:
                out[name] = Upload(
                    str(value["filename"]),
                    base64.b64decode(value["data"]),
                    value.get("content_type") or None,
                )
            else:
                out[name] = value
        return out


def _hostname(host: str) -> str:
    """The name in a Host header, without its port ("[::1]:8765" → "::1")."""
    if host.startswith("["):
        return host[1 : host.find("]")]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _shown(user: FakeUser) -> str:
    return user.global_name or user.name
