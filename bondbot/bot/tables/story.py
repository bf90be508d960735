"""The end of the evening: the closed table's final scoreboard, the summary posted at the
close (its recap and chart), and the shoes' proof (a short line on the table; the whole
of it in a private answer).

The scoreboard and the summary are read from the table's ledger rows
(`tables.summary.evening`) with the names of everyone who sat (`TableState.sat`), so a
PC cashed out at the close is still named. Both name the winner the same way, from those
rows (`tables.summary.winner_line`), and the hands with the game's word.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass

import discord

from bondbot.bot.router import ButtonSpec, custom_id, view_of
from bondbot.bot.tables.common import AREA, add_lines, fit, short
from bondbot.games.contract import Engine
from bondbot.i18n import Lang, has, t
from bondbot.money import format_amount
from bondbot.pictures.chart import evening_chart
from bondbot.storage import characters, ledger
from bondbot.storage.conn import Connection
from bondbot.tables.service import TableSnapshot
from bondbot.tables.state import ShoeRecord, TableState
from bondbot.tables.summary import (
    Evening,
    evening,
    evening_text,
    hand_phrase,
    npc_result,
    podium,
    winner_line,
)

SHORT_HASH = 8  # characters of a commitment on the table message
SHOES_SHOWN = 8  # shoes written out in the Verify answer; all of them in its file
SHOES_IN_HISTORY = 2  # under /table history's page of hands (an answer's embeds share 6,000)
CHART = "evening.png"
SHOES_FILE = "shoes.txt"


@dataclass
class Story:
    """A table's evening as the ledger tells it, with everyone's name."""

    evening: Evening
    names: dict[int, str]  # every PC who sat, and the NPC
    has_winner: bool  # the game names a winner (its best result; a bank game does not)
    npc_competes: bool = False  # the NPC is one of those the winner is read among


async def read_story(conn: Connection, snapshot: TableSnapshot) -> Story:
    """The evening of this table, read on the read-only connection `conn`."""
    state = snapshot.state
    found = evening(
        await ledger.table_entries(conn, snapshot.id), snapshot.id, hands_played=state.hand_no
    )
    names = {state.npc_id: state.npc_name, **dict(state.sat)}
    for pc in found.pcs:  # a table saved before names were kept for history
        if pc.character_id not in names:
            person = await characters.get_character(conn, pc.character_id, include_dead=True)
            names[pc.character_id] = person.name
    return Story(found, names, names_a_winner(state), npc_competes(state))


def names_a_winner(state: TableState) -> bool:
    """Whether the game has a winner of its own (Michigan, Makao, Macao: its engine says
    who wins). Who he is comes from the ledger, as the podium's (`summary.leaders`): a
    score sheet's leader or the most chips held is not the best result (a bigger buy-in,
    a cycle ended before its pot was paid)."""
    return type(state.engine).winners is not Engine.winners


def npc_competes(state: TableState) -> bool:
    """Whether the NPC is read among the winners: where the game's own count names him
    one (Michigan, Makao, Macao's rotating bank; never a bank he holds against the
    players). At Michigan and Makao his result in the ledger is never better than by the
    game's count (a Hero Point he pays lowers it; a cycle's pot goes to its best scores),
    so the ledger's winner is never an NPC this leaves out."""
    return str(state.npc_id) in {str(seat) for seat in state.engine.winners()}


# -- the closed table ------------------------------------------------------------------


def closed_embed(
    snapshot: TableSnapshot, story: Story, lang: Lang, money: str, title: str
) -> discord.Embed:
    """The closed table: its final scores, best first, the NPC's result and the game's
    winner; nothing of a table still playing (seats, bank, bets)."""
    state = snapshot.state
    names = {key: short(name) for key, name in story.names.items()}

    def amount(cents: int) -> str:
        return format_amount(cents, money)

    lines = [t("table.closed_banner", lang)]
    npc = state.npc_id if story.npc_competes else None
    said = winner_line(story.evening, names, lang, npc) if story.has_winner else None
    if said is not None:
        lines.append(said)
    lines.append(hand_phrase("played", state.config.game, lang, count=story.evening.hands))
    embed = discord.Embed(title=title, description="\n".join(lines))
    scores = podium(story.evening, names, lang, amount)
    scores.append(npc_result(story.evening.npc_net, short(state.npc_name), lang, amount))
    add_lines(embed, t("table.final_scores", lang), scores, t("table.continued", lang))
    embed.set_footer(text=shoe_line(state, lang))
    return fit(embed)


