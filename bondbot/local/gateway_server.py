"""The fake's gateway side: the websocket (HELLO, heartbeats), IDENTIFY and RESUME, member
chunks, and dispatching events to the sessions of a guild's shard (MESSAGE_* honouring
intents). The protocol's plumbing (compression, sessions' replay) is in `gateway`."""

from __future__ import annotations

import json
import traceback
from typing import Any

from aiohttp import WSMsgType, web

from .gateway import (
    INTENT_GUILD_MEMBERS,
    INTENT_GUILD_MESSAGES,
    INTENT_GUILDS,
    INTENT_MESSAGE_CONTENT,
    OP_HEARTBEAT,
    OP_HEARTBEAT_ACK,
    OP_HELLO,
    OP_IDENTIFY,
    OP_INVALID_SESSION,
    OP_PRESENCE,
    OP_RECONNECT,
    OP_REQUEST_MEMBERS,
    OP_RESUME,
    OP_VOICE_STATE,
    PRIVILEGED_INTENTS,
    GatewayConnection,
    GatewaySession,
)
from .models import FakeMessage
from .state import FakeState


def _valid_shard(shard: Any) -> bool:
    """``[shard_id, shard_count]``, with 0 <= shard_id < shard_count."""
    return (
        isinstance(shard, list)
        and len(shard) == 2
        and all(isinstance(n, int) and not isinstance(n, bool) for n in shard)
        and 0 <= shard[0] < shard[1]
    )


