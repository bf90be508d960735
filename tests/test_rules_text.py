"""The rules shipped with the bot (`/rules` attaches them) are the project's specification."""

from __future__ import annotations

from pathlib import Path

import pytest

from bondbot.rules_text import GAMES, TOPICS, full_text

ROOT = Path(__file__).resolve().parents[1]


def _specification() -> Path | None:
    """`shared/rules/` beside the checkout (or a worktree's parent), where there is one."""
    for folder in ROOT.parents:
        if (folder / "shared" / "rules" / "README.md").is_file():
            return folder / "shared" / "rules"
    return None


def test_every_topic_ships_its_rules() -> None:
    """Without `shared/rules/` (a clone), the shipped copy is what the reader gets: one
    non-empty file per game, the alternative rule and the rulebook, each what `/rules`
    attaches, and no file that no topic names."""
    folder = ROOT / "bondbot" / "rules_text"
    shipped = {path.name for path in folder.glob("*.md")}
    assert shipped == set(TOPICS.values())
    assert set(GAMES) | {"alternative", "rulebook"} == set(TOPICS)
    for topic, name in TOPICS.items():
        text = full_text(topic)
        assert text == (folder / name).read_bytes(), topic
        assert text.startswith(b"# ") and len(text.splitlines()) > 10, topic
        text.decode("utf-8")


def test_the_readme_points_to_the_rules_a_clone_has() -> None:
    """A clone has no `../shared/`: the README sends readers to `/rules` and the shipped copy."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "shared/rules" not in readme
    assert "bondbot/rules_text/" in readme and "`/rules`" in readme


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
