"""The page's HTTP and push API without a browser: what a click, a command and a form send,
and what each user's stream of server-sent events carries (his answers, nobody else's)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest_asyncio

from bondbot.local.trying import TryOptions, running

Running = tuple[Any, Any, str, Path]


@pytest_asyncio.fixture
async def try_page(tmp_path: Path) -> AsyncIterator[Running]:
    options = TryOptions(port=0, database=tmp_path / "try.sqlite3", open_browser=False)
    async with running(options, message_interval=0.05) as started:
        yield started


class Stream:
    """One page's server-sent events: the first carries the whole view, then changes."""

    def __init__(self, response: aiohttp.ClientResponse) -> None:
        self.response = response
        self.messages: dict[str, dict[str, Any]] = {}
        self.modal: dict[str, Any] | None = None
        self.commands: list[dict[str, Any]] = []
        self.users: list[str] = []

    async def next(self) -> dict[str, Any]:
        while True:
            line = await asyncio.wait_for(self.response.content.readline(), 10)
            if line.startswith(b"data: "):
                update = json.loads(line[6:])
                for msg in update.get("upsert", []):
                    self.messages[msg["id"]] = msg
                for mid in update.get("remove", []):
                    self.messages.pop(mid, None)
                if "modal" in update:
                    self.modal = update["modal"]
                self.commands = update.get("commands", self.commands)
                self.users = update.get("users", self.users)
                return update

    async def until(self, what: str, check: Any) -> None:
        async with asyncio.timeout(10):
            while not check(self):
                await self.next()

    def texts(self) -> str:
        return json.dumps(list(self.messages.values()), ensure_ascii=False)


async def stream(session: aiohttp.ClientSession, base: str, query: str) -> Stream:
    response = await session.get(f"{base}/api/events?{query}")
    assert response.status == 200 and response.content_type == "text/event-stream"
    opened = Stream(response)
    await opened.next()
    return opened


async def act(session: aiohttp.ClientSession, base: str, query: str, **body: Any) -> dict:
    async with session.post(f"{base}/api/act?{query}", json=body) as response:
        return await response.json()


async def test_a_command_a_click_and_a_form_through_the_api(try_page: Running) -> None:
    _, world, base, _ = try_page
    async with aiohttp.ClientSession() as session:
        gm_page = await stream(session, base, "as=Morgan")
        alex_page = await stream(session, base, "as=Alex")
        camille_page = await stream(session, base, "as=Camille")
        assert {c["name"] for c in gm_page.commands} >= {"table", "sheet", "gm", "roll"}
        assert gm_page.users == ["Morgan", "Alex", "Camille", "Dana"]  # the switcher, locally
        channel = str(world.channel.id)

        # Autocomplete answers in the act's reply; the command's answer is pushed to the GM.
        choices = await act(
            session,
            base,
            "as=Morgan",
            kind="autocomplete",
            channel_id=channel,
            path="table open punto_banco",
            focused="npc",
            value="Le",
            options={},
        )
        assert choices["ok"] and [c["value"] for c in choices["choices"]] == ["Le Chiffre"]
        opened = await act(
            session,
            base,
            "as=Morgan",
            kind="slash",
            channel_id=channel,
            path="table open punto_banco",
            options={"npc": "Le Chiffre", "minimum": "10", "maximum": "500"},
        )
        assert opened["ok"], opened
        await gm_page.until("the answer", lambda s: "Shoe commitment" in s.texts())
        await alex_page.until("the table", lambda s: "holds the bank" in s.texts())
        assert "Shoe commitment" not in alex_page.texts()  # the GM's private answer

        # A click on the table's seat button opens a form on Alex's page only.
        table = next(m for m in alex_page.messages.values() if "holds the bank" in str(m))
        seat = next(
            c["custom_id"]
            for row in table["components"]
            for c in row["components"]
            if c["custom_id"].endswith(":seat")
        )
        clicked = await act(
            session, base, "as=Alex", kind="click", message_id=table["id"], custom_id=seat
        )
        assert clicked["ok"], clicked
        await alex_page.until("the form", lambda s: s.modal is not None)
        form = alex_page.modal
        assert camille_page.modal is None and gm_page.modal is None
        # Nobody else may answer his form.
        stolen = await act(
            session,
            base,
            "as=Camille",
            kind="modal",
            interaction_id=form["interaction_id"],
            values={"amount": "100"},
        )
        assert not stolen["ok"]
        sat = await act(
            session,
            base,
            "as=Alex",
            kind="modal",
            interaction_id=form["interaction_id"],
            values={"amount": "200"},
        )
        assert sat["ok"], sat
        await alex_page.until("his answer", lambda s: "You sit down with $200" in s.texts())
        await alex_page.until("the form closed", lambda s: s.modal is None)
        mine = next(m for m in alex_page.messages.values() if "You sit down" in m["content"])
        assert mine["ephemeral"]
        assert "You sit down" not in camille_page.texts() + gm_page.texts()

        # His private answer's buttons are his: another user's click on them is refused.
        choose = mine["components"][0]["components"][0]["custom_id"]
        refused = await act(
            session, base, "as=Camille", kind="click", message_id=mine["id"], custom_id=choose
        )
        assert not refused["ok"] and "cannot see" in refused["error"]
        for page in (gm_page, alex_page, camille_page):
            page.response.close()


