"""Whole Macao evenings played at random: the invariants every state and move must keep.

A driver plays the table's part: it sets `stacks` from the chips the transfers moved before
every move, replaces the shoe when the engine asks, lets seats come and go between coups,
and picks any legal move (or the timeout's, or the NPC's) for whoever's turn it is.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bondbot.games.contract import Move, Option, Record, replay
from bondbot.games.macao.counting import Counting
from bondbot.games.macao.engine import Bank, Macao, MacaoRules, Phase
from bondbot.games.macao.events import Drew, Revealed
from bondbot.rules.cards import Card
from bondbot.rules.shoe import Shoe

NPC = "npc"


# The NPC plays at any Gambling level, the novice (0) most often: every move stays legal.
LEVELS = (0, 0, 1, 7, 14, 15)


def random_move(game: Macao, rng: random.Random) -> Move:
    """Any move for a seat whose turn it is: a legal option, its timeout or the NPC's."""
    seat = rng.choice(game.turn())
    roll = rng.random()
    if roll < 0.15:
        move = game.timeout_move(seat)
    elif roll < 0.3 and seat == NPC:
        move = game.npc_move(rng, rng.choice(LEVELS))
    else:
        options = [o for o in game.options() if o.seat == seat]
        wagers = [o for o in options if o.kind == "wager"]
        option: Option = rng.choice(wagers if wagers and rng.random() < 0.7 else options)
        amount = None
        if option.min is not None and option.max is not None:
            amount = rng.choice([option.min, option.max, rng.randint(option.min, option.max)])
        target = rng.choice(option.targets) if option.targets else None
        move = Move(kind=option.kind, seat=seat, amount=amount, target=target)
    assert move is not None
    return move


def event_cards(record: Record) -> list[Card]:
    cards: list[Card] = []
    for event in record.events:
        if isinstance(event, Revealed):
            cards.extend(event.cards)
        elif isinstance(event, Drew):
            cards.append(event.card)
            if event.allowing is not None:
                cards.append(event.allowing)
    return cards


