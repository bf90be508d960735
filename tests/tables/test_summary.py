"""The evening's summary from ledger rows: results, Hero Points, hands won back, the biggest
hand and the series, for bets that settle at once and for pots built over several actions."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bondbot.games.registry import all_games
from bondbot.i18n import Lang, t
from bondbot.money import format_amount
from bondbot.pictures.chart import evening_chart, npc_style
from bondbot.storage.ledger import LedgerEntry
from bondbot.tables.summary import (
    BiggestHand,
    WonBack,
    evening,
    evening_text,
    hand_phrase,
    hand_results,
    hand_word,
    leaders,
)

TABLE = 7
BANK = f"bank:{TABLE}"
BOND, VESPER, LEITER = 21, 22, 23
GM = 1


def chips(pc: int) -> str:
    return f"chips:{TABLE}:{pc}"


def sheet(pc: int) -> str:
    return f"sheet:{pc}"


Move = tuple[int, str | None, str | None, str]  # amount, src, dst, reason


@dataclass
class Ledger:
    """Rows as the table writes them: one action's rows share its time and actor."""

    rows: list[LedgerEntry] = field(default_factory=list)
    second: int = 0

    def action(self, *moves: Move, actor: int | None = GM, hero: bool = False) -> None:
        self.second += 1
        at = f"2026-11-21T20:{self.second // 60:02d}:{self.second % 60:02d}.000+00:00"
        for amount, src, dst, reason in moves:
            self.rows.append(
                LedgerEntry(
                    len(self.rows) + 1,
                    1000,
                    "hero" if hero else "cash",
                    amount,
                    src,
                    dst,
                    reason,
                    TABLE,
                    actor,
                    None,
                    at,
                )
            )

    def buy_in(self, pc: int, amount: int) -> None:
        self.action((amount, sheet(pc), chips(pc), "table.buy_in"), actor=pc)

    def cash_out(self, pc: int, amount: int) -> None:
        self.action((amount, chips(pc), sheet(pc), "table.cash_out"), actor=pc)


def test_wagers_a_hero_point_and_the_close() -> None:
    book = Ledger()
    book.action((1_000_000, None, BANK, "table.bankroll"))
    book.buy_in(BOND, 20_000)
    book.buy_in(VESPER, 10_000)
    book.action((2, None, sheet(BOND), "award.simulate"), actor=BOND, hero=True)
    book.action(
        (5_000, chips(BOND), BANK, "baccarat.loss"), (1_900, BANK, chips(VESPER), "baccarat.win")
    )
    book.action((1, sheet(BOND), None, "spend.win_hand"), actor=BOND, hero=True)
    book.action((10_000, BANK, chips(BOND), "spend.win_hand"), actor=BOND)
    book.action((3_000, BANK, chips(BOND), "baccarat.win"))
    book.action(
        (28_000, chips(BOND), sheet(BOND), "table.cash_out"),
        (11_900, chips(VESPER), sheet(VESPER), "table.cash_out"),
        (980_100, BANK, None, "table.bank_close"),
    )
    summary = evening(book.rows, TABLE)
    bond, vesper = summary.pcs
    assert (bond.character_id, bond.net, bond.won_back) == (BOND, 8_000, 10_000)
    assert (bond.hero_earned, bond.hero_spent, bond.hands_won_back) == (2, 1, 1)
    assert (vesper.character_id, vesper.net, vesper.hero_earned) == (VESPER, 1_900, 0)
    assert summary.hands == 2
    assert summary.biggest == BiggestHand(BOND, 3_000)  # the won-back hand was a loss
    assert summary.series == [
        (0, {BOND: 0, VESPER: 0}),
        (1, {BOND: 5_000, VESPER: 1_900}),  # the spend after hand 1 shows at hand 1
        (2, {BOND: 8_000, VESPER: 1_900}),
    ]


