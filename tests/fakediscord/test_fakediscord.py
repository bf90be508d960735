"""Self-tests: a tiny real discord.py bot driven end to end through the fake Discord."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator

import discord
import pytest
import pytest_asyncio
from discord import app_commands
from discord.ext import commands
from discord.http import Route

from bondbot.local.client import InteractionRejected, NoResponse, Upload
from bondbot.local.models import SEND_MESSAGES, Overwrite
from bondbot.local.server import FakeDiscord

from .fixtures import DefaultWorld, fake_discord, fake_world, run_bot

# Loaded here so the self-tests also run before the lead registers the plugin.
__all__ = ["fake_discord", "fake_world"]

SKILLS = ["Gambling", "Game Theory", "Driving", "Charm"]
FRENCH = {"panel": "panneau", "Show a control panel": "Afficher un panneau de contrôle"}


class Translator(app_commands.Translator):
    """French names for one command (checks localizations reach the synced commands)."""

    def __init__(self, table: dict[str, str]) -> None:
        self.table = table

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        return self.table.get(string.message) if locale is discord.Locale.french else None


class CodenameModal(discord.ui.Modal, title="Codename"):
    """One text input, answered ephemerally."""

    codename: discord.ui.TextInput[CodenameModal] = discord.ui.TextInput(
        label="Codename", custom_id="codename", max_length=20
    )
    notes: discord.ui.Label[CodenameModal] = discord.ui.Label(
        text="Notes",
        component=discord.ui.TextInput(custom_id="notes", required=False),
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Codename: {self.codename.value}", ephemeral=True)


class PanelView(discord.ui.View):
    """A counter button whose callback edits the message, and a finish button."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.count = 0

    @discord.ui.button(label="Advance", custom_id="panel:advance")
    async def advance(
        self, interaction: discord.Interaction, button: discord.ui.Button[PanelView]
    ) -> None:
        self.count += 1
        await interaction.response.edit_message(content=f"Advanced {self.count}", view=self)

    @discord.ui.button(label="Finish", custom_id="panel:finish", style=discord.ButtonStyle.danger)
    async def finish(
        self, interaction: discord.Interaction, button: discord.ui.Button[PanelView]
    ) -> None:
        for item in self.children:
            if isinstance(item, discord.ui.Button):
                item.disabled = True
        await interaction.response.edit_message(content="Finished", view=self)
        self.stop()


