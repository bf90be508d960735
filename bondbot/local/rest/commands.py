"""REST: application commands, global or of one guild (sync, create, get, delete), and
reading back what the bot synced."""

from __future__ import annotations

from typing import Any

from ..models import FakeGuild
from ..state import FakeState
from ..validation import DiscordAPIError, not_found, validate_commands
from .call import ApiCall, CommandSync


class CommandRoutes(FakeState):
    """``/applications/{app}[/guilds/{guild}]/commands``; each bulk overwrite is recorded
    (`command_syncs`)."""

    def commands(self, guild: FakeGuild | int | None = None) -> list[dict[str, Any]]:
        """Synced commands: global (``guild=None``) or of one guild."""
        if guild is None:
            return self.global_commands
        gid = guild if isinstance(guild, int) else guild.id
        return self.guild_commands.get(gid, [])

    def command(self, name: str, guild: FakeGuild | int | None = None) -> dict[str, Any]:
        """One synced top-level command by name (guild first, then global)."""
        return self.find_command(name, guild)[0]

    def _command_scope(self, call: ApiCall) -> tuple[int | None, list[dict[str, Any]]]:
        if call.int_param("app") != self.application_id:
            raise DiscordAPIError(403, 50001, "Missing Access")
        if "guild" not in call.params:
            return None, self.global_commands
        gid = call.int_param("guild")
        if gid not in self.guilds:
            raise DiscordAPIError(403, 50001, "Missing Access")
        return gid, self.guild_commands.setdefault(gid, [])

    def _stored_command(
        self, cmd: dict[str, Any], guild_id: int | None, old: dict[str, Any] | None
    ) -> dict[str, Any]:
        stored: dict[str, Any] = {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            "integration_types": [0],
            "contexts": None,
            "name_localizations": None,
            "description_localizations": None,
            **cmd,
            "id": old["id"] if old else str(self.snowflake()),
            "application_id": str(self.application_id),
        }
        if stored["default_member_permissions"] is not None:  # Discord answers with a string
            stored["default_member_permissions"] = str(int(stored["default_member_permissions"]))
        if guild_id is not None:
            stored["guild_id"] = str(guild_id)
        changed = old is None or {k: v for k, v in old.items() if k != "version"} != stored
        stored["version"] = str(self.snowflake()) if changed or old is None else old["version"]
        return stored

    async def _get_commands(self, call: ApiCall) -> tuple[int, Any]:
        _, cmds = self._command_scope(call)
        return 200, cmds

    async def _put_commands(self, call: ApiCall) -> tuple[int, Any]:
        gid, current = self._command_scope(call)
        body = call.body
        if not isinstance(body, list):
            raise DiscordAPIError(400, 50035, "Invalid Form Body")
        validate_commands(body)
        existing = {(int(c.get("type", 1)), c["name"]): c for c in current}
        stored = [
            self._stored_command(cmd, gid, existing.get((int(cmd.get("type", 1)), cmd["name"])))
            for cmd in body
        ]
        current[:] = stored
        self.command_syncs.append(CommandSync(gid, [c["name"] for c in stored]))
        return 200, stored

    async def _post_command(self, call: ApiCall) -> tuple[int, Any]:
        gid, current = self._command_scope(call)
        cmd = call.json()
        validate_commands([cmd])
        key = (int(cmd.get("type", 1)), cmd["name"])
        for i, old in enumerate(current):
            if (int(old.get("type", 1)), old["name"]) == key:
                current[i] = self._stored_command(cmd, gid, old)
                return 200, current[i]
        current.append(self._stored_command(cmd, gid, None))
        return 201, current[-1]

    async def _get_command(self, call: ApiCall) -> tuple[int, Any]:
        _, current = self._command_scope(call)
        for cmd in current:
            if cmd["id"] == call.params["command"]:
                return 200, cmd
        raise not_found(10063, "application command")

    async def _delete_command(self, call: ApiCall) -> tuple[int, Any]:
        _, current = self._command_scope(call)
        for cmd in current:
            if cmd["id"] == call.params["command"]:
                current.remove(cmd)
                return 204, None
        raise not_found(10063, "application command")