def test_a_pot_built_over_several_actions_is_one_hand() -> None:
    book = Ledger()
    book.buy_in(BOND, 10_000)
    book.action((100, chips(BOND), f"pot:{TABLE}:main", "holdem.bet"), actor=BOND)
    book.action((100, BANK, f"pot:{TABLE}:main", "holdem.bet"), actor=None)
    book.action((300, chips(BOND), f"pot:{TABLE}:main", "holdem.bet"), actor=BOND)
    book.action((300, BANK, f"pot:{TABLE}:main", "holdem.bet"), actor=None)
    book.action((800, f"pot:{TABLE}:main", chips(BOND), "holdem.pot"), actor=None)
    book.action((50, chips(BOND), f"pot:{TABLE}:main", "holdem.bet"), actor=BOND)
    book.action((150, f"pot:{TABLE}:main", BANK, "holdem.pot"), actor=None)
    summary = evening(book.rows, TABLE)
    assert summary.hands == 2
    assert summary.biggest == BiggestHand(BOND, 400)  # 800 taken, 400 of it his own
    assert summary.pcs[0].net == 350
    assert [values for _, values in summary.series] == [{BOND: 0}, {BOND: 400}, {BOND: 350}]


def test_actions_at_the_same_moment_by_different_people_are_apart() -> None:
    book = Ledger()
    book.buy_in(BOND, 10_000)
    book.action((500, chips(BOND), BANK, "contest.loss"), actor=BOND)
    book.second -= 1  # the next action in the same millisecond, by the GM
    book.action((700, BANK, chips(BOND), "contest.win"), actor=GM)
    summary = evening(book.rows, TABLE)
    assert summary.hands == 2
    assert summary.biggest == BiggestHand(BOND, 700)


def test_pcs_come_and_go_along_the_series() -> None:
    book = Ledger()
    book.buy_in(BOND, 10_000)
    book.action((1_000, BANK, chips(BOND), "blackjack.win"))
    book.buy_in(LEITER, 5_000)
    book.action((1_000, chips(LEITER), BANK, "blackjack.loss"))
    book.cash_out(BOND, 11_000)
    book.action((2_000, BANK, chips(LEITER), "blackjack.win"))
    summary = evening(book.rows, TABLE)
    assert summary.series == [
        (0, {BOND: 0}),
        (1, {BOND: 1_000, LEITER: 0}),  # Leiter sat down after hand 1
        (2, {BOND: 1_000, LEITER: -1_000}),  # Bond left after hand 2
        (3, {LEITER: 1_000}),
    ]
    names = {BOND: "James Bond", LEITER: "Felix Leiter"}
    assert summary.chart_points(names)[-1] == (3, {"Felix Leiter": 1_000})


def test_a_rulebook_pot_counts_when_paid_even_to_a_pc_who_left() -> None:
    book = Ledger()
    book.buy_in(VESPER, 5_000)
    book.action((1_000, chips(VESPER), BANK, "pot.stake"), (1_000, None, BANK, "pot.npc_stake"))
    book.cash_out(VESPER, 4_000)
    book.action((2_000, BANK, sheet(VESPER), "pot.win"))
    summary = evening(book.rows, TABLE)
    assert (summary.hands, summary.pcs[0].net) == (1, 1_000)
    assert summary.biggest == BiggestHand(VESPER, 1_000)  # her stake back and the NPC's


def test_a_quiet_evening() -> None:
    book = Ledger()
    book.buy_in(BOND, 1_000)
    book.cash_out(BOND, 1_000)
    summary = evening(book.rows, TABLE)
    assert (summary.hands, summary.biggest, summary.pcs[0].net) == (0, None, 0)
    assert summary.series == [(0, {BOND: 0})]


