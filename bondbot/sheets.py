"""Character sheets (rulebook.md), validated once at the edge so storage and games trust them.

Skills are stored under a canonical key (`gambling`) so a sheet reads the same in French
and English; house skills keep their own name. Hero Points and cash are part of the sheet
for creation and export, but once stored they live in the ledger's balances.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Annotated, Any, Final, Literal

from pydantic import (
    AfterValidator,
    AliasChoices,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
)
from pydantic_core import PydanticCustomError

from bondbot.i18n import catalog
from bondbot.money import MAX_AMOUNT

Locale = Literal["en", "fr"]
Kind = Literal["PC", "NPC"]
Rank = Literal["Rookie", "Agent", "00"]

NAME_MAX = 64
SKILL_NAME_MAX = 40
SKILL_LEVEL_MAX = 15
MAX_SKILLS = 64
PC_CHARACTERISTIC_MAX = 15
NPC_CHARACTERISTIC_MAX = 20
POINTS_MAX = 1_000_000  # Fame, Hero and Survival Points: far beyond any campaign
SNOWFLAKE_MAX = 2**63 - 1  # Discord ids fit SQLite's signed 64-bit integers


# --- the standard skill list ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Skill:
    """A standard skill: canonical key, names shown in each language, other accepted names."""

    key: str
    en: str
    fr: str
    aliases: tuple[str, ...] = ()

    def name(self, locale: Locale) -> str:
        return self.fr if locale == "fr" else self.en


# English names and the five French ones are the rulebook's; the other French names are ours.
STANDARD_SKILLS: Final[tuple[Skill, ...]] = (
    Skill("boating", "Boating", "Navigation", ("bateau",)),
    Skill("charisma", "Charisma", "Charisme"),
    Skill("connoisseur", "Connoisseur", "Connaisseur"),
    Skill("demolitions", "Demolitions", "Explosifs", ("demolition",)),
    Skill("disguise", "Disguise", "Déguisement"),
    Skill("diving", "Diving", "Plongée"),
    Skill("driving", "Driving", "Conduite"),
    Skill("electronics", "Electronics", "Électronique"),
    Skill("evasion", "Evasion", "Évasion"),
    Skill("fire_combat", "Fire Combat", "Combat à distance", ("tir",)),
    Skill("first_aid", "First Aid", "Premiers secours", ("premiers soins",)),
    Skill("gambling", "Gambling", "Jeu", ("jeux",)),
    Skill(
        "hand_to_hand",
        "Hand-to-Hand Combat",
        "Combat à mains nues",
        ("hand to hand", "corps a corps", "combat au corps a corps"),
    ),
    Skill("interrogation", "Interrogation", "Interrogatoire"),
    Skill("local_customs", "Local Customs", "Coutumes locales"),
    Skill(
        "lockpicking",
        "Lockpicking & Safecracking",
        "Crochetage & coffres-forts",
        (
            "lockpicking and safecracking",
            "safecracking",
            "crochetage",
            "crochetage et coffres forts",
            "serrurerie",
        ),
    ),
    Skill("mountaineering", "Mountaineering", "Alpinisme", ("escalade",)),
    Skill("photography", "Photography", "Photographie"),
    Skill("piloting", "Piloting", "Pilotage"),
    Skill("riding", "Riding", "Équitation"),
    Skill("science", "Science", "Sciences"),
    Skill("seduction", "Seduction", "Séduction"),
    Skill("sixth_sense", "Sixth Sense", "Sixième sens"),
    Skill("sleight_of_hand", "Sleight of Hand", "Prestidigitation"),
    Skill("stealth", "Stealth", "Furtivité"),
    Skill("torture", "Torture", "Torture"),
)
SKILLS_BY_KEY: Final[dict[str, Skill]] = {skill.key: skill for skill in STANDARD_SKILLS}
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_CONTROL_KEEP_NEWLINES = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")
# Discord renders `[text](url)` as a link named `text`, also outside embeds.
_MASKED_LINK = re.compile(r"\[[^\]]*\]\(")
# Letters Discord draws as nothing at all (fillers, blank Braille), beyond the format
# characters (zero-width spaces and joiners) and separators Unicode calls invisible.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u034f")


def is_invisible(char: str) -> bool:
    """A character that shows nothing: a space, a format character, a blank filler."""
    return char in _BLANK_LETTERS or unicodedata.category(char) in ("Zs", "Zl", "Zp", "Cf", "Cc")


def text_problem(value: str) -> str | None:
    """Why one line of text cannot name something on Discord (an error code), if it cannot:
    control characters, nothing visible, or a masked link (`[text](url)`)."""
    if _CONTROL.search(value):
        return "control_characters"
    if value and all(is_invisible(char) for char in value):
        return "invisible"
    if _MASKED_LINK.search(value):
        return "masked_link"
    return None


def fold(text: str) -> str:
    """Case-, accent- and punctuation-blind form used to compare names (`Jeu` == `jeu`)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(part for part in re.split(r"[\W_]+", bare.replace("&", " and ")) if part)


