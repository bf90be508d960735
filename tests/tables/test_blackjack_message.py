"""What the blackjack table message shows, rendered from real service snapshots (SQLite)."""

from __future__ import annotations

from datetime import datetime

from table_helpers import BOND_OWNER, GM, VESPER_OWNER, Clock, event_of
from test_blackjack_service import BET, scenario, seat_both, setup_table, stand_all

from bondbot.bot.tables.message import table_embed, table_view
from bondbot.games.blackjack.ui import UI
from bondbot.rules.blackjack import Action, Blackjack, BlackjackRules
from bondbot.rules.cards import cards_pretty
from bondbot.storage.db import Database
from bondbot.tables.service import TableSnapshot


def fields(snapshot: TableSnapshot, now: datetime) -> dict[str, str]:
    embed = table_embed(snapshot, "en", "$", now)
    return {field.name: field.value for field in embed.fields}


def labels(snapshot: TableSnapshot, now: datetime) -> list[tuple[str, bool]]:
    view = table_view(snapshot, "en", now)
    assert view is not None
    return [(item.label, item.disabled) for item in view.children]


async def test_the_insurance_offer(db: Database) -> None:
    seed, _ = scenario(stand_all, lambda g: g.dealer_cards[0].rank == "A")
    clock = Clock()
    tables, table, ids = await setup_table(db, clock, [seed])
    await seat_both(tables, table, ids)
    for owner in (BOND_OWNER, VESPER_OWNER):
        await tables.act(table, owner, "wager", amount=BET)
    dealt = await tables.act(table, GM, "deal", as_gm=True)
    up = dealt.state.engine.game.dealer_up
    when = int(clock.now.timestamp()) + 90
    shown = fields(dealt, clock.now)
    assert shown["Dealer — Le Chiffre"] == (
        f"Shows {up.pretty} 🂠\nThe dealer shows an Ace: insurance? "
        f"Waiting for James Bond, Vesper Lynd — time runs out <t:{when}:R>"
    )
    assert "insurance?" in shown["Players"]
    assert labels(dealt, clock.now) == [
        ("Insurance", False),
        ("No insurance", False),
        ("My seat", False),
        ("GM", False),
    ]
    bond = str(ids["bond"])
    assert [b.label for b in UI.panel_buttons(dealt, bond, "en", "$")] == [
        f"Insurance (${BET // 200})",  # half his bet
        "No insurance",
        "Hint",
    ]
    insured = await tables.act(table, BOND_OWNER, "insure")
    seat = UI.seat_extra(insured, ids["bond"], "en", "$")
    assert seat is not None and seat.endswith(f"insured ${BET // 200}")
    assert "James Bond takes insurance ($10)." in fields(insured, clock.now)["This round"]


def double_bond(game: Blackjack, seat: str, who: str, index: int) -> Action | bool:
    if index < 0:
        return False
    return Action.DOUBLE if who == "bond" else Action.STAND


async def test_an_american_double_is_dealt_face_down_until_the_settlement(db: Database) -> None:
    seed, replayed = scenario(
        double_bond, lambda g: g.dealer_cards[0].rank not in "ATJQK" and len(g.results) == 2
    )
    clock = Clock()
    tables, table, ids = await setup_table(db, clock, [seed])
    await seat_both(tables, table, ids)
    for owner in (BOND_OWNER, VESPER_OWNER):
        await tables.act(table, owner, "wager", amount=BET)
    dealt = await tables.act(table, GM, "deal", as_gm=True)
    moves = dealt.state.moves
    legal = {a.value for a in dealt.state.engine.game.legal_actions(str(ids["bond"]))}
    play = UI.buttons(dealt, "en", "$")  # only the legal ones, split and surrender aside
    assert [spec.custom_id for spec in play] == [
        f"bb:tbl:{table}:{action}:{moves}"
        for action in ("hit", "stand", "double")
        if action in legal
    ]
    assert "double" in legal
    panel = UI.panel_buttons(dealt, str(ids["bond"]), "en", "$")  # all his legal moves
    assert [spec.custom_id for spec in panel[:-1]] == [
        f"bb:tbl:{table}:{action}:{moves}"
        for action in ("hit", "stand", "double", "split", "surrender")
        if action in legal
    ]
    assert panel[-1].label == "Hint"
    doubled = await tables.act(table, BOND_OWNER, "double", moves=moves)
    entry = event_of(doubled, "logged").entry
    assert entry.kind == "double" and entry.card is None and entry.total is None
    bond = replayed.results[0]
    seat = UI.seat_extra(doubled, ids["bond"], "en", "$")
    assert seat == f"{cards_pretty(bond.cards[:2])} 🂠 (?) · $40 · doubled"
    log = fields(doubled, clock.now)["This round"]
    assert log.endswith("James Bond doubles: one card, face down.")
    assert bond.cards[2].pretty not in log

    settled = await tables.act(table, VESPER_OWNER, "stand")
    last = fields(settled, clock.now)["Round 1"]
    assert f"James Bond: {cards_pretty(bond.cards)}" in last  # shown once settled


async def test_the_european_dealer_has_no_hole_card(db: Database) -> None:
    rules = BlackjackRules(deal="european")
    seed, _ = scenario(
        stand_all,
        lambda g: g.dealer_cards[0].rank != "A" and all(h.total < 21 for h in g.hands("bond")),
        seats=("bond",),
        rules=rules,
    )
    clock = Clock()
    tables, table, ids = await setup_table(db, clock, [seed], options={"deal": "european"})
    await tables.join(table, BOND_OWNER, ids["bond"], 10_000)
    await tables.choose(table, BOND_OWNER, "simulate")
    await tables.act(table, BOND_OWNER, "wager", amount=BET)
    dealt = await tables.act(table, GM, "deal", as_gm=True)
    up = dealt.state.engine.game.dealer_up
    dealer = fields(dealt, clock.now)["Dealer — Le Chiffre"]
    assert dealer.startswith(f"Shows {up.pretty}\nTo play: **James Bond**")