@dataclass
class Model:
    """What happened, told independently of the rows: each PC's sheet and chips."""

    cash: dict[int, int]
    chips: dict[int, int] = field(default_factory=dict)
    hands: list[dict[int, int]] = field(default_factory=list)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([BOND, VESPER, LEITER]),
            st.integers(-3_000, 3_000),
            st.booleans(),
        ),
        max_size=40,
    )
)
def test_results_add_up_to_what_the_sheets_gained(plays: list[tuple[int, int, bool]]) -> None:
    """Each play: a PC (seated with 10,000 if he is not) wins or loses at a hand, and, on a
    loss, may win it back. Everyone cashes out at the end: each PC's result is what his
    sheet gained, the biggest hand is the best single result, and the series ends there."""
    book = Ledger()
    model = Model(cash={pc: 0 for pc in (BOND, VESPER, LEITER)})
    for pc, result, spend in plays:
        if pc not in model.chips:
            book.buy_in(pc, 10_000)
            model.chips[pc] = 10_000
        result = max(result, -model.chips[pc])
        if result > 0:
            book.action((result, BANK, chips(pc), "blackjack.win"))
        elif result < 0:
            book.action((-result, chips(pc), BANK, "blackjack.loss"))
        else:
            continue  # a push writes nothing
        model.chips[pc] += result
        model.hands.append({pc: result})
        if result < 0 and spend:
            book.action((1, sheet(pc), None, "spend.win_hand"), actor=pc, hero=True)
            book.action((-2 * result, BANK, chips(pc), "spend.win_hand"), actor=pc)
            model.chips[pc] += -2 * result
    for pc, held in list(model.chips.items()):
        if held:
            book.cash_out(pc, held)
        model.cash[pc] += held - 10_000
    summary = evening(book.rows, TABLE)
    assert {p.character_id: p.net for p in summary.pcs} == {
        pc: model.cash[pc] for pc in model.chips
    }
    assert summary.hands == len(model.hands)
    best = max((won for hand in model.hands for won in hand.values() if won > 0), default=0)
    assert (summary.biggest.won if summary.biggest else 0) == best
    last = summary.series[-1][1]
    assert all(last[pc] == model.cash[pc] for pc in last)
    assert sorted(summary.pcs, key=lambda p: -p.net) == summary.pcs


def test_the_text_names_everyone_in_both_languages_and_fits_an_embed() -> None:
    book = Ledger()
    book.buy_in(BOND, 10_000)
    book.action((2_500, BANK, chips(BOND), "baccarat.win"))
    summary = evening(book.rows, TABLE)
    names = {BOND: "James Bond"}
    english = evening_text(summary, names, "en", format_amount, hands_played=3, npc="Le Chiffre")
    assert "🥇 **James Bond**: +$25" in english and "won $25" in english
    assert "Le Chiffre leaves $25 lighter." in english
    assert "Hands played: 3." in english
    assert "Hero Points" not in english  # he neither earned nor spent one: no line of zeros
    french = evening_text(summary, names, "fr", lambda c: format_amount(c, "€"), npc="Le Chiffre")
    assert "🥇 **James Bond** : +€25" in french and "Mains jouées" not in french
    assert "Le Chiffre repart allégé de €25." in french

    crowd = Ledger()
    for pc in range(100, 140):
        crowd.buy_in(pc, 1_000)
    text = evening_text(
        evening(crowd.rows, TABLE), {pc: "N" * 64 for pc in range(100, 140)}, "fr", format_amount
    )
    assert len(text) <= 4096 and "…et 20 autres." in text


# -- hands as the table counts them (rows noted "hand N") ---------------------------------


@dataclass
class Noted(Ledger):
    """Rows as a table writes them today: each noted with the table's hand."""

    hand: int = 0

    def action(self, *moves: Move, actor: int | None = GM, hero: bool = False) -> None:
        first = len(self.rows)
        super().action(*moves, actor=actor, hero=hero)
        for index in range(first, len(self.rows)):
            self.rows[index] = replace(self.rows[index], note=f"hand {self.hand}")