def _build_index() -> dict[str, str]:
    index: dict[str, str] = {}
    for skill in STANDARD_SKILLS:
        for form in (skill.key, skill.en, skill.fr, *skill.aliases):
            folded = fold(form)
            if index.setdefault(folded, skill.key) != skill.key:
                raise RuntimeError(f"skill name {form!r} is ambiguous")
    return index


_SKILL_INDEX: Final[dict[str, str]] = _build_index()


def clean_line(text: str) -> str:
    """Strip and collapse runs of whitespace: `  James   Bond ` -> `James Bond`."""
    return " ".join(text.split())


def is_standard_skill(key: str) -> bool:
    return key in SKILLS_BY_KEY


def resolve_skill(text: str, locale: Locale = "en") -> str:
    """The canonical key of a standard skill named in either language, else the house skill.

    Matching ignores case, accents and punctuation (`combat a distance` is `fire_combat`);
    anything else is a house skill, returned cleaned. `locale` is accepted for symmetry with
    the display functions: no name means different skills in the two languages.
    """
    del locale
    name = clean_line(text)
    if not name or len(name) > SKILL_NAME_MAX or text_problem(name):
        raise ValueError(f"not a skill name: {text!r}")
    return _SKILL_INDEX.get(fold(name), name)


def skill_display(key: str, locale: Locale = "en") -> str:
    """A skill's name for people: the localised standard name, or the house skill as written."""
    skill = SKILLS_BY_KEY.get(key)
    return skill.name(locale) if skill else key


def search_skills(
    prefix: str, locale: Locale = "en", *, extra: Iterable[str] = (), limit: int = 25
) -> list[tuple[str, str]]:
    """Autocomplete: `(key, display name)` pairs, best first; `extra` adds house skills.

    A name starting with the text comes first, then one with a word starting with it,
    then a match on the other language's name (a French user typing `Gambling`).
    """
    wanted = fold(prefix)
    candidates = [
        (s.key, s.name(locale), s.name("en" if locale == "fr" else "fr")) for s in STANDARD_SKILLS
    ]
    candidates += [(name, name, name) for name in extra if name not in SKILLS_BY_KEY]
    ranked: list[tuple[int, str, str, str]] = []
    for key, shown, other in candidates:
        folded = fold(shown)
        if folded.startswith(wanted):
            rank = 0
        elif any(word.startswith(wanted) for word in folded.split()):
            rank = 1
        elif fold(other).startswith(wanted) or fold(key).startswith(wanted):
            rank = 2
        else:
            continue
        ranked.append((rank, folded, key, shown))
    ranked.sort()
    seen: set[str] = set()
    result: list[tuple[str, str]] = []
    for _, _, key, shown in ranked:
        if key not in seen:
            seen.add(key)
            result.append((key, shown))
    return result[:limit]


# --- field types --------------------------------------------------------------------------


def _collapse(value: Any) -> Any:
    return clean_line(value) if isinstance(value, str) else value


def _strip(value: Any) -> Any:
    """Multi-line text: trimmed, with Windows and old Mac line ends made `\n`."""
    if not isinstance(value, str):
        return value
    return value.replace("\r\n", "\n").replace("\r", "\n").strip()


_PROBLEMS = {
    "control_characters": "must not contain control characters",
    "invisible": "must show at least one visible character",
    "masked_link": "must not contain a link written [text](address)",
}


def _one_line(value: str) -> str:
    problem = text_problem(value)
    if problem is not None:
        raise PydanticCustomError(problem, _PROBLEMS[problem])
    return value


def check_line(field: str, value: str) -> None:
    """SheetInvalid naming `field` if this line of text cannot name something on Discord."""
    problem = text_problem(value)
    if problem is not None:
        raise SheetInvalid([FieldError(field, problem, {}, _PROBLEMS[problem])])


_MARKDOWN = re.compile(r"[*_~`|<>\\]")