def closed_view(snapshot: TableSnapshot, lang: Lang) -> discord.ui.View:
    """The closed table keeps one button: its shoes' proof, answered privately."""
    verify = ButtonSpec(t("table.btn_verify", lang), custom_id(AREA, snapshot.id, "verify"))
    return view_of([verify])


# -- provably fair, quietly ------------------------------------------------------------


def shoe_line(state: TableState, lang: Lang) -> str:
    """One short line for the table: the shoe in play sealed, or (closed) revealed."""
    if not state.shoes:
        return ""
    shoe = state.shoes[-1]
    key = "table.shoe_revealed" if shoe.seed else "table.shoe_sealed"
    return t(key, lang, commitment=shoe.commitment[:SHORT_HASH] + "…")


def _shoe_text(number: int, shoe: ShoeRecord, lang: Lang) -> str:
    lines = [
        t("table.verify_shoe", lang, number=number, packs=shoe.packs),
        t("table.verify_commitment", lang, commitment=shoe.commitment),
    ]
    if shoe.seed:
        lines.append(t("table.verify_seed", lang, seed=shoe.seed))
        command = f"bondbot verify {shoe.seed} {shoe.commitment} --packs {shoe.packs}"
        lines.append(f"`{command}`")
    else:
        lines.append(t("table.verify_sealed", lang))
    return "\n".join(lines)


def verify_answer(
    snapshot: TableSnapshot, lang: Lang, shown: int = SHOES_SHOWN
) -> tuple[discord.Embed, list[discord.File]]:
    """Every shoe of the table: its full commitment and, once revealed, its seed and the
    command that checks them; the last `shown` written out, all of them in a file when
    there are more."""
    shoes = snapshot.state.shoes
    first = max(0, len(shoes) - shown)
    parts = [_shoe_text(i + 1, shoe, lang) for i, shoe in enumerate(shoes) if i >= first]
    in_file = shown == SHOES_SHOWN  # the Verify answer attaches them; the history does not
    intro = t("table.verify_intro", lang)
    if first:
        more = "table.verify_more" if in_file else "table.verify_more_elsewhere"
        intro += "\n" + t(more, lang, count=first, file=SHOES_FILE)
    embed = discord.Embed(
        title=t("table.verify_title", lang), description="\n\n".join([intro, *parts])[:4096]
    )
    files = []
    if first and in_file:
        text = "\n\n".join(_shoe_text(i + 1, shoe, lang) for i, shoe in enumerate(shoes))
        files.append(discord.File(io.BytesIO(text.replace("`", "").encode()), SHOES_FILE))
    return embed, files


# -- the evening's story ---------------------------------------------------------------


def summary_embed(
    snapshot: TableSnapshot, story: Story, lang: Lang, money: Callable[[int], str]
) -> discord.Embed:
    """The recap posted at the close: the winner, the podium, the NPC's result, the
    night's moments, the hands played; the chart below it when there is one."""
    state = snapshot.state
    game = t(f"games.{state.config.game}", lang)
    text = evening_text(
        story.evening,
        story.names,
        lang,
        money,
        hands_played=story.evening.hands,
        npc=state.npc_name,
        winner=story.has_winner,
        npc_id=state.npc_id if story.npc_competes else None,
        game=state.config.game,
    )
    title = t("summary.title", lang)
    embed = discord.Embed(title=title, description=text)
    embed.set_author(name=f"{game} — {state.npc_name}"[:256])
    return embed


def summary_chart(
    story: Story, snapshot: TableSnapshot, lang: Lang, money: Callable[[int], str]
) -> bytes | None:
    """The chart's PNG (drawing takes a few milliseconds: call it in a thread); None when
    the evening has fewer than two points."""
    spec = story.evening.chart(story.names, snapshot.state.npc_name)
    if len(spec.points) < 2:
        return None
    return evening_chart(
        spec,
        title=hand_phrase("chart_title", snapshot.state.config.game, lang),
        amount=money,
        mark_label=t("summary.chart_mark", lang),
    )


def table_title(state: TableState, lang: Lang) -> str:
    """The table's title, open or closed; a game where the NPC holds no bank (hold'em,
    Michigan) names its table its own way."""
    game = state.config.game
    key = f"{game}.title" if has(f"{game}.title") else "table.title"
    return t(key, lang, game=t(f"games.{game}", lang), npc=state.npc_name)
