"""Building the INTERACTION_CREATE payload a Discord client would send for a user's action:
a command's options typed and checked against its synced definition, resolved users, roles,
channels and uploads, select values and a modal's fields; and the client's own refusals
(`InteractionRejected`): unknown command, missing permission, value out of bounds."""

from __future__ import annotations

import base64
import secrets
from collections.abc import Iterable, Mapping
from typing import Any

from .interaction import (
    ATTACHMENT,
    BOOLEAN,
    CHANNEL,
    INTEGER,
    MENTIONABLE,
    NUMBER,
    ROLE,
    STRING,
    SUB_COMMAND,
    SUB_COMMAND_GROUP,
    USER,
    FakeInteraction,
    InteractionRejected,
    Upload,
)
from .models import (
    ADMINISTRATOR,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
)
from .state import FakeState, UserLike, id_of


class InteractionPayloads(FakeState):
    """What :class:`~bondbot.local.client.ScriptingMixin` builds its interactions with."""

    def _member_of(self, user: UserLike, guild: FakeGuild) -> FakeMember:
        uid = id_of(user)
        try:
            return guild.members[uid]
        except KeyError:
            raise InteractionRejected(f"user {uid} is not a member of {guild.name!r}") from None

    def find_command(
        self, name: str, guild: FakeGuild | int | None = None, *, type: int = 1
    ) -> tuple[dict[str, Any], int | None]:
        """Synced command by top-level name: guild commands first, then global."""
        gid = None if guild is None else id_of(guild)
        if gid is not None:
            for cmd in self.commands(gid):
                if cmd["name"] == name and int(cmd.get("type", 1)) == type:
                    return cmd, gid
        for cmd in self.commands(None):
            if cmd["name"] == name and int(cmd.get("type", 1)) == type:
                return cmd, None
        known = sorted({c["name"] for c in self.commands(gid) + self.commands(None)})
        raise InteractionRejected(f"command {name!r} (type {type}) is not synced; synced: {known}")

    # -- building -----------------------------------------------------------------------------

    def _base_payload(
        self,
        itype: int,
        member: FakeMember,
        guild: FakeGuild,
        channel: FakeChannel,
        data: dict[str, Any],
        locale: str | None,
        message: FakeMessage | None,
    ) -> FakeInteraction:
        inter_id = self.snowflake()
        raw = f"interaction:{inter_id}:{secrets.token_urlsafe(48)}".encode()
        token = base64.urlsafe_b64encode(raw).decode().rstrip("=")
        perms = guild.channel_permissions(member.id, channel.id)
        app_perms = guild.channel_permissions(self.bot_user.id, channel.id)
        payload: dict[str, Any] = {
            "id": str(inter_id),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
            "channel_id": str(channel.id),
            "channel": {**channel.to_payload(), "permissions": str(perms)},
            "member": {**member.to_payload(), "permissions": str(perms)},
            "token": token,
            "version": 1,
            "locale": locale or member.user.locale,
            "guild_locale": guild.preferred_locale,
            "app_permissions": str(app_perms),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if message is not None:
            payload["message"] = message.to_payload()
        return FakeInteraction(
            id=inter_id,
            token=token,
            type=itype,
            kind="",
            name="",
            user_id=member.id,
            guild_id=guild.id,
            channel_id=channel.id,
            payload=payload,
            source_message_id=None if message is None else message.id,
        )

    def _resolve_user(
        self, value: Any, guild: FakeGuild, channel: FakeChannel, resolved: dict[str, Any]
    ) -> str:
        uid = id_of(value)
        member = guild.members.get(uid)
        user = member.user if member is not None else getattr(value, "user", value)
        if not isinstance(user, FakeUser):
            raise InteractionRejected(f"unknown user {uid}")
        resolved.setdefault("users", {})[str(uid)] = user.to_payload()
        if member is not None:
            perms = guild.channel_permissions(uid, channel.id)
            resolved.setdefault("members", {})[str(uid)] = {
                **member.to_payload(with_user=False),
                "permissions": str(perms),
            }
        return str(uid)

    def _resolve_role(self, value: Any, guild: FakeGuild, resolved: dict[str, Any]) -> str:
        rid = id_of(value)
        role = guild.roles.get(rid)
        if role is None:
            raise InteractionRejected(f"unknown role {rid}")
        resolved.setdefault("roles", {})[str(rid)] = role.to_payload()
        return str(rid)

    def _resolve_channel(
        self, value: Any, guild: FakeGuild, member: FakeMember, resolved: dict[str, Any]
    ) -> FakeChannel:
        chan = self.channels.get(id_of(value))
        if chan is None or chan.guild_id != guild.id:
            raise InteractionRejected(f"unknown channel {value!r}")
        perms = guild.channel_permissions(member.id, chan.id)
        resolved.setdefault("channels", {})[str(chan.id)] = {
            **chan.to_payload(),
            "permissions": str(perms),
        }
        return chan

    def _resolve_upload(self, value: Any, channel: FakeChannel, resolved: dict[str, Any]) -> str:
        if isinstance(value, FakeAttachment):
            att = value
        else:
            if isinstance(value, tuple):
                value = Upload(*value)
            if not isinstance(value, Upload):
                raise TypeError(f"attachment values must be Upload or (filename, bytes): {value!r}")
            att = self.new_attachment(
                channel.id,
                value.filename,
                value.data,
                value.content_type,
                value.description,
                ephemeral=True,
            )
        resolved.setdefault("attachments", {})[str(att.id)] = att.to_payload()
        return str(att.id)

    def _encode_option(
        self,
        opt: dict[str, Any],
        value: Any,
        guild: FakeGuild,
        channel: FakeChannel,
        member: FakeMember,
        resolved: dict[str, Any],
    ) -> Any:
        otype = int(opt["type"])
        name = opt["name"]
        if otype == STRING:
            if not isinstance(value, str | int | float) or isinstance(value, bool):
                raise TypeError(f"option {name!r} is a STRING, got {value!r}")
            value = str(value)
            low, high = opt.get("min_length", 0), opt.get("max_length", 6000)
            if not low <= len(value) <= high:
                raise InteractionRejected(f"option {name!r} length must be {low}..{high}")
        elif otype == INTEGER:
            if isinstance(value, bool) or not isinstance(value, int | str):
                raise TypeError(f"option {name!r} is an INTEGER, got {value!r}")
            value = int(value)
        elif otype == NUMBER:
            if isinstance(value, bool) or not isinstance(value, int | float | str):
                raise TypeError(f"option {name!r} is a NUMBER, got {value!r}")
            value = float(value)
        elif otype == BOOLEAN:
            if not isinstance(value, bool):
                raise TypeError(f"option {name!r} is a BOOLEAN, got {value!r}")
        elif otype == USER:
            return self._resolve_user(value, guild, channel, resolved)
        elif otype == ROLE:
            return self._resolve_role(value, guild, resolved)
        elif otype == MENTIONABLE:
            if isinstance(value, FakeRole):
                return self._resolve_role(value, guild, resolved)
            return self._resolve_user(value, guild, channel, resolved)
        elif otype == CHANNEL:
            chan = self._resolve_channel(value, guild, member, resolved)
            allowed = opt.get("channel_types")
            if allowed and chan.type not in allowed:
                raise InteractionRejected(
                    f"option {name!r} does not accept channel type {chan.type}"
                )
            return str(chan.id)
        elif otype == ATTACHMENT:
            return self._resolve_upload(value, channel, resolved)
        else:
            raise TypeError(f"unsupported option type {otype} for {name!r}")
        if otype in (INTEGER, NUMBER):
            if "min_value" in opt and value < opt["min_value"]:
                raise InteractionRejected(f"option {name!r} must be >= {opt['min_value']}")
            if "max_value" in opt and value > opt["max_value"]:
                raise InteractionRejected(f"option {name!r} must be <= {opt['max_value']}")
        choices = opt.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise InteractionRejected(
                f"option {name!r} must be one of {[c['value'] for c in choices]}, got {value!r}"
            )
        return value

    def _command_data(
        self,
        member: FakeMember,
        guild: FakeGuild,
        channel: FakeChannel,
        path: str,
        values: Mapping[str, Any],
        *,
        focused: str | None = None,
    ) -> tuple[dict[str, Any], str]:
        parts = path.strip().lstrip("/").split()
        if not parts:
            raise ValueError("empty command path")
        cmd, scope = self.find_command(parts[0], guild)
        self._check_command_allowed(cmd, member, guild)
        node = cmd
        chain: list[dict[str, Any]] = []
        for part in parts[1:]:
            sub = next(
                (
                    o
                    for o in node.get("options") or []
                    if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) and o["name"] == part
                ),
                None,
            )
            if sub is None:
                raise InteractionRejected(f"/{' '.join(parts)}: no subcommand {part!r}")
            chain.append(sub)
            node = sub
        defs = node.get("options") or []
        if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in defs):
            subs = [o["name"] for o in defs]
            raise InteractionRejected(f"/{' '.join(parts)} needs a subcommand: {subs}")
        by_name = {o["name"]: o for o in defs}
        resolved: dict[str, Any] = {}
        leaf: list[dict[str, Any]] = []
        for key, value in values.items():
            opt = by_name.get(key)
            if opt is None:
                raise InteractionRejected(
                    f"/{' '.join(parts)} has no option {key!r}; options: {list(by_name)}"
                )
            if key == focused:
                leaf.append({"type": opt["type"], "name": key, "value": value, "focused": True})
                continue
            encoded = self._encode_option(opt, value, guild, channel, member, resolved)
            leaf.append({"type": opt["type"], "name": key, "value": encoded})
        if focused is None:
            missing = [o["name"] for o in defs if o.get("required") and o["name"] not in values]
            if missing:
                raise InteractionRejected(f"/{' '.join(parts)} is missing required {missing}")
        elif focused not in by_name or not by_name[focused].get("autocomplete"):
            raise InteractionRejected(
                f"option {focused!r} of /{' '.join(parts)} has no autocomplete"
            )
        # Discord sends options in declaration order.
        order = {o["name"]: i for i, o in enumerate(defs)}
        options = sorted(leaf, key=lambda o: order[o["name"]])
        for sub in reversed(chain):
            options = [{"type": sub["type"], "name": sub["name"], "options": options}]
        data: dict[str, Any] = {
            "id": cmd["id"],
            "name": cmd["name"],
            "type": 1,
            "options": options,
        }
        if resolved:
            data["resolved"] = resolved
        if scope is not None:
            data["guild_id"] = str(scope)
        return data, " ".join(parts)

    def _check_command_allowed(
        self, cmd: dict[str, Any], member: FakeMember, guild: FakeGuild
    ) -> None:
        contexts = cmd.get("contexts")
        if contexts is not None and 0 not in contexts:
            raise InteractionRejected(f"/{cmd['name']} is not available in guilds")
        required = cmd.get("default_member_permissions")
        if required is None:
            return
        perms = guild.base_permissions(member.id)
        if perms & ADMINISTRATOR:
            return
        need = int(required)
        if need == 0 or perms & need != need:
            raise InteractionRejected(
                f"{member.user.name} lacks default_member_permissions={need} for /{cmd['name']}"
            )

    def _select_values(
        self,
        comp: dict[str, Any],
        values: Iterable[Any],
        guild: FakeGuild,
        channel: FakeChannel,
        member: FakeMember,
    ) -> tuple[list[str], dict[str, Any]]:
        ctype = comp["type"]
        resolved: dict[str, Any] = {}
        out: list[str] = []
        for v in values:
            if ctype == 3 or ctype == 22:
                out.append(str(v))
            elif ctype == 5:
                out.append(self._resolve_user(v, guild, channel, resolved))
            elif ctype == 6:
                out.append(self._resolve_role(v, guild, resolved))
            elif ctype == 7:
                if isinstance(v, FakeRole):
                    out.append(self._resolve_role(v, guild, resolved))
                else:
                    out.append(self._resolve_user(v, guild, channel, resolved))
            elif ctype == 8:
                out.append(str(self._resolve_channel(v, guild, member, resolved).id))
            elif ctype == 19:
                out.append(self._resolve_upload(v, channel, resolved))
        if ctype == 3:
            allowed = [o["value"] for o in comp.get("options", [])]
            bad = [v for v in out if v not in allowed]
            if bad:
                raise InteractionRejected(f"select {comp['custom_id']!r} has no options {bad}")
        low, high = comp.get("min_values", 1), comp.get("max_values", 1)
        if not comp.get("required", True) and not out:
            low = 0
        if not low <= len(out) <= high:
            raise InteractionRejected(
                f"select {comp['custom_id']!r} takes {low}..{high} values, got {len(out)}"
            )
        return out, resolved

    def _mirror_modal(
        self,
        comps: list[dict[str, Any]],
        values: Mapping[str, Any],
        used: set[str],
        ctx: tuple[FakeGuild, FakeChannel, FakeMember],
        resolved: dict[str, Any],
    ) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for comp in comps:
            ctype = comp.get("type")
            item: dict[str, Any] = {"type": ctype}
            if "id" in comp:
                item["id"] = comp["id"]
            if ctype == 1:
                item["components"] = self._mirror_modal(
                    comp.get("components", []), values, used, ctx, resolved
                )
            elif ctype == 18:
                item["component"] = self._mirror_modal(
                    [comp["component"]], values, used, ctx, resolved
                )[0]
            elif "custom_id" in comp:
                cid = comp["custom_id"]
                item["custom_id"] = cid
                used.add(cid)
                given = values.get(cid)
                required = comp.get("required", True)
                if ctype in (4, 21):
                    text = "" if given is None else str(given)
                    if required and not text:
                        raise InteractionRejected(f"modal field {cid!r} is required")
                    low, high = comp.get("min_length", 0), comp.get("max_length", 4000)
                    if ctype == 4 and text and not low <= len(text) <= high:
                        raise InteractionRejected(
                            f"modal field {cid!r} length must be {low}..{high}"
                        )
                    if ctype == 21 and not text:
                        item["value"] = None
                    else:
                        item["value"] = text
                elif ctype == 23:
                    item["value"] = bool(given)
                else:
                    given_list = [] if given is None else list(given)
                    item["values"], res = self._select_values(comp, given_list, *ctx)
                    for key, entries in res.items():
                        resolved.setdefault(key, {}).update(entries)
            out.append(item)
        return out
