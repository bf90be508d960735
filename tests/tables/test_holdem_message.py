"""What the hold'em table message shows, rendered from real service snapshots (SQLite): the
hand names in both languages, Discord's limits with ten seats and the longest names, and
no hole card on it before it is shown."""

from __future__ import annotations

from datetime import datetime

import pytest
from table_helpers import CHANNEL, GM, GUILD, Clock, make_character, service
from test_holdem_service import deal_of, seed_where

from bondbot.bot.tables.message import table_embed, table_view
from bondbot.games.holdem.names import HandName
from bondbot.games.holdem.table_text import hand_text
from bondbot.local.validation import FormErrors, validate_components, validate_embeds
from bondbot.money import Currency
from bondbot.rules.cards import Card
from bondbot.storage.db import Database
from bondbot.tables.service import TableService, TableSnapshot

NAMES = [
    (
        HandName(category="two_pair", ranks=("K", "7"), kickers=("Q",)),
        "two pair, kings and sevens",
        "double paire, rois et sept",
    ),
    (
        HandName(category="pair", ranks=("A",), kickers=("K", "9", "4")),
        "pair of aces",
        "paire d'as",
    ),
    (
        HandName(category="high_card", ranks=("Q",), kickers=("J", "9", "7", "3")),
        "high card, queen",
        "hauteur dame",
    ),
    (
        HandName(category="three_of_a_kind", ranks=("8",), kickers=("K", "2")),
        "three of a kind, eights",
        "brelan de huit",
    ),
    (HandName(category="straight", ranks=("5",)), "straight, five high", "quinte au cinq"),
    (
        HandName(category="flush", ranks=("Q",), kickers=tuple("J973")),
        "flush, queen high",
        "couleur à la dame",
    ),
    (
        HandName(category="full_house", ranks=("A", "T")),
        "full house, aces full of tens",
        "full aux as par les dix",
    ),
    (
        HandName(category="four_of_a_kind", ranks=("A",), kickers=("4",)),
        "four of a kind, aces",
        "carré d'as",
    ),
    (
        HandName(category="straight_flush", ranks=("9",)),
        "straight flush, nine high",
        "quinte flush au neuf",
    ),
    (HandName(category="straight_flush", ranks=("A",)), "royal flush", "quinte flush royale"),
]


@pytest.mark.parametrize(("name", "english", "french"), NAMES)
def test_hands_are_named_in_both_languages(name: HandName, english: str, french: str) -> None:
    assert hand_text(name, "en") == english
    assert hand_text(name, "fr") == french


def test_kickers_are_named_when_asked() -> None:
    name = HandName(category="pair", ranks=("A",), kickers=("K", "9", "4"))
    assert hand_text(name, "en", kickers=True) == "pair of aces (kickers: king, nine, four)"
    assert hand_text(name, "fr", kickers=True) == "paire d'as (kickers : roi, neuf, quatre)"


PCS = 9
BUY_INS = [5_000 + 1_000 * n for n in range(PCS - 1)] + [50_000]


def long_name(n: int) -> str:
    return f"Agent {n} " + "Ffffffffff" * 6  # cut to Discord's 64


async def ten_seats(
    db: Database, clock: Clock, seeds: list[bytes]
) -> tuple[TableService, int, list[int]]:
    """Nine PCs and the NPC, every name 64 characters; the GM plays the NPC."""
    npc = await make_character(db, "Le Chiffre " + "X" * 53, kind="NPC")
    tables = service(db, clock, seeds)
    table = (
        await tables.open_table(
            guild_id=GUILD,
            channel_id=CHANNEL,
            actor_id=GM,
            game="holdem",
            npc_id=npc,
            min_bet=1_000,
            max_bet=10_000_000,
            bankroll=None,
            options={"levels": [{"small": 500, "big": 1_000}]},
        )
    ).id
    for n, buy_in in enumerate(BUY_INS):
        owner = 900_000_000_000_000_000 + n  # Discord ids are long too
        character = await make_character(
            db, long_name(n)[:64], owner=owner, gambling=8, cash=10_000_000
        )
        await tables.join(table, owner, character, buy_in)
        await tables.choose(table, owner, "simulate")
    await tables.set_npc_auto(table, GM, False)
    return tables, table


def check_limits(snapshot: TableSnapshot, now: datetime) -> str:
    """The message as Discord would take it (the fake's validators), as text."""
    errors = FormErrors()
    for lang in ("en", "fr"):
        embed = table_embed(snapshot, lang, Currency("$", lang), now).to_dict()
        view = table_view(snapshot, lang, now, Currency("$", lang))
        validate_embeds(errors, [embed])
        validate_components(errors, view.to_components() if view else [], 0)
    assert errors.errors == {}, errors.errors
    return str(table_embed(snapshot, "en", "$", now).to_dict())


async def test_ten_seats_with_the_longest_names_fit_and_hide_every_hole_card(db: Database) -> None:
    clock = Clock()
    # The NPC (first in the seat order: the button) has the best hand of the ten.
    seed = seed_where(PCS + 1, lambda values: values[-1] > max(values[:-1]))
    tables, table = await ten_seats(db, clock, [seed])
    holes, board = deal_of(seed, PCS + 1)
    hidden: set[Card] = {card for hole in holes for card in hole}
    snapshot = await tables.act(table, GM, "deal", as_gm=True)
    seats = snapshot.state.engine.players
    owner_of = {str(s.character_id): s.user_id for s in snapshot.state.seats}
    shown = check_limits(snapshot, clock.now)
    while snapshot.state.engine.in_hand():
        assert not [card.pretty for card in hidden if card.pretty in shown]
        seat = snapshot.state.engine.turn()[0]
        engine = snapshot.state.engine
        deep = seat == seats[PCS - 1] or seat == snapshot.state.npc_key
        if deep and engine.to_call(seat):
            kind, amount = "call", engine.to_call(seat)
        elif deep:
            kind, amount = "check", None
        else:
            kind, amount = "all_in", None
        if seat == snapshot.state.npc_key:
            snapshot = await tables.act(table, GM, kind, amount=amount, as_gm=True, for_npc=True)
        else:
            snapshot = await tables.act(table, owner_of[seat], kind, amount=amount)
        shown = check_limits(snapshot, clock.now)
        if snapshot.state.engine.pots():
            assert "Side pot 7" in shown
    assert len(snapshot.state.offers) == PCS
    assert "Agent 0" in shown
    assert [card.pretty for card in board if card.pretty not in shown] == []
