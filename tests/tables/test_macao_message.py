"""What the Macao table tells: the GM's outlook at open, a PC banker's private note when a
player's third card lets him draw, and the public line naming that card."""

from __future__ import annotations

from macao_table import live_engine, seeds
from table_helpers import BOND_OWNER, GM, VESPER_OWNER, Clock, open_table

from bondbot.bot.tables.message import table_embed
from bondbot.games.contract import Move
from bondbot.games.macao.counting import Counting, hand_total
from bondbot.games.macao.engine import Macao, MacaoRules, Phase
from bondbot.games.macao.odds import bank_expectation
from bondbot.games.macao.ui import UI, expectation_text
from bondbot.rules.cards import cards_pretty
from bondbot.storage.db import Database

NPC, BOND, VESPER = "1", "2", "3"


def test_the_gm_is_told_what_the_bank_may_expect_in_his_language() -> None:
    rules = MacaoRules()
    english = expectation_text(rules, 1, bank_expectation(Counting.MINUS9, 1, 8), "en")
    assert "(minus 9, 1 pack (2 from 6 hands), a tie pays 8:1)" in english
    assert "• a wager on his own hand: the bank loses 1.13%" in english
    assert "• a wager on the banker's hand: the bank wins 1.13%" in english
    assert "• a wager on a tie: the bank wins 17.31%" in english
    assert "takes about **83.92%** of every stake from the bank" in english
    french = expectation_text(rules, 1, bank_expectation(Counting.MINUS9, 1, 8), "fr")
    assert "• une mise sur sa propre main : la banque perd 1,13\u00a0%" in french
    assert "environ **83,92\u00a0%** de chaque mise" in french
    # Under `bust` the own-hand wager is the bank's, and a rotating bank is each banker's.
    bust = MacaoRules(counting=Counting.BUST, packs=2, bank="rotate")
    text = expectation_text(bust, 2, bank_expectation(Counting.BUST, 2, 8), "en")
    assert "(bust, 2 packs, a tie pays 8:1)" in text
    assert "own hand: the bank wins 9.23%" in text
    assert text.endswith("The bank rotates: each banker in turn may expect this.")
    one = MacaoRules(packs=1)
    assert "(minus 9, 1 pack, a tie pays 8:1)" in expectation_text(
        one, 1, bank_expectation(Counting.MINUS9, 1, 8), "en"
    )
    assert "(moins 9, 1 jeu, l'égalité paie 8 contre 1)" in expectation_text(
        one, 1, bank_expectation(Counting.MINUS9, 1, 8), "fr"
    )


def allowed_banker(seed: bytes) -> bool:
    """Bond banks coup 2; Vesper draws a third card that lets his 3 to 6 draw."""
    engine = live_engine(seed, NPC, [BOND, VESPER], bank="rotate")
    moves = [Move(kind="deal"), *(Move(kind="pass", seat=seat) for seat in (BOND, VESPER))]
    moves += [
        Move(kind="deal"),
        Move(kind="wager", seat=VESPER, amount=1_000, target="own"),
        Move(kind="pass", seat=NPC),
        Move(kind="draw", seat=VESPER),
    ]
    for move in moves:
        if not engine.can(move):
            return False
        engine.apply(move)
        while (step := engine.automation()) is not None:
            engine.apply(step)
    return engine.phase is Phase.BANKER and engine.banker_allowance() is not None


async def test_a_pc_banker_sees_which_third_card_lets_him_draw(db: Database) -> None:
    clock = Clock()
    tables, table, ids = await open_table(
        db, clock, [next(seeds(allowed_banker))], game="macao", options={"bank": "rotate"}
    )
    for owner, key in ((BOND_OWNER, "bond"), (VESPER_OWNER, "vesper")):
        await tables.join(table, owner, ids[key], 20_000)
        await tables.choose(table, owner, "simulate")
    await tables.set_npc_auto(table, GM, False)  # the GM passes for the NPC
    await tables.act(table, GM, "deal", as_gm=True)  # the NPC banks coup 1: all pass
    for owner in (BOND_OWNER, VESPER_OWNER):
        await tables.act(table, owner, "pass")
    await tables.act(table, GM, "deal", as_gm=True)  # Bond banks coup 2
    await tables.act(table, VESPER_OWNER, "wager", amount=1_000, target="own")
    await tables.act(table, GM, "pass", as_gm=True, for_npc=True)
    waiting = await tables.act(table, VESPER_OWNER, "draw")
    engine = waiting.state.engine
    assert isinstance(engine, Macao) and engine.turn() == (BOND,)
    third = engine.players[0].cards[2]
    note = UI.hand_note(waiting, BOND, "en")
    assert note is not None and note.endswith(
        f"Vesper Lynd's third card {third.pretty} lets the banker draw."
    )
    # Vesper, who has played, is told her total only (her first two cards stay private).
    total = hand_total(engine.players[0].cards, Counting.MINUS9)
    assert UI.hand_note(waiting, VESPER, "en") == f"Total **{total}** (minus 9)."
    seats = {f.name: f.value for f in table_embed(waiting, "en", "$", clock.now).fields}
    assert "**James Bond** (<@11>) · $200 · simulates — banks · ▶ to draw" in seats["Players"]

    drawn = await tables.act(table, BOND_OWNER, "draw")
    story = {f.name: f.value for f in table_embed(drawn, "en", "$", clock.now).fields}["Coup 2"]
    bank = drawn.state.engine.bank_cards
    assert (
        f"James Bond (banker) draws {bank[2].pretty}, allowed by Vesper Lynd's third card "
        f"{third.pretty}." in story
    )
    assert f"Banker James Bond: {cards_pretty(bank)}" in story


def stand_only(seed: bytes) -> bool:
    """The NPC banks coup 1; Bond wagers, Vesper passes; no natural, and Bond's two cards
    make more than a player may draw on: standing is all he may do."""
    engine = live_engine(seed, NPC, [BOND, VESPER])
    moves = [
        Move(kind="deal"),
        Move(kind="wager", seat=BOND, amount=1_000, target="own"),
        Move(kind="pass", seat=VESPER),
    ]
    for move in moves:
        if not engine.can(move):
            return False
        engine.apply(move)
        while (step := engine.automation()) is not None:
            engine.apply(step)
    kinds = {option.kind for option in engine.options() if option.seat == BOND}
    return engine.phase is Phase.DRAWS and engine.actor == BOND and kinds == {"stand"}


async def test_a_player_who_may_only_stand_is_not_told_to_draw(db: Database) -> None:
    """Issue 34: "▶ to draw" on his seat line when Stand is all he is offered."""
    clock = Clock()
    tables, table, ids = await open_table(db, clock, [next(seeds(stand_only))], game="macao")
    for owner, key in ((BOND_OWNER, "bond"), (VESPER_OWNER, "vesper")):
        await tables.join(table, owner, ids[key], 20_000)
        await tables.choose(table, owner, "simulate")
    await tables.act(table, GM, "deal", as_gm=True)  # the NPC banks
    await tables.act(table, BOND_OWNER, "wager", amount=1_000, target="own")
    waiting = await tables.act(table, VESPER_OWNER, "pass")
    assert waiting.state.engine.turn() == (BOND,)
    for lang, players, told, not_told in (
        ("en", "Players", "▶ to stand", "to draw"),
        ("fr", "Joueurs", "▶ à lui de rester", "tirer"),
    ):
        seats = {f.name: f.value for f in table_embed(waiting, lang, "$", clock.now).fields}
        bond = next(line for line in seats[players].split("\n") if "James Bond" in line)
        assert told in bond and not_told not in bond, bond
