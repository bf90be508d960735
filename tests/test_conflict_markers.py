"""CI refuses a tree with merge-conflict markers (`.ci/conflict-markers`, run by `.ci/run`)."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHECK = ROOT / ".ci" / "conflict-markers"

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _repo(tmp_path: Path, text: str) -> Path:
    """A git repository holding the check and one tracked file with `text`."""
    (tmp_path / ".ci").mkdir()
    shutil.copy(CHECK, tmp_path / ".ci" / "conflict-markers")
    (tmp_path / "README.md").write_text(text)
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run(["git", "add", "."], cwd=tmp_path, check=True)
    return tmp_path


def _check(repo: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(repo / ".ci" / "conflict-markers")], capture_output=True, text=True
    )


@pytest.mark.parametrize(
    "marker", ["<<<<<<< HEAD", "=======", ">>>>>>> main", "<<<<<<<", ">>>>>>>"]
)
def test_a_conflict_marker_line_fails_the_check(tmp_path: Path, marker: str) -> None:
    result = _check(_repo(tmp_path, f"one\n{marker}\ntwo\n"))
    assert result.returncode == 1
    assert "README.md:2" in result.stdout


def test_a_clean_tree_passes(tmp_path: Path) -> None:
    text = "Title\n=====\n\n`<<<<<<<` quoted inside a line is not a marker\n========\n"
    assert _check(_repo(tmp_path, text)).returncode == 0


def test_this_tree_has_no_conflict_marker() -> None:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    result = _check(ROOT)
    assert result.returncode == 0, result.stdout
