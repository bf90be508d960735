"""The rules shipped with the bot (`/rules` attaches them) are the project's specification."""

from __future__ import annotations

from pathlib import Path

import pytest

from bondbot.rules_text import TOPICS, full_text

ROOT = Path(__file__).resolve().parents[1]


def _specification() -> Path | None:
    """`shared/rules/` beside the checkout (or a worktree's parent), where there is one."""
    for folder in ROOT.parents:
        if (folder / "shared" / "rules" / "README.md").is_file():
            return folder / "shared" / "rules"
    return None


def test_every_topic_ships_its_rules() -> None:
    for topic in TOPICS:
        assert full_text(topic).startswith(b"# "), topic


@pytest.mark.skipif(_specification() is None, reason="no shared/rules/ beside this checkout")
def test_the_shipped_rules_are_the_specification() -> None:
    spec = _specification()
    assert spec is not None
    shipped = {
        path.name: path.read_bytes() for path in (ROOT / "bondbot" / "rules_text").glob("*.md")
    }
    expected = {
        path.name: path.read_bytes() for path in spec.glob("*.md") if path.name != "README.md"
    }
    assert shipped.keys() == expected.keys() == set(TOPICS.values())
    stale = [name for name in shipped if shipped[name] != expected[name]]
    assert stale == [], "copy shared/rules/ into bondbot/rules_text/"
