"""FakeDiscord: Discord's REST API and gateway on 127.0.0.1, backed by a scripted world.

It is assembled from mixins by concern: `world` (building it), `moderation` (what happens
to a connected bot), `gateway_server`, one per REST route family in `rest`, and the users'
side in `client`; here are its lifecycle, waiting on its changes, and the routing of REST
calls (faults and rate limits first) to their handlers."""

from __future__ import annotations

import asyncio
import re
import time
import traceback
from collections.abc import Callable
from typing import Self

from aiohttp import web

from .client import ScriptingMixin
from .gateway_server import GatewayServer
from .models import FakeChannel, FakeMessage
from .moderation import Moderation
from .rest.call import (
    ApiCall,
    CommandSync,
    Fault,
    Handler,
    RecordedRequest,
    UploadedFile,
    json_response,
    parse_body,
)
from .rest.channels import ChannelRoutes
from .rest.commands import CommandRoutes
from .rest.files import FileRoutes
from .rest.guilds import GuildRoutes
from .rest.identity import IdentityRoutes
from .rest.interactions import InteractionRoutes
from .rest.messages import MessageRoutes
from .validation import DiscordAPIError
from .world import WorldBuilding

__all__ = ["ApiCall", "CommandSync", "FakeDiscord", "Fault", "RecordedRequest", "UploadedFile"]