async def test_another_site_cannot_act_through_the_local_page(try_page: Running) -> None:
    """Without secrets on 127.0.0.1: another site's page can post only what a browser sends
    without asking (a form, text/plain), and a name of its own resolving here (DNS
    rebinding) carries its Host: both are refused, and nothing happens."""
    web, world, base, _ = try_page
    command = json.dumps(
        {
            "kind": "slash",
            "channel_id": str(world.channel.id),
            "path": "table open punto_banco",
            "options": {"npc": "Le Chiffre", "minimum": "10", "maximum": "500"},
        }
    )
    async with aiohttp.ClientSession() as session:
        async with session.post(
            f"{base}/api/act?as=Morgan", data=command, headers={"Content-Type": "text/plain"}
        ) as response:
            assert response.status == 415
        async with session.post(
            f"{base}/api/act?as=Morgan",
            data=command,
            headers={"Content-Type": "application/json", "Host": "evil.example:8765"},
        ) as response:
            assert response.status == 403
        async with session.get(
            f"{base}/api/view?as=Morgan", headers={"Host": "evil.example"}
        ) as response:
            assert response.status == 403
        async with session.get(
            f"{base}/api/view?as=Morgan", headers={"Host": "localhost:8765"}
        ) as response:
            assert response.status == 200
    assert not web.fake.interactions  # nothing reached the bot


async def test_discord_s_addresses_are_put_back_when_it_stops(tmp_path: Path) -> None:
    """The bot points discord.py's globals at the stand-in; a process that goes on after a
    try (the tests) gets Discord's own back."""
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    before = Route.BASE, str(DiscordWebSocket.DEFAULT_GATEWAY)
    options = TryOptions(port=0, database=tmp_path / "urls.sqlite3", open_browser=False)
    async with running(options, message_interval=0.05):
        assert before[0] != Route.BASE
    assert (Route.BASE, str(DiscordWebSocket.DEFAULT_GATEWAY)) == before


async def test_off_localhost_every_request_needs_the_users_secret(tmp_path: Path) -> None:
    options = TryOptions(
        host="127.0.0.2", port=0, database=tmp_path / "lan.sqlite3", open_browser=False
    )
    # 127.0.0.2 stands for a LAN address here: any host but loopback's 127.0.0.1/localhost.
    options.host = "127.0.0.2"
    async with running(options, message_interval=0.05) as (web, world, base, _):
        assert web.secure
        link = web.link(base, world.players[0])
        secret = link.split("&t=")[1]
        other = web.link(base, world.players[1]).split("&t=")[1]
        async with aiohttp.ClientSession() as session:
            for path in ("/", "/?as=Alex", f"/?as=Alex&t={other}", "/api/view?as=Alex"):
                async with session.get(base + path) as response:
                    assert response.status == 403, path
            async with session.post(f"{base}/api/act?as=Alex", json={"kind": "slash"}) as response:
                assert response.status == 403
            async with session.get(link) as response:
                assert response.status == 200 and "<script>" in await response.text()
            async with session.get(f"{base}/api/view?as=Alex&t={secret}") as response:
                view = await response.json()
            assert view["me"]["name"] == "Alex" and view["users"] == []  # no switching