def _plain(value: str) -> str:
    """Names are shown in bold and in lists: Discord's formatting marks would break them."""
    if _MARKDOWN.search(value):
        raise PydanticCustomError("markdown", "must not contain * _ ~ ` | > < or \\")
    return value


def _multi_line(value: str) -> str:
    if _CONTROL_KEEP_NEWLINES.search(value):
        raise PydanticCustomError("control_characters", "must not contain control characters")
    return value


def _alias(mapping: dict[str, str]) -> BeforeValidator:
    """Accept other spellings (`PJ`, `Recrue`) case-insensitively, storing the canonical one."""

    def convert(value: Any) -> Any:
        return mapping.get(value.strip().casefold(), value) if isinstance(value, str) else value

    return BeforeValidator(convert)


Name = Annotated[
    str,
    Field(min_length=1, max_length=NAME_MAX),
    BeforeValidator(_collapse),
    AfterValidator(_one_line),
    AfterValidator(_plain),
]
SkillName = Annotated[
    str,
    Field(min_length=1, max_length=SKILL_NAME_MAX),
    BeforeValidator(_collapse),
    AfterValidator(_one_line),
]
SkillLevel = Annotated[int, Field(ge=0, le=SKILL_LEVEL_MAX)]
Points = Annotated[int, Field(ge=0, le=POINTS_MAX)]
Characteristic = Annotated[int, Field(ge=1, le=NPC_CHARACTERISTIC_MAX)]
DiscordId = Annotated[int, Field(ge=1, le=SNOWFLAKE_MAX)]


Line32 = Annotated[str, Field(max_length=32), BeforeValidator(_collapse), AfterValidator(_one_line)]
Text500 = Annotated[
    str, Field(max_length=500), BeforeValidator(_strip), AfterValidator(_multi_line)
]
Text1000 = Annotated[
    str, Field(max_length=1000), BeforeValidator(_strip), AfterValidator(_multi_line)
]


# --- the sheet ----------------------------------------------------------------------------

_STRICT = ConfigDict(strict=True, extra="forbid", frozen=True)
CHARACTERISTIC_ALIASES: Final[dict[str, str]] = {"FOR": "STR", "VOL": "WIL"}  # French sheets


class Characteristics(BaseModel):
    """STR, DEX, WIL, PER, INT; the French abbreviations FOR and VOL are accepted on input."""

    model_config = _STRICT

    STR: Characteristic = Field(default=5, validation_alias=AliasChoices("STR", "FOR"))
    DEX: Characteristic = 5
    WIL: Characteristic = Field(default=5, validation_alias=AliasChoices("WIL", "VOL"))
    PER: Characteristic = 5
    INT: Characteristic = 5


class Sheet(BaseModel):
    """One character sheet; immutable, so a change is a new validated sheet."""

    model_config = _STRICT

    name: Name
    kind: Annotated[Kind, _alias({"pc": "PC", "pj": "PC", "npc": "NPC", "pnj": "NPC"})]
    owner_id: DiscordId | None = Field(default=None, validate_default=True)
    rank: Annotated[
        Rank, _alias({"rookie": "Rookie", "recrue": "Rookie", "agent": "Agent", "00": "00"})
    ] = "Agent"
    characteristics: Characteristics = Field(default_factory=Characteristics)
    height: Line32 = ""
    weight: Line32 = ""
    appearance: Text500 = ""
    fame_points: Points = 0
    skills: dict[SkillName, SkillLevel] = Field(default_factory=dict, max_length=MAX_SKILLS)
    hero_points: Points = 0
    survival_points: Points = 0
    cash: Annotated[int, Field(ge=0, le=MAX_AMOUNT)] = 0
    weaknesses: Text1000 = ""
    fields_of_experience: Text1000 = ""
    notes: Text1000 = ""
    revealed: bool = False

    @field_validator("owner_id")
    @classmethod
    def _owner_matches_kind(cls, value: int | None, info: ValidationInfo) -> int | None:
        kind = info.data.get("kind")
        if kind == "PC" and value is None:
            raise PydanticCustomError("pc_owner_required", "a PC needs the player who owns it")
        if kind == "NPC" and value is not None:
            raise PydanticCustomError("npc_owner_forbidden", "an NPC has no owner: the GM plays it")
        return value

    @field_validator("characteristics")
    @classmethod
    def _pc_cap(cls, value: Characteristics, info: ValidationInfo) -> Characteristics:
        if info.data.get("kind") == "PC":
            over = [k for k, v in value.model_dump().items() if v > PC_CHARACTERISTIC_MAX]
            if over:
                raise PydanticCustomError(
                    "pc_characteristic_max",
                    "{names} above {max}, the most for a PC",
                    {"names": ", ".join(over), "max": PC_CHARACTERISTIC_MAX},
                )
        return value

    @field_validator("skills")
    @classmethod
    def _canonical_skills(cls, value: dict[str, int]) -> dict[str, int]:
        result: dict[str, int] = {}
        seen: dict[str, str] = {}
        for name, level in value.items():
            key = resolve_skill(name)
            folded = fold(key)
            if folded in seen:
                raise PydanticCustomError(
                    "duplicate_skill",
                    "{first} and {second} are the same skill",
                    {"first": seen[folded], "second": name},
                )
            seen[folded] = name
            result[key] = level
        return result

    @property
    def is_public(self) -> bool:
        """Anyone may read a PC's sheet; an NPC's only once the GM reveals it."""
        return self.kind == "PC" or self.revealed

    def skill_level(self, key: str) -> int:
        """The level in a skill (canonical key or house name), 0 without it."""
        return self.skills.get(key, 0)


