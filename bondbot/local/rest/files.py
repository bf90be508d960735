"""Attachments: bytes stored on the fake CDN, a message's ``attachments`` array resolved
against its uploads, and the CDN that serves them."""

from __future__ import annotations

import mimetypes
from typing import Any
from urllib.parse import quote

from aiohttp import web

from ..models import FakeAttachment
from ..state import FakeState
from ..validation import DiscordAPIError
from .call import UploadedFile


class FileRoutes(FakeState):
    """Attachments on the fake CDN (``/attachments/{channel}/{attachment}/{filename}``)."""

    def new_attachment(
        self,
        channel_id: int,
        filename: str,
        data: bytes,
        content_type: str | None = None,
        description: str | None = None,
        *,
        ephemeral: bool = False,
    ) -> FakeAttachment:
        """Store bytes on the fake CDN and return the attachment."""
        aid = self.snowflake()
        att = FakeAttachment(
            id=aid,
            filename=filename,
            data=data,
            url=f"{self.base_url}/attachments/{channel_id}/{aid}/{quote(filename)}",
            content_type=content_type or mimetypes.guess_type(filename)[0],
            description=description,
            ephemeral=ephemeral,
        )
        self.attachments[aid] = att
        return att

    async def _handle_cdn(self, request: web.Request) -> web.Response:
        att = self.attachments.get(int(request.match_info["attachment"]))
        if att is None:
            return web.Response(status=404, text="Not Found")
        return web.Response(
            body=att.data, content_type=att.content_type or "application/octet-stream"
        )

    def _new_attachments(
        self,
        channel_id: int,
        current: list[FakeAttachment],
        body: dict[str, Any],
        files: list[UploadedFile],
        *,
        ephemeral: bool,
    ) -> list[FakeAttachment]:
        """Resolve the ``attachments`` array: keep listed existing ones, add uploads."""
        pending = {f.index: f for f in files}

        def upload(f: UploadedFile, meta: dict[str, Any]) -> FakeAttachment:
            return self.new_attachment(
                channel_id,
                meta.get("filename") or f.filename,
                f.data,
                f.content_type,
                meta.get("description"),
                ephemeral=ephemeral,
            )

        if body.get("attachments") is None:
            return current + [upload(f, {}) for f in files]
        result: list[FakeAttachment] = []
        for entry in body["attachments"]:
            aid = int(entry["id"])
            if aid in pending:
                result.append(upload(pending.pop(aid), entry))
                continue
            kept = next((a for a in current if a.id == aid), None)
            if kept is None:
                raise DiscordAPIError(
                    400,
                    50035,
                    "Invalid Form Body",
                    {"attachments": {"_errors": [{"code": "ATTACHMENT_NOT_FOUND"}]}},
                )
            result.append(kept)
        return result + [upload(f, {}) for f in pending.values()]