def michigan_night() -> Noted:
    """Two rounds of Michigan: pay cards paid lead by lead (several actions a round),
    then the round's end; a round 2 where Bond went out first and Vesper spent a Hero
    Point on it; round 3 dealt and closed with nothing moved."""
    book = Noted()
    book.buy_in(BOND, 5_000)
    book.buy_in(VESPER, 5_000)
    book.action((2, None, sheet(VESPER), "award.simulate"), actor=VESPER, hero=True)
    book.hand = 1
    book.action(
        (400, chips(BOND), f"layout:{TABLE}:ace", "michigan.ante"),
        (400, chips(VESPER), f"layout:{TABLE}:ace", "michigan.ante"),
        (400, BANK, f"layout:{TABLE}:ace", "michigan.ante"),
    )
    book.action((600, f"layout:{TABLE}:ace", chips(BOND), "michigan.pay_card"))
    book.action((600, f"layout:{TABLE}:ace", BANK, "michigan.pay_card"))
    book.action(
        (300, chips(VESPER), BANK, "michigan.out"), (200, chips(BOND), BANK, "michigan.out")
    )
    book.hand = 2
    book.action(
        (500, chips(VESPER), chips(BOND), "michigan.out"), (700, BANK, chips(BOND), "michigan.out")
    )
    book.action((1, sheet(VESPER), None, "spend.win_hand"), actor=VESPER, hero=True)
    book.action((500, BANK, chips(VESPER), "spend.win_hand"), actor=VESPER)
    book.hand = 3
    book.cash_out(BOND, 5_000 - 400 + 600 - 200 + 500 + 700)
    book.cash_out(VESPER, 5_000 - 400 - 300 - 500 + 500)
    return book


def test_the_series_counts_the_tables_hands_not_its_payments() -> None:
    summary = evening(michigan_night().rows, TABLE, hands_played=3)
    assert summary.hands == 3  # three rounds dealt: four payments in round 1 are one hand
    assert [hand for hand, _ in summary.series] == [0, 1, 2, 3]
    assert summary.series[1][1] == {BOND: 0, VESPER: -700}
    assert summary.series[2][1] == {BOND: 1_200, VESPER: -700}  # her spend shows at hand 2
    assert summary.series[3][1] == {BOND: 1_200, VESPER: -700}
    assert summary.npc_series == [0, 700, -500, -500]
    assert summary.npc_net == -500 == -sum(p.net for p in summary.pcs)
    assert summary.won_backs == [WonBack(VESPER, 2, 500)]
    assert summary.biggest == BiggestHand(BOND, 1_200) and summary.biggest.hand == 2
    # The history lists the hands that moved chips, by the table's numbers.
    assert [hand for hand, _ in hand_results(summary)] == [1, 2]


def test_the_npc_line_and_the_hero_point_marks_are_in_the_chart() -> None:
    summary = evening(michigan_night().rows, TABLE, hands_played=3)
    spec = summary.chart({BOND: "James Bond", VESPER: "Vesper Lynd"}, "Le Chiffre")
    assert [hand for hand, _ in spec.points] == list(range(summary.hands + 1))
    assert [values["Le Chiffre"] for _, values in spec.points] == [0, 700, -500, -500]
    assert spec.styles["Le Chiffre"] == npc_style()
    assert list(spec.marks) == [("Vesper Lynd", 2)]
    png = evening_chart(spec, title="Soirée", mark_label="Point d'Héroïsme")
    assert png.startswith(b"\x89PNG")


