"""The table service running blackjack on a real SQLite file: rounds, timers, money, points.

Shoes come from seeds chosen by replaying the same decisions on the pure engine, so every
test knows its cards without stacking anything: `scenario` finds the first seed whose
round, played by a policy, looks the way the test needs, and gives the engine's results
to compare with what the service did.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime

import pytest
from table_helpers import (
    BOND_OWNER,
    GM,
    GUILD,
    VESPER_OWNER,
    Clock,
    assert_conserved,
    balance,
    event_of,
    open_table,
    service,
)

from bondbot.errors import Refusal
from bondbot.games.blackjack.engine import InsuranceLine, LogEntry, Voided
from bondbot.rules.blackjack import Action, Blackjack, BlackjackRules, Outcome, Phase
from bondbot.rules.shoe import Shoe
from bondbot.storage.db import Database
from bondbot.storage.settings import update_settings
from bondbot.tables import accounts
from bondbot.tables.service import TableService, TableSnapshot

BET = 2_000
Policy = Callable[[Blackjack, str, str, int], Action | bool]
"""(game, engine seat, who, hand index) → the action, or for insurance (hand -1) whether
to insure; `who` is "bond" or "vesper" (the replay's seats are named so)."""


def replay(seed: bytes, seats: list[str], policy: Policy, rules: BlackjackRules) -> Blackjack:
    """The round a live table dealing from `seed` plays when every seat follows `policy`."""
    game = Blackjack(Shoe.shuffled(rules.packs, seed, rules.penetration), rules)
    for seat in seats:
        game.place_bet(seat, BET)
    game.start_round()
    for seat in seats:
        if game.insurance_open:
            game.insure(seat, bool(policy(game, seat, seat, -1)))
    while (current := game.current()) is not None:
        action = policy(game, current[0], current[0], current[1])
        assert isinstance(action, Action)
        game.act(current[0], action)
    return game


def scenario(
    policy: Policy,
    wanted: Callable[[Blackjack], bool],
    seats: tuple[str, ...] = ("bond", "vesper"),
    rules: BlackjackRules | None = None,
) -> tuple[bytes, Blackjack]:
    rules = rules or BlackjackRules()
    for n in range(20_000):
        seed = n.to_bytes(32, "big")
        try:
            game = replay(seed, list(seats), policy, rules)
        except Exception:  # an illegal move for this deal: not our scenario
            continue
        if wanted(game):
            return seed, game
    raise AssertionError("no seed gives this scenario")


def result(game: Blackjack, seat: str, index: int = 0):  # type: ignore[no-untyped-def]
    return next(r for r in game.results if (r.seat, r.hand_index) == (seat, index))


async def setup_table(
    db: Database,
    clock: Clock,
    seeds: list[bytes],
    *,
    bankroll: int | None = 1_000_000,
    options: dict | None = None,  # type: ignore[type-arg]
    packs: int | None = None,
) -> tuple[TableService, int, dict[str, int]]:
    return await open_table(
        db, clock, seeds, game="blackjack", bankroll=bankroll, options=options, packs=packs
    )


async def seat_both(tables: TableService, table: int, ids: dict[str, int]) -> None:
    await tables.join(table, BOND_OWNER, ids["bond"], 40_000)
    await tables.join(table, VESPER_OWNER, ids["vesper"], 20_000)
    await tables.choose(table, BOND_OWNER, "simulate")  # Gambling 8: +2 Hero Points
    await tables.choose(table, VESPER_OWNER, "simulate")


async def bet_and_deal(
    tables: TableService, table: int, owners: tuple[int, ...] = (BOND_OWNER, VESPER_OWNER)
) -> TableSnapshot:
    for owner in owners:
        await tables.act(table, owner, "wager", amount=BET)
    return await tables.act(table, GM, "deal", as_gm=True)


def seat_name(snapshot: TableSnapshot, ids: dict[str, int], character_id: str) -> str:
    return next(k for k, v in ids.items() if str(v) == character_id)


async def play_out(
    tables: TableService,
    table: int,
    ids: dict[str, int],
    policy: Policy,
    snapshot: TableSnapshot,
) -> TableSnapshot:
    """Drive the service with the same policy as the replay, through each owner's clicks."""
    owners = {"bond": BOND_OWNER, "vesper": VESPER_OWNER}
    game = snapshot.state.engine.game
    if game.insurance_open:
        for seat in game.insurance_pending:
            name = seat_name(snapshot, ids, seat)
            take = bool(policy(game, seat, name, -1))
            snapshot = await tables.act(table, owners[name], "insure" if take else "no_insurance")
        game = snapshot.state.engine.game
    while (current := game.current()) is not None:
        name = seat_name(snapshot, ids, current[0])
        action = policy(game, current[0], name, current[1])
        assert isinstance(action, Action)
        move = snapshot.state.moves
        snapshot = await tables.act(table, owners[name], action.value, moves=move)
        game = snapshot.state.engine.game
    return snapshot


def same_round(snapshot: TableSnapshot, replayed: Blackjack, ids: dict[str, int]) -> None:
    """The service's settled round is the replay's, hand for hand."""
    by_id = {str(ids[name]): name for name in ("bond", "vesper")}
    last = snapshot.state.engine.last
    assert last is not None and last.kind == "settled"
    got = [(by_id[line.seat], line.hand, line.cards, line.net) for line in last.results]
    want = [
        (r.seat, r.hand_index, " ".join(c.code for c in r.cards), r.net) for r in replayed.results
    ]
    assert got == want
    assert last.dealer == " ".join(c.code for c in replayed.dealer_cards)


# -- policies ------------------------------------------------------------------------------


def split_bust_and_double(game: Blackjack, seat: str, who: str, index: int) -> Action | bool:
    """Bond splits his pair, hits his first hand until it breaks, stands on the second;
    Vesper doubles. Nobody insures."""
    if index < 0:
        return False
    if who == "vesper":
        return Action.DOUBLE
    hands = game.hands(seat)
    if len(hands) == 1:
        return Action.SPLIT
    return Action.HIT if index == 0 else Action.STAND


def wants_split_bust_double(game: Blackjack) -> bool:
    bond = [r for r in game.results if r.seat == "bond"]
    vesper = result(game, "vesper")
    return (
        game.dealer_cards[0].rank != "A"
        and len(bond) == 2
        and bond[0].outcome is Outcome.BUST
        and len(bond[0].cards) >= 3
        and bond[1].outcome is not Outcome.BUST
        and vesper.stake == 2 * BET
        and vesper.outcome is not Outcome.BUST
    )


async def test_split_double_and_a_bust_won_back_once(db: Database) -> None:
    seed, replayed = scenario(split_bust_and_double, wants_split_bust_double)
    clock = Clock()
    tables, table, ids = await setup_table(db, clock, [seed])
    await seat_both(tables, table, ids)
    dealt = await bet_and_deal(tables, table)
    assert event_of(dealt, "logged").entry.kind == "dealt"
    assert dealt.state.engine.game.seats == (str(ids["bond"]), str(ids["vesper"]))  # seat order
    assert dealt.state.deadline is not None and dealt.state.deadline_action == "timeout"
    assert dealt.chips == {ids["bond"]: 40_000, ids["vesper"]: 20_000}  # nothing moves yet

    settled = await play_out(tables, table, ids, split_bust_and_double, dealt)
    same_round(settled, replayed, ids)
    assert settled.state.deadline is None and settled.state.deadline_action is None
    bond_net = replayed.seat_net("bond")
    vesper_net = replayed.seat_net("vesper")
    assert settled.chips == {ids["bond"]: 40_000 + bond_net, ids["vesper"]: 20_000 + vesper_net}
    assert settled.bank == 1_000_000 - bond_net - vesper_net

    # One offer per lost hand, each split hand on its own: the bust one pays 1:1 on its stake.
    lost = [r for r in replayed.results if r.outcome in (Outcome.LOSE, Outcome.BUST)]
    offers = settled.state.offers
    assert [(o.character_id, o.label, o.pay) for o in offers] == [
        (ids[r.seat], f"{r.hand_index}:{r.outcome.value}:{r.stake}", r.stake - r.net) for r in lost
    ]
    bust = result(replayed, "bond", 0)
    lost = [o for o in offers if o.label.startswith("0:bust:")]
    assert len(lost) == 1 and lost[0].character_id == ids["bond"]
    assert lost[0].pay == 2 * bust.stake  # his stake back and 1:1 on it

    before = settled.chips[ids["bond"]]
    results = await asyncio.gather(
        tables.spend(table, BOND_OWNER, lost[0].id),
        tables.spend(table, BOND_OWNER, lost[0].id),
        return_exceptions=True,
    )
    refusals = [r for r in results if isinstance(r, Refusal)]
    assert [r.key for r in refusals] == ["table.already_spent"]
    assert await balance(db, accounts.chips(table, ids["bond"])) == before + 2 * BET
    assert await balance(db, accounts.sheet(ids["bond"]), "hero") == 3 - 1
    await assert_conserved(db)

    async with db.read() as conn:
        reasons = [
            r[0]
            for r in await conn.execute_fetchall(
                "SELECT reason FROM ledger WHERE table_id = ? ORDER BY id", (table,)
            )
        ]
    assert "blackjack.bust" in reasons and reasons.count("spend.win_hand") == 2  # point + pay


def surrender_first(game: Blackjack, seat: str, who: str, index: int) -> Action | bool:
    if index < 0:
        return False
    if who == "bond":
        return Action.SURRENDER
    return Action.STAND


async def test_a_surrender_costs_half_and_is_never_offered_back(db: Database) -> None:
    seed, replayed = scenario(
        surrender_first,
        lambda g: (
            result(g, "bond").outcome is Outcome.SURRENDER
            and result(g, "vesper").outcome is Outcome.LOSE
        ),
    )
    tables, table, ids = await setup_table(db, Clock(), [seed])
    await seat_both(tables, table, ids)
    settled = await play_out(tables, table, ids, surrender_first, await bet_and_deal(tables, table))
    same_round(settled, replayed, ids)
    assert settled.chips[ids["bond"]] == 40_000 - BET // 2
    # A surrender is no lost hand: only Vesper's lost hand may be won back.
    assert [(o.character_id, o.pay) for o in settled.state.offers] == [(ids["vesper"], 2 * BET)]
    with pytest.raises(Refusal) as no_point:
        await tables.spend(table, VESPER_OWNER, settled.state.offers[0].id)
    assert no_point.value.key == "table.no_hero_points"
    await assert_conserved(db)


def insure_bond(game: Blackjack, seat: str, who: str, index: int) -> Action | bool:
    if index < 0:
        return who == "bond"
    return Action.STAND


async def test_insurance_pays_2_to_1_against_a_dealer_blackjack(db: Database) -> None:
    seed, replayed = scenario(
        insure_bond,
        lambda g: (
            len(g.dealer_cards) == 2
            and g.dealer_cards[0].rank == "A"
            and g.dealer_cards[1].rank in "TJQK"
            and all(r.outcome is Outcome.LOSE for r in g.results)
        ),
    )
    tables, table, ids = await setup_table(db, Clock(), [seed])
    await seat_both(tables, table, ids)
    dealt = await bet_and_deal(tables, table)
    assert dealt.state.engine.game.insurance_pending == (str(ids["bond"]), str(ids["vesper"]))
    with pytest.raises(Refusal) as not_yet:
        await tables.act(table, BOND_OWNER, "stand")
    assert not_yet.value.key == "blackjack.not_playing"
    insured = await tables.act(table, BOND_OWNER, "insure")
    assert event_of(insured, "logged").entry == LogEntry(
        kind="insure", seat=str(ids["bond"]), amount=BET // 2
    )
    assert insured.state.deadline == dealt.state.deadline  # one clock for every answer
    with pytest.raises(Refusal) as twice:
        await tables.act(table, BOND_OWNER, "no_insurance")
    assert twice.value.key == "blackjack.already_answered"
    settled = await tables.act(table, VESPER_OWNER, "no_insurance")
    same_round(settled, replayed, ids)
    assert event_of(settled, "settled").insurance == (
        InsuranceLine(seat=str(ids["bond"]), amount=BET // 2, net=BET),
    )
    assert settled.chips == {ids["bond"]: 40_000, ids["vesper"]: 20_000 - BET}
    # Each lost hand may be won back, paid on the hand alone: never on the insurance.
    assert [(o.character_id, o.pay) for o in settled.state.offers] == [
        (ids["bond"], 2 * BET),
        (ids["vesper"], 2 * BET),
    ]
    spent = await tables.spend(table, BOND_OWNER, settled.state.offers[0].id)
    assert spent.chips[ids["bond"]] == 40_000 + 2 * BET  # insurance kept, hand won
    await assert_conserved(db)


def stand_all(game: Blackjack, seat: str, who: str, index: int) -> Action | bool:
    return False if index < 0 else Action.STAND


def plain_deal(game: Blackjack) -> bool:
    up = game.dealer_cards[0]
    totals = [h.total for s in game.seats for h in game.hands(s)]
    return up.rank not in "ATJQK" and all(t < 21 for t in totals)


async def test_a_player_who_does_not_act_in_time_stands(db: Database) -> None:
    seed, replayed = scenario(stand_all, plain_deal)
    clock = Clock()
    tables, table, ids = await setup_table(db, clock, [seed])
    async with db.transaction() as conn:
        await update_settings(conn, GUILD, turn_timer_s=30)
    await seat_both(tables, table, ids)
    dealt = await bet_and_deal(tables, table)
    first = dealt.state.deadline
    assert first is not None
    assert (datetime.fromisoformat(first) - clock.now).total_seconds() == 30  # the server's

    clock.advance(29)
    await tables.run_due()  # not yet
    assert (await tables.snapshot(table)).state.engine.game.current() == (str(ids["bond"]), 0)
    clock.advance(2)
    await tables.run_due()
    after = await tables.snapshot(table)
    bj = after.state.engine
    assert bj.game.current() == (str(ids["vesper"]), 0)
    assert bj.log[-1] == LogEntry(kind="timeout", seat=str(ids["bond"]), hand=0)
    assert bj.game.hands(str(ids["bond"]))[0].done
    assert after.state.deadline is not None and after.state.deadline > first

    # A late timer for a turn that is over changes nothing.
    with pytest.raises(Refusal) as stale:
        await tables.timed_move(table, first)
    assert stale.value.key == "table.timer_stale"
    # Nor can anyone but the timer (or the GM's deadline) make a PC stand.
    with pytest.raises(Refusal) as player:
        await tables.act(table, BOND_OWNER, "timeout")
    assert player.value.key == "games.unknown_move"

    clock.advance(31)
    await tables.run_due()
    settled = await tables.snapshot(table)
    same_round(settled, replayed, ids)
    assert settled.state.deadline is None
    await assert_conserved(db)


async def test_an_unanswered_insurance_is_declined(db: Database) -> None:
    seed, _ = scenario(
        stand_all,
        lambda g: g.dealer_cards[0].rank == "A" and g.dealer_cards[1].rank not in "TJQK",
    )
    clock = Clock()
    tables, table, ids = await setup_table(db, clock, [seed])
    await seat_both(tables, table, ids)
    dealt = await bet_and_deal(tables, table)
    assert dealt.state.engine.game.insurance_open
    await tables.act(table, BOND_OWNER, "insure")
    clock.advance(91)
    await tables.run_due()
    snap = await tables.snapshot(table)
    bj = snap.state.engine
    assert bj.game.phase is Phase.PLAYING
    assert bj.game.insurance(str(ids["vesper"])) == 0
    assert bj.game.insurance(str(ids["bond"])) == BET // 2
    assert LogEntry(kind="timeout_insurance", seat=str(ids["vesper"])) in bj.log


async def test_turn_refusals_change_nothing(db: Database) -> None:
    seed, _ = scenario(stand_all, plain_deal)
    tables, table, ids = await setup_table(db, Clock(), [seed])
    await seat_both(tables, table, ids)
    dealt = await bet_and_deal(tables, table)
    before = dealt.state.model_dump()
    cases = [
        (VESPER_OWNER, "hit", {}, "blackjack.not_your_turn"),
        (BOND_OWNER, "hit", {"moves": 999}, "table.stale_button"),
        (BOND_OWNER, "wager", {"amount": BET}, "blackjack.round_in_progress"),
        (BOND_OWNER, "deal", {}, "blackjack.gm_deals"),
        (BOND_OWNER, "insure", {}, "blackjack.no_insurance"),
        (BOND_OWNER, "fold", {}, "games.unknown_move"),
    ]
    for owner, action, args, key in cases:
        with pytest.raises(Refusal) as refused:
            await tables.act(table, owner, action, **args)
        assert refused.value.key == key, action
    with pytest.raises(Refusal) as not_your_turn:
        await tables.act(table, VESPER_OWNER, "stand")
    assert not_your_turn.value.params == {"name": "James Bond"}
    with pytest.raises(Refusal) as dealing:
        await tables.act(table, GM, "deal", as_gm=True)
    assert dealing.value.key == "blackjack.round_in_progress"
    with pytest.raises(Refusal) as leaving:
        await tables.leave(table, BOND_OWNER)
    assert leaving.value.key == "blackjack.leave_mid_round"
    assert (await tables.snapshot(table)).state.model_dump() == before


async def test_a_double_needs_free_chips_and_a_covering_bank(db: Database) -> None:
    def double(game: Blackjack, seat: str, who: str, index: int) -> Action | bool:
        return False if index < 0 else Action.DOUBLE

    seed, _ = scenario(double, plain_deal, seats=("bond",))
    tables, table, ids = await setup_table(db, Clock(), [seed], bankroll=4_000)
    await tables.join(table, BOND_OWNER, ids["bond"], 3_000)
    await tables.choose(table, BOND_OWNER, "simulate")
    with pytest.raises(Refusal) as over:
        await tables.act(table, BOND_OWNER, "wager", amount=3_000)  # 3:2 pays 45 > 40
    assert over.value.key == "table.bank_cannot_cover"
    await tables.act(table, BOND_OWNER, "wager", amount=BET)
    await tables.act(table, GM, "deal", as_gm=True)
    with pytest.raises(Refusal) as short:
        await tables.act(table, BOND_OWNER, "double")
    assert short.value.key == "blackjack.chips_short"  # 20 on the table, 10 free


async def test_the_bank_refuses_a_double_it_could_not_pay(db: Database) -> None:
    def double(game: Blackjack, seat: str, who: str, index: int) -> Action | bool:
        return False if index < 0 else Action.DOUBLE

    seed, _ = scenario(double, plain_deal, seats=("bond",))
    tables, table, ids = await setup_table(db, Clock(), [seed], bankroll=5_000)
    await tables.join(table, BOND_OWNER, ids["bond"], 10_000)
    await tables.choose(table, BOND_OWNER, "simulate")
    await tables.act(table, BOND_OWNER, "wager", amount=BET)  # worst case 30 of 50
    await tables.act(table, GM, "deal", as_gm=True)
    with pytest.raises(Refusal) as bank:
        await tables.act(table, BOND_OWNER, "double")  # 30 + 2 × 20 > 50
    assert bank.value.key == "table.bank_cannot_cover"
    settled = await tables.act(table, BOND_OWNER, "stand")
    assert event_of(settled, "settled").hand == 1
    await assert_conserved(db)


async def test_restart_mid_round_continues_on_the_same_database(db: Database) -> None:
    seed, replayed = scenario(split_bust_and_double, wants_split_bust_double)
    clock = Clock()
    tables, table, ids = await setup_table(db, clock, [seed])
    await seat_both(tables, table, ids)
    dealt = await bet_and_deal(tables, table)
    split = await tables.act(table, BOND_OWNER, "split", moves=dealt.state.moves)
    assert event_of(split, "logged").entry.kind == "split"
    tables.stop_timers()

    restarted = service(db, clock)
    (resumed,) = await restarted.resume()
    assert resumed.state.deadline == split.state.deadline
    settled = await play_out(restarted, table, ids, split_bust_and_double, resumed)
    same_round(settled, replayed, ids)
    # The old service's button state is stale: its clicks are refused, nothing pays twice.
    with pytest.raises(Refusal) as stale:
        await tables.act(table, BOND_OWNER, "hit", moves=split.state.moves)
    assert stale.value.key == "table.changed_elsewhere"
    await assert_conserved(db)
    restarted.stop_timers()


async def test_next_round_and_a_leave_between_rounds(db: Database) -> None:
    seed, _ = scenario(stand_all, plain_deal)
    tables, table, ids = await setup_table(db, Clock(), [seed])
    await seat_both(tables, table, ids)
    first = await play_out(tables, table, ids, stand_all, await bet_and_deal(tables, table))
    assert first.state.hand_no == 1
    # Betting again opens the next round; a new bet replaces the old one.
    await tables.act(table, BOND_OWNER, "wager", amount=BET)
    snap = await tables.act(table, BOND_OWNER, "wager", amount=3_000)
    bj = snap.state.engine
    assert bj.game.phase is Phase.BETTING and bj.game.bet(str(ids["bond"])) == 3_000
    assert snap.state.engine.last == first.state.engine.last  # the last round stays shown
    left = await tables.leave(table, BOND_OWNER)
    assert left.state.engine.game.seats == ()
    assert await balance(db, accounts.sheet(ids["bond"])) == 100_000 - 40_000 + left.event.chips
    await assert_conserved(db)


async def test_the_service_reshuffles_a_shoe_past_its_cut_between_rounds(db: Database) -> None:
    seed, _ = scenario(stand_all, plain_deal)
    tables, table, ids = await setup_table(db, Clock(), [seed, seed])
    await seat_both(tables, table, ids)
    await play_out(tables, table, ids, stand_all, await bet_and_deal(tables, table))
    await _set_shoe_position(tables, table, 240)  # past the cut card (75% of 312 = 234)
    await tables.act(table, BOND_OWNER, "wager", amount=BET)
    dealt = await tables.act(table, GM, "deal", as_gm=True)
    assert len(dealt.state.shoes) == 2 and dealt.state.shoes[0].seed == seed.hex()
    assert dealt.state.engine.game.shoe.position in range(3, 20)


async def test_a_shoe_running_dry_mid_round_voids_the_round(db: Database) -> None:
    seed, _ = scenario(stand_all, plain_deal, seats=("bond",))
    tables, table, ids = await setup_table(db, Clock(), [seed])
    await tables.join(table, BOND_OWNER, ids["bond"], 10_000)
    await tables.choose(table, BOND_OWNER, "simulate")
    await tables.act(table, BOND_OWNER, "wager", amount=BET)
    await tables.act(table, GM, "deal", as_gm=True)
    await _set_shoe_position(tables, table, 312)  # every card is out
    void = await tables.act(table, BOND_OWNER, "hit")
    assert event_of(void, "void") == Voided(hand=1)
    assert void.chips[ids["bond"]] == 10_000 and void.state.deadline is None
    bj = void.state.engine
    assert bj.game.phase is Phase.BETTING and bj.game.needs_shuffle
    await assert_conserved(db)


async def test_bad_options_are_refused_when_opening(db: Database) -> None:
    with pytest.raises(Refusal) as bad:
        await setup_table(db, Clock(), [], options={"max_hands": 7})
    assert bad.value.key == "table.bad_options"


async def test_european_options_reach_the_engine(db: Database) -> None:
    tables, table, _ = await setup_table(
        db, Clock(), [], options={"deal": "european", "hit_soft_17": True}, packs=2
    )
    rules = (await tables.snapshot(table)).state.engine.game.rules
    assert (rules.deal, rules.hit_soft_17, rules.packs, rules.max_hands) == (
        "european",
        True,
        2,
        3,
    )


async def _set_shoe_position(tables: TableService, table: int, position: int) -> None:
    """Move the live shoe on, as if that many cards had been dealt (the next action starts
    from the saved state, and saves it)."""
    snapshot = await tables.snapshot(table)
    snapshot.state.engine.current_shoe().position = position
    snapshot.saved = snapshot.state.model_dump_json()
