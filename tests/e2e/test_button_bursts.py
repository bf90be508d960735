"""Twenty identical clicks of any table button are one click (issue 29, item 1).

The button walk (`tests/tables/test_table_buttons.py`: a table played by random legal
moves, `table_helpers.random_move`) is run through the fake Discord in every game. At each
step the table message, each player's seat panel (My seat) and the GM's panel are drawn,
and a button id they show is clicked twenty times by whoever may click it: ten at once,
and ten more at once as soon as the first is answered, so that clicks come both before and
after the first one's effect (twenty that all arrive before any effect cannot show a
toggle). Buttons not yet tried go first (a button of one moment, the first bank's Start,
before the others, then the rarest met), so the walk tries every kind of button it meets;
it goes on past STEPS while one met is untried. Each burst must have one effect at most:
the table saved at most once, at most one answer that is not a refusal (a read-only
answer, a panel or a form, may be given to all twenty), no answer that something went
wrong and nothing logged as an error. The walk then goes on with a random legal move.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from e2e_env import BotEnv
from fakediscord import FakeDiscord
from forms import form_name, known
from table_flow import create_cast, le_chiffre, table_message

from bondbot.games.registry import all_games, spec_for
from bondbot.i18n import LANGS, catalog, t
from bondbot.local.client import MODAL, InteractionResult
from bondbot.local.models import FakeMessage, FakeUser
from bondbot.tables.service import TableService, TableSnapshot

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tables"))
from table_helpers import random_move

BURST = 20
STEPS = 30
MAX_STEPS = 120  # only a walk with a button met and still untried goes past STEPS
FRESH = 10  # bursts of buttons not yet tried, at most, in a step
GAMES = sorted(spec.key for spec in all_games())
OPEN: dict[str, dict[str, str]] = {
    "blackjack": {"minimum": "10", "maximum": "500"},
    "chemin_de_fer": {"minimum": "10", "maximum": "500", "bankroll": "100000"},
    "deux_tableaux": {"minimum": "10", "maximum": "500", "bankroll": "100000"},
    "holdem": {"minimum": "50", "maximum": "500", "big_blind": "10"},
    "macao": {"minimum": "10", "maximum": "500", "bankroll": "100000"},
    "makao": {"minimum": "10", "maximum": "100", "stake": "10"},
    "michigan": {"minimum": "10", "maximum": "100", "chip": "2"},
    "punto_banco": {"minimum": "10", "maximum": "500"},
}
# Arguments that say what a button does, not which state it was drawn in (a move count, a
# hand number): a burst of each is tried.
DIRECTED = {"gpause", "npc", "gclose"}
# Buttons of one moment (the first bank, the insurance, the bank's Keep, a hand's deal, Makao's
# Leave before the cycle starts):
# tried first when met, before a move of the walk ends that moment.
MOMENTS = {"start", "insure", "noinsure", "keep", "newhand", "deal", "wager", "auction", "leave"}
CHOSEN = {"card", "lead"}  # a card or suit picked among those in hand: one kind of button
NOT_BURST = {"gclose"}  # its confirmation is tested with item 3 (test_forged_forms.py)
LAST = {"end"}  # ending the evening (Macao, Makao, Michigan): burst once the walk is done
SOURCE = Path(__file__).resolve().parents[2] / "bondbot"
REFUSING = re.compile(r"(?:Refusal|IllegalAction)\(")
KEY = re.compile(r"""f?["']([a-z_]+\.[\w.{}]+)["']""")


def refusal_texts() -> list[re.Pattern[str]]:
    """Every message a refusal can answer, in both languages, as a pattern (its parameters
    stand for anything): the keys every `Refusal`/`IllegalAction` of the code names."""
    keys: set[str] = set()
    for path in SOURCE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for call in REFUSING.finditer(text):  # its key, or the keys of a conditional
            depth, end = 1, call.end()
            while depth and end < len(text):
                depth += {"(": 1, ")": -1}.get(text[end], 0)
                end += 1
            keys.update(KEY.findall(text[call.end() : end]))
    found = []
    for lang in LANGS:
        words = catalog(lang)
        for key in keys:
            wanted = re.compile(re.sub(r"\\\{[^}]*\\\}", ".+", re.escape(key)) + "$")
            for name, text in words.items():
                if name == key or ("{" in key and wanted.match(name)):
                    pattern = re.sub(r"\\\{[^}]*\\\}", "(?s:.*)", re.escape(text))
                    found.append(re.compile(pattern + "$"))
    return found


REFUSALS = refusal_texts()
INTERNAL = {t("errors.internal", lang) for lang in LANGS}


def refused(answer: InteractionResult) -> bool:
    text = answer.content or ""
    return (
        answer.response_type != MODAL
        and not answer.embeds
        and any(pattern.match(text) for pattern in REFUSALS)
    )


def kind_of(answer: InteractionResult) -> str:
    """What an answer is, to compare answers: a form, or what it shows."""
    if answer.response_type == MODAL:
        return f"form {answer.modal.custom_id if answer.modal else ''}"
    return f"{answer.response_type} {answer.content!r} {answer.embeds!r} {answer.custom_ids()}"


def signature(custom: str) -> str:
    """What a button does, without the state it was drawn in (its move count, hand…)."""
    action, *args = custom.split(":")[3:]
    if action in CHOSEN:
        return action
    kept = [arg for arg in args if action in DIRECTED or not arg.isdigit()]
    return ":".join([action, *kept])


class Walk:
    def __init__(self, env: BotEnv, tables: TableService, game: str, seed: int) -> None:
        self.env, self.fake, self.world = env, env.fake, env.world
        self.tables, self.game = tables, game
        self.rng = random.Random(seed)
        self.players = [self.world.player, self.world.player_fr]
        self.table = 0
        self.tried: Counter[str] = Counter()
        self.seen: Counter[str] = Counter()  # how often each kind of button was met
        self.faults: list[str] = []  # every burst that had more than one effect
        self.forms: set[str] = set()  # the forms the bursts opened

    async def snapshot(self) -> TableSnapshot:
        return await self.tables.snapshot(self.table)

    def user_of(self, snapshot: TableSnapshot, seat: str | None) -> FakeUser:
        """Who clicks for a seat: its player, or the GM for the NPC and the table."""
        for player in self.players:
            mine = snapshot.state.seat_of_user(player.id)
            if mine is not None and str(mine.character_id) == seat:
                return player
        return self.world.gm

    async def sit_down(self) -> None:
        """Seat every player without a seat (as at the start, or after Leave), simulating."""
        snapshot = await self.snapshot()
        state = snapshot.state
        least = state.engine.least_stack()
        config = state.config
        buy_in = config.max_bet if spec_for(self.game).buy_in_limits else 4 * max(least, 1)
        buy_in = max(buy_in, least)
        for player in self.players:
            if snapshot.state.seat_of_user(player.id) is not None:
                continue
            form = await self.fake.click(player, table_message(self.fake), self.table_id("seat"))
            if form.modal is None:
                continue
            joined = await self.fake.submit_modal(player, form, {"amount": f"{buy_in // 100}"})
            if "simulate" in " ".join(joined.custom_ids()):
                await self.fake.click(player, joined, f"bb:tbl:{self.table}:choose:simulate")
            snapshot = await self.snapshot()

    def table_id(self, action: str) -> str:
        return f"bb:tbl:{self.table}:{action}"

    async def surfaces(self, last: bool = False) -> list[tuple[FakeUser | None, Any, str, str]]:
        """Every button the table message, each seat panel and the GM panel show now:
        (who sees it, where, its id, its label); None: the public table message."""
        message = table_message(self.fake)
        found: list[tuple[FakeUser | None, Any, str, str]] = [
            (None, message, c["custom_id"], c.get("label", "")) for c in message.buttons()
        ]
        snapshot = await self.snapshot()
        for player in self.players:
            if snapshot.state.seat_of_user(player.id) is None:
                continue
            panel = await self.fake.click(player, message, self.table_id("seat"))
            found += [(player, panel, c["custom_id"], c.get("label", "")) for c in panel.buttons()]
        panel = await self.fake.click(self.world.gm, message, self.table_id("gm"))
        found += [
            (self.world.gm, panel, c["custom_id"], c.get("label", "")) for c in panel.buttons()
        ]
        return [
            entry
            for entry in found
            if (action := signature(entry[2]).split(":")[0]) not in NOT_BURST
            and (action in LAST) == last
        ]

    async def finish(self) -> None:
        """The buttons that end the evening, burst last (each only when it is shown)."""
        snapshot = await self.snapshot()
        for viewer, where, custom, label in await self.surfaces(last=True):
            await self.burst(viewer or self.clicker(snapshot, label, custom), where, custom)
            return

    def clicker(self, snapshot: TableSnapshot, label: str, custom: str) -> FakeUser:
        """Who clicks a button of the table message: the GM's, the GM; a move, one of those
        the game waits on (the GM for the NPC); anything else, a player."""
        if "(GM)" in label or signature(custom) in ("deal", "start", "close", "newhand"):
            return self.world.gm
        waiting = sorted(snapshot.state.engine.turn())
        if waiting:
            return self.user_of(snapshot, self.rng.choice(waiting))
        seated = [p for p in self.players if snapshot.state.seat_of_user(p.id) is not None]
        return self.rng.choice(seated or self.players)

    async def burst(self, user: FakeUser, where: Any, custom: str) -> list[InteractionResult]:
        """Twenty identical clicks at once; the table saved once at most, one effect."""
        before = (await self.snapshot()).version
        # Half at once, the other half at once as soon as the first is answered: clicks
        # that came before the first one's effect, and clicks that come after it.
        first = [
            asyncio.ensure_future(self.fake.click_forged(user, where, custom))
            for _ in range(BURST // 2)
        ]
        await asyncio.wait(first, return_when=asyncio.FIRST_COMPLETED)
        second = [self.fake.click_forged(user, where, custom) for _ in range(BURST - len(first))]
        answers = [*await asyncio.gather(*first), *await asyncio.gather(*second)]
        after = (await self.snapshot()).version
        what = f"{self.game}: {BURST} x {custom} by {user.name}"
        contents = dict(Counter(kind_of(a) for a in answers))
        effects = [a for a in answers if not refused(a)]
        if INTERNAL & {a.content for a in answers}:
            self.faults.append(f"{what}: went wrong {contents}")
        elif after - before > 1:
            self.faults.append(f"{what}: saved {after - before} times {contents}")
        elif after > before and len(effects) != 1:
            self.faults.append(f"{what}: saved once, {len(effects)} answers of effect {contents}")
        elif after == before and len({kind_of(a) for a in effects}) > 1:
            self.faults.append(f"{what}: no change, answered differently {contents}")
        self.tried[signature(custom)] += 1
        self.forms.update(form_name(a.modal.custom_id) for a in answers if a.modal is not None)
        return answers

    async def submit(self, user: FakeUser, form: InteractionResult) -> None:
        """Fill a form the burst opened with the least it takes (its hint's first amount)."""
        modal = form.modal
        assert modal is not None
        if set(modal.field_ids) - {"amount", "on"}:
            return  # the GM's seating form: tested with the forms (item 3)
        hint = modal.field("amount").get("placeholder") or ""
        digits = re.search(r"\d[\d,. \u202f\u00a0]*", hint)
        amount = re.sub(r"[^\d]", "", digits.group(0).rstrip(",. ")) if digits else "10"
        if digits and re.search(r"[.,]\d\d$", digits.group(0).rstrip()):
            amount = amount[:-2] or "0"
        values: dict[str, Any] = {"amount": amount}
        if "on" in modal.field_ids:
            options = modal.field("on").get("options", [])
            values["on"] = [self.rng.choice(options)["value"]]
        await self.fake.submit_modal(user, form, values)

    async def step(self) -> None:
        await self.sit_down()
        start = (await self.snapshot()).version
        for _ in range(FRESH):  # the buttons not tried yet first, as long as there are
            snapshot = await self.snapshot()
            shown = await self.surfaces()
            self.seen.update({signature(entry[2]) for entry in shown})
            # The least tried, and of those the rarest met: a button of one moment (the
            # first bank's Start) before one the walk meets at every step.
            rank = {
                sig: (self.tried[sig], sig.split(":")[0] not in MOMENTS, self.seen[sig])
                for sig in {signature(entry[2]) for entry in shown}
            }
            least = min(rank.values(), default=(0, False, 0))
            fresh = [entry for entry in shown if rank[signature(entry[2])] == least]
            viewer, where, custom, label = self.rng.choice(fresh)
            user = viewer or self.clicker(snapshot, label, custom)
            answers = await self.burst(user, where, custom)
            if answers[0].response_type == MODAL and self.rng.random() < 0.8:
                await self.submit(user, answers[0])
            if least[0] > 0:
                break
        if (await self.snapshot()).version != start:
            return
        # Nothing changed: the walk's random legal move, or time passing.
        move = random_move(await self.snapshot(), self.rng)
        if move is None or self.rng.random() < 0.1:
            self.env.clock.advance(3601)
            await self.tables.run_due()
            return
        option, amount, target = move
        snapshot = await self.snapshot()
        by = self.user_of(snapshot, option.seat)
        try:
            await self.tables.act(
                self.table,
                by.id,
                option.kind,
                amount=amount,
                target=target,
                as_gm=by is self.world.gm,
                for_npc=option.seat == snapshot.state.npc_key,
            )
        except Exception as error:  # a refusal: the walk goes on
            if not hasattr(error, "key") and not hasattr(error, "code"):
                raise


async def wait_table_message(fake: FakeDiscord) -> FakeMessage:
    await fake.wait_until(
        lambda: any(c.endswith(":gm") for m in fake.channel_messages() for c in m.custom_ids()),
        what="the table message",
    )
    return table_message(fake)


@pytest.mark.parametrize("game", GAMES)
async def test_twenty_identical_clicks_of_any_button_are_one_click(
    bot_env: BotEnv, game: str, caplog: pytest.LogCaptureFixture
) -> None:
    fake, world = bot_env.fake, bot_env.world
    rich = {"cash": 10_000_000, "hero_points": 3, "skills": {"gambling": 8}, "kind": "PC"}
    await create_cast(
        bot_env,
        {
            "npc": le_chiffre(),
            "bond": {"name": "James Bond", "owner_id": world.player.id, **rich},
            "mathis": {"name": "René Mathis", "owner_id": world.player_fr.id, **rich},
        },
        {"bond": world.player, "mathis": world.player_fr},
    )
    caplog.set_level(logging.ERROR, logger="bondbot")
    async with bot_env.run() as bot:
        await bot.services.guilds.update(
            world.guild.id, gm_role_id=world.gm_role.id, turn_timer_s=3600, spend_window_s=3600
        )
        await fake.slash(world.gm, f"table open {game}", npc="Le Chiffre", **OPEN[game])
        message = await wait_table_message(fake)
        walk = Walk(bot_env, bot.services.tables, game, GAMES.index(game) + 1)
        walk.table = int(message.custom_ids()[0].split(":")[2])
        for step in range(MAX_STEPS):  # STEPS, and more while a button met is untried
            await walk.step()
            if step >= STEPS and all(walk.tried[sig] for sig in walk.seen):
                break
        await walk.finish()
        # The fake records an answer as it receives it: let the last burst's requests end
        # before it stops (else the bot's last ones fail on a closed server).
        if in_flight := set(bot._in_flight):
            await asyncio.wait(in_flight, timeout=10)
        assert not walk.faults, "\n".join(walk.faults)
        # Every button met at several steps was burst (one met once or twice may have gone
        # with a burst of another before its turn came: the first bank's Start is tried
        # first, as a button of one moment).
        untried = sorted(sig for sig, met in walk.seen.items() if met >= 3 and not walk.tried[sig])
        assert not untried, f"{game}: buttons seen and never burst: {untried}"
        assert walk.forms <= known(), f"forms not in forms.py: {walk.forms - known()}"
        assert "gpause:1" in walk.tried and "gpause:0" in walk.tried, walk.tried
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]
