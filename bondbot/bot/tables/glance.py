"""A table read at a glance (issue 34): a long log cut to its latest lines, the game's
word for a hand on the table's own lines, and a panel drawn again where it was clicked.

The table message says what the table waits for and the latest moves; what came before
is one line ("… 7 earlier moves"): the hand's picture and `/table history` keep the rest.
"""

from __future__ import annotations

from typing import Any

from bondbot import i18n
from bondbot.i18n import Lang
from bondbot.tables.summary import hand_word

LOG_LINES = 5  # the latest moves a log shows
FOLD_AFTER = 5  # more seats than this, and those that matter not now share one line
FOLD_CHARS = 900  # a folded line stays well within a field's 1,024 characters


def folded(key: str, lang: Lang, entries: list[str]) -> list[str]:
    """`entries` on one line after the phrase `key` ("Also seated: Bond $400 · Vesper
    $300"), on more when long names would pass a field's limit: every name stays shown."""
    lines: list[str] = []
    chunk: list[str] = []
    for entry in entries:
        if chunk and len(" · ".join([*chunk, entry])) > FOLD_CHARS:
            lines.append(" · ".join(chunk))
            chunk = []
        chunk.append(entry)
    if chunk:
        lines.append(" · ".join(chunk))
    return [i18n.t(key, lang, entries=line) for line in lines]


def fold_lines(lines: list[str], most: int = FOLD_AFTER) -> list[str]:
    """One line per seat (a ponte's answer, a score) up to `most` seats; with more, the
    same said side by side on one line (more only past a field's limit), at a ten-seat
    table read at a glance."""
    if len(lines) <= most:
        return lines
    joined: list[str] = []
    for line in lines:
        if joined and len(joined[-1]) + 3 + len(line) <= FOLD_CHARS:
            joined[-1] += " · " + line
        else:
            joined.append(line)
    return joined


def fold_seats(lines: list[tuple[str, str, bool]], lang: Lang) -> list[str]:
    """A table's seat lines, each (its full line, its short entry, whether it matters now):
    with up to `FOLD_AFTER` seats every seat has its line; with more, the seats that matter
    now (the table waits on them, they staked this hand) keep theirs and the others share
    one "Also seated" line (issue 34: ten seats read at a glance)."""
    if len(lines) <= FOLD_AFTER:
        return [full for full, _, _ in lines]
    shown = [full for full, _, matters in lines if matters]
    if len(shown) > FOLD_AFTER // 2:  # many matter: all in short, those first
        entries = [entry for _, entry, matters in lines if matters]
        rest = [entry for _, entry, matters in lines if not matters]
        now = folded("table.seats_now", lang, entries)
        also = folded("table.seats_also", lang, rest) if rest else []
        if len(also) == 1 and len(now[-1]) + 3 + len(also[0]) <= FOLD_CHARS:
            now[-1] += " — " + also.pop()  # short names: those seated on the same line
        return now + also
    rest = [entry for _, entry, matters in lines if not matters]
    return shown + (folded("table.seats_also", lang, rest) if rest else [])


def latest(lines: list[str], lang: Lang, keep: int = LOG_LINES) -> list[str]:
    """The last `keep` lines, after one line counting those left out."""
    if len(lines) <= keep + 1:  # a line saying one was left out would save nothing
        return lines
    earlier = len(lines) - keep
    return [i18n.plural("table.earlier_moves", lang, earlier), *lines[-keep:]]


def by_hand_word(key: str, game: str, lang: Lang) -> str:
    """`table.<key>.<word>`: the phrase naming a hand as the game does ("Coup 3" at
    baccarat, "Main 3" at a French hold'em table; `games.hand_word.<game>`)."""
    return f"table.{key}.{hand_word(game, lang)}"


async def redraw_panel(interaction: Any, snapshot: Any) -> bool:
    """Answer a move clicked in a private panel (a player's seat panel, the GM's) by
    drawing that panel again in place, saying it was done, rather than a separate "Done."
    under a panel left with stale buttons (issue 34). False when the click came from no
    panel this knows: the caller answers as before."""
    from bondbot.bot.reply import reply_to  # the Discord layer imports this module
    from bondbot.bot.tables.panels import gm_panel, seat_panel

    message = interaction.message
    if message is None or not message.flags.ephemeral:
        return False
    reply = await reply_to(interaction)
    done = reply.t("table.done")
    titles = [embed.title for embed in message.embeds]
    if reply.t("table.panel_gm_title") in titles:
        panel = gm_panel(snapshot, reply, done)
        await interaction.response.edit_message(content=None, **panel)
        return True
    seat = snapshot.state.seat_of_user(interaction.user.id)
    if seat is None:
        return False
    panel = await seat_panel(snapshot, seat, reply)
    panel["attachments"] = panel.pop("files")
    panel.setdefault("view", None)
    await interaction.response.edit_message(content=done, **panel)
    return True
