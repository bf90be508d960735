"""bench/faults/clicks.py's button kinds (what one effect of each is, and how many one intent
should have), a burst's row, and the report of them all."""

from __future__ import annotations

import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run from a checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "load"))  # load_bot, load_fake

from load_common import print_table
from scripted_users import CLEAR, GENERIC_ERROR, NO_ANSWER, Answer

VERDICTS = (CLEAR, GENERIC_ERROR, NO_ANSWER)


# Every button kind: what one effect is in the database, and how many one intent should have
# (none for a button that only shows something).
KINDS: dict[str, tuple[str, int]] = {
    "table: My seat (opens the join modal)": ("buy-ins (ledger rows)", 0),
    "table: Join (modal submit)": ("buy-ins (ledger rows)", 1),
    "table: My seat (his seat panel)": ("table state saves", 0),
    "table: Simulate": ("simulate awards (ledger rows)", 1),
    "table: Rulebook": ("table state saves", 1),
    "table: Contest (shows the pending one)": ("table state saves", 0),
    "table: Contest +1 step": ("Hero Points spent (ledger rows)", 1),
    "table: Contest settle": ("table state saves", 1),
    "table: Leave": ("cash-outs (ledger rows)", 1),
    "punto banco: Bet (modal submit)": ("wagers held, in stakes", 1),
    "punto banco: Deal": ("coups dealt", 1),
    "punto banco: Spend a Hero Point": ("Hero Points spent (ledger rows)", 1),
    "punto banco: Same again": ("wagers held, in stakes", 1),
    "blackjack: Bet (modal submit)": ("bets held, in stakes", 1),
    "blackjack: Deal": ("rounds dealt", 1),
    "blackjack: Insurance": ("insurances held, in half stakes", 1),
    "blackjack: No insurance": ("refusals in the round's log", 1),
    "blackjack: Hint": ("table state saves", 0),
    "blackjack: Split": ("hands added", 1),
    "blackjack: Stand": ("stands in the round's log", 1),
    "blackjack: Double": ("doubles in the round's log", 1),
    "blackjack: Hit": ("hits in the round's log", 1),
    "blackjack: Spend a Hero Point": ("Hero Points spent (ledger rows)", 1),
    "blackjack: Surrender": ("surrenders in the round's log", 1),
    "pot: My roll": ("table state saves", 0),
    "pot: +1 step": ("Hero Points spent (ledger rows)", 1),
    "pot: Settle pot": ("table state saves", 1),
    "gm: Ledger page (Older)": ("ledger rows written", 0),
    "gm: Ledger page (Newer)": ("ledger rows written", 0),
    "gm: Give it again (confirm)": ("grants (ledger rows)", 1),
    "gm: No, once is enough": ("grants (ledger rows)", 0),
    "roll: Spend a Hero Point (step)": ("Hero Points spent (ledger rows)", 1),
    "sheet: Delete (confirm)": ("characters deleted", 1),
    "sheet: Keep it": ("characters deleted", 0),
}


@dataclass
class Row:
    """One button kind's burst: its answers and the effects counted in the database."""

    kind: str
    clicks: int
    effects: int
    verdicts: Counter[str]
    told: Counter[str]  # the answers' gist

    @property
    def expected(self) -> int:
        return KINDS[self.kind][1]

    @property
    def ok(self) -> bool:
        clear = self.verdicts[CLEAR] == self.clicks
        return self.effects == self.expected and clear and self.clicks > 0


def gist(answer: Answer) -> str:
    """What a click was told, without its particulars: `Wager placed`, `Something went…`."""
    if answer.result is None or not answer.acked:
        return answer.verdict
    if answer.modal is not None:
        return "the amount modal"
    if not answer.content:
        if answer.result.response_type == 7:
            return "the message redrawn"
        shown = answer.result.message
        return "a private panel" if shown is not None and shown.embeds else "(no text)"
    return re.split(r"[:;.(!]", answer.content, maxsplit=1)[0][:60]


def report(rows: list[Row], failures: list[str], clicks: int) -> bool:
    table = [["button kind", "clicks", "effects", "expected", "one effect is", *VERDICTS]]
    measured = {row.kind: row for row in rows}
    for kind, (counted, expected) in KINDS.items():
        row = measured.get(kind)
        if row is None:
            table.append([kind, "—", "not measured", str(expected), counted, "—", "—", "—"])
            continue
        table.append(
            [
                kind,
                str(row.clicks),
                str(row.effects),
                str(expected),
                counted,
                *(str(row.verdicts[v]) for v in VERDICTS),
            ]
        )
    print(f"BondBot clicks: {clicks} simultaneous clicks (same custom id, same user) per kind")
    print()
    print_table(table)
    print()
    print("what the clicks were told:")
    for row in sorted(rows, key=lambda row: list(KINDS).index(row.kind)):
        told = "; ".join(f"{text} ×{n}" for text, n in row.told.most_common())
        print(f"  {row.kind}: {told}")
    for failure in failures:
        print(f"not measured: {failure}")
    ok = len(rows) == len(KINDS) and all(row.ok for row in rows)
    wrong = [row.kind for row in rows if not row.ok]
    print()
    print(
        f"{'PASS' if ok else 'FAIL'}  one effect per intent (none for a view) and only clear"
        f" answers on every button kind{': not on ' + ', '.join(wrong) if wrong else ''}"
    )
    return ok
