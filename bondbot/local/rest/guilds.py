"""REST: a guild, its channels, roles and members (read only)."""

from __future__ import annotations

from typing import Any

from ..models import FakeGuild
from ..state import FakeState
from ..validation import not_found
from .call import ApiCall


class GuildRoutes(FakeState):
    """``/guilds/{guild}``, ``/channels``, ``/roles`` and ``/members/{user}``."""

    def _guild_for(self, call: ApiCall) -> FakeGuild:
        guild = self.guilds.get(call.int_param("guild"))
        if guild is None:
            raise not_found(10004, "Guild")
        return guild

    async def _get_guild(self, call: ApiCall) -> tuple[int, Any]:
        payload = self._guild_for(call).to_payload()
        for key in ("members", "channels", "threads", "presences", "voice_states", "joined_at"):
            payload.pop(key, None)
        return 200, payload

    async def _get_guild_channels(self, call: ApiCall) -> tuple[int, Any]:
        return 200, [c.to_payload() for c in self._guild_for(call).channels.values()]

    async def _get_guild_roles(self, call: ApiCall) -> tuple[int, Any]:
        return 200, [r.to_payload() for r in self._guild_for(call).roles.values()]

    async def _get_member(self, call: ApiCall) -> tuple[int, Any]:
        member = self._guild_for(call).members.get(call.int_param("user"))
        if member is None:
            raise not_found(10007, "Member")
        return 200, member.to_payload()
