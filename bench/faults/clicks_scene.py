"""bench/faults/clicks.py's scene: the users in four channels, each button kind's burst of
simultaneous clicks where a player finds the button, and the effects counted in the database."""

from __future__ import annotations

import asyncio
import sys
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run from a checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "load"))  # load_bot, load_fake

from clicks_report import Row, gist
from load_common import DEADLINE_S, BotProcess
from load_fake import FakeChannel, FakeMessage, InteractionResult
from scripted_users import (
    Answer,
    Cast,
    Player,
    Users,
    buttons,
    has_button,
    reading,
    scalar,
    table_messages,
    until,
)

from bondbot.games.blackjack.engine import BlackjackEngine
from bondbot.games.punto_banco.engine import PuntoBanco
from bondbot.rules.blackjack import Blackjack, Phase
from bondbot.tables.state import TableState

STAKE = 5_000  # cents: every bet and contest is $50
SETTLE_S = 0.5  # after a burst's answers, for anything still on its way to the database
BJ = ("Wai Lin", "Jinx Johnson", "Tiffany Case")  # seat order at the stacked blackjack table
PB = ("James Bond", "Felix Leiter", "René Mathis")  # two simulate, the last the rulebook
POT = ("Honey Ryder", "Tracy di Vicenzo")

Measure = Callable[[], Awaitable[int]]


def cid(table: int, action: str, *args: object) -> str:
    return ":".join(["bb", "tbl", str(table), action, *map(str, args)])


