from __future__ import annotations

import json
from typing import Any

import pytest

from bondbot.money import MAX_AMOUNT
from bondbot.sheets import (
    SHEET_VERSION,
    STANDARD_SKILLS,
    Sheet,
    SheetInvalid,
    resolve_skill,
    search_skills,
    sheet_from_json,
    sheet_to_json,
    skill_display,
    validate_sheet,
)

RULEBOOK_SKILLS = {
    "Boating": None,
    "Charisma": "Charisme",
    "Connoisseur": None,
    "Demolitions": None,
    "Disguise": None,
    "Diving": None,
    "Driving": "Conduite",
    "Electronics": None,
    "Evasion": None,
    "Fire Combat": "Combat à distance",
    "First Aid": None,
    "Gambling": "Jeu",
    "Hand-to-Hand Combat": None,
    "Interrogation": None,
    "Local Customs": None,
    "Lockpicking & Safecracking": None,
    "Mountaineering": None,
    "Photography": None,
    "Piloting": None,
    "Riding": None,
    "Science": None,
    "Seduction": None,
    "Sixth Sense": None,
    "Sleight of Hand": None,
    "Stealth": "Furtivité",
    "Torture": None,
}


def base(**fields: Any) -> dict[str, Any]:
    return {"name": "James Bond", "kind": "PC", "owner_id": 1, **fields}


def errors(data: dict[str, Any], locale: str = "en") -> dict[str, str]:
    with pytest.raises(SheetInvalid) as invalid:
        validate_sheet(data)
    return dict(invalid.value.messages(locale))  # type: ignore[arg-type]


# --- the skill list ---------------------------------------------------------------------


def test_standard_list_is_the_rulebooks() -> None:
    assert [s.en for s in STANDARD_SKILLS] == list(RULEBOOK_SKILLS)
    for skill in STANDARD_SKILLS:
        given = RULEBOOK_SKILLS[skill.en]
        assert skill.fr == given if given else skill.fr
    assert len({s.key for s in STANDARD_SKILLS}) == len(STANDARD_SKILLS)
    assert len({s.fr.casefold() for s in STANDARD_SKILLS}) == len(STANDARD_SKILLS)


@pytest.mark.parametrize(
    ("text", "locale", "key"),
    [
        ("Gambling", "en", "gambling"),
        ("gambling", "fr", "gambling"),
        ("Jeu", "fr", "gambling"),
        ("JEU", "en", "gambling"),
        ("combat a distance", "fr", "fire_combat"),
        ("Combat à distance", "fr", "fire_combat"),
        ("fire_combat", "en", "fire_combat"),
        ("Hand-to-hand combat", "en", "hand_to_hand"),
        ("Lockpicking & Safecracking", "en", "lockpicking"),
        ("Crochetage et coffres-forts", "fr", "lockpicking"),
        ("furtivite", "fr", "stealth"),
        ("  Sixth   Sense ", "en", "sixth_sense"),
    ],
)
def test_resolve_standard_skills(text: str, locale: Any, key: str) -> None:
    assert resolve_skill(text, locale) == key


def test_resolve_house_skills_and_bad_names() -> None:
    assert resolve_skill("  Golf  de  links ", "fr") == "Golf de links"
    assert resolve_skill("two\nlines") == "two lines"  # whitespace runs become one space
    for bad in ("", "   ", "x" * 41, "bad\x00name", "bad\x7fname"):
        with pytest.raises(ValueError):
            resolve_skill(bad)


def test_skill_display() -> None:
    assert skill_display("gambling", "fr") == "Jeu"
    assert skill_display("gambling", "en") == "Gambling"
    assert skill_display("fire_combat", "fr") == "Combat à distance"
    assert skill_display("Golf", "fr") == "Golf"


def test_search_skills_for_autocomplete() -> None:
    assert search_skills("comb", "fr") == [
        ("fire_combat", "Combat à distance"),
        ("hand_to_hand", "Combat à mains nues"),
    ]
    assert search_skills("distance", "fr") == [("fire_combat", "Combat à distance")]
    assert search_skills("gamb", "fr") == [("gambling", "Jeu")]  # the English name still finds it
    assert search_skills("s", "en")[0] == ("science", "Science")
    assert search_skills("", "en", limit=25) == search_skills("", "en")[:25]
    assert len(search_skills("", "en")) == 25
    assert ("Golf", "Golf") in search_skills("go", "fr", extra=["Golf"])
    assert search_skills("zzz", "en") == []


# --- validation -------------------------------------------------------------------------


def test_a_minimal_pc_and_npc() -> None:
    bond = validate_sheet(base())
    assert (bond.rank, bond.characteristics.PER, bond.cash, bond.is_public) == ("Agent", 5, 0, True)
    chiffre = validate_sheet({"name": "Le Chiffre", "kind": "PNJ"})
    assert (chiffre.kind, chiffre.owner_id, chiffre.is_public) == ("NPC", None, False)
    assert validate_sheet({"name": "Le Chiffre", "kind": "NPC", "revealed": True}).is_public