class GatewayServer(FakeState):
    """``/gateway``: sessions, what they are sent, and how Discord ends them."""

    def sessions_for(self, guild_id: int | None) -> list[GatewaySession]:
        """The sessions Discord sends this guild's events to: those of its shard (an
        unsharded session has them all; events outside a guild go to shard 0)."""
        return [s for s in list(self.sessions.values()) if s.serves(guild_id)]

    async def dispatch(self, event: str, data: dict[str, Any]) -> int:
        """Send a DISPATCH to every session of the event's guild's shard (every session for
        an unsharded bot); returns how many got it."""
        if not self.sessions:
            raise RuntimeError(f"cannot dispatch {event}: no gateway session (bot not connected?)")
        guild_id = data.get("guild_id")
        sessions = self.sessions_for(None if guild_id is None else int(guild_id))
        for session in sessions:
            await session.dispatch(event, data)
        return len(sessions)

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT; the client should come back with RESUME."""
        for session in self.sessions.values():
            if session.connection is not None:
                await session.connection.send_op(OP_RECONNECT, None)

    async def invalidate_sessions(self, resumable: bool = False) -> None:
        """Send op 9 INVALID_SESSION (discord.py sleeps 5 s before re-identifying)."""
        for conn in list(self.connections):
            await conn.send_op(OP_INVALID_SESSION, resumable)
            if not resumable and conn.session is not None:
                self.sessions.pop(conn.session.session_id, None)

    async def _handle_gateway(self, request: web.Request) -> web.StreamResponse:
        # Decline permessage-deflate (discord.py offers it); compression is ?compress=.
        ws = web.WebSocketResponse(compress=False, max_msg_size=0)
        await ws.prepare(request)
        compress = request.query.get("compress")
        conn = GatewayConnection(ws, compress)
        self.connections.append(conn)
        self.gateway_connects += 1
        try:
            if request.query.get("encoding", "json") != "json":
                await ws.close(code=4002, message=b"Error while decoding payload.")
                return ws
            if request.query.get("v", "10") != "10":
                await ws.close(code=4012, message=b"Invalid API version.")
                return ws
            if compress not in (None, "zlib-stream", "zstd-stream"):
                await ws.close(code=4002, message=b"Unsupported compression.")
                return ws
            hello = {"heartbeat_interval": self.heartbeat_interval_ms, "_trace": ["fake-gateway"]}
            await conn.send_op(OP_HELLO, hello)
            async for msg in ws:
                if msg.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    break
                data = json.loads(msg.data)
                self.gateway_received.append(data)
                try:
                    await self._on_gateway_op(conn, data)
                except Exception:
                    self.server_errors.append(traceback.format_exc())
        finally:
            self.connections.remove(conn)
            session = conn.session
            if session is not None and session.connection is conn:
                session.connection = None
                if ws.close_code in (1000, 1001):
                    self.sessions.pop(session.session_id, None)
            await self._notify()
        return ws

    async def _on_gateway_op(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        op = data.get("op")
        d = data.get("d")
        if op == OP_HEARTBEAT:
            await conn.send_op(OP_HEARTBEAT_ACK, None)
        elif op == OP_IDENTIFY:
            await self._identify(conn, d or {})
        elif op == OP_RESUME:
            await self._resume(conn, d or {})
        elif conn.session is None:
            await conn.ws.close(code=4003, message=b"Not authenticated.")
        elif op == OP_PRESENCE:
            conn.session.presence = d
        elif op == OP_REQUEST_MEMBERS:
            await self._member_chunk(conn.session, d or {})
        elif op == OP_VOICE_STATE:
            pass
        else:
            await conn.ws.close(code=4001, message=b"Unknown opcode.")
        await self._notify()

    async def _identify(self, conn: GatewayConnection, d: dict[str, Any]) -> None:
        if conn.session is not None:
            await conn.ws.close(code=4005, message=b"Already authenticated.")
            return
        if not self._token_ok(d.get("token")):
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        intents = int(d.get("intents", 0))
        if intents & PRIVILEGED_INTENTS and not self.allow_privileged_intents:
            await conn.ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        shard = d.get("shard")
        if shard is not None and not _valid_shard(shard):
            await conn.ws.close(code=4010, message=b"Invalid shard.")
            return
        if shard is not None:  # a new session for a shard replaces its dead one (kill -9)
            for old in list(self.sessions.values()):
                if old.shard == shard and old.connection is None:
                    self.sessions.pop(old.session_id, None)
        session = GatewaySession(token=d["token"], intents=intents, shard=shard)
        session.connection = conn
        conn.session = session
        self.sessions[session.session_id] = session
        self.identify_count += 1
        ready: dict[str, Any] = {
            "v": 10,
            "user": {**self.bot_user.to_payload(), "verified": True, "mfa_enabled": False},
            "guilds": [
                {"id": str(g), "unavailable": True} for g in self.guilds if session.serves(g)
            ],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": self.application_flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": ["fake"],
            "user_settings": {},
            "_trace": ["fake-gateway"],
        }
        if session.shard is not None:
            ready["shard"] = session.shard
        await session.dispatch("READY", ready)
        if session.has_intent(INTENT_GUILDS):
            for guild in [g for g in self.guilds.values() if session.serves(g.id)]:
                members = None
                if not session.has_intent(INTENT_GUILD_MEMBERS):
                    members = [guild.members[self.bot_user.id]]
                await session.dispatch("GUILD_CREATE", guild.to_payload(members=members))

    async def _resume(self, conn: GatewayConnection, d: dict[str, Any]) -> None:
        session = self.sessions.get(d.get("session_id", ""))
        if session is None or session.token != d.get("token"):
            await conn.send_op(OP_INVALID_SESSION, False)
            return
        session.connection = conn
        conn.session = session
        self.resume_count += 1
        await session.replay(int(d.get("seq") or 0))
        await session.dispatch("RESUMED", {"_trace": ["fake-gateway"]})

    async def _member_chunk(self, session: GatewaySession, d: dict[str, Any]) -> None:
        guild = self.guilds.get(int(d.get("guild_id", 0)))
        if guild is None:
            return
        members = list(guild.members.values())
        wanted = [int(u) for u in d.get("user_ids") or []]
        if wanted:
            members = [m for m in members if m.id in wanted]
        elif d.get("query"):
            query = str(d["query"]).lower()
            members = [m for m in members if m.user.name.lower().startswith(query)]
        limit = int(d.get("limit") or 0)
        if limit:
            members = members[:limit]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": [m.to_payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [str(u) for u in wanted if u not in guild.members],
        }
        if d.get("nonce"):
            chunk["nonce"] = d["nonce"]
        await session.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    async def _message_event(self, event: str, msg: FakeMessage) -> None:
        """MESSAGE_CREATE/UPDATE/DELETE for non-ephemeral messages, honouring intents."""
        if msg.ephemeral_for is not None:
            return
        guild = self.guilds.get(msg.guild_id or 0)
        member = guild.members.get(msg.author.id) if guild else None
        for session in self.sessions_for(msg.guild_id):
            if not session.has_intent(INTENT_GUILD_MESSAGES):
                continue
            if event == "MESSAGE_DELETE":
                data: dict[str, Any] = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
                if msg.guild_id:
                    data["guild_id"] = str(msg.guild_id)
            else:
                data = msg.to_payload(member=member)
                mentioned = self.bot_user.mention in msg.content
                privileged = session.has_intent(INTENT_MESSAGE_CONTENT)
                if msg.author.id != self.bot_user.id and not privileged and not mentioned:
                    data.update(content="", embeds=[], attachments=[], components=[])
            await session.dispatch(event, data)
