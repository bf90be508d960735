"""The table service running punto banco on a real SQLite file: money, points, refusals."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from table_helpers import (
    BOND_OWNER,
    CHANNEL,
    GM,
    GUILD,
    VESPER_OWNER,
    Clock,
    assert_conserved,
    balance,
    event_of,
    make_character,
    open_table,
    seeds_where,
    service,
)

from bondbot.errors import Refusal
from bondbot.games.punto_banco.engine import Wager
from bondbot.rules import gambling
from bondbot.rules.baccarat import Bet
from bondbot.rules.shoe import verify
from bondbot.storage.db import Database
from bondbot.tables import accounts
from bondbot.tables.service import TableService


def banker_wins(coup):  # type: ignore[no-untyped-def]
    return coup.winner is Bet.BANKER


def player_wins(coup):  # type: ignore[no-untyped-def]
    return coup.winner is Bet.PLAYER


async def setup_table(
    db: Database, clock: Clock, seeds: list[bytes], *, bankroll: int | None = 1_000_000
) -> tuple[TableService, int, dict[str, int]]:
    return await open_table(db, clock, seeds, game="punto_banco", bankroll=bankroll)


async def test_a_lost_wager_can_be_won_back_once(db: Database) -> None:
    clock = Clock()
    seed = next(seeds_where(banker_wins))
    tables, table, ids = await setup_table(db, clock, [seed])
    await tables.join(table, BOND_OWNER, ids["bond"], 20_000)
    snap = await tables.choose(table, BOND_OWNER, "simulate")
    assert snap.event.model_dump() == {
        "kind": "chose",
        "character_id": ids["bond"],
        "choice": "simulate",
        "award": 2,  # Gambling 8: 6 to 10 earns 2
    }
    assert await balance(db, accounts.sheet(ids["bond"]), "hero") == 3
    await tables.act(table, BOND_OWNER, "wager", target="player", amount=5_000)
    snap = await tables.act(table, GM, "deal", as_gm=True)
    assert event_of(snap, "coup").winner == "banker"
    assert snap.chips[ids["bond"]] == 15_000
    (offer,) = snap.state.offers
    assert offer.pay == 10_000  # his 50 back and 50 won: Player pays 1:1

    # Two clicks at once: one point, one payout.
    results = await asyncio.gather(
        tables.spend(table, BOND_OWNER, offer.id),
        tables.spend(table, BOND_OWNER, offer.id),
        return_exceptions=True,
    )
    refusals = [r for r in results if isinstance(r, Refusal)]
    assert len(refusals) == 1 and refusals[0].key == "table.already_spent"
    assert await balance(db, accounts.chips(table, ids["bond"])) == 25_000
    assert await balance(db, accounts.sheet(ids["bond"]), "hero") == 2
    await assert_conserved(db)


async def test_spend_refusals_change_nothing(db: Database) -> None:
    clock = Clock()
    tables, table, ids = await setup_table(db, clock, [next(seeds_where(banker_wins))])
    await tables.join(table, BOND_OWNER, ids["bond"], 20_000)
    await tables.join(table, VESPER_OWNER, ids["vesper"], 10_000)
    await tables.choose(table, BOND_OWNER, "simulate")
    await tables.choose(table, VESPER_OWNER, "simulate")
    await tables.act(table, VESPER_OWNER, "wager", target="player", amount=2_000)
    snap = await tables.act(table, GM, "deal", as_gm=True)
    (offer,) = snap.state.offers
    before = await balance(db, accounts.chips(table, ids["vesper"]))

    with pytest.raises(Refusal) as other:
        await tables.spend(table, BOND_OWNER, offer.id)
    assert other.value.key == "table.not_your_button"
    with pytest.raises(Refusal) as broke:  # Vesper has no Gambling: no award, no points
        await tables.spend(table, VESPER_OWNER, offer.id)
    assert broke.value.key == "table.no_hero_points"
    clock.advance(61)
    with pytest.raises(Refusal) as late:
        await tables.spend(table, VESPER_OWNER, offer.id)
    assert late.value.key == "table.offer_closed"
    assert await balance(db, accounts.chips(table, ids["vesper"])) == before
    await assert_conserved(db)


async def test_the_next_deal_closes_the_window(db: Database) -> None:
    clock = Clock()
    tables, table, ids = await setup_table(db, clock, [next(seeds_where(banker_wins))])
    await tables.join(table, BOND_OWNER, ids["bond"], 20_000)
    await tables.choose(table, BOND_OWNER, "simulate")
    await tables.act(table, BOND_OWNER, "wager", target="player", amount=1_000)
    (offer,) = (await tables.act(table, GM, "deal", as_gm=True)).state.offers
    await tables.act(table, BOND_OWNER, "wager", target="banker", amount=1_000)
    await tables.act(table, GM, "deal", as_gm=True)
    with pytest.raises(Refusal) as closed:
        await tables.spend(table, BOND_OWNER, offer.id)
    assert closed.value.key == "table.offer_closed"


async def test_wager_refusals(db: Database) -> None:
    clock = Clock()
    tables, table, ids = await setup_table(db, clock, [], bankroll=20_000)
    await tables.join(table, BOND_OWNER, ids["bond"], 30_000)
    with pytest.raises(Refusal) as unchosen:
        await tables.act(table, BOND_OWNER, "wager", target="player", amount=1_000)
    assert unchosen.value.key == "table.choose_first"
    await tables.choose(table, BOND_OWNER, "simulate")
    cases = [
        ("player", 500, "table.outside_limits"),
        ("player", 60_000, "table.outside_limits"),
        ("dragon", 1_000, "baccarat.unknown_bet"),
        ("tie", 3_000, "table.bank_cannot_cover"),  # 8 × 30 > 200
    ]
    for on, amount, key in cases:
        with pytest.raises(Refusal) as refused:
            await tables.act(table, BOND_OWNER, "wager", target=on, amount=amount)
        assert refused.value.key == key
    with pytest.raises(Refusal) as stranger:
        await tables.act(table, VESPER_OWNER, "wager", target="player", amount=1_000)
    assert stranger.value.key == "table.not_seated"
    snap = await tables.snapshot(table)
    assert snap.state.engine.wagers == {}


async def test_over_chips_and_over_cash(db: Database) -> None:
    tables, table, ids = await setup_table(db, Clock(), [])
    with pytest.raises(Refusal) as poor:
        await tables.join(table, VESPER_OWNER, ids["vesper"], 60_000)
    assert poor.value.key == "table.buy_in_over_cash"
    with pytest.raises(Refusal) as thief:
        await tables.join(table, VESPER_OWNER, ids["bond"], 1_000)
    assert thief.value.key == "table.not_your_character"
    await tables.join(table, VESPER_OWNER, ids["vesper"], 5_000)
    await tables.choose(table, VESPER_OWNER, "simulate")
    with pytest.raises(Refusal) as over:
        await tables.act(table, VESPER_OWNER, "wager", target="banker", amount=6_000)
    assert over.value.key == "table.wager_over_chips"
    await assert_conserved(db)


async def test_winners_are_paid_and_banker_pays_commission(db: Database) -> None:
    seed = next(seeds_where(banker_wins))
    tables, table, ids = await setup_table(db, Clock(), [seed])
    await tables.join(table, BOND_OWNER, ids["bond"], 20_000)
    await tables.choose(table, BOND_OWNER, "simulate")
    await tables.act(table, BOND_OWNER, "wager", target="banker", amount=1_050)
    snap = await tables.act(table, GM, "deal", as_gm=True)
    assert snap.chips[ids["bond"]] == 20_000 + 997  # 10.50 × 0.95 = 9.975 → 9.97
    assert snap.state.offers == []
    assert snap.bank == 1_000_000 - 997
    await assert_conserved(db)


async def test_close_cashes_out_and_reveals_a_verifiable_seed(db: Database) -> None:
    seed = next(seeds_where(player_wins))
    tables, table, ids = await setup_table(db, Clock(), [seed])
    opened = await tables.snapshot(table)
    commitment = opened.state.shoes[0].commitment
    await tables.join(table, BOND_OWNER, ids["bond"], 20_000)
    await tables.choose(table, BOND_OWNER, "simulate")
    await tables.act(table, BOND_OWNER, "wager", target="player", amount=2_000)
    await tables.act(table, GM, "deal", as_gm=True)
    closed = await tables.close(table, GM)
    assert closed.status == "closed"
    revealed = closed.state.shoes[0].seed
    assert revealed == seed.hex()
    shoe = verify(revealed, commitment, 8)
    dealt = closed.state.engine.last
    assert dealt is not None
    assert " ".join(c.code for c in (shoe[0], shoe[2])) == dealt.player[:5]
    assert await balance(db, accounts.sheet(ids["bond"])) == 100_000 + 2_000
    assert await balance(db, accounts.bank(table)) == 0
    with pytest.raises(Refusal):
        await tables.open_in_channel(CHANNEL)
    await assert_conserved(db)


async def test_leaving_takes_the_chips_and_drops_the_wager(db: Database) -> None:
    tables, table, ids = await setup_table(db, Clock(), [])
    await tables.join(table, BOND_OWNER, ids["bond"], 20_000)
    await tables.choose(table, BOND_OWNER, "simulate")
    await tables.act(table, BOND_OWNER, "wager", target="tie", amount=1_000)
    snap = await tables.leave(table, BOND_OWNER)
    assert snap.event.chips == 20_000
    assert snap.state.engine.wagers == {}
    assert await balance(db, accounts.sheet(ids["bond"])) == 100_000
    with pytest.raises(Refusal) as twice:
        await tables.leave(table, BOND_OWNER)
    assert twice.value.key == "table.not_seated"


async def test_the_choice_is_final_and_rulebook_players_do_not_wager(db: Database) -> None:
    tables, table, ids = await setup_table(db, Clock(), [])
    await tables.join(table, BOND_OWNER, ids["bond"], 20_000)
    await tables.choose(table, BOND_OWNER, "rulebook")
    assert await balance(db, accounts.sheet(ids["bond"]), "hero") == 1
    with pytest.raises(Refusal) as final:
        await tables.choose(table, BOND_OWNER, "simulate")
    assert final.value.key == "table.already_chose"
    with pytest.raises(Refusal) as wager:
        await tables.act(table, BOND_OWNER, "wager", target="player", amount=1_000)
    assert wager.value.key == "table.rulebook_player"


async def test_rulebook_contest_moves_the_stake_to_the_winner(db: Database) -> None:
    tables, table, ids = await setup_table(db, Clock(), [])
    await tables.join(table, VESPER_OWNER, ids["vesper"], 10_000)
    await tables.choose(table, VESPER_OWNER, "rulebook")
    snap = await tables.contest(table, VESPER_OWNER, 5_000)
    contest = snap.state.contests[0]
    assert 1 <= contest.pc.roll <= 100 and 1 <= contest.npc.roll <= 100
    # PER 10 without Gambling: EF 5 - 3 = 2, SC 20. Le Chiffre: (12 + 12) × 5 = 120.
    assert contest.pc.success_chance == 20 and contest.npc.success_chance == 120
    settled = await tables.contest_settle(table, VESPER_OWNER, contest.id)
    result = settled.state.contests[0]
    expected = {None: 10_000, ids["vesper"]: 15_000, ids["npc"]: 5_000}[result.winner]
    assert settled.chips[ids["vesper"]] == expected
    with pytest.raises(Refusal) as again:
        await tables.contest_settle(table, VESPER_OWNER, contest.id)
    assert again.value.key == "table.contest_closed"
    await assert_conserved(db)


async def test_a_contest_step_is_one_click_and_leaving_settles_the_contest(db: Database) -> None:
    tables, table, ids = await setup_table(db, Clock(), [])
    await tables.join(table, BOND_OWNER, ids["bond"], 10_000)
    await tables.choose(table, BOND_OWNER, "rulebook")  # one Hero Point, none awarded
    rolled = await tables.contest(table, BOND_OWNER, 5_000)
    contest = rolled.state.contests[0]
    if gambling.improve(contest.pc.quality, 0) != 1:
        stepped = await tables.contest_step(table, BOND_OWNER, contest.id, 0)
        assert stepped.state.contests[0].pc.steps == 1
        with pytest.raises(Refusal) as again:  # the same button, clicked twice
            await tables.contest_step(table, BOND_OWNER, contest.id, 0)
        assert again.value.key == "table.step_already_spent"
        assert await balance(db, accounts.sheet(ids["bond"]), "hero") == 0
    left = await tables.leave(table, BOND_OWNER)
    (settled,) = left.state.contests
    assert settled.settled
    expected = {None: 10_000, ids["bond"]: 15_000, ids["npc"]: 5_000}[settled.winner]
    assert await balance(db, accounts.sheet(ids["bond"])) == 100_000 - 10_000 + expected
    await assert_conserved(db)


async def test_state_survives_a_new_service_on_the_same_database(db: Database) -> None:
    clock = Clock()
    seed = next(seeds_where(banker_wins))
    tables, table, ids = await setup_table(db, clock, [seed])
    await tables.join(table, BOND_OWNER, ids["bond"], 20_000)
    await tables.choose(table, BOND_OWNER, "simulate")
    await tables.act(table, BOND_OWNER, "wager", target="player", amount=1_000)
    (offer,) = (await tables.act(table, GM, "deal", as_gm=True)).state.offers
    restarted = service(db, clock)
    assert [s.id for s in await restarted.open_tables()] == [table]
    snap = await restarted.spend(table, BOND_OWNER, offer.id)
    assert snap.event.pay == 2_000
    with pytest.raises(Refusal):
        await tables.spend(table, BOND_OWNER, offer.id)


async def test_auto_deal_timer_deals_once_the_delay_has_passed(db: Database) -> None:
    clock = Clock()
    ids = {
        "npc": await make_character(db, "Le Chiffre", kind="NPC"),
        "bond": await make_character(db, "James Bond", owner=BOND_OWNER, cash=100_000),
    }
    tables = service(db, clock)
    table = (
        await tables.open_table(
            guild_id=GUILD,
            channel_id=CHANNEL,
            actor_id=GM,
            game="punto_banco",
            npc_id=ids["npc"],
            min_bet=100,
            max_bet=10_000,
            options={"auto_deal_s": 30},
        )
    ).id
    await tables.join(table, BOND_OWNER, ids["bond"], 5_000)
    await tables.choose(table, BOND_OWNER, "simulate")
    snap = await tables.act(table, BOND_OWNER, "wager", target="player", amount=100)
    assert snap.state.deadline_action == "scheduled"
    clock.advance(29)
    await tables.run_due()
    assert (await tables.snapshot(table)).state.hand_no == 0
    clock.advance(2)
    await tables.run_due()
    dealt = await tables.snapshot(table)
    assert dealt.state.hand_no == 1 and dealt.state.deadline is None
    # A restarted service re-arms nothing once the coup is dealt.
    restarted = service(db, clock)
    await restarted.resume()
    assert not restarted.scheduler.pending(("move", table))


async def test_a_contest_cannot_take_what_the_bank_owes_the_wagers(db: Database) -> None:
    tables, table, ids = await setup_table(db, Clock(), [], bankroll=20_000)
    await tables.join(table, BOND_OWNER, ids["bond"], 20_000)
    await tables.join(table, VESPER_OWNER, ids["vesper"], 20_000)
    await tables.choose(table, BOND_OWNER, "simulate")
    await tables.choose(table, VESPER_OWNER, "rulebook")
    await tables.act(table, BOND_OWNER, "wager", target="tie", amount=2_000)  # owes 160
    with pytest.raises(Refusal) as refused:
        await tables.contest(table, VESPER_OWNER, 5_000)
    assert refused.value.key == "table.bank_cannot_cover"
    assert refused.value.params["available"] == 4_000
    snap = await tables.contest(table, VESPER_OWNER, 4_000)
    assert snap.state.contests[0].stake == 4_000


async def test_a_pause_stops_the_clock(db: Database) -> None:
    clock = Clock()
    tables, table, ids = await open_table(
        db, clock, [], game="punto_banco", options={"auto_deal_s": 30}
    )
    await tables.join(table, BOND_OWNER, ids["bond"], 20_000)
    await tables.choose(table, BOND_OWNER, "simulate")
    await tables.act(table, BOND_OWNER, "wager", target="player", amount=1_000)
    await tables.pause(table, GM, True)
    with pytest.raises(Refusal) as twice:
        await tables.pause(table, GM, True)
    assert twice.value.key == "table.already_paused"
    clock.advance(60)
    await tables.run_due()
    assert (await tables.snapshot(table)).state.hand_no == 0  # paused: nothing dealt
    resumed = await tables.pause(table, GM, False)
    assert resumed.state.deadline == (clock.now + timedelta(seconds=90)).isoformat(
        timespec="milliseconds"
    )
    clock.advance(89)
    await tables.run_due()
    assert (await tables.snapshot(table)).state.hand_no == 0
    clock.advance(2)
    await tables.run_due()
    assert (await tables.snapshot(table)).state.hand_no == 1


async def test_same_again_repeats_the_last_coups_wager(db: Database) -> None:
    tables, table, ids = await setup_table(db, Clock(), [])
    await tables.join(table, BOND_OWNER, ids["bond"], 20_000)
    await tables.choose(table, BOND_OWNER, "simulate")
    with pytest.raises(Refusal) as nothing:
        await tables.act(table, BOND_OWNER, "again")
    assert nothing.value.key == "baccarat.no_previous_wager"
    await tables.act(table, BOND_OWNER, "wager", target="tie", amount=1_500)
    await tables.act(table, GM, "deal", as_gm=True)
    again = await tables.act(table, BOND_OWNER, "again")
    assert again.state.engine.wagers == {str(ids["bond"]): Wager(bet=Bet.TIE, amount=1_500)}


async def test_coming_back_keeps_the_choice_and_earns_nothing_more(db: Database) -> None:
    tables, table, ids = await setup_table(db, Clock(), [])
    await tables.join(table, BOND_OWNER, ids["bond"], 20_000)
    await tables.choose(table, BOND_OWNER, "simulate")
    await tables.leave(table, BOND_OWNER)
    back = await tables.join(table, BOND_OWNER, ids["bond"], 10_000)
    assert back.state.seat_of_user(BOND_OWNER).choice == "simulate"
    with pytest.raises(Refusal) as again:
        await tables.choose(table, BOND_OWNER, "simulate")
    assert again.value.key == "table.already_chose"
    assert await balance(db, accounts.sheet(ids["bond"]), "hero") == 1 + 2  # one award only
