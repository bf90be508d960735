"""REST: who the bot is (``/users``, ``/oauth2/applications/@me``) and where the gateway is."""

from __future__ import annotations

from typing import Any

from ..state import FakeState
from ..validation import not_found
from .call import ApiCall

# Application flags: *_LIMITED = privileged intent enabled for an unverified bot.
_APP_FLAGS_PRIVILEGED = (1 << 13) | (1 << 15) | (1 << 19)
_APP_FLAG_COMMAND_BADGE = 1 << 23


class IdentityRoutes(FakeState):
    """The bot's user and application, other users, ``/gateway`` and ``/gateway/bot``."""

    @property
    def application_flags(self) -> int:
        """Application flags as the app would have them with/without privileged intents."""
        flags = _APP_FLAG_COMMAND_BADGE
        if self.allow_privileged_intents:
            flags |= _APP_FLAGS_PRIVILEGED
        return flags

    async def _get_me(self, call: ApiCall) -> tuple[int, Any]:
        me = self.bot_user.to_payload()
        me.update(verified=True, mfa_enabled=False, locale="en-US", email=None, premium_type=0)
        return 200, me

    async def _get_user(self, call: ApiCall) -> tuple[int, Any]:
        user = self.users.get(call.int_param("user"))
        if user is None:
            raise not_found(10013, "User")
        return 200, user.to_payload()

    async def _get_gateway(self, call: ApiCall) -> tuple[int, Any]:
        return 200, {"url": self.gateway_url}

    async def _get_gateway_bot(self, call: ApiCall) -> tuple[int, Any]:
        limit = {"total": 1000, "remaining": 999, "reset_after": 14_400_000, "max_concurrency": 1}
        return 200, {
            "url": self.gateway_url,
            "shards": self.shard_count,
            "session_start_limit": limit,
        }

    async def _get_application(self, call: ApiCall) -> tuple[int, Any]:
        return 200, {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "hook": True,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": self.app_owner.to_payload(),
            "team": None,
            "flags": self.application_flags,
            "bot": self.bot_user.to_payload(),
            "interactions_endpoint_url": None,
            "redirect_uris": [],
            "tags": [],
            "integration_types_config": {"0": {}},
            "approximate_guild_count": len(self.guilds),
        }
