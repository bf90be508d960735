"""Gateway plumbing: transport compression, connections and resumable sessions."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import zlib
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

# Gateway opcodes.
OP_DISPATCH = 0
OP_HEARTBEAT = 1
OP_IDENTIFY = 2
OP_PRESENCE = 3
OP_VOICE_STATE = 4
OP_RESUME = 6
OP_RECONNECT = 7
OP_REQUEST_MEMBERS = 8
OP_INVALID_SESSION = 9
OP_HELLO = 10
OP_HEARTBEAT_ACK = 11

# Intent bits the fake looks at.
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_PRESENCES = 1 << 8
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = INTENT_GUILD_MEMBERS | INTENT_GUILD_PRESENCES | INTENT_MESSAGE_CONTENT


def _zstd_compressor() -> Any:
    """A streaming zstd compressor, from whichever library discord.py would use."""
    try:
        import zstandard  # type: ignore[import-not-found]
    except ImportError:
        from compression import zstd  # type: ignore[import-not-found]

        comp = zstd.ZstdCompressor()
        return lambda raw: comp.compress(raw, mode=zstd.ZstdCompressor.FLUSH_BLOCK)
    obj = zstandard.ZstdCompressor().compressobj()
    return lambda raw: obj.compress(raw) + obj.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)


class GatewayConnection:
    """One websocket, encoding frames the way the client asked (``?compress=``)."""

    def __init__(self, ws: web.WebSocketResponse, compress: str | None) -> None:
        self.ws = ws
        self.compress = compress
        self._lock = asyncio.Lock()
        self._zlib = zlib.compressobj() if compress == "zlib-stream" else None
        self._zstd = _zstd_compressor() if compress == "zstd-stream" else None
        self.session: GatewaySession | None = None
        self.sent: int = 0

    @property
    def closed(self) -> bool:
        """Whether the socket is gone."""
        return self.ws.closed

    async def send(self, payload: dict[str, Any]) -> None:
        """Encode and send one gateway payload (compression context is per connection)."""
        raw = json.dumps(payload, separators=(",", ":")).encode()
        async with self._lock:
            if self.ws.closed:
                return
            if self._zlib is not None:
                data = self._zlib.compress(raw) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                await self.ws.send_bytes(data)
            elif self._zstd is not None:
                await self.ws.send_bytes(self._zstd(raw))
            else:
                await self.ws.send_str(raw.decode())
            self.sent += 1

    async def send_op(self, op: int, data: Any) -> None:
        """Send a non-dispatch opcode."""
        await self.send({"op": op, "d": data, "s": None, "t": None})


@dataclass
class GatewaySession:
    """An identified gateway session; keeps sent dispatches so RESUME can replay them."""

    token: str
    intents: int
    shard: list[int] | None
    session_id: str = field(default_factory=lambda: secrets.token_hex(16))
    seq: int = 0
    backlog: list[dict[str, Any]] = field(default_factory=list)
    connection: GatewayConnection | None = None
    presence: dict[str, Any] | None = None

    def serves(self, guild_id: int | None) -> bool:
        """Whether Discord sends this guild's events to this session (its shard's guilds;
        events outside a guild go to shard 0)."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        return (0 if guild_id is None else (guild_id >> 22) % count) == shard_id

    def has_intent(self, bit: int) -> bool:
        """Whether the client subscribed to ``bit``."""
        return bool(self.intents & bit)

    async def dispatch(self, event: str, data: dict[str, Any]) -> int:
        """Send a DISPATCH (op 0) with the next sequence number; returns it."""
        self.seq += 1
        payload = {"op": OP_DISPATCH, "s": self.seq, "t": event, "d": data}
        self.backlog.append(payload)
        del self.backlog[:-1000]
        conn = self.connection
        if conn is not None and not conn.closed:
            with contextlib.suppress(ConnectionError):  # replayed on RESUME
                await conn.send(payload)
        return self.seq

    async def replay(self, after: int) -> int:
        """Re-send dispatches newer than ``after``; returns how many."""
        assert self.connection is not None
        missed = [p for p in self.backlog if p["s"] > after]
        for payload in missed:
            await self.connection.send(payload)
        return len(missed)