def test_names_are_cleaned_and_bounded() -> None:
    assert validate_sheet(base(name="  James \t Bond  ")).name == "James Bond"
    assert validate_sheet(base(name="x" * 64)).name == "x" * 64
    assert errors(base(name="x" * 65)) == {"name": "at most 64 characters"}
    assert errors(base(name="   ")) == {"name": "must not be empty"}
    assert errors(base(name="Bond\x00")) == {"name": "must not contain control characters"}
    assert errors(base(name=7)) == {"name": "must be text"}


@pytest.mark.parametrize(("value", "ok"), [(0, False), (1, True), (15, True), (16, False)])
def test_pc_characteristics_1_to_15(value: int, ok: bool) -> None:
    data = base(characteristics={"STR": value})
    if ok:
        assert validate_sheet(data).characteristics.model_dump()["STR"] == value
    else:
        assert "characteristics" in errors(data) or "characteristics.STR" in errors(data)


@pytest.mark.parametrize(("value", "ok"), [(0, False), (1, True), (20, True), (21, False)])
def test_npc_characteristics_up_to_20(value: int, ok: bool) -> None:
    data = {"name": "Drax", "kind": "NPC", "characteristics": {"INT": value}}
    if ok:
        assert validate_sheet(data).characteristics.model_dump()["INT"] == value
    else:
        assert "characteristics.INT" in errors(data)


def test_french_characteristic_abbreviations() -> None:
    sheet = validate_sheet(base(characteristics={"FOR": 8, "VOL": 11, "PER": 12}))
    assert sheet.characteristics.model_dump() == {
        "STR": 8,
        "DEX": 5,
        "WIL": 11,
        "PER": 12,
        "INT": 5,
    }


def test_pc_cap_message_names_every_characteristic() -> None:
    found = errors(base(characteristics={"STR": 16, "PER": 18}), "fr")
    assert found == {"characteristics": "STR, PER au-dessus de 15, le maximum pour un PJ"}


def test_owner_rules() -> None:
    assert errors({"name": "Bond", "kind": "PC"}) == {
        "owner_id": "a PC needs the player who owns it"
    }
    assert errors({"name": "No", "kind": "NPC", "owner_id": 5}) == {
        "owner_id": "an NPC has no owner: the GM plays it"
    }
    assert "owner_id" in errors(base(owner_id=0))


def test_kind_and_rank() -> None:
    assert validate_sheet(base(kind="pj", rank="recrue")).rank == "Rookie"
    assert validate_sheet(base(rank="00")).rank == "00"
    assert errors(base(rank="Colonel")) == {"rank": "must be 'Rookie', 'Agent' or '00'"}
    assert "kind" in errors(base(kind="Villain"))


@pytest.mark.parametrize(
    ("field", "low", "high"),
    [
        ("fame_points", 0, 1_000_000),
        ("hero_points", 0, 1_000_000),
        ("survival_points", 0, 1_000_000),
        ("cash", 0, MAX_AMOUNT),
    ],
)
def test_counters_are_non_negative_whole_numbers(field: str, low: int, high: int) -> None:
    assert getattr(validate_sheet(base(**{field: low})), field) == low
    assert getattr(validate_sheet(base(**{field: high})), field) == high
    assert errors(base(**{field: -1})) == {field: "must be at least 0"}
    assert field in errors(base(**{field: high + 1}))
    assert errors(base(**{field: 1.5})) == {field: "must be a whole number"}
    assert errors(base(**{field: "3"})) == {field: "must be a whole number"}
    assert errors(base(**{field: True})) == {field: "must be a whole number"}


def test_skills() -> None:
    sheet = validate_sheet(base(skills={"Jeu": 15, "Golf": 0, "  Combat  à distance": 7}))
    assert sheet.skills == {"gambling": 15, "Golf": 0, "fire_combat": 7}
    assert sheet.skill_level("gambling") == 15 and sheet.skill_level("stealth") == 0
    assert errors(base(skills={"Jeu": 16})) == {"skills.Jeu": "must be at most 15"}
    assert errors(base(skills={"Jeu": -1})) == {"skills.Jeu": "must be at least 0"}
    assert errors(base(skills={"x" * 41: 1})) == {f"skills.{'x' * 41}": "at most 40 characters"}
    assert errors(base(skills={"Jeu": 3, "gambling": 4})) == {
        "skills": "Jeu and gambling are the same skill"
    }
    assert errors(base(skills={"Golf": 3, "GOLF": 4})) == {
        "skills": "Golf and GOLF are the same skill"
    }
    assert "skills" in errors(base(skills={f"house {i}": 1 for i in range(65)}))