# --- JSON export / import -----------------------------------------------------------------

SHEET_FORMAT = "bondbot.sheet"
SHEET_VERSION = 1


@dataclass(frozen=True, slots=True)
class FieldError:
    """One problem: the field's dotted path, a stable code, and the code's parameters."""

    field: str
    code: str
    params: dict[str, Any]
    fallback: str  # pydantic's English message, for codes without a translation

    def message(self, locale: Locale = "en") -> str:
        """The problem in the reader's language (`validation.<code>` in the catalogs)."""
        template = catalog(locale).get(f"validation.{self.code}")
        if template is None:
            return self.fallback
        params = self.params
        if locale == "fr" and self.code == "literal_error":  # pydantic writes `'a' or 'b'`
            params = {**params, "expected": str(params.get("expected", "")).replace(" or ", " ou ")}
        try:
            return template.format(**params)
        except (KeyError, IndexError, ValueError):
            return self.fallback


class SheetInvalid(ValueError):
    """A sheet (or an import, or a change) failed validation; nothing was stored."""

    def __init__(self, errors: list[FieldError]) -> None:
        super().__init__("; ".join(f"{e.field}: {e.message()}" for e in errors))
        self.field_errors = errors

    @property
    def errors(self) -> list[tuple[str, str]]:
        return self.messages("en")

    def messages(self, locale: Locale = "en") -> list[tuple[str, str]]:
        """`(field, message)` pairs a user can read, in his language."""
        return [(e.field, e.message(locale)) for e in self.field_errors]


def field_errors(exc: ValidationError) -> list[FieldError]:
    """Pydantic's errors as FieldErrors, paths in the JSON's own field names."""
    result = []
    for err in exc.errors(include_url=False):
        parts = [str(p) for p in err["loc"] if p != "[key]"]
        params = dict(err.get("ctx") or {})
        msg = err["msg"].removeprefix("Value error, ")
        result.append(FieldError(".".join(parts) or "sheet", err["type"], params, msg))
    return result


def validate_sheet(data: Any) -> Sheet:
    """A Sheet from a mapping, raising SheetInvalid (not pydantic's error) when wrong."""
    try:
        return Sheet.model_validate(data)
    except ValidationError as exc:
        raise SheetInvalid(field_errors(exc)) from None


def sheet_to_json(sheet: Sheet) -> dict[str, Any]:
    """The portable document: format and version first, then every field (cash in cents)."""
    return {"format": SHEET_FORMAT, "version": SHEET_VERSION, **sheet.model_dump(mode="json")}


def sheet_from_json(data: Any) -> Sheet:
    """Read a document written by sheet_to_json (this or an earlier version)."""
    if not isinstance(data, dict):
        raise SheetInvalid(
            [FieldError("sheet", "not_an_object", {}, "a sheet must be a JSON object")]
        )
    body = dict(data)
    fmt, version = body.pop("format", None), body.pop("version", None)
    problems = []
    if fmt != SHEET_FORMAT:
        expected = {"expected": SHEET_FORMAT}
        problems.append(FieldError("format", "bad_format", expected, f"expected {SHEET_FORMAT}"))
    if type(version) is not int or not 1 <= version <= SHEET_VERSION:
        versions = {"version": version, "latest": SHEET_VERSION}
        problems.append(FieldError("version", "bad_version", versions, "unsupported version"))
    if problems:
        raise SheetInvalid(problems)
    return validate_sheet(body)
