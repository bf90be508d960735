"""A PostgreSQL URL as an operator writes it: checked before libpq reads it, given a password
kept apart, and shown without its password.

libpq cuts `user:password@` at the first `@` and ends the host at the first `/`: a password
written as it is, `p@ss/w:rd`, becomes the host `ss` and a database `w:rd@…`, and libpq's
own messages ("failed to resolve host 'ss'", "invalid percent-encoded token: "p%zz"") then
quote pieces of it. So a URL libpq would misread is refused here, in words that quote no
part of it; a password kept apart (BONDBOT_DATABASE_PASSWORD, or a file) is added as the
`password` parameter, percent-encoded; and `shown` masks every place a password can sit.
Pure text: the configuration reads it without the PostgreSQL driver installed.
"""

from __future__ import annotations

import re
from urllib.parse import quote, unquote

SCHEMES = ("postgresql://", "postgres://")
APART = "BONDBOT_DATABASE_PASSWORD or BONDBOT_DATABASE_PASSWORD_FILE"
_QUERY_PASSWORD = re.compile(r"([?&]password=)([^&]*)", re.IGNORECASE)
_BAD_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})|%00")
_USER = re.compile(r"[^:@/?#]*")
MASK = "***"


def is_url(target: object) -> bool:
    """Whether a `database` setting names a PostgreSQL server rather than a file."""
    return isinstance(target, str) and target.startswith(SCHEMES)


def _split(url: str) -> tuple[str, str, str]:
    """(scheme, the part before the first `/` after the host — libpq's authority —, rest)."""
    scheme, _, rest = url.partition("://")
    authority, slash, tail = rest.partition("/")
    return scheme, authority, slash + tail


def problem(url: str) -> str | None:
    """Why libpq would misread `url`, in words that quote none of it; None if it reads it."""
    encode = (
        "in a URL, a password's special characters are percent-encoded (@ as %40, / as %2F,"
        f" : as %3A, % as %25, a space as %20), or give the password apart: {APART}"
    )
    if re.search(r"\s", url):
        return f"the URL holds a space: {encode}"
    if _BAD_PERCENT.search(url):
        return f"the URL holds a `%` that is not followed by two hexadecimal digits: {encode}"
    _, authority, tail = _split(url)
    if authority.count("@") > 1 or "@" in tail:
        return f"the URL holds an `@` or a `/` where its host should be: {encode}"
    return None


def has_password(url: str) -> bool:
    """Whether `url` carries a password (after `user:`, or as the `password` parameter)."""
    _, authority, _ = _split(url)
    userinfo, at, _ = authority.rpartition("@")
    return bool(at and ":" in userinfo) or bool(_QUERY_PASSWORD.search(url))


def with_password(url: str, password: str) -> str:
    """`url` given `password` (as it is, any character) as its `password` parameter."""
    separator = "&" if "?" in url else "?"
    return f"{url}{separator}password={quote(password, safe='')}"


def split_password(url: str) -> tuple[str, str | None]:
    """`url` without its password, and the password (decoded): for a program that takes
    the password from its environment (PGPASSWORD) rather than from its command line, which
    every user of the machine can read (`ps`)."""
    scheme, authority, tail = _split(url)
    password = None
    userinfo, at, host = authority.rpartition("@")
    if at and ":" in userinfo:
        user, _, written = userinfo.partition(":")
        password, authority = unquote(written), f"{user}@{host}"
    for match in _QUERY_PASSWORD.finditer(tail):
        password = unquote(match.group(2))  # libpq: the parameter wins, the last one
    path, question, query = _QUERY_PASSWORD.sub("", tail).partition("?")
    if not question and "&" in path:  # the password was the first parameter
        path, _, query = path.partition("&")
    return f"{scheme}://{authority}{path}" + (f"?{query}" if query else ""), password


def shown(url: str) -> str:
    """`url` as messages and logs name it: every password masked. The `password` parameter
    first, then everything before the last `@` left is the user's part (a password's
    unencoded `@` or `/` stays hidden too)."""
    masked = _QUERY_PASSWORD.sub(lambda m: m.group(1) + MASK, url)
    scheme, _, rest = masked.partition("://")
    head, at, tail = rest.rpartition("@")
    if at:
        user = _USER.match(head)
        name = user.group() if user else ""
        if name != head:
            rest = f"{name}:{MASK}@{tail}"
    return f"{scheme}://{rest}"


def passwords(url: str) -> set[str]:
    """The passwords `url` carries, as written and decoded (to take out of a message)."""
    found: set[str] = set()
    rest = url.partition("://")[2]
    head, at, _ = rest.rpartition("@")
    if at and ":" in head:
        found.add(head.partition(":")[2])
    found.update(match.group(2) for match in _QUERY_PASSWORD.finditer(url))
    return {text for raw in found for text in (raw, unquote(raw)) if text}


def hide(message: str, url: str) -> str:
    """`message` (a driver's error about `url`) with any password of `url` masked."""
    for secret in sorted(passwords(url), key=len, reverse=True):
        message = message.replace(secret, MASK)
    return message
