"""Macao at the table service (real SQLite): a rotating bank's chips moving seat to seat,
Hero Points only against the NPC banker, the GM playing the NPC, timeouts the table
tells, packs by table size, the end of the evening, and what the message shows."""

from __future__ import annotations

import pytest
from macao_table import Decide, live_engine, own_hand, play_coup, seeds
from table_helpers import (
    BOND_OWNER,
    GM,
    VESPER_OWNER,
    Clock,
    assert_conserved,
    make_character,
    open_table,
)

from bondbot.bot.tables.message import table_embed, table_view
from bondbot.bot.tables.story import closed_embed, read_story, summary_embed
from bondbot.errors import Refusal
from bondbot.games.contract import Move
from bondbot.games.macao.engine import Macao, Phase
from bondbot.games.macao.ui import UI
from bondbot.money import format_amount
from bondbot.storage.db import Database
from bondbot.tables import accounts
from bondbot.tables.service import TableService, TableSnapshot

NPC, BOND, VESPER = "1", "2", "3"  # the characters open_table makes, in that order
OWNERS = {BOND: BOND_OWNER, VESPER: VESPER_OWNER}


async def seated(
    db: Database, clock: Clock, seed: bytes, **options: object
) -> tuple[TableService, int]:
    """Le Chiffre's Macao table with Bond then Vesper seated ($200 each), both simulating."""
    tables, table, ids = await open_table(db, clock, [seed], game="macao", options=options)
    assert (str(ids["npc"]), str(ids["bond"]), str(ids["vesper"])) == (NPC, BOND, VESPER)
    for owner, key in ((BOND_OWNER, "bond"), (VESPER_OWNER, "vesper")):
        await tables.join(table, owner, ids[key], 20_000)
        await tables.choose(table, owner, "simulate")
    return tables, table


async def play(tables: TableService, table: int, decide: Decide) -> TableSnapshot:
    """Deal a coup and play it through the service as `play_coup` plays it on the engine."""
    snapshot = await tables.act(table, GM, "deal", as_gm=True)
    while (engine := snapshot.state.engine).in_hand():
        assert isinstance(engine, Macao)
        seat = engine.turn()[0]
        move = decide(engine, seat) or engine.timeout_move(seat)
        assert move is not None
        snapshot = await tables.act(
            table, OWNERS[seat], move.kind, amount=move.amount, target=move.target
        )
    return snapshot


def fields(snapshot: TableSnapshot, clock: Clock) -> dict[str, str]:
    return {f.name: f.value for f in table_embed(snapshot, "en", "$", clock.now).fields}


def spend_buttons(snapshot: TableSnapshot, clock: Clock) -> list[str]:
    """The table's one Spend a Hero Point button, while someone may spend."""
    view = table_view(snapshot, "en", clock.now)
    assert view is not None
    return [item.custom_id for item in view.children if str(item.custom_id).endswith(":hp")]


def nets(snapshot: TableSnapshot) -> dict[str, int | None]:
    engine = snapshot.state.engine
    assert isinstance(engine, Macao)
    return {hand.seat: hand.net for hand in engine.players}


def bond_draws_alone(seed: bytes) -> bool:
    """Without naturals, Bond (who wagers) may draw and is advised to."""
    engine = live_engine(seed, NPC, [BOND, VESPER])
    engine.apply(Move(kind="deal"))
    engine.apply(Move(kind="wager", seat=BOND, amount=1_000, target="own"))
    engine.apply(Move(kind="pass", seat=VESPER))
    engine.apply(Move(kind="naturals"))
    return engine.turn() == (BOND,) and engine.timeout_move(BOND) == Move(kind="draw", seat=BOND)


# -- the rotating bank ----------------------------------------------------------------


def rotation_scene(seed: bytes) -> bool:
    """Bond loses to the NPC's bank (coup 1) and to Vesper's (coup 3)."""
    engine = live_engine(seed, NPC, [BOND, VESPER], bank="rotate")
    play_coup(engine, own_hand())
    lost_to_npc = (engine.players[0].net or 0) < 0
    play_coup(engine, own_hand())
    play_coup(engine, own_hand())
    bond = next(hand for hand in engine.players if hand.seat == BOND)
    return lost_to_npc and engine.banker == VESPER and (bond.net or 0) < 0


