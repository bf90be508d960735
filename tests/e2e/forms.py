"""Every form (modal) the bot opens at a table, and the fields each carries back (issue 29,
item 3): the forged-forms test submits each of them altered, and the button bursts check
that every form a button opened is one of these."""

from __future__ import annotations

COMMON = ("join", "contest", "gseat", "gpot")  # every table's: buy-in, contest, GM's
GAME = {
    "blackjack": ("bet",),
    "chemin_de_fer": ("bank:{moves}", "stake:{round}"),
    "deux_tableaux": (
        "bid:{round}",
        "stake:both:{round}",
        "stake:right:{round}",
        "stake:left:{round}",
    ),
    "holdem": ("raise:{moves}",),
    "macao": ("wager:own", "wager:banker", "wager:tie"),
    "makao": (),
    "michigan": (),
    "punto_banco": ("bets", "bet:player", "bet:banker", "bet:tie"),
}
GM_FORMS = {"gseat", "gpot"}
# The fields a form carries back, and a value it accepts (the rest carry one amount).
FIELDS: dict[str, dict[str, str | list[str]]] = {
    "bets": {"on": ["player"], "amount": "10"},
    "gseat": {"character": "James Bond", "amount": "10"},
}
AMOUNT_ONLY: dict[str, str | list[str]] = {"amount": "10"}


def form_name(custom: str) -> str:
    """A table form's id without the state it was drawn in: `stake:both` for
    `bb:tbl:1:stake:both:3`."""
    action, *args = custom.split(":")[3:]
    return ":".join([action, *(arg for arg in args if not arg.isdigit())])


def known() -> set[str]:
    """Every table form's name (`form_name`)."""
    names = set(COMMON)
    for forms in GAME.values():
        names.update(form.split(":{")[0] for form in forms)
    return names