class Scene:
    """The scene's users, the bursts they send and the rows they measured."""

    def __init__(self, users: Users, cast: Cast, bot: BotProcess, clicks: int) -> None:
        self.users, self.cast, self.bot, self.clicks = users, cast, bot, clicks
        self.database = bot.database
        self.fake = users.fake
        self.lost_errors: set[int] = set()  # the bot's error lines about answers lost on purpose
        self.rows: list[Row] = []

    def player(self, name: str) -> Player:
        return self.cast.players[name]

    # -- bursts and what they did ----------------------------------------------------------

    async def burst(
        self,
        kind: str,
        user: Any,
        target: FakeMessage | InteractionResult | None,
        custom_id: str | None = None,
        *,
        values: dict[str, Any] | None = None,
        measure: Measure,
    ) -> list[Answer]:
        """`clicks` identical clicks (or modal submits, with `values`) sent at once."""
        if target is None:
            raise RuntimeError(f"{kind}: nothing to click")

        def start() -> Awaitable[InteractionResult]:
            if values is not None:
                assert isinstance(target, InteractionResult)
                return self.fake.submit_modal(user, target, values, _wait=False)
            return self.fake.click(user, target, custom_id, _wait=False)

        before = await measure()
        answers = await asyncio.gather(*(self.users.send(kind, start) for _ in range(self.clicks)))
        await asyncio.sleep(SETTLE_S)
        effects = await measure() - before
        self.rows.append(
            Row(
                kind,
                len(answers),
                effects,
                Counter(a.verdict for a in answers),
                Counter(gist(a) for a in answers),
            )
        )
        return list(answers)

    async def rows_of(self, reason: str, account: str | None = None) -> int:
        sql, params = "SELECT COUNT(*) FROM ledger WHERE reason = ?", [reason]
        if account is not None:
            sql += " AND ? IN (src, dst)"
            params.append(account)
        return int(await scalar(self.database, sql, tuple(params)))

    def ledger(self, reason: str, account: str | None = None) -> Measure:
        return lambda: self.rows_of(reason, account)

    def count(self, sql: str) -> Measure:
        return lambda: scalar(self.database, sql)

    async def state(self, table: int) -> tuple[int, TableState]:
        async with reading(self.database) as conn:
            rows = list(
                await conn.execute_fetchall(
                    "SELECT version, state FROM card_tables WHERE id = ?", (table,)
                )
            )
        return rows[0][0], TableState.model_validate_json(rows[0][1])

    def saves(self, table: int) -> Measure:
        async def measure() -> int:
            return (await self.state(table))[0]

        return measure

    def of_state(self, table: int, read: Callable[[TableState], int]) -> Measure:
        async def measure() -> int:
            return read((await self.state(table))[1])

        return measure

    # -- single clicks and waits -----------------------------------------------------------

    async def amount(
        self, label: str, user: Any, msg: Any, custom_id: str, amount: str, **more: Any
    ) -> Answer:
        """A button that opens the amount modal, and the modal's submit (one each)."""
        opened = await self.users.click(f"{label} button", user, msg, custom_id)
        if opened.modal is None or opened.result is None:
            return opened
        return await self.users.submit(label, user, opened.result, {"amount": amount, **more})

    async def panel(self, user: Any, channel: FakeChannel, table: int, custom: str) -> Any:
        """A seated player's private panel (My seat on the table) once it shows `custom`;
        the GM's (the GM button) when `user` is the GM. The answer's message to click on."""
        button = "gm" if user is self.cast.gm else "seat"
        for _ in range(10):
            msg = await self.table_message(channel, cid(table, button))
            shown = await self.users.click(f"{button} panel", user, msg, cid(table, button))
            if shown.result is not None and has_button(shown.result.message, custom):
                return shown.result
            await asyncio.sleep(0.2)
        raise RuntimeError(f"no {custom} in the {button} panel")

    async def table_message(self, channel: FakeChannel, button: str | None = None) -> Any:
        """The channel's table message once it shows `button` (enabled), else None."""

        def shown() -> FakeMessage | None:
            msg = next((m for m in table_messages(self.fake, channel) if m.components), None)
            return msg if msg is not None and (button is None or has_button(msg, button)) else None

        return await until(shown, 5.0)

    async def open_table(self, channel: FakeChannel, game: str, npc: str, **more: str) -> int:
        await self.users.slash(
            "open",
            self.cast.gm,
            f"table open {game}",
            channel,
            npc=npc,
            minimum="10",
            maximum="500",
            bankroll="20000",
            **more,
        )
        msg = await self.table_message(channel)
        if msg is None:
            raise RuntimeError(f"#{channel.name}: no table message")
        return int(next(b for b in buttons(msg))["custom_id"].split(":")[2])

    async def sit(self, table: int, channel: FakeChannel, name: str, choice: str | None) -> Answer:
        """My seat (the buy-in form), its submit, and the choice under the join's answer."""
        user = self.player(name).user
        msg = await self.table_message(channel, cid(table, "seat"))
        joined = await self.amount("join", user, msg, cid(table, "seat"), "2000")
        if choice is not None:
            await self.users.click(choice, user, joined.result, cid(table, "choose", choice))
        return joined

    async def wait_state(self, table: int, ok: Callable[[TableState], bool]) -> TableState | None:
        async def check() -> TableState | None:
            state = (await self.state(table))[1]
            return state if ok(state) else None

        for _ in range(50):
            if (found := await check()) is not None:
                return found
            await asyncio.sleep(0.1)
        return None

    # -- the blackjack table (first: its shoe is the stacked one) --------------------------

    async def blackjack(self) -> None:
        channel = self.cast.channels["blackjack"]
        table = await self.open_table(channel, "blackjack", "Kananga")
        d, e, f = (self.player(name) for name in BJ)
        gm = self.cast.gm
        msg = await self.table_message(channel, cid(table, "seat"))
        bought = self.ledger("table.buy_in", f"chips:{table}:{d.character_id}")
        modals = await self.burst(
            "table: My seat (opens the join modal)",
            d.user,
            msg,
            cid(table, "seat"),
            measure=bought,
        )
        joins = await self.burst(
            "table: Join (modal submit)",
            d.user,
            next((a.result for a in modals if a.modal is not None), None),
            values={"amount": "2000"},
            measure=bought,
        )
        simulate = cid(table, "choose", "simulate")  # under the join's private answer
        await self.burst(
            "table: Simulate",
            d.user,
            next(
                (a.result for a in joins if a.result and has_button(a.result.message, simulate)),
                None,
            ),
            simulate,
            measure=self.ledger("award.simulate", f"sheet:{d.character_id}"),
        )
        for player in (e, f):
            await self.sit(table, channel, player.name, "simulate")
        msg = await self.table_message(channel, cid(table, "bet"))
        opened = await self.users.click("bet button", d.user, msg, cid(table, "bet"))
        await self.burst(
            "blackjack: Bet (modal submit)",
            d.user,
            opened.result,
            values={"amount": "50"},
            measure=self.of_state(table, lambda s: _bet(s, d) // STAKE),
        )
        for player in (e, f):
            await self.amount("bet", player.user, msg, cid(table, "bet"), "50")
        msg = await self.table_message(channel, cid(table, "deal"))  # drawn once a bet is in
        await self.burst(
            "blackjack: Deal",
            gm,
            msg,
            cid(table, "deal"),
            measure=self.of_state(table, lambda s: s.hand_no),
        )
        msg = await self.table_message(channel, cid(table, "insure"))
        if msg is None:
            raise RuntimeError("the stacked deal did not come: no insurance offered")
        await self.burst(
            "blackjack: Insurance",
            d.user,
            msg,
            cid(table, "insure"),
            measure=self.of_state(
                table, lambda s: _game(s).insurance(str(d.character_id)) // (STAKE // 2)
            ),
        )
        await self.burst(
            "blackjack: No insurance",
            e.user,
            msg,
            cid(table, "noinsure"),
            measure=self.logged(table, "no_insurance", e),
        )
        await self.users.click("no insurance", f.user, msg, cid(table, "noinsure"))
        await self.play(table, channel, "Hint", d, measure=self.saves(table), button="hint")
        await self.play(table, channel, "Split", d, measure=self.of_state(table, _hands(d)))
        await self.play(table, channel, "Stand", d, measure=self.logged(table, "stand", d))
        await self.play(table, channel, "stand", d)  # his second hand
        await self.play(table, channel, "Double", e, measure=self.logged(table, "double", e))
        await self.play(table, channel, "Hit", f, measure=self.logged(table, "hit", f))
        state = await self.wait_state(table, lambda s: _game(s).phase is Phase.SETTLED)
        if state is None:
            await self.play(table, channel, "stand", f)
            state = await self.wait_state(table, lambda s: _game(s).phase is Phase.SETTLED)
        if state is None:
            raise RuntimeError("the first blackjack round did not settle")
        await self.spend("blackjack", table, channel, e, state)
        msg = await self.table_message(channel, cid(table, "bet"))
        await self.amount("bet", d.user, msg, cid(table, "bet"), "50")
        msg = await self.table_message(channel, cid(table, "deal"))
        await self.users.click("deal", gm, msg, cid(table, "deal"))
        await self.play(table, channel, "Surrender", d, measure=self.logged(table, "surrender", d))

    async def play(
        self,
        table: int,
        channel: FakeChannel,
        action: str,
        player: Player,
        *,
        measure: Measure | None = None,
        button: str | None = None,
    ) -> None:
        """A blackjack play button (drawn with the move count), clicked once, or in a burst
        when there is something to measure: hit, stand and double on the table; the hint,
        split and surrender in the player's seat panel (My seat)."""
        state = await self.wait_state(
            table, lambda s: _game(s).current() is not None and _turn(s) == player.character_id
        )
        if state is None:
            raise RuntimeError(f"blackjack: not {player.name}'s turn for {action}")
        custom = cid(table, button or action.lower(), *([] if button else [state.moves]))
        if (button or action.lower()) in ("hint", "split", "surrender"):
            msg = await self.panel(player.user, channel, table, custom)
        else:
            msg = await self.table_message(channel, custom)
        if msg is None:
            raise RuntimeError(f"blackjack: no {custom} button")
        if measure is None:
            await self.users.click(action, player.user, msg, custom)
        else:
            await self.burst(f"blackjack: {action}", player.user, msg, custom, measure=measure)

    def logged(self, table: int, kind: str, player: Player) -> Measure:
        """How many times the round's log tells this seat's `kind` of move."""
        seat = str(player.character_id)
        return self.of_state(
            table,
            lambda s: sum(
                e.kind == kind and e.seat == seat for e in _engine(s, BlackjackEngine).log
            ),
        )

    async def spend(
        self, game: str, table: int, channel: FakeChannel, player: Player, state: TableState
    ) -> bool:
        """The table's Spend a Hero Point button for `player`'s lost hand, in a burst (with
        several lost hands, it answers a pick: one click, then the pick's button in a burst);
        False without one."""
        offers = [o for o in state.offers if o.character_id == player.character_id and not o.spent]
        msg = None if not offers else await self.table_message(channel, cid(table, "hp"))
        if not offers or msg is None:
            return False
        target, custom = msg, cid(table, "hp")
        if len(offers) > 1:
            picked = await self.users.click("spend pick", player.user, msg, custom)
            target, custom = picked.result, cid(table, "spend", offers[0].id)
        await self.burst(
            f"{game}: Spend a Hero Point",
            player.user,
            target,
            custom,
            measure=self.ledger("spend.win_hand", f"sheet:{player.character_id}"),
        )
        return True

    # -- the punto banco table -------------------------------------------------------------

    async def punto_banco(self) -> None:
        channel = self.cast.channels["punto-banco"]
        table = await self.open_table(channel, "punto_banco", "Le Chiffre")
        a, b, c = (self.player(name) for name in PB)
        gm = self.cast.gm
        await self.sit(table, channel, a.name, "simulate")
        await self.sit(table, channel, b.name, "simulate")
        joined = await self.sit(table, channel, c.name, None)
        await self.burst(  # the choice under his join's private answer
            "table: Rulebook",
            c.user,
            joined.result,
            cid(table, "choose", "rulebook"),
            measure=self.saves(table),
        )
        msg = await self.table_message(channel, cid(table, "bets"))
        opened = await self.users.click("bet button", a.user, msg, cid(table, "bets"))
        await self.burst(
            "punto banco: Bet (modal submit)",
            a.user,
            opened.result,
            values={"on": ["player"], "amount": "50"},
            measure=self.of_state(table, lambda s: _wager(s, a) // STAKE),
        )
        await self.amount("bet", b.user, msg, cid(table, "bets"), "50", on=["banker"])
        msg = await self.table_message(channel, cid(table, "deal"))  # drawn once a wager is in
        await self.burst(
            "punto banco: Deal",
            gm,
            msg,
            cid(table, "deal"),
            measure=self.of_state(table, lambda s: s.hand_no),
        )
        for _ in range(12):  # coups until one of them loses one (a tie pushes both)
            _, state = await self.state(table)
            loser = next(
                (
                    p
                    for p in (a, b)
                    if any(o.character_id == p.character_id and not o.spent for o in state.offers)
                ),
                None,
            )
            if loser is not None and await self.spend("punto banco", table, channel, loser, state):
                break
            for player in (a, b):  # Same again, in his seat panel
                panel = await self.panel(player.user, channel, table, cid(table, "again"))
                await self.users.click("same again", player.user, panel, cid(table, "again"))
            msg = await self.table_message(channel, cid(table, "deal"))
            await self.users.click("deal", gm, msg, cid(table, "deal"))
        msg = await self.table_message(channel, cid(table, "seat"))
        panels = await self.burst(
            "table: My seat (his seat panel)",
            a.user,
            msg,
            cid(table, "seat"),
            measure=self.saves(table),
        )
        again = cid(table, "again")
        await self.burst(
            "punto banco: Same again",
            a.user,
            next(
                (p.result for p in panels if p.result and has_button(p.result.message, again)), None
            ),
            again,
            measure=self.of_state(table, lambda s: _wager(s, a) // STAKE),
        )
        await self.contest(table, channel, c)
        panel = await self.panel(a.user, channel, table, cid(table, "leave"))
        await self.burst(
            "table: Leave",
            a.user,
            panel,
            cid(table, "leave"),
            measure=self.ledger("table.cash_out", f"sheet:{a.character_id}"),
        )

    async def contest(self, table: int, channel: FakeChannel, player: Player) -> None:
        """Rulebook contests (Contest, in his seat panel) until one can be bettered: its
        step, then its settle, in bursts."""
        for _ in range(10):
            msg = await self.panel(player.user, channel, table, cid(table, "contest"))
            shown = await self.amount("contest", player.user, msg, cid(table, "contest"), "50")
            step, settle = shown.button(":cstep:"), shown.button(":csettle:")
            if settle is None:
                raise RuntimeError(f"contest: no roll shown ({shown.verdict}: {shown.content!r})")
            if step is not None and not step.get("disabled"):
                msg = await self.panel(player.user, channel, table, cid(table, "contest"))
                await self.burst(
                    "table: Contest (shows the pending one)",
                    player.user,
                    msg,
                    cid(table, "contest"),
                    measure=self.saves(table),
                )
                await self.burst(
                    "table: Contest +1 step",
                    player.user,
                    shown.result,
                    step["custom_id"],
                    measure=self.ledger("spend.contest_step", f"sheet:{player.character_id}"),
                )
                await self.burst(
                    "table: Contest settle",
                    player.user,
                    shown.result,
                    settle["custom_id"],
                    measure=self.saves(table),
                )
                return
            await self.users.click("settle", player.user, shown.result, settle["custom_id"])

    # -- the rulebook-only table: the pot ---------------------------------------------------

    async def pot(self) -> None:
        channel = self.cast.channels["pot"]
        table = await self.open_table(channel, "punto_banco", "Blofeld", other_npcs="Oddjob")
        gm = self.cast.gm
        players = [self.player(name) for name in POT]
        for player in players:
            await self.sit(table, channel, player.name, None)
        for attempt in range(10):
            await self.users.slash("pot", gm, "table pot", channel, stake="50")
            msg = await self.table_message(channel, cid(table, "proll"))
            if msg is None:
                raise RuntimeError("pot: no My roll button")
            for player in players:
                if attempt == 0 and player is players[0]:
                    answers = await self.burst(
                        "pot: My roll",
                        player.user,
                        msg,
                        cid(table, "proll"),
                        measure=self.saves(table),
                    )
                    shown = next((a for a in answers if a.button(":pstep:")), answers[0])
                else:
                    shown = await self.users.click("my roll", player.user, msg, cid(table, "proll"))
                step = shown.button(":pstep:")
                if step is not None and not step.get("disabled"):
                    await self.burst(
                        "pot: +1 step",
                        player.user,
                        shown.result,
                        step["custom_id"],
                        measure=self.ledger("spend.contest_step", f"sheet:{player.character_id}"),
                    )
                    panel = await self.panel(gm, channel, table, cid(table, "psettle"))
                    await self.burst(  # in the GM's panel
                        "pot: Settle pot",
                        gm,
                        panel,
                        cid(table, "psettle"),
                        measure=self.saves(table),
                    )
                    return
            panel = await self.panel(gm, channel, table, cid(table, "psettle"))
            await self.users.click("settle pot", gm, panel, cid(table, "psettle"))

    # -- the lounge: the GM's ledger and repeated grant, a roll, a deleted sheet ------------

    async def lounge(self) -> None:
        channel = self.cast.channels["lounge"]
        gm = self.cast.gm
        bond, felix = self.player(PB[0]), self.player(PB[1])
        rows = self.count("SELECT COUNT(*) FROM ledger")
        shown = await self.users.slash("ledger", gm, "gm ledger", channel)
        for kind, end in (("gm: Ledger page (Older)", ":n"), ("gm: Ledger page (Newer)", ":p")):
            page = next(
                (
                    b
                    for b in _buttons(shown)
                    if b["custom_id"].endswith(end) and not b.get("disabled")
                ),
                None,
            )
            if page is None:
                raise RuntimeError(f"gm ledger: no {kind} button")
            await self.burst(kind, gm, shown.result, page["custom_id"], measure=rows)
        grants = self.ledger("gm.grant", f"sheet:{bond.character_id}")
        for kind, button, reason in (
            ("gm: Give it again (confirm)", "bb:gm:again:", "Saved M"),
            ("gm: No, once is enough", "bb:gm:once:", "Saved Moneypenny"),
        ):
            grant = {"character": bond.name, "action": "give", "amount": 1, "reason": reason}
            await self.lost_answer(gm, "gm hero", channel, **grant)
            asked = await self.users.slash("grant again", gm, "gm hero", channel, **grant)
            choice = asked.button(button)
            if choice is None:
                raise RuntimeError(f"gm hero retried: not asked again ({asked.content!r})")
            await self.burst(kind, gm, asked.result, choice["custom_id"], measure=grants)
        for _ in range(10):  # rolls until one can be bettered
            rolled = await self.users.slash("roll", bond.user, "roll", channel, skill="gambling")
            step = rolled.button("bb:roll:step:")
            if step is not None:
                await self.burst(
                    "roll: Spend a Hero Point (step)",
                    bond.user,
                    rolled.result,
                    step["custom_id"],
                    measure=self.ledger("roll.step", f"sheet:{bond.character_id}"),
                )
                break
        deleted = self.count("SELECT COUNT(*) FROM characters WHERE alive = 0")
        for kind, button, name in (
            ("sheet: Keep it", "bb:sheet:keep:", "Mary Goodnight"),
            ("sheet: Delete (confirm)", "bb:sheet:del:", "Strawberry Fields"),
        ):
            await self.users.slash("create", felix.user, "sheet create", channel, name=name)
            asked = await self.users.slash(
                "delete", felix.user, "sheet delete", channel, character=name
            )
            choice = asked.button(button)
            if choice is None:
                raise RuntimeError(f"sheet delete: no confirmation ({asked.content!r})")
            await self.burst(kind, felix.user, asked.result, choice["custom_id"], measure=deleted)

    async def lost_answer(self, user: Any, path: str, channel: FakeChannel, **options: Any) -> None:
        """Run a command whose answer Discord refuses as too late (its effect stays, unseen):
        what a retry after a crash or a slow answer looks like to the bot."""
        fake = self.fake
        logged = len(self.bot.log_errors())
        fake.interaction_deadline = 0.0
        try:
            result = await fake.slash(user, path, _channel=channel, _wait=False, **options)
            await until(lambda: len(result.interaction.attempts) >= 2, 5.0)
        finally:
            fake.interaction_deadline = DEADLINE_S
        await asyncio.sleep(0.2)  # for the bot's log of the two refused answers
        self.lost_errors |= set(range(logged, len(self.bot.log_errors())))


def _engine(state: TableState, kind: type[Any]) -> Any:
    engine = state.engine
    assert isinstance(engine, kind)
    return engine


def _game(state: TableState) -> Blackjack:
    return _engine(state, BlackjackEngine).game


def _bet(state: TableState, player: Player) -> int:
    game, seat = _game(state), str(player.character_id)
    return game.bet(seat) if seat in game.seats else 0


def _hands(player: Player) -> Callable[[TableState], int]:
    return lambda state: len(_game(state).hands(str(player.character_id)))


def _turn(state: TableState) -> int | None:
    current = _game(state).current()
    return None if current is None else int(current[0])


def _wager(state: TableState, player: Player) -> int:
    wager = _engine(state, PuntoBanco).wagers.get(str(player.character_id))
    return 0 if wager is None else wager.amount


def _buttons(answer: Answer) -> list[dict[str, Any]]:
    message = None if answer.result is None else answer.result.message
    return list(buttons(message))