async def test_a_rotating_bank_pays_seat_to_seat_and_owes_no_hero_point(db: Database) -> None:
    clock = Clock()
    tables, table = await seated(db, clock, next(seeds(rotation_scene)), bank="rotate")
    mark = (await coup_rows(db, 0))[1]
    first = await play(tables, table, own_hand())
    first_rows, mark = await coup_rows(db, mark)
    assert first.state.engine.banker == NPC
    (offer,) = first.state.offers  # Bond's wager, lost to the NPC's bank
    # What the wager lost (a banker's natural takes its multiple), then the win at 1:1.
    assert offer.character_id == int(BOND) and offer.pay == -(nets(first)[BOND] or 0) + 1_000
    assert spend_buttons(first, clock) == [f"bb:tbl:{table}:hp"]

    second = await play(tables, table, own_hand())
    second_rows, mark = await coup_rows(db, mark)
    assert second.state.engine.banker == BOND
    assert second.state.offers == []  # the NPC lost or won against Bond: nobody's hand
    third = await play(tables, table, own_hand())
    third_rows, mark = await coup_rows(db, mark)
    assert third.state.engine.banker == VESPER and (nets(third)[BOND] or 0) < 0
    assert third.state.offers == [] and spend_buttons(third, clock) == []
    assert "Hero Point" not in fields(third, clock)["Coup 3"]
    with pytest.raises(Refusal) as closed:  # the next deal closed coup 1's window
        await tables.spend(table, BOND_OWNER, offer.id)
    assert closed.value.key == "table.offer_closed"

    bank = accounts.bank(table)
    bond, vesper = (accounts.chips(table, int(seat)) for seat in (BOND, VESPER))
    # Each coup's chips move between its banker and his players only: the NPC's bankroll
    # when it banks, a PC's chips when he does (the NPC then plays from its bankroll).
    for rows, banker in ((first_rows, bank), (second_rows, bond), (third_rows, vesper)):
        assert rows and all(banker in (src, dst) for src, dst, _ in rows), rows
    assert (bond, vesper, -(nets(third)[BOND] or 0)) in third_rows
    await assert_conserved(db)


async def coup_rows(db: Database, after: int) -> tuple[list[tuple[str, str, int]], int]:
    """The game's ledger rows written since row `after`, and the last row's id."""
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            "SELECT id, reason, src, dst, amount FROM ledger WHERE id > ? ORDER BY id", (after,)
        )
    last = rows[-1][0] if rows else after
    return [(src, dst, amount) for _, reason, src, dst, amount in rows if "macao" in reason], last


# -- the GM plays the NPC -------------------------------------------------------------


def banker_decides_thrice(seed: bytes) -> bool:
    """Three coups where Bond alone draws as advised, then the NPC banker has a decision
    to make: it stands (the GM), then plays the advice (its timer, then the bot)."""
    engine = live_engine(seed, NPC, [BOND])
    for coup in range(3):
        engine.apply(Move(kind="deal"))
        engine.apply(Move(kind="wager", seat=BOND, amount=1_000, target="own"))
        engine.apply(Move(kind="naturals"))
        if engine.phase is not Phase.DRAWS or engine.timeout_move(BOND) != Move(
            kind="draw", seat=BOND
        ):
            return False
        engine.apply(Move(kind="draw", seat=BOND))
        if engine.phase is not Phase.BANKER:
            return False
        banker = Move(kind="stand", seat=NPC) if coup == 0 else engine.timeout_move(NPC)
        engine.apply(banker)  # type: ignore[arg-type]
        engine.apply(Move(kind="showdown"))
    return True


async def test_the_gm_plays_the_npc_banker_then_hands_it_back(db: Database) -> None:
    clock = Clock()
    seed = next(seeds(banker_decides_thrice))
    tables, table, ids = await open_table(db, clock, [seed], game="macao")
    await tables.join(table, BOND_OWNER, ids["bond"], 20_000)
    await tables.choose(table, BOND_OWNER, "simulate")
    await tables.set_npc_auto(table, GM, False)
    with pytest.raises(Refusal) as again:
        await tables.set_npc_auto(table, GM, False)
    assert again.value.key == "table.npc_already_gm"

    await tables.act(table, GM, "deal", as_gm=True)
    await tables.act(table, BOND_OWNER, "wager", amount=1_000, target="own")
    waiting = await tables.act(table, BOND_OWNER, "draw")
    engine = waiting.state.engine
    assert engine.turn() == (NPC,) and waiting.state.deadline is not None
    shown = fields(waiting, clock)
    assert "Le Chiffre is played by the GM." in shown["Table"]
    assert "The banker, **Le Chiffre**, may draw" in shown["Macao"]
    note = UI.hand_note(waiting, NPC, "en")
    assert note is not None and "You may draw or stand" in note
    with pytest.raises(Refusal) as not_his:
        await tables.act(table, BOND_OWNER, "stand")
    assert not_his.value.key == "macao.not_your_turn"
    assert not_his.value.params == {"name": "Le Chiffre"}

    played = await tables.act(table, GM, "stand", as_gm=True, for_npc=True)
    assert played.state.engine.phase is Phase.IDLE
    assert "Le Chiffre (banker) stands." in fields(played, clock)["Coup 1"]

    # The GM lets its timer run out: it plays the advice, and the table says so.
    await tables.act(table, GM, "deal", as_gm=True)
    await tables.act(table, BOND_OWNER, "wager", amount=1_000, target="own")
    await tables.act(table, BOND_OWNER, "draw")
    clock.advance(91)
    await tables.run_due()
    timed = await tables.snapshot(table)
    assert timed.state.engine.phase is Phase.IDLE
    assert (
        "Le Chiffre (banker) did not act in time: plays as advised."
        in (fields(timed, clock)["Coup 2"])
    )

    # Handed back while it is the NPC's turn, it plays at once.
    await tables.act(table, GM, "deal", as_gm=True)
    await tables.act(table, BOND_OWNER, "wager", amount=1_000, target="own")
    await tables.act(table, BOND_OWNER, "draw")
    handed = await tables.set_npc_auto(table, GM, True)
    assert handed.state.engine.phase is Phase.IDLE
    last = handed.state.engine.history[-2]  # before the showdown
    assert last.seat == NPC and last.auto == "npc"
    await assert_conserved(db)


