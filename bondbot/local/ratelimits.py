"""Discord's rate limits, as the fake applies them when asked (`FakeDiscord.rate_limits`).

What Discord documents (https://discord.com/developers/docs/topics/rate-limits), and what
discord.py reads:

- a **global** limit: 50 requests a second per bot, across every route, except the
  interaction endpoints (the callback, and the follow-ups and edits made with the
  interaction's token under ``/webhooks/{app}/{token}``);
- **per-route** buckets, each keyed by the route and its major parameter (the channel, the
  guild, the webhook): a channel takes about 5 message posts and 5 message edits in 5 s;
  every other route here gets a generous default (Discord's are not published);
- every answer on a limited route carries ``X-RateLimit-Limit``, ``-Remaining``,
  ``-Reset`` (epoch seconds), ``-Reset-After`` and ``-Bucket``; a 429 carries
  ``Retry-After``, ``X-RateLimit-Scope`` (``user`` or ``global``), ``X-RateLimit-Global``
  for the global one, ``Via`` (discord.py takes a 429 without it for Cloudflare's ban) and
  the body ``{"message": "You are being rate limited.", "retry_after": 1.5, "global":
  false}``.

Buckets are fixed windows opened by their first request, as Discord's are. Off by
default: the suite's tests click faster than any human, and discord.py's pre-emptive
waits would slow them for nothing; tests of the limits and the benches turn it on.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import time
from dataclasses import dataclass, field

from aiohttp import web

GLOBAL_PER_SECOND = 50
# (method, path regex with the major parameter as `major`, requests, per seconds): first
# match wins.
ROUTES: tuple[tuple[str, str, int, float], ...] = (
    ("POST", r"/channels/(?P<major>\d+)/messages", 5, 5.0),
    ("PATCH", r"/channels/(?P<major>\d+)/messages/\d+", 5, 5.0),
    ("DELETE", r"/channels/(?P<major>\d+)/messages/\d+", 5, 1.0),
    ("POST", r"/channels/(?P<major>\d+)/messages/\d+/threads", 5, 5.0),
    ("POST", r"/channels/(?P<major>\d+)/threads", 5, 5.0),
    ("PATCH", r"/channels/(?P<major>\d+)", 5, 5.0),
)
DEFAULT = (50, 1.0)  # any other route, per its path
EXEMPT = re.compile(r"/interactions/\d+/[^/]+/callback|/webhooks/\d+/[^/]+(/.*)?")


@dataclass
class Bucket:
    limit: int
    per: float
    name: str
    remaining: int = 0
    reset_at: float = 0.0

    def take(self, now: float) -> float:
        """0 when the request may go (and counts it), else the seconds until it may."""
        if now >= self.reset_at:
            self.reset_at, self.remaining = now + self.per, self.limit
        if self.remaining <= 0:
            return self.reset_at - now
        self.remaining -= 1
        return 0.0

    def headers(self, now: float) -> dict[str, str]:
        after = max(0.0, self.reset_at - now)
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(max(0, self.remaining)),
            "X-RateLimit-Reset": f"{time.time() + after:.3f}",
            "X-RateLimit-Reset-After": f"{after:.3f}",
            "X-RateLimit-Bucket": self.name,
        }


@dataclass
class RateLimits:
    """The buckets of one bot token; `check` each request, `limited` counts the 429s."""

    global_per_second: int = GLOBAL_PER_SECOND
    routes: tuple[tuple[str, str, int, float], ...] = ROUTES
    _buckets: dict[tuple[str, str], Bucket] = field(default_factory=dict)
    _global: Bucket | None = None
    limited: int = 0  # 429s answered
    limited_global: int = 0

    def __post_init__(self) -> None:
        self._compiled = [(m, re.compile(p), n, s) for m, p, n, s in self.routes]
        self._global = Bucket(self.global_per_second, 1.0, "global")

    def bucket(self, method: str, path: str) -> Bucket | None:
        """The bucket of `method path`: None for the interaction endpoints."""
        if EXEMPT.fullmatch(path):
            return None
        for route_method, regex, *window in self._compiled:
            if route_method == method and (m := regex.fullmatch(path)):
                key, (limit, per) = (f"{method} {regex.pattern}", m["major"]), window
                break
        else:
            template = re.sub(r"\d+", "{id}", path)
            key, (limit, per) = (f"{method} {template}", ""), DEFAULT
        found = self._buckets.get(key)
        if found is None:
            name = hashlib.sha1(key[0].encode()).hexdigest()[:16]  # one hash per route
            found = self._buckets[key] = Bucket(limit, per, name)
        return found

    def check(self, method: str, path: str) -> tuple[web.Response | None, dict[str, str]]:
        """(a 429 to answer instead, or None) and the headers the answer carries."""
        bucket = self.bucket(method, path)
        if bucket is None:
            return None, {}
        now = time.monotonic()
        assert self._global is not None
        wait = self._global.take(now)
        if wait:
            self.limited += 1
            self.limited_global += 1
            return too_many(wait, scope="global"), {}
        wait = bucket.take(now)
        if wait:
            self._global.remaining += 1  # a refused request is not counted globally
            self.limited += 1
            return too_many(wait, scope="user", headers=bucket.headers(now)), {}
        return None, bucket.headers(now)


def too_many(wait: float, *, scope: str, headers: dict[str, str] | None = None) -> web.Response:
    """Discord's 429: its body, `Retry-After` (whole seconds, rounded up) and the scope."""
    is_global = scope == "global"
    body = {"message": "You are being rate limited.", "retry_after": round(wait, 3)}
    more = {"X-RateLimit-Global": "true"} if is_global else {}
    return web.Response(
        status=429,
        body=json.dumps({**body, "global": is_global}).encode(),
        headers={
            **(headers or {}),
            **more,
            "Content-Type": "application/json",
            "Via": "1.1 google",
            "Retry-After": str(max(1, math.ceil(wait))),
            "X-RateLimit-Scope": scope,
        },
    )