class SelfTestCog(commands.Cog):
    """Every interaction style the fake must support."""

    sheet = app_commands.Group(name="sheet", description="Character sheets")
    skill = app_commands.Group(name="skill", description="Skills", parent=sheet)

    @sheet.command(name="create", description="Create a sheet")
    async def create(
        self,
        interaction: discord.Interaction,
        name: str,
        level: app_commands.Range[int, 1, 10],
    ) -> None:
        await interaction.response.send_message(
            f"[{interaction.locale.value}] {name} level {level}", ephemeral=True
        )

    @skill.command(name="set", description="Set a skill")
    async def set_skill(
        self,
        interaction: discord.Interaction,
        skill: str,
        rating: float,
        public: bool = False,
        target: discord.Member | None = None,
    ) -> None:
        who = target.display_name if target else interaction.user.display_name
        await interaction.response.send_message(
            f"{who}: {skill}={rating!r} {type(public).__name__}", ephemeral=not public
        )

    @set_skill.autocomplete("skill")
    async def skill_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        found = [s for s in SKILLS if current.lower() in s.lower()]
        return [app_commands.Choice(name=s, value=s.lower()) for s in found]

    @app_commands.command(name=app_commands.locale_str("panel"), description="Show a control panel")
    async def panel(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Panel", view=PanelView())

    @app_commands.command(name="form", description="Ask for a codename")
    async def form(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(CodenameModal())

    @app_commands.command(name="upload", description="Reverse a file")
    async def upload(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        data = await file.read()
        reply = discord.File(io.BytesIO(data[::-1]), filename="reversed.bin")
        await interaction.response.send_message(f"{file.filename}: {len(data)} bytes", file=reply)

    @app_commands.command(name="announce", description="Post and edit a channel message")
    async def announce(self, interaction: discord.Interaction, text: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        msg = await interaction.channel.send(text)
        await msg.edit(content=f"{text} (edited)")
        await interaction.followup.send("announced", ephemeral=True)
        await interaction.followup.send("second follow-up")

    @app_commands.command(name="twice", description="Respond twice")
    async def twice(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("first")
        try:  # a second, independent responder for the same interaction
            await discord.InteractionResponse(interaction).send_message("second")
        except discord.HTTPException as exc:
            await interaction.followup.send(f"error {exc.status} {exc.code}")

    @app_commands.command(name="slow", description="Answer too late")
    async def slow(self, interaction: discord.Interaction) -> None:
        await asyncio.sleep(0.15)
        try:
            await interaction.response.send_message("made it")
        except discord.NotFound as exc:
            assert interaction.channel is not None
            await interaction.channel.send(f"late: {exc.code}")  # type: ignore[union-attr]

    @app_commands.command(name="admin", description="Managers only")
    @app_commands.default_permissions(manage_guild=True)
    async def admin(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok", ephemeral=True)


class SelfTestBot(commands.Bot):
    """The bot under test; ``guild_ready_timeout`` only shortens the READY wait."""

    def __init__(self, translations: dict[str, str] | None = None) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            guild_ready_timeout=0.05,
        )
        self.translations = FRENCH if translations is None else translations

    async def setup_hook(self) -> None:
        await self.add_cog(SelfTestCog())
        await self.tree.set_translator(Translator(self.translations))
        await self.tree.sync()


@pytest_asyncio.fixture
async def bot(fake_discord: FakeDiscord) -> AsyncIterator[SelfTestBot]:
    """The self-test bot, logged in, connected and ready."""
    async with run_bot(SelfTestBot(), fake_discord) as running:
        yield running


async def test_startup_gateway_and_sync(
    bot: SelfTestBot, fake_discord: FakeDiscord, fake_world: DefaultWorld
) -> None:
    fake = fake_discord
    assert fake.api_base == Route.BASE
    assert [f"{r.method} {r.path}" for r in fake.requests[:3]] == [
        "GET /users/@me",
        "GET /oauth2/applications/@me",
        f"PUT /applications/{fake.application_id}/commands",
    ]
    assert bot.user is not None and bot.user.id == fake.bot_user.id
    guild = bot.get_guild(fake_world.guild.id)
    assert guild is not None and guild.get_channel(fake_world.channel.id) is not None
    assert guild.get_role(fake_world.gm_role.id) is not None
    expected = discord.utils._ActiveDecompressionContext.COMPRESSION_TYPE
    assert [c.compress for c in fake.connections] == [expected]
    assert fake.identify_count == 1

    sheet = fake.command("sheet")
    create = next(o for o in sheet["options"] if o["name"] == "create")
    assert [(o["name"], o["type"], o.get("min_value")) for o in create["options"]] == [
        ("name", 3, None),
        ("level", 4, 1),
    ]
    skill_set = next(o for o in sheet["options"] if o["name"] == "skill")["options"][0]
    assert [o["type"] for o in skill_set["options"]] == [3, 10, 5, 6]
    assert fake.command("panel")["name_localizations"] == {"fr": "panneau"}
    assert fake.command("admin")["default_member_permissions"] == str(1 << 5)


async def test_ephemeral_subcommand(
    bot: SelfTestBot, fake_discord: FakeDiscord, fake_world: DefaultWorld
) -> None:
    result = await fake_discord.slash(fake_world.player_fr, "sheet create", name="Bond", level=7)
    assert result.response_type == 4
    assert result.content == "[fr] Bond level 7"
    assert result.ephemeral
    assert result.latency is not None and result.latency < 1
    visible = fake_discord.channel_messages(visible_to=fake_world.gm)
    assert result.message not in visible


async def test_nested_group_typed_options(
    bot: SelfTestBot, fake_discord: FakeDiscord, fake_world: DefaultWorld
) -> None:
    w = fake_world
    result = await fake_discord.slash(
        w.player, "sheet skill set", skill="charm", rating=3, public=True, target=w.gm
    )
    assert result.content == "Q: charm=3.0 bool"
    assert not result.ephemeral
    with pytest.raises(InteractionRejected, match="missing required"):
        await fake_discord.slash(w.player, "sheet skill set", skill="charm")
    with pytest.raises(InteractionRejected, match="must be <= 10"):
        await fake_discord.slash(w.player, "sheet create", name="X", level=11)
    with pytest.raises(InteractionRejected, match="not synced"):
        await fake_discord.slash(w.player, "nope")


async def test_autocomplete(
    bot: SelfTestBot, fake_discord: FakeDiscord, fake_world: DefaultWorld
) -> None:
    choices = await fake_discord.autocomplete(
        fake_world.player, "sheet skill set", focused="skill", value="Gam"
    )
    assert choices == [
        {"name": "Gambling", "value": "gambling"},
        {"name": "Game Theory", "value": "game theory"},
    ]


async def test_button_edits_message(
    bot: SelfTestBot, fake_discord: FakeDiscord, fake_world: DefaultWorld
) -> None:
    fake, player = fake_discord, fake_world.player
    panel = await fake.slash(player, "panel")
    assert panel.content == "Panel"
    assert panel.custom_ids() == ["panel:advance", "panel:finish"]
    assert panel.button_labels() == ["Advance", "Finish"]

    click = await fake.click(player, panel, "panel:advance")
    assert click.response_type == 7
    assert click.message is panel.message
    await fake.click(fake_world.gm, panel, label="Advance")
    assert panel.content == "Advanced 2"
    assert panel.message is not None and panel.message.edit_count == 2
    assert [v.content for v in panel.message.history] == ["Panel", "Advanced 1"]

    await fake.click(player, panel, "panel:finish")
    assert all(b.get("disabled") for b in panel.buttons())
    with pytest.raises(InteractionRejected, match="disabled"):
        await fake.click(player, panel, "panel:advance")


async def test_modal_roundtrip(
    bot: SelfTestBot, fake_discord: FakeDiscord, fake_world: DefaultWorld
) -> None:
    fake, player = fake_discord, fake_world.player
    opened = await fake.slash(player, "form")
    assert opened.response_type == 9
    assert opened.modal is not None
    assert opened.modal.title == "Codename"
    assert opened.modal.field_ids == ["codename", "notes"]
    with pytest.raises(InteractionRejected, match="required"):
        await fake.submit_modal(player, opened, {"notes": "x"})
    submitted = await fake.submit_modal(player, opened, {"codename": "007"})
    assert submitted.content == "Codename: 007"
    assert submitted.ephemeral


async def test_attachment_roundtrip(
    bot: SelfTestBot, fake_discord: FakeDiscord, fake_world: DefaultWorld
) -> None:
    result = await fake_discord.slash(
        fake_world.player, "upload", file=Upload("dossier.txt", b"SPECTRE")
    )
    assert result.content == "dossier.txt: 7 bytes"
    [attachment] = result.attachments
    assert (attachment.filename, attachment.data) == ("reversed.bin", b"ERTCEPS")


async def test_channel_send_edit_and_followups(
    bot: SelfTestBot, fake_discord: FakeDiscord, fake_world: DefaultWorld
) -> None:
    fake = fake_discord
    seen = asyncio.ensure_future(bot.wait_for("message", check=lambda m: m.content == "Hi"))
    result = await fake.slash(fake_world.gm, "announce", text="Hi")
    assert result.response_type == 5
    first = await result.wait_followup(2)
    assert first.content == "second follow-up"
    # The first follow-up after a thinking defer replaces the "thinking" message.
    assert result.followups[0] is result.message
    assert result.content == "announced" and result.ephemeral
    posted = await fake.wait_for_message(predicate=lambda m: m.content == "Hi (edited)")
    assert posted.edit_count == 1 and posted.history[0].content == "Hi"
    assert fake.last_message() is first
    assert (await asyncio.wait_for(seen, 2)).author.id == fake.bot_user.id


async def test_double_response_is_40060(
    bot: SelfTestBot, fake_discord: FakeDiscord, fake_world: DefaultWorld
) -> None:
    result = await fake_discord.slash(fake_world.player, "twice")
    assert result.content == "first"
    follow = await result.wait_followup()
    assert follow.content == "error 400 40060"
    assert [(a.status, a.code) for a in result.interaction.attempts] == [(200, None), (400, 40060)]


async def test_late_response_is_10062(
    bot: SelfTestBot, fake_discord: FakeDiscord, fake_world: DefaultWorld
) -> None:
    fake_discord.interaction_deadline = 0.05
    with pytest.raises(NoResponse):
        await fake_discord.slash(fake_world.player, "slow")
    notice = await fake_discord.wait_for_message(predicate=lambda m: m.content.startswith("late"))
    assert notice.content == "late: 10062"
    inter = list(fake_discord.interactions.values())[-1]
    assert [(a.status, a.code) for a in inter.attempts] == [(404, 10062)]


async def test_default_member_permissions(
    bot: SelfTestBot, fake_discord: FakeDiscord, fake_world: DefaultWorld
) -> None:
    with pytest.raises(InteractionRejected, match="default_member_permissions"):
        await fake_discord.slash(fake_world.player, "admin")
    assert (await fake_discord.slash(fake_world.owner, "admin")).content == "ok"


async def test_reconnect_resumes(
    bot: SelfTestBot, fake_discord: FakeDiscord, fake_world: DefaultWorld
) -> None:
    await fake_discord.request_reconnect()
    await fake_discord.wait_until(lambda: fake_discord.resume_count == 1, timeout=3)
    assert fake_discord.identify_count == 1
    result = await fake_discord.slash(fake_world.player, "sheet create", name="M", level=1)
    assert result.content == "[en-US] M level 1"


async def test_unknown_route_is_recorded(bot: SelfTestBot, fake_discord: FakeDiscord) -> None:
    with pytest.raises(discord.NotFound):
        await bot.http.request(Route("GET", "/voice/regions"))
    assert [str(r) for r in fake_discord.unexpected] == ["GET /voice/regions -> 404"]
    fake_discord.unexpected.clear()  # the fixture fails the test on unexpected calls


async def test_invalid_localization_fails_sync(fake_discord: FakeDiscord) -> None:
    bad = SelfTestBot(translations={"panel": "Mauvais Nom"})
    with pytest.raises(discord.HTTPException) as info:
        async with run_bot(bad, fake_discord):
            pass
    assert (info.value.status, info.value.code) == (400, 50035)
    assert Route.BASE == "https://discord.com/api/v10"


async def test_user_messages_respect_intents(
    bot: SelfTestBot, fake_discord: FakeDiscord, fake_world: DefaultWorld
) -> None:
    def from_player(m: discord.Message) -> bool:
        return m.author.id == fake_world.player.id

    plain = asyncio.ensure_future(bot.wait_for("message", check=from_player))
    await fake_discord.send_user_message(fake_world.player, "shaken, not stirred")
    assert (await asyncio.wait_for(plain, 2)).content == ""  # no message_content intent
    mention = asyncio.ensure_future(bot.wait_for("message", check=from_player))
    await fake_discord.send_user_message(fake_world.player, f"{fake_discord.bot_user.mention} hi")
    assert (await asyncio.wait_for(mention, 2)).content.endswith(" hi")


async def test_missing_permission_and_expired_token(
    bot: SelfTestBot, fake_discord: FakeDiscord, fake_world: DefaultWorld
) -> None:
    panel = await fake_discord.slash(fake_world.player, "panel")
    fake_discord.expire_token(panel)
    click = await fake_discord.click(fake_world.player, panel, "panel:advance")
    assert click.content == "Advanced 1"  # a new interaction has a fresh token
    deny = Overwrite(fake_world.guild.bot_role.id, 0, deny=SEND_MESSAGES)
    fake_world.channel.overwrites.append(deny)
    channel = bot.get_channel(fake_world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.Forbidden) as info:
        await channel.send("denied")
    assert info.value.code == 50013


async def test_bot_restart_against_same_fake(
    fake_discord: FakeDiscord, fake_world: DefaultWorld
) -> None:
    for attempt in range(2):
        async with run_bot(SelfTestBot(), fake_discord):
            result = await fake_discord.slash(fake_world.gm, "sheet create", name="Q", level=2)
            assert result.content == "[en-US] Q level 2", attempt
    assert fake_discord.identify_count == 2
    assert len(fake_discord.command_syncs) == 2
    assert not fake_discord.sessions  # run_bot forgets the sessions of closed bots