# -- timeouts -------------------------------------------------------------------------


async def test_a_timeout_plays_the_recommended_move_and_the_table_says_so(db: Database) -> None:
    clock = Clock()
    tables, table = await seated(db, clock, next(seeds(bond_draws_alone)))
    await tables.act(table, GM, "deal", as_gm=True)
    await tables.act(table, BOND_OWNER, "wager", amount=1_000, target="own")
    clock.advance(91)  # the server's turn timer: 90 s for the wagers, all at once
    await tables.run_due()
    snapshot = await tables.snapshot(table)
    assert snapshot.state.engine.turn() == (BOND,)
    clock.advance(91)
    await tables.run_due()
    snapshot = await tables.snapshot(table)
    engine = snapshot.state.engine
    assert isinstance(engine, Macao)
    assert [(m.kind, m.seat, m.auto) for m in engine.history if m.seat] == [
        ("wager", BOND, None),
        ("pass", VESPER, "timeout"),
        ("draw", BOND, "timeout"),
        *((m.kind, m.seat, m.auto) for m in engine.history[5:] if m.seat),
    ]
    story = fields(snapshot, clock)["Coup 1"]
    third = engine.players[0].cards[2].pretty
    assert "Vesper Lynd did not decide in time: passes." in story
    assert f"James Bond did not act in time: draws, as advised: {third}." in story


# -- packs by table size, and the end of the evening ----------------------------------


async def test_a_sixth_hand_brings_a_two_pack_shoe(db: Database) -> None:
    clock = Clock()
    tables, table, ids = await open_table(db, clock, [b"1" * 32, b"2" * 32], game="macao")
    owners = [BOND_OWNER, VESPER_OWNER, 21, 22, 23]
    characters = [ids["bond"], ids["vesper"]]
    for owner in owners[2:]:
        characters.append(await make_character(db, f"Agent {owner}", owner=owner, cash=10_000))
    for owner, character in zip(owners, characters, strict=True):
        await tables.join(table, owner, character, 5_000)
        await tables.choose(table, owner, "simulate")
    dealt = await tables.act(table, GM, "deal", as_gm=True)
    shoes = dealt.state.shoes
    assert [shoe.packs for shoe in shoes] == [1, 2]
    assert shoes[0].seed == (b"1" * 32).hex()  # the one-pack shoe, revealed as it goes
    assert dealt.state.engine.current_shoe().packs == 2
    assert fields(dealt, clock)["Table"].startswith("Wagers $10 to $500 · 2 packs")


async def test_the_evening_ends_after_its_coups_with_its_winner(db: Database) -> None:
    clock = Clock()
    seed = next(seeds(lambda s: bond_wins_one_coup(s)))
    tables, table = await seated(db, clock, seed, coups=1)
    over = await play(tables, table, own_hand())
    assert over.state.engine.phase is Phase.OVER
    best = max(over.chips.values())
    winner = "James Bond" if over.chips[int(BOND)] == best else "Vesper Lynd"
    evening = fields(over, clock)["The evening"]
    assert evening.startswith(f"Winner of the evening: **{winner}** with ${best // 100:,}")
    assert "The evening is over after 1 coup." in fields(over, clock)["Macao"]
    assert [b.custom_id for b in UI.buttons(over, "en", "$")] == []
    with pytest.raises(Refusal) as late:
        await tables.act(table, GM, "deal", as_gm=True)
    assert late.value.key == "macao.evening_over"


