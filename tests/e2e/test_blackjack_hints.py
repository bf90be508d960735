"""The Hint button follows the table's rules: a dealer who hits soft 17, a European deal."""

from __future__ import annotations

from e2e_env import BotEnv
from table_flow import (
    bond,
    create_cast,
    join,
    le_chiffre,
    press,
    wait_table,
)

from bondbot.rules.blackjack import VALUES, Blackjack, BlackjackRules, hand_total
from bondbot.rules.cards import cards_pretty
from bondbot.rules.shoe import Shoe


def find_deal(rules: BlackjackRules, total: int, soft: bool, up: int) -> tuple[bytes, Blackjack]:
    """The first seed dealing one seat `total` (soft or hard, not a pair) against `up`."""
    for n in range(20_000):
        seed = n.to_bytes(32, "big")
        game = Blackjack(Shoe.shuffled(rules.packs, seed, rules.penetration), rules)
        game.place_bet("bond", 100)
        game.start_round()
        cards = game.hands("bond")[0].cards
        dealer = game.dealer_up
        if (
            dealer is not None
            and VALUES[dealer.rank] == up
            and hand_total(cards) == (total, soft)
            and VALUES[cards[0].rank] != VALUES[cards[1].rank]
            and not game.insurance_open
        ):
            return seed, game
    raise AssertionError("no such deal")


async def hint_at(env: BotEnv, seed: bytes, **options: object) -> str:
    """Open a blackjack table with `options`, bet, deal, and click Hint as Bond."""
    fake, world = env.fake, env.world
    await create_cast(
        env, {"npc": le_chiffre(), "bond": bond(world.player)}, {"bond": world.player}
    )
    env.seeds.append(seed)
    async with env.run() as bot:
        await bot.services.guilds.update(world.guild.id, gm_role_id=world.gm_role.id)
        await fake.slash(
            world.gm,
            "table open blackjack",
            npc="Le Chiffre",
            minimum="10",
            maximum="500",
            **options,
        )
        await wait_table(fake, "Le Chiffre")
        await join(fake, world.player, "500")
        await press(fake, world.player, "choose", "simulate")
        await fake.slash(world.player, "table bet", amount="100")
        await press(fake, world.gm, "deal")
        await wait_table(fake, "To play: **James Bond**")
        answer = await press(fake, world.player, "hint")  # in his panel, on his turn
    assert answer.ephemeral and answer.content is not None
    return answer.content


async def test_the_hint_doubles_soft_18_against_a_2_when_the_dealer_hits_soft_17(
    bot_env: BotEnv,
) -> None:
    # The stand-on-soft-17 chart stands on A,7 against a 2; the hit-soft-17 chart doubles.
    seed, game = find_deal(BlackjackRules(hit_soft_17=True), 18, True, 2)
    cards, up = game.hands("bond")[0].cards, game.dealer_up
    assert up is not None
    assert await hint_at(bot_env, seed, hit_soft_17=True) == (
        f"Basic strategy for {cards_pretty(cards)} (soft 18) against the dealer's "
        f"{up.pretty}: **Double**."
    )


async def test_the_hint_hits_11_against_a_ten_at_a_european_table(bot_env: BotEnv) -> None:
    # No hole card, doubles lost to a blackjack: the American chart doubles 11 against a
    # ten, the no-hole-card chart hits.
    seed, game = find_deal(BlackjackRules(deal="european"), 11, False, 10)
    cards, up = game.hands("bond")[0].cards, game.dealer_up
    assert up is not None
    assert await hint_at(bot_env, seed, deal="european") == (
        f"Basic strategy for {cards_pretty(cards)} (11) against the dealer's {up.pretty}: **Hit**."
    )