class Evening:
    """Plays one evening and checks every invariant after every move."""

    def __init__(self, game: Macao, seed: bytes, rng: random.Random) -> None:
        self.game = game
        self.seed = seed
        self.rng = rng
        self.chips: dict[str, int | None] = dict(game.stacks)
        self.start = sum(chips for chips in self.chips.values() if chips is not None)
        self.npc_net = 0
        self.shoes = 0
        self.dealt_from_shoe: Counter[Card] = Counter()
        self.coup_start: Macao | None = None
        self.public: set[Card] = set()  # cards the events showed this coup
        self.revealed: dict[str, tuple[tuple[Card, ...], int]] = {}  # this coup's, by seat

    def run(self, coups: int) -> None:
        played = 0
        while played < coups and self.game.phase is not Phase.OVER:
            if not self.game.in_hand():
                self.between_coups()
                self.game.stacks = dict(self.chips)
                if not self.game.can(Move(kind="deal")):
                    return
                self.coup_start = self.game.model_copy(deep=True)
            record = self.step()
            played += record.hand_over

    def between_coups(self) -> None:
        game = self.game
        pcs = [seat for seat in game.seats if seat != NPC]
        if self.rng.random() < 0.1 and len(pcs) > 1:
            game.stand_up(self.rng.choice(pcs))
        if self.rng.random() < 0.1:
            newcomer = f"pc{len(self.chips)}"
            game.sit(newcomer)
            self.chips[newcomer] = self.rng.choice([0, 250, 50_000])
            self.start += self.chips[newcomer] or 0
        if game.needs_new_shoe:
            self.shoes += 1
            shoe_seed = self.seed + self.shoes.to_bytes(4, "big")
            game.replace_shoe(Shoe.shuffled(game.packs, shoe_seed))
            self.dealt_from_shoe = Counter()

    def step(self) -> Record:
        game = self.game
        game.stacks = dict(self.chips)  # as the table does before every move
        automatic = game.automation()
        if automatic is not None:
            move = automatic
        elif game.turn():
            move = random_move(game, self.rng)
        else:
            move = Move(kind="deal")
        banker_before = game.banker
        record = game.apply(move)
        if move.kind == "deal":
            self.public = set()
            self.revealed = {}
            banker_before = game.banker
            dealt = [card for hand in game.players for card in hand.cards] + game.bank_cards
            self.dealt_from_shoe.update(dealt)
        self.check_money(record, banker_before)
        self.check_cards(record)
        self.check_shown(record)
        self.check_state()
        return record

    def check_money(self, record: Record, banker: str | None) -> None:
        for transfer in record.transfers:
            src = transfer.src.removeprefix("seat:")
            dst = transfer.dst.removeprefix("seat:")
            assert banker in (src, dst) and src != dst  # player against banker only
            for seat, delta in ((src, -transfer.amount), (dst, transfer.amount)):
                if self.chips[seat] is None:
                    self.npc_net += delta
                else:
                    self.chips[seat] += delta
                    assert self.chips[seat] >= 0, f"{seat} overdrawn"
        finite = sum(chips for chips in self.chips.values() if chips is not None)
        assert finite + self.npc_net == self.start  # nothing created, nothing lost
        for lost in record.lost:
            assert record.hand_over and banker == NPC and lost.seat != NPC and lost.pay > 0

    def check_cards(self, record: Record) -> None:
        game = self.game
        for hand in game.players:  # third cards come from the shoe as they are drawn
            if len(hand.cards) == 3 and record.move.seat == hand.seat:
                self.dealt_from_shoe[hand.cards[2]] += record.move.kind == "draw"
        if record.move.kind == "draw" and record.move.seat == game.banker:
            self.dealt_from_shoe[game.bank_cards[-1]] += 1
        # No card dealt twice: what the hands took is exactly the shoe's dealt prefix.
        assert self.dealt_from_shoe == Counter(game.shoe.dealt)
        if game.shoe.packs == 1:
            self.public.update(event_cards(record))
            hidden = game.hidden_cards()
            assert not self.public & hidden, "a private card appeared in a public event"
            seen = [set(game.private_cards(seat)) for seat in game.seats]
            assert sum(len(cards) for cards in seen) == len(set().union(*seen))
            assert hidden <= set().union(*seen)

    def check_shown(self, record: Record) -> None:
        """The picture of a coup's result shows exactly the hands its events revealed, the
        banker's first; every card of it was dealt, and none is still hidden."""
        game = self.game
        for event in record.events:
            if isinstance(event, Revealed):
                self.revealed[event.seat] = (tuple(event.cards), event.total)
        if not record.hand_over:
            assert not game.in_hand() or game.shown_hands() == ()
            return
        rows = game.shown_hands()
        assert {row.whose: (row.cards, row.total) for row in rows} == self.revealed
        assert len(rows) == len(self.revealed)
        assert [row.whose == game.banker for row in rows] == sorted(
            (row.whose == game.banker for row in rows), reverse=True
        )
        shown = Counter(card for row in rows for card in row.cards)
        assert shown <= Counter(game.shoe.dealt)
        if game.shoe.packs == 1:
            assert not set(shown) & game.hidden_cards()

    def check_state(self) -> None:
        game = self.game
        restored = Macao.model_validate_json(game.model_dump_json())
        assert restored == game
        assert self.coup_start is not None
        replayed = replay(self.coup_start, game.history)
        replayed.stacks = game.stacks
        assert replayed == game


rules_strategy = st.builds(
    MacaoRules,
    counting=st.sampled_from(list(Counting)),
    bank=st.sampled_from(list(Bank)),
    packs=st.sampled_from([None, 1, 2]),
    min_stake=st.sampled_from([1, 100]),
    max_stake=st.sampled_from([100, 10_000]),
    tie_pays=st.sampled_from([8, 9]),
    coups=st.sampled_from([None, 3]),
)


@settings(max_examples=80, deadline=None)
@given(
    rules=rules_strategy,
    players=st.integers(1, 5),
    stacks=st.lists(st.sampled_from([0, 299, 5_000, 1_000_000]), min_size=5, max_size=5),
    npc_bank=st.sampled_from([None, 3_000, 100_000]),
    seed=st.binary(min_size=8, max_size=8),
    choices=st.integers(0, 2**32),
)
def test_any_evening_conserves_money_deals_each_card_once_and_restores(
    rules: MacaoRules,
    players: int,
    stacks: list[int],
    npc_bank: int | None,
    seed: bytes,
    choices: int,
):
    seats = [NPC, *(f"pc{i}" for i in range(players))]
    chips = {NPC: npc_bank} | {f"pc{i}": stacks[i] for i in range(players)}
    shoe = Shoe.shuffled(1, seed + b"first")
    game = Macao(shoe=shoe, seats=seats, npc=NPC, rules=rules, stacks=chips)
    Evening(game, seed, random.Random(choices)).run(coups=8)