def test_two_pcs_with_the_same_results_both_stay_visible() -> None:
    book = Noted()
    for pc in (BOND, VESPER, LEITER):
        book.buy_in(pc, 10_000)
    for hand, won in enumerate((1_000, -500, 2_000), start=1):
        book.hand = hand
        book.action(
            *[
                (abs(won), BANK, chips(pc), "blackjack.win")
                if won > 0
                else (-won, chips(pc), BANK, "blackjack.loss")
                for pc in (BOND, VESPER)
            ],
            (300, chips(LEITER), BANK, "blackjack.loss"),
        )
    summary = evening(book.rows, TABLE)
    names = {BOND: "James Bond", VESPER: "Vesper Lynd", LEITER: "Felix Leiter"}
    spec = summary.chart(names, "Le Chiffre")
    bond, vesper = spec.styles["James Bond"], spec.styles["Vesper Lynd"]
    assert [v["James Bond"] for _, v in spec.points] == [v["Vesper Lynd"] for _, v in spec.points]
    # Drawn one over the other they would hide: each has its own marker and dash, and
    # they sit apart; a line that does not coincide keeps its place.
    assert bond.marker != vesper.marker and bond.dash != vesper.dash
    assert bond.offset != vesper.offset
    assert spec.styles["Felix Leiter"].offset == 0
    assert len({s.colour for s in spec.styles.values()}) == len(spec.styles)


def test_a_podium_shares_a_place_on_a_tie_and_tells_the_hero_points() -> None:
    book = Noted()
    for pc in (BOND, VESPER, LEITER):
        book.buy_in(pc, 10_000)
    book.action((2, None, sheet(LEITER), "award.simulate"), actor=LEITER, hero=True)
    book.hand = 1
    book.action(
        (500, BANK, chips(BOND), "blackjack.win"),
        (500, BANK, chips(VESPER), "blackjack.win"),
        (800, chips(LEITER), BANK, "blackjack.loss"),
    )
    book.action((1, sheet(LEITER), None, "spend.win_hand"), actor=LEITER, hero=True)
    book.action((1_600, BANK, chips(LEITER), "spend.win_hand"), actor=LEITER)
    summary = evening(book.rows, TABLE)
    names = {BOND: "James Bond", VESPER: "Vesper Lynd", LEITER: "Felix Leiter"}
    text = evening_text(summary, names, "en", format_amount, npc="Le Chiffre", winner=True)
    assert text.splitlines()[:5] == [
        "Winner: **Felix Leiter**",
        "🥇 **Felix Leiter**: +$8 · Hero Points: 2 earned, 1 spent",
        "🥈 **James Bond**: +$5",
        "🥈 **Vesper Lynd**: +$5",
        "Le Chiffre leaves $18 lighter.",
    ]
    assert "**Felix Leiter** spent a Hero Point and won back hand 1 ($16)." in text
    assert "won back: 0" not in text


# -- one reading of who won (issue 34: the winner, the podium and the moments agree) ----


def test_the_winner_is_the_best_result_not_the_most_chips() -> None:
    """Macao, buy-ins 300/200/200: Bond holds the most chips at the end, Mathis won the
    most. The winner line names Mathis, the podium's first, in both languages."""
    book = Noted()
    book.buy_in(BOND, 30_000)
    book.buy_in(VESPER, 20_000)
    book.buy_in(LEITER, 20_000)
    book.hand = 1
    book.action(
        (12_000, BANK, chips(BOND), "macao.win"),
        (14_000, BANK, chips(LEITER), "macao.win"),
        (2_000, BANK, chips(VESPER), "macao.win"),
    )
    summary = evening(book.rows, TABLE, hands_played=6)
    names = {BOND: "James Bond", VESPER: "Vesper Lynd", LEITER: "René Mathis"}
    english = evening_text(summary, names, "en", format_amount, winner=True, game="macao")
    assert english.splitlines()[:2] == ["Winner: **René Mathis**", "🥇 **René Mathis**: +$140"]
    french = evening_text(summary, names, "fr", format_amount, winner=True, game="macao")
    assert french.splitlines()[:2] == ["Vainqueur : **René Mathis**", "🥇 **René Mathis** : +$140"]
    assert leaders(summary) == [LEITER]