class FakeDiscord(
    ScriptingMixin,
    WorldBuilding,
    Moderation,
    GatewayServer,
    IdentityRoutes,
    CommandRoutes,
    MessageRoutes,
    FileRoutes,
    InteractionRoutes,
    ChannelRoutes,
    GuildRoutes,
):
    """A tiny Discord: REST under ``/api/v10``, gateway at ``/gateway``, CDN for attachments.

    Build the world (``add_guild``/``add_role``/``add_channel``/``add_user``) before the bot
    connects (later changes are not pushed over the gateway, except a guild the bot joins:
    ``join_guild``); then drive it with
    :meth:`slash`, :meth:`click`, :meth:`submit_modal`, ... Guild text channels only: no DMs,
    threads or context-menu commands.
    """

    # -- lifecycle ----------------------------------------------------------------------------

    async def start(self) -> Self:
        """Listen on a random free port of 127.0.0.1."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", r"/api/v{version:\d+}/{tail:.*}", self._handle_api)
        app.router.add_get("/gateway", self._handle_gateway)
        app.router.add_get("/", self._handle_gateway)
        app.router.add_get("/attachments/{channel}/{attachment}/{filename}", self._handle_cdn)
        self._runner = web.AppRunner(
            app, handle_signals=False, access_log=None, shutdown_timeout=0.5
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def stop(self) -> None:
        """Close gateway sockets and the HTTP server."""
        for conn in list(self.connections):
            await conn.ws.close(code=1001, message=b"fake discord stopping")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # -- inspection ----------------------------------------------------------------------------

    def assert_no_unexpected(self) -> None:
        """Fail if the bot called routes the fake does not implement, or the fake crashed."""
        if self.server_errors:
            raise AssertionError("FakeDiscord raised:\n" + "\n".join(self.server_errors))
        if self.unexpected:
            calls = "\n  ".join(str(r) for r in self.unexpected)
            raise AssertionError(f"bot made unexpected Discord API calls:\n  {calls}")

    # -- waiting -------------------------------------------------------------------------------

    async def wait_until(
        self, predicate: Callable[[], bool], timeout: float = 5.0, what: str = ""
    ) -> None:
        """Wait until ``predicate()`` holds; re-checked whenever the fake's state changes."""
        async with self._changed:
            try:
                await asyncio.wait_for(self._changed.wait_for(predicate), timeout)
            except TimeoutError:
                raise TimeoutError(f"timed out after {timeout}s waiting for {what}") from None

    async def wait_for_message(
        self,
        channel: FakeChannel | int | None = None,
        predicate: Callable[[FakeMessage], bool] | None = None,
        *,
        timeout: float = 5.0,
    ) -> FakeMessage:
        """First live message in ``channel`` matching ``predicate`` (existing or future)."""
        found: list[FakeMessage] = []

        def check() -> bool:
            for msg in self.channel_messages(channel):
                if predicate is None or predicate(msg):
                    found.append(msg)
                    return True
            return False

        await self.wait_until(check, timeout, "a matching message")
        return found[0]

    async def wait_for_sync(self, count: int = 1, timeout: float = 5.0) -> CommandSync:
        """Wait until the bot synced commands ``count`` times; returns the last sync."""
        await self.wait_until(lambda: len(self.command_syncs) >= count, timeout, "command sync")
        return self.command_syncs[-1]

    # -- faults --------------------------------------------------------------------------------

    def inject(
        self,
        method: str,
        path: str,
        status: int = 429,
        *,
        count: int | None = None,
        seconds: float | None = None,
        retry_after: float = 1.5,
    ) -> Fault:
        """Answer `status` to `method` requests whose path matches the regex `path` (e.g.
        ``/channels/\\d+/messages/\\d+``), `count` times or for `seconds`: a 429 storm
        (with `retry_after`) or a 5xx."""
        until = None if seconds is None else time.monotonic() + seconds
        fault = Fault(method, re.compile(path), status, count, until, retry_after)
        self.faults.append(fault)
        return fault

    def _fault_for(self, method: str, path: str) -> Fault | None:
        return next((f for f in self.faults if f.matches(method, path)), None)

    # -- REST plumbing -------------------------------------------------------------------------

    def _route(self, method: str, pattern: str, handler: Handler, *, auth: bool = True) -> None:
        regex = re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", pattern) + "$")
        self._routes.append((method, regex, handler, auth))

    def _install_routes(self) -> None:
        r = self._route
        r("GET", "/users/@me", self._get_me)
        r("GET", "/users/{user}", self._get_user)
        r("GET", "/gateway", self._get_gateway, auth=False)
        r("GET", "/gateway/bot", self._get_gateway_bot)
        r("GET", "/oauth2/applications/@me", self._get_application)
        for prefix in ("/applications/{app}", "/applications/{app}/guilds/{guild}"):
            r("GET", f"{prefix}/commands", self._get_commands)
            r("PUT", f"{prefix}/commands", self._put_commands)
            r("POST", f"{prefix}/commands", self._post_command)
            r("GET", f"{prefix}/commands/{{command}}", self._get_command)
            r("DELETE", f"{prefix}/commands/{{command}}", self._delete_command)
        r("POST", "/interactions/{interaction}/{token}/callback", self._callback, auth=False)
        r("POST", "/webhooks/{app}/{token}", self._execute_webhook, auth=False)
        for method in ("GET", "PATCH", "DELETE"):
            r(
                method,
                "/webhooks/{app}/{token}/messages/{message}",
                self._webhook_message,
                auth=False,
            )
        r("GET", "/channels/{channel}", self._get_channel)
        r("PATCH", "/channels/{channel}", self._patch_channel)
        r("POST", "/channels/{channel}/messages/{message}/threads", self._start_thread)
        r("POST", "/channels/{channel}/threads", self._start_thread_alone)
        r("POST", "/channels/{channel}/typing", self._typing)
        r("GET", "/channels/{channel}/messages", self._get_messages)
        r("POST", "/channels/{channel}/messages", self._post_message)
        for method in ("GET", "PATCH", "DELETE"):
            r(method, "/channels/{channel}/messages/{message}", self._channel_message)
        r("GET", "/guilds/{guild}", self._get_guild)
        r("GET", "/guilds/{guild}/channels", self._get_guild_channels)
        r("GET", "/guilds/{guild}/roles", self._get_guild_roles)
        r("GET", "/guilds/{guild}/members/{user}", self._get_member)

    def _check_auth(self, request: web.Request) -> None:
        auth = request.headers.get("Authorization", "")
        if not auth.startswith("Bot ") or not self._token_ok(auth[4:]):
            raise DiscordAPIError(401, 0, "401: Unauthorized")

    async def _handle_api(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        record = RecordedRequest(request.method, path, dict(request.query), None)
        self.requests.append(record)
        if (fault := self._fault_for(request.method, path)) is not None:
            record.status = fault.status
            await self._notify()
            return fault.response()
        limit_headers: dict[str, str] = {}
        if self.rate_limits is not None:
            refused, limit_headers = self.rate_limits.check(request.method, path)
            if refused is not None:
                record.status = 429
                await self._notify()
                return refused
        try:
            record.body, files = await parse_body(request)
            record.files = [f.filename for f in files]
            path_known = False
            for method, regex, handler, auth in self._routes:
                m = regex.match(path)
                if m is None:
                    continue
                path_known = True
                if method != request.method:
                    continue
                if auth:
                    self._check_auth(request)
                call = ApiCall(
                    request.method, path, m.groupdict(), record.query, record.body, files
                )
                status, body = await handler(call)
                break
            else:
                self.unexpected.append(record)
                if path_known:
                    raise DiscordAPIError(405, 0, "405: Method Not Allowed")
                raise DiscordAPIError(404, 0, "404: Not Found")
        except DiscordAPIError as exc:
            status, body = exc.status, exc.to_body()
            record.code = exc.code
        except Exception as exc:  # a fake bug: answer 400, since discord.py retries 5xx slowly
            self.server_errors.append(traceback.format_exc())
            status, body = 400, {"message": f"FakeDiscord bug: {exc!r}", "code": 0}
        record.status = status
        await self._notify()
        response = json_response(status, body)
        response.headers.update(limit_headers)
        return response