def test_text_fields_are_bounded() -> None:
    sheet = validate_sheet(base(height=" 1.83 m ", notes="line one\r\nline two\n"))
    assert (sheet.height, sheet.notes) == ("1.83 m", "line one\nline two")
    for field, limit in [("height", 32), ("weight", 32), ("appearance", 500), ("notes", 1000)]:
        assert validate_sheet(base(**{field: "x" * limit}))
        assert errors(base(**{field: "x" * (limit + 1)})) == {field: f"at most {limit} characters"}
    for field in ("weaknesses", "fields_of_experience"):
        assert field in errors(base(**{field: "x" * 1001}))
    assert validate_sheet(base(height="1\n83")).height == "1 83"
    assert errors(base(height="1\x0883")) == {"height": "must not contain control characters"}
    assert errors(base(notes="bell\x07")) == {"notes": "must not contain control characters"}


def test_unknown_fields_are_refused() -> None:
    assert errors(base(lucky_number=7)) == {"lucky_number": "unknown field"}
    assert errors(base(lucky_number=7), "fr") == {"lucky_number": "champ inconnu"}


def test_sheets_are_immutable() -> None:
    sheet = validate_sheet(base())
    with pytest.raises(ValueError):
        sheet.name = "Other"


# --- JSON -------------------------------------------------------------------------------


def full_sheet() -> Sheet:
    return validate_sheet(
        base(
            rank="00",
            characteristics={"STR": 9, "DEX": 12, "WIL": 10, "PER": 13, "INT": 11},
            height="1.83 m",
            weight="76 kg",
            appearance="Scar on the right cheek.",
            fame_points=40,
            skills={"Gambling": 12, "Golf": 6},
            hero_points=4,
            survival_points=1,
            cash=2_500_050,
            weaknesses="Beautiful women",
            fields_of_experience="Economics\nGemology",
            notes="Licence to kill.",
            revealed=True,
        )
    )


def test_json_round_trip() -> None:
    sheet = full_sheet()
    document = sheet_to_json(sheet)
    assert document["format"] == "bondbot.sheet" and document["version"] == SHEET_VERSION
    assert document["cash"] == 2_500_050 and document["skills"] == {"gambling": 12, "Golf": 6}
    assert sheet_from_json(document) == sheet
    assert sheet_from_json(json.loads(json.dumps(document))) == sheet


def test_import_error_list() -> None:
    document = {
        **sheet_to_json(full_sheet()),
        "name": "",
        "characteristics": {"STR": 0, "PER": "high"},
        "skills": {"Jeu": 20},
        "cash": -1,
        "extra": True,
    }
    with pytest.raises(SheetInvalid) as invalid:
        sheet_from_json(document)
    assert invalid.value.errors == [
        ("name", "must not be empty"),
        ("characteristics.STR", "must be at least 1"),
        ("characteristics.PER", "must be a whole number"),
        ("skills.Jeu", "must be at most 15"),
        ("cash", "must be at least 0"),
        ("extra", "unknown field"),
    ]
    assert invalid.value.messages("fr")[0] == ("name", "ne doit pas être vide")


@pytest.mark.parametrize(
    ("document", "field"),
    [
        ({"version": 1, "name": "Bond", "kind": "NPC"}, "format"),
        ({"format": "other", "version": 1, "name": "Bond", "kind": "NPC"}, "format"),
        ({"format": "bondbot.sheet", "name": "Bond", "kind": "NPC"}, "version"),
        ({"format": "bondbot.sheet", "version": 99, "name": "Bond", "kind": "NPC"}, "version"),
        ({"format": "bondbot.sheet", "version": "1", "name": "Bond", "kind": "NPC"}, "version"),
    ],
)
def test_import_checks_format_and_version(document: dict[str, Any], field: str) -> None:
    with pytest.raises(SheetInvalid) as invalid:
        sheet_from_json(document)
    assert [f for f, _ in invalid.value.errors] == [field]


def test_import_of_something_that_is_not_an_object() -> None:
    with pytest.raises(SheetInvalid) as invalid:
        sheet_from_json(["not", "a", "sheet"])
    assert invalid.value.messages("fr") == [("sheet", "une fiche doit être un objet JSON")]


@pytest.mark.parametrize("name", ["**Bond**", "Le_Chiffre", "M|I6", "<@123>", "a\\b"])
def test_names_cannot_carry_discord_formatting(name: str) -> None:
    with pytest.raises(SheetInvalid) as invalid:
        validate_sheet({"name": name, "kind": "NPC"})
    assert invalid.value.messages("fr") == [
        ("name", "ne doit pas contenir * _ ~ ` | > < ni \\ (mise en forme Discord)")
    ]