def test_a_tie_for_the_best_result_is_said_as_a_tie() -> None:
    book = Noted()
    for pc in (BOND, VESPER, LEITER):
        book.buy_in(pc, 10_000)
    book.hand = 1
    book.action(
        (500, BANK, chips(BOND), "macao.win"),
        (500, BANK, chips(VESPER), "macao.win"),
        (300, chips(LEITER), BANK, "macao.loss"),
    )
    summary = evening(book.rows, TABLE)
    names = {BOND: "James Bond", VESPER: "Vesper Lynd", LEITER: "Felix Leiter"}
    text = evening_text(summary, names, "en", format_amount, winner=True, game="macao")
    assert text.splitlines()[:4] == [
        "Winners (tied): **James Bond**, **Vesper Lynd**",
        "🥇 **James Bond**: +$5",
        "🥇 **Vesper Lynd**: +$5",
        "🥉 **Felix Leiter**: -$3",
    ]
    french = evening_text(summary, names, "fr", format_amount, winner=True, game="macao")
    assert french.startswith("Vainqueurs ex æquo : **James Bond**, **Vesper Lynd**\n")


def test_nobody_moved_no_winner_no_podium_no_won_back_nothing() -> None:
    """Makao closed after 6 of 13 deals: the pot went back, every PC is even. A Hero
    Point spent on a missed bid paid nothing yet: it is told without "($0)"."""
    book = Noted()
    for pc in (BOND, VESPER, LEITER):
        book.buy_in(pc, 10_000)
    book.action((2, None, sheet(VESPER), "award.simulate"), actor=VESPER, hero=True)
    book.hand = 1
    book.action(
        *[(1_000, chips(pc), f"pot:{TABLE}:cycle", "makao.stake") for pc in (BOND, VESPER, LEITER)]
    )
    book.action((1, sheet(VESPER), None, "spend.win_hand"), actor=VESPER, hero=True)
    book.hand = 6
    book.action(
        *[
            (1_000, f"pot:{TABLE}:cycle", chips(pc), "makao.stake_back")
            for pc in (BOND, VESPER, LEITER)
        ]
    )
    summary = evening(book.rows, TABLE, hands_played=6)
    assert [p.net for p in summary.pcs] == [0, 0, 0] and leaders(summary) == []
    assert summary.biggest is None  # a stake given back is no win
    names = {BOND: "James Bond", VESPER: "Vesper Lynd", LEITER: "Felix Leiter"}
    for lang in ("en", "fr"):
        text = evening_text(summary, names, lang, format_amount, winner=True, game="makao")
        assert "Winner" not in text and "Vainqueur" not in text
        assert not any(medal in text for medal in ("🥇", "🥈", "🥉")), text
        assert "$0" not in text and "0 $" not in text
        assert all(name in text for name in names.values())
    english = evening_text(summary, names, "en", format_amount, winner=True, game="makao")
    assert "**James Bond**: even" in english
    assert "**Vesper Lynd** spent a Hero Point and won back deal 1." in english
    french = evening_text(summary, names, "fr", format_amount, winner=True, game="makao")
    assert "**Vesper Lynd** a dépensé un Point d'Héroïsme et regagné la donne 1." in french


def test_a_duel_before_the_first_hand_names_no_hand_0() -> None:
    book = Noted()
    book.buy_in(BOND, 10_000)
    book.action((700, BANK, chips(BOND), "contest.win"), actor=GM)  # noted "hand 0"
    book.hand = 1
    book.action((200, BANK, chips(BOND), "baccarat.win"))
    summary = evening(book.rows, TABLE)
    assert summary.biggest == BiggestHand(BOND, 700)
    names = {BOND: "James Bond"}
    english = evening_text(summary, names, "en", format_amount, game="punto_banco")
    assert "Biggest win: **James Bond** won $7." in english
    french = evening_text(summary, names, "fr", format_amount, game="punto_banco")
    assert "Plus gros gain : **James Bond** a gagné $7." in french
    assert not re.search(r"\b(hand|main|coup) 0\b", english + french)


