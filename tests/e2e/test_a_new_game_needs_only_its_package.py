"""A game written outside the bot (the toy `high_card.py`) runs end to end through the fake
Discord once registered: its own /table open subcommand, its buttons, private cards, the
pot, a Hero Point spend. Nothing else in the bot knows it."""

from __future__ import annotations

import io
from collections.abc import Iterator

import high_card
import pytest
from e2e_env import BotEnv
from PIL import Image
from privacy import assert_never_seen
from table_flow import (
    balances,
    bond,
    button_labels,
    by_action,
    create_cast,
    join,
    le_chiffre,
    press,
    said,
    table_message,
    wait_table,
)

from bondbot import i18n
from bondbot.games import registry
from bondbot.pictures.cards import Layout, hand_png, hand_size, result_png
from bondbot.rules.cards import RANKS
from bondbot.rules.shoe import Shoe


@pytest.fixture
def high_card_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(registry, "_GAMES", dict(registry._GAMES))
    monkeypatch.setattr(i18n, "_more_folders", [])
    registry.register(high_card.SPEC)
    yield
    i18n.catalog.cache_clear()


def npc_wins(seed: bytes) -> bool:
    """Bond (who antes first) gets the shoe's first card, the NPC the second."""
    shoe = Shoe.shuffled(1, seed)
    first, second = shoe.deal(), shoe.deal()
    return RANKS.index(second.rank) > RANKS.index(first.rank)


async def test_high_card_end_to_end(bot_env: BotEnv, high_card_registered: None) -> None:
    fake, world = bot_env.fake, bot_env.world
    seed = next(n.to_bytes(32, "big") for n in range(100) if npc_wins(n.to_bytes(32, "big")))
    bot_env.seeds.append(seed)
    shoe = Shoe.shuffled(1, seed)
    bonds_card, npc_card = shoe.deal(), shoe.deal()
    ids = await create_cast(
        bot_env, {"chiffre": le_chiffre(), "bond": bond(world.player)}, {"bond": world.player}
    )
    async with bot_env.run():
        await fake.slash(world.owner, "gm role", role=world.gm_role)
        opened = await fake.slash(
            world.gm, "table open high_card", npc="Le Chiffre", minimum="10", maximum="10"
        )
        assert opened.ephemeral and opened.content.startswith("Table opened")
        await wait_table(fake, "High card")
        (thread,) = [c for c in fake.channels.values() if c.is_thread]  # started from it
        assert thread.id == table_message(fake).id and thread.parent_id == world.channel.id
        assert f"It plays in its thread: <#{thread.id}>." in opened.content
        open_fr = fake.command("table", world.guild)
        assert any(
            o.get("name_localizations", {}).get("fr") == "carte_haute"
            for group in open_fr["options"]
            for o in group.get("options", [])
        )

        await join(fake, world.player, "100")
        await press(fake, world.player, "choose", "simulate")
        anted = await press(fake, world.player, "ante")
        assert await said(anted) == "You ante."  # privately, after the table redrawn
        assert button_labels(fake) == ["Ante", "Deal (GM)", "My seat", "GM"]
        no_cards = await press(fake, world.player, "seat")  # his panel: chips, no cards yet
        assert no_cards.ephemeral and no_cards.embed is not None
        assert "Chips: $90" in no_cards.embed["description"]
        assert "Your cards" not in no_cards.embed["description"]

        dealt = await press(fake, world.gm, "deal")
        assert dealt.response_type == 7  # the table message, redrawn in place
        assert button_labels(fake) == ["Show", "My seat", "GM"]  # nothing for the players
        mine = await press(fake, world.player, "seat")
        assert mine.ephemeral and mine.embed is not None
        assert f"Your cards: {bonds_card.pretty}" in mine.embed["description"]
        assert mine.embed["image"]["url"] == "attachment://hand.png"
        assert mine.message is not None
        (picture,) = mine.message.attachments  # his card, drawn, to him alone
        with Image.open(io.BytesIO(picture.data)) as drawn:
            assert drawn.format == "PNG" and drawn.size == hand_size(1)
        assert picture.data == hand_png([bonds_card])
        outsider = await press(fake, world.player_fr, "seat")  # no seat, no character
        assert outsider.modal is None and "pas de personnage actif" in outsider.content
        # Nothing the channel or another player could see shows a card still face down.
        assert_never_seen(fake, None, [bonds_card, npc_card])
        assert_never_seen(fake, world.player_fr, [bonds_card, npc_card])
        assert_never_seen(fake, world.player, [npc_card])
        # From the GM's panel: a private answer, so the hand's picture goes to the thread.
        panel = await press(fake, world.gm, "gm")
        shown = await fake.click(world.gm, panel, by_action(panel, "show"))
        assert shown.content == "Cards shown."
        message = await fake.wait_for_message(
            predicate=lambda m: m.embeds and "Last showdown" in str(m.embeds)
        )
        assert npc_card.pretty in str(message.embeds)
        result = await fake.wait_for_message(  # the hand's picture, in the table's thread
            thread, lambda m: m.embeds and m.embeds[0].get("title") == "Hand 1"
        )
        assert result.embeds[0]["description"] == (
            f"**James Bond**: {bonds_card.pretty}\n**Le Chiffre**: {npc_card.pretty}"
        )
        (drawn,) = result.attachments
        labels = [("James Bond", ""), ("Le Chiffre", "")]
        assert drawn.data == result_png([[bonds_card], [npc_card]], labels, "Hand 1")
        assert drawn.description == (
            f"Hand 1. James Bond: {bonds_card.pretty}; Le Chiffre: {npc_card.pretty}"
        )
        with Image.open(io.BytesIO(drawn.data)) as picture:
            assert picture.size == Layout((1, 1), heading=True).size
        spend = next(cid for cid in message.custom_ids() if cid.endswith(":hp"))
        spent = await fake.click(world.player, message, spend)  # his one lost hand
        assert "$20" in await said(spent)

        left = await fake.slash(world.player, "table leave")
        assert left.content == "You leave the table with $110."
        closed = await fake.slash(world.gm, "table close")
        assert closed.ephemeral
        story = await fake.wait_for_message(  # told in the table's thread, then archived
            thread,
            lambda m: m.embeds and m.embeds[0].get("title") == "The evening at the table",
        )
        assert "James Bond" in story.embeds[0]["description"]
        assert [a.filename for a in story.attachments] == ["evening.png"]
        await fake.wait_until(lambda: thread.archived, what="the thread archived")
    cash = await balances(bot_env, ids)
    assert cash["bond"] == (100_000 + 1_000, 1 + 2 - 1)  # won $10; 1 + 2 awarded - 1 spent