def bond_wins_one_coup(seed: bytes) -> bool:
    engine = live_engine(seed, NPC, [BOND, VESPER], coups=1)
    play_coup(engine, own_hand())
    return (engine.players[0].net or 0) > 0 and engine.phase is Phase.OVER


# -- refusals -------------------------------------------------------------------------


async def test_refusals_say_why(db: Database) -> None:
    clock = Clock()
    tables, table = await seated(db, clock, next(seeds(bond_draws_alone)))

    async def refused(owner: int, kind: str, **move: object) -> Refusal:
        with pytest.raises(Refusal) as refusal:
            await tables.act(table, owner, kind, **move)  # type: ignore[arg-type]
        return refusal.value

    assert (await refused(BOND_OWNER, "wager", amount=1_000, target="own")).key == (
        "macao.wagers_closed"
    )
    await tables.act(table, GM, "deal", as_gm=True)
    assert (await refused(GM, "deal", as_gm=True)).key == "macao.in_coup"
    assert (await refused(BOND_OWNER, "draw")).key == "macao.no_draw_now"
    over = await refused(BOND_OWNER, "wager", amount=10_000, target="own")
    assert (over.key, over.params) == ("macao.hand_over_chips", {"max": 6_666})
    small = await refused(BOND_OWNER, "wager", amount=500, target="tie")
    assert small.key == "table.outside_limits"
    assert (await refused(BOND_OWNER, "wager", amount=1_000, target="side")).key == (
        "macao.unknown_target"
    )
    await tables.act(table, BOND_OWNER, "wager", amount=1_000, target="own")
    assert (await refused(BOND_OWNER, "pass")).key == "macao.already_decided"
    await tables.act(table, VESPER_OWNER, "pass")
    assert (await refused(VESPER_OWNER, "draw")).key == "macao.not_your_turn"
    await assert_conserved(db)


# -- the end of the evening: who won is the best result -----------------------------------


def vesper_alone(engine: Macao, seat: str) -> Move | None:
    """Bond passes, Vesper wagers $10 on her own hand and draws as advised."""
    if engine.phase is Phase.WAGERS:
        if seat == BOND:
            return Move(kind="pass", seat=seat)
        return Move(kind="wager", seat=seat, amount=1_000, target="own")
    return None


def vesper_wins_while_bond_passes(seed: bytes) -> bool:
    engine = live_engine(seed, NPC, [BOND, VESPER], coups=1)
    play_coup(engine, vesper_alone)
    vesper = next(hand for hand in engine.players if hand.seat == VESPER)
    return (vesper.net or 0) > 0


async def test_the_closed_table_names_the_best_result_not_the_most_chips(db: Database) -> None:
    """Bond buys in $300 and passes, Vesper buys in $200 and wins her coup: Bond holds
    the most chips, Vesper did best. The closed table and the summary name her, above
    her gold medal, and so do they in French."""
    clock = Clock()
    seed = next(seeds(vesper_wins_while_bond_passes))
    tables, table, ids = await open_table(db, clock, [seed], game="macao", options={"coups": 1})
    await tables.join(table, BOND_OWNER, ids["bond"], 30_000)
    await tables.join(table, VESPER_OWNER, ids["vesper"], 20_000)
    for owner in (BOND_OWNER, VESPER_OWNER):
        await tables.choose(table, owner, "simulate")
    over = await play(tables, table, vesper_alone)
    engine = over.state.engine
    assert isinstance(engine, Macao) and engine.winners() == (BOND,)  # the most chips
    won = over.chips[ids["vesper"]] - 20_000
    assert won > 0 and over.chips[ids["bond"]] == 30_000
    closed = await tables.close(table, GM)
    async with db.read() as conn:
        told = await read_story(conn, closed)
    for lang, winner, medal in (
        ("en", "Winner: **Vesper Lynd**", f"🥇 **Vesper Lynd**: +${won // 100}"),
        ("fr", "Vainqueur : **Vesper Lynd**", f"🥇 **Vesper Lynd** : +${won // 100}"),
    ):
        scoreboard = closed_embed(closed, told, lang, "$", "Macao").to_dict()
        board = scoreboard["description"] + "\n" + scoreboard["fields"][0]["value"]
        summary = summary_embed(closed, told, lang, format_amount).description or ""
        for text in (board, summary):
            assert winner in text and medal in text and "James Bond**" in text, text
            assert text.index(winner) < text.index(medal)
            assert "**James Bond**, " not in text  # no one else named beside her
