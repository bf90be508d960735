"""One translation layer for every user-facing string, French and English.

Catalogs are TOML files in `bondbot/locales/<lang>/<area>.toml`, and in each game's
package (`bondbot/games/<game>/locales/<lang>/`), so a game brings its own words; a key is
`<area>.<dotted path>`. Each area has its own file so features can grow side by side; a
file named `<area>-<part>.toml` adds to `<area>` (e.g. `commands-table.toml`).
Slash-command names and descriptions are localised by `CommandTranslator`, keyed by the
command's qualified name, so the code keeps its English literals as the default.
"""

from __future__ import annotations

import logging
import tomllib
from functools import cache
from pathlib import Path
from typing import Any, Literal

LOCALES_DIR = Path(__file__).parent / "locales"
GAMES_DIR = Path(__file__).parent / "games"
Lang = Literal["fr", "en"]
LANGS: tuple[Lang, ...] = ("fr", "en")

log = logging.getLogger(__name__)


def _flatten(prefix: str, table: dict[str, Any], into: dict[str, str]) -> None:
    for key, value in table.items():
        path = f"{prefix}.{key}"
        if isinstance(value, dict):
            _flatten(path, value, into)
        else:
            into[path] = str(value)


_more_folders: list[Path] = []  # games registered from outside the package


def add_locale_folder(folder: Path) -> None:
    """Also read `<folder>/<lang>/*.toml` (a game registered from outside `bondbot.games`)."""
    if folder not in _more_folders:
        _more_folders.append(folder)
        catalog.cache_clear()


@cache
def catalog(lang: Lang) -> dict[str, str]:
    """Every message of one language, flattened to dotted keys."""
    messages: dict[str, str] = {}
    folders = [
        LOCALES_DIR / lang,
        *sorted(GAMES_DIR.glob(f"*/locales/{lang}")),
        *(folder / lang for folder in _more_folders),
    ]
    for folder in folders:
        for file in sorted(folder.glob("*.toml")):
            area = file.stem.split("-")[0]
            _flatten(area, tomllib.loads(file.read_text(encoding="utf-8")), messages)
    return messages


def has(key: str, lang: Lang = "en") -> bool:
    return key in catalog(lang)


def t(key: str, lang: Lang, /, **params: Any) -> str:
    """The message `key` in `lang`, falling back to English, then to the key itself."""
    text = catalog(lang).get(key) or catalog("en").get(key)
    if text is None:
        log.error("missing translation %s", key)
        return key
    try:
        return text.format(**params) if params else text
    except (KeyError, IndexError, ValueError):
        log.exception("bad parameters for translation %s: %s", key, params)
        return text


def lang_of(discord_locale: str | None, fallback: Lang) -> Lang:
    """The reply language: the user's Discord locale when French or English, else fallback."""
    if discord_locale:
        code = discord_locale.split("-")[0].lower()
        if code in LANGS:
            return code  # type: ignore[return-value]
    return fallback


def plural(key: str, lang: Lang, count: int, /, **params: Any) -> str:
    """`key.one` or `key.other`, as the language agrees a noun with `count` (passed on as
    `count`): French takes the singular for 0 and 1 ("0 gagné"), English for 1 alone."""
    one = count in (0, 1) if lang == "fr" else count == 1
    return t(f"{key}.{'one' if one else 'other'}", lang, count=count, **params)
