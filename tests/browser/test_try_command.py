"""`bondbot try` as a newcomer runs it: no token, no configuration, links printed, the page
served, Ctrl-C stops it; `--empty` starts bare."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from bondbot.local.trying import TryOptions, running


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_try_needs_no_token_prints_each_link_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("BONDBOT_")}
    env["DISPLAY"] = ""  # no browser to open here
    proc = subprocess.Popen(
        [sys.executable, "-m", "bondbot", "try", "--port", str(port), "--players", "Ann,Bea:fr"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        lines: list[str] = []
        deadline = time.monotonic() + 60
        while not any("Ctrl-C" in line for line in lines):
            assert time.monotonic() < deadline and proc.poll() is None, lines
            lines.append(proc.stdout.readline())
        printed = "".join(lines)
        assert f"http://127.0.0.1:{port}/?as=Morgan" in printed
        assert f"http://127.0.0.1:{port}/?as=Bea" in printed
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/?as=Ann", timeout=10) as page:
            assert page.status == 200 and b"EventSource" in page.read()
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert not list(tmp_path.iterdir())  # nothing written where it ran: a temporary folder,
    database = Path(re.search(r"\(database (\S+?),", printed).group(1))
    assert database.name == "bondbot.sqlite3" and not database.parent.exists()  # gone after


async def test_empty_starts_without_characters_or_gm_role(tmp_path: Path) -> None:
    options = TryOptions(port=0, database=tmp_path / "bare.sqlite3", open_browser=False)
    options.empty = True
    async with running(options, message_interval=0.05) as (web, world, _, _):
        answer = await web.act(
            world.gm,
            {
                "kind": "autocomplete",
                "channel_id": str(world.channel.id),
                "path": "table open punto_banco",
                "focused": "npc",
                "value": "",
            },
        )
        assert answer["choices"] == []
        refused = await web.act(
            world.gm,
            {
                "kind": "slash",
                "channel_id": str(world.channel.id),
                "path": "table open punto_banco",
                "options": {"npc": "Le Chiffre", "minimum": "10", "maximum": "500"},
            },
        )
        assert refused["interaction_id"]
        assert not any(m.embeds for m in web.fake.channel_messages(world.channel))