def test_hero_points_agree_with_their_count_in_french() -> None:
    book = Noted()
    for pc in (BOND, VESPER):
        book.buy_in(pc, 10_000)
    book.action((1, None, sheet(BOND), "award.simulate"), actor=BOND, hero=True)
    book.action((2, None, sheet(VESPER), "award.simulate"), actor=VESPER, hero=True)
    book.hand = 1
    book.action((1, sheet(VESPER), None, "spend.win_hand"), actor=VESPER, hero=True)
    book.action((100, BANK, chips(VESPER), "spend.win_hand"), actor=VESPER)
    summary = evening(book.rows, TABLE)
    names = {BOND: "James Bond", VESPER: "Vesper Lynd"}
    french = evening_text(summary, names, "fr", format_amount)
    assert "**James Bond** : à l'équilibre · Points d'Héroïsme : 1 gagné, 0 dépensé" in french
    assert "**Vesper Lynd** : +$1 · Points d'Héroïsme : 2 gagnés, 1 dépensé" in french
    english = evening_text(summary, names, "en", format_amount)
    assert "Hero Points: 1 earned, 0 spent" in english


# -- each game's own word for its hands ------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("game", [spec.key for spec in all_games()])
def test_the_summary_names_hands_as_the_table_does(game: str, lang: Lang) -> None:
    """The word of the table's hand picture ("Coup 3", "Donne 3", "Round 3") is the
    summary's: the biggest win at hand 3, the hand won back, the hands played, and the
    chart's title."""
    word = t(f"games.result_heading.{game}", lang, hand=3).split()[0].lower()
    book = Noted()
    book.buy_in(BOND, 10_000)
    book.hand = 1
    book.action((800, chips(BOND), BANK, f"{game}.loss"))
    book.action((1, sheet(BOND), None, "spend.win_hand"), actor=BOND, hero=True)
    book.action((1_600, BANK, chips(BOND), "spend.win_hand"), actor=BOND)
    book.hand = 3
    book.action((2_000, BANK, chips(BOND), f"{game}.win"))
    summary = evening(book.rows, TABLE, hands_played=4)
    text = evening_text(
        summary, {BOND: "James Bond"}, lang, format_amount, hands_played=4, game=game
    )
    moments = text.split("\n\n")[1].lower()
    assert f" {word} 3." in moments.splitlines()[1]  # the biggest win
    assert f" {word} 1 (" in moments.splitlines()[2]  # won back
    played = text.split("\n\n")[-1]
    assert played.lower().startswith(word) and played.endswith(" 4.")
    others = {"hand", "main", "coup", "round", "tour", "deal", "donne"} - {word}
    assert not any(re.search(rf"\b{other}s?\b", text.lower()) for other in others), text
    title = hand_phrase("chart_title", game, lang)
    assert re.search(rf"\b{word}\b", title.lower()) and not any(
        re.search(rf"\b{other}\b", title.lower()) for other in others
    )


def test_a_game_without_a_word_of_its_own_says_hand() -> None:
    assert hand_word(None, "en") == hand_word("no_such_game", "fr") == "hand"
    assert hand_phrase("played", "no_such_game", "fr", count=2) == "Mains jouées : 2."


def test_a_pot_staked_at_the_first_deal_is_won_net_of_the_stake_at_the_last() -> None:
    """Makao's cycle pot: staked with deal 1, paid with deal 13. The deal that pays it
    is the winner's biggest win, by what he gained on the cycle, as the podium says."""
    book = Noted()
    for pc in (BOND, VESPER):
        book.buy_in(pc, 10_000)
    book.hand = 1
    book.action(*[(1_000, chips(pc), f"pot:{TABLE}:makao", "makao.stake") for pc in (BOND, VESPER)])
    book.hand = 13
    book.action((2_000, f"pot:{TABLE}:makao", chips(VESPER), "makao.pot"))
    summary = evening(book.rows, TABLE)
    assert summary.biggest == BiggestHand(VESPER, 1_000, 13)
    assert [(p.character_id, p.net) for p in summary.pcs] == [(VESPER, 1_000), (BOND, -1_000)]
