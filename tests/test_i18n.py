"""French and English catalogs say the same things, and every key the code uses exists."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from bondbot.i18n import catalog, lang_of, plural, t

SOURCE = Path(__file__).parent.parent / "bondbot"
# The first string argument of a call that hands a key to the translation layer:
# t("key", lang), say(interaction, "key"), Refusal("key"), table_button(lang, table, "key").
_KEY_CALL = re.compile(
    r'(?:\bt|\bsay|Refusal|table_button)\((?:[^()"]*?,\s*)?"([a-z_]+\.[a-z0-9_.]+)"'
)


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def messages(lang: str) -> dict[str, str]:
    return {k: v for k, v in catalog(lang).items() if not k.startswith("commands.")}  # type: ignore[arg-type]


def test_both_languages_have_the_same_messages() -> None:
    english, french = messages("en"), messages("fr")
    assert sorted(set(english) - set(french)) == []
    assert sorted(set(french) - set(english)) == []


@pytest.mark.parametrize("key", sorted(messages("en")))
def test_placeholders_agree(key: str) -> None:
    assert fields(messages("en")[key]) == fields(messages("fr")[key]), key


def test_every_key_in_the_code_exists() -> None:
    known = set(messages("en"))
    missing = set()
    for path in SOURCE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for key in _KEY_CALL.findall(text):
            if key not in known:
                missing.add(f"{path.relative_to(SOURCE)}: {key}")
    assert sorted(missing) == []


def test_language_follows_the_user_then_the_server() -> None:
    assert lang_of("fr", "en") == "fr"
    assert lang_of("en-GB", "fr") == "en"
    assert lang_of("de", "fr") == "fr"
    assert lang_of(None, "en") == "en"
    assert t("table.joined", "fr", chips="5\u00a0$") == "Vous vous asseyez avec 5\u00a0$ en jetons."
    assert t("no.such.key", "en") == "no.such.key"


def test_every_refusal_a_game_engine_gives_a_player_exists() -> None:
    """Engines refuse moves with IllegalAction codes, which the table shows to the player."""
    known = set(messages("en"))
    code = re.compile(r'IllegalAction\(\s*(?:f?)"([a-z_]+\.[a-z0-9_.]+)"')
    missing = {
        f"{path.relative_to(SOURCE)}: {key}"
        for path in (SOURCE / "games").rglob("*.py")
        for key in code.findall(path.read_text(encoding="utf-8"))
        if key not in known
    }
    assert sorted(missing) == []


def test_a_count_agrees_with_its_noun_as_each_language_agrees_it() -> None:
    """French takes the singular for 0 and 1, English for 1 alone."""
    said = {
        (lang, n): plural("summary.hero_earned", lang, n)
        for lang in ("fr", "en")
        for n in (0, 1, 2)
    }
    assert [said["fr", n] for n in (0, 1, 2)] == ["0 gagné", "1 gagné", "2 gagnés"]
    assert [plural("michigan.cards_left", "en", n) for n in (0, 1, 2)] == [
        "0 cards",
        "1 card",
        "2 cards",
    ]
    assert [plural("michigan.chips", "fr", n) for n in (0, 1, 2)] == [
        "0 jeton",
        "1 jeton",
        "2 jetons",
    ]
    assert plural("macao.status_over", "en", 1) == "The evening is over after 1 coup."


def test_every_plural_has_both_forms() -> None:
    """A key read by `plural` has its `.one` and its `.other`, in both languages."""
    for lang in ("fr", "en"):
        keys = set(messages(lang))
        for key in keys:
            stem, _, form = key.rpartition(".")
            if form == "one":
                assert f"{stem}.other" in keys, key
            elif form == "other":
                assert f"{stem}.one" in keys, key


# What a French reader must never see (issue 34): the time "elapsed in 1 minute", a
# count of 0 or 1 with a plural noun.
FRENCH_SLIPS = re.compile(
    r"temps écoulé \{when\}|temps écoulé dans|\{(?:count|coups)\} (?:coups|cartes|jetons|joueurs)"
    r"|\{(?:earned|spent)\} (?:gagnés|dépensés)"
)


def test_no_french_message_carries_a_known_slip() -> None:
    found = [
        f"{key}: {text}"
        for key, text in messages("fr").items()
        if FRENCH_SLIPS.search(text) and not key.endswith(".other")  # a plural's own form
    ]
    assert found == []
