"""/gm end to end: the GM role, grants and takes, the ledger's pages, house rules."""

from __future__ import annotations

from e2e_env import BotEnv
from sheet_helpers import dump, make_gm_role, not_gm, query, query_file, refused

from bondbot.i18n import t
from bondbot.money import Cents, format_amount


async def test_gm_role_needs_manage_server(bot_env: BotEnv) -> None:
    fake, w = bot_env.fake, bot_env.world
    async with bot_env.run() as bot:
        await fake.slash(w.player, "sheet create", name="James Bond")
        # No GM role yet: GM commands say how to set one.
        unset = await fake.slash(
            w.gm, "gm hero", character="James Bond", action="give", amount=1, reason="r"
        )
        assert unset.ephemeral and unset.content in {
            t("errors.no_gm_role", "en"),
            t("gm.no_role_set", "en"),
        }
        before = await dump(bot)
        for user, lang in ((w.gm, "en"), (w.player, "en"), (w.player_fr, "fr")):
            answer = await fake.slash(user, "gm role", role=w.gm_role)
            assert refused(answer, "gm.needs_manage_guild", lang), user
        assert await dump(bot) == before

        done = await fake.slash(w.owner, "gm role", role=w.gm_role)
        assert done.content == t("gm.role_set", "en", role=f"<@&{w.gm_role.id}>")
        assert await query(bot, "SELECT gm_role_id FROM guild_settings") == [(w.gm_role.id,)]
        # Holding the role is what counts; the owner (not in the role) is not a GM.
        owner = await fake.slash(w.owner, "gm ledger")
        assert not_gm(owner)
        settings = await fake.slash(w.gm, "gm settings")
        assert settings.embed["fields"][0]["value"] == f"<@&{w.gm_role.id}>"
    # The role survives a restart.
    async with bot_env.run():
        assert (await fake.slash(w.gm, "gm ledger")).embed["title"] == t("gm.ledger_title", "en")


async def test_hero_points_and_cash_grants_and_takes(bot_env: BotEnv) -> None:
    fake, w = bot_env.fake, bot_env.world
    async with bot_env.run() as bot:
        await make_gm_role(bot_env)
        await fake.slash(w.player, "sheet create", name="James Bond")
        await fake.slash(w.player_fr, "sheet create", name="René Mathis")
        bond = (await query(bot, "SELECT id FROM characters WHERE name = 'James Bond'"))[0][0]
        account = f"sheet:{bond}"

        given = await fake.slash(
            w.gm, "gm hero", character="james bond", action="give", amount=3, reason="Saved M"
        )
        assert given.ephemeral
        assert given.content == t(
            "gm.given", "en", amount="3 HP", name="James Bond", balance="3 HP"
        )
        taken = await fake.slash(
            w.gm, "gm hero", character="James Bond", action="take", amount=1, reason="Cheated"
        )
        assert taken.content == t(
            "gm.taken", "en", amount="1 HP", name="James Bond", balance="2 HP"
        )
        cash = await fake.slash(
            w.gm,
            "gm cash",
            character="James Bond",
            action="give",
            amount="1 500,50",
            reason="Per diem",
        )
        assert cash.content == t(
            "gm.given", "en", amount="$1,500.50", name="James Bond", balance="$1,500.50"
        )
        fr = await fake.slash(
            w.gm,
            "gm cash",
            character="René Mathis",
            action="give",
            amount="200",
            reason="Frais",
            _locale="fr",
        )
        fr_200 = format_amount(20_000, "$", "fr")  # "200 $": the French answer writes it so
        assert fr_200 == "200\u00a0$"
        assert fr.content == t("gm.given", "fr", amount=fr_200, name="René Mathis", balance=fr_200)
        rows = await query(
            bot, "SELECT kind, amount, src, dst, reason, actor_id, note FROM ledger ORDER BY id"
        )
        assert rows[:3] == [
            ("hero", 3, None, account, "gm.grant", w.gm.id, "Saved M"),
            ("hero", 1, account, None, "gm.take", w.gm.id, "Cheated"),
            ("cash", 150050, None, account, "gm.grant", w.gm.id, "Per diem"),
        ]

        # Refusals change nothing: more than he has, a blank reason, a bad amount,
        # an unknown character, and anyone without the GM role (in his language).
        before = await dump(bot)
        too_much = await fake.slash(
            w.gm, "gm hero", character="James Bond", action="take", amount=3, reason="r"
        )
        assert refused(too_much, "gm.take_too_much_hero", name="James Bond", available=2)
        too_much_cash = await fake.slash(
            w.gm, "gm cash", character="James Bond", action="take", amount="2000", reason="r"
        )
        assert too_much_cash.content == t(
            "gm.take_too_much_cash", "en", name="James Bond", available="$1,500.50"
        )
        blank = await fake.slash(
            w.gm, "gm hero", character="James Bond", action="give", amount=1, reason="   "
        )
        assert refused(blank, "gm.reason_required")
        for amount, why in (("abc", "format"), ("-5", "positive"), ("0", "positive")):
            bad = await fake.slash(
                w.gm, "gm cash", character="James Bond", action="give", amount=amount, reason="r"
            )
            assert refused(bad, f"errors.amount.{why}", text=amount, example="1,000.50"), amount
        nobody = await fake.slash(
            w.gm, "gm hero", character="Blofeld", action="give", amount=1, reason="r"
        )
        assert refused(nobody, "characters.not_found", name="Blofeld")
        for user, lang in ((w.player, "en"), (w.player_fr, "fr")):
            for command, amount in (("gm hero", 5), ("gm cash", "5")):
                denied = await fake.slash(
                    user, command, character="James Bond", action="give", amount=amount, reason="me"
                )
                assert not_gm(denied, lang), (user, command)
        assert await dump(bot) == before
        # Players do not even get character names from the GM commands' autocomplete.
        assert await fake.autocomplete(w.player, "gm hero", focused="character", value="") == []
        names = await fake.autocomplete(w.gm, "gm hero", focused="character", value="ren")
        assert names == [{"name": "René Mathis", "value": "René Mathis"}]

        shown = await fake.slash(w.player, "sheet show")
        fields = {f["name"]: f["value"] for f in shown.embed["fields"]}
        assert fields["Hero Points"] == "2" and fields["Cash"] == "$1,500.50"
    async with bot_env.run() as bot:
        assert await query(
            bot, "SELECT balance FROM balances WHERE account = ? ORDER BY kind", account
        ) == [
            (150050,),
            (2,),
        ]


async def test_ledger_pages_through_buttons_across_a_restart(bot_env: BotEnv) -> None:
    fake, w = bot_env.fake, bot_env.world
    async with bot_env.run():
        await make_gm_role(bot_env)
        await fake.slash(w.player, "sheet create", name="James Bond")
        await fake.slash(w.player_fr, "sheet create", name="René Mathis")
        for n in range(1, 13):  # 12 rows for Bond, 1 for René in between
            await fake.slash(
                w.gm, "gm hero", character="James Bond", action="give", amount=n, reason=f"r{n}"
            )
            if n == 6:
                await fake.slash(
                    w.gm, "gm cash", character="René Mathis", action="give", amount="7", reason="x"
                )
        first = await fake.slash(w.gm, "gm ledger")
        assert first.ephemeral and first.embed["title"] == "Ledger"
        lines = first.embed["description"].splitlines()
        assert len(lines) == 10 and lines[0].startswith("`#13`") and lines[-1].startswith("`#4`")
        assert f"12 HP: outside → **James Bond** — GM grant — “r12” — <@{w.gm.id}>" in lines[0]
        buttons = first.buttons()
        assert [b["disabled"] for b in buttons] == [True, False]

        older = await fake.click(w.gm, first, label="Older ▶")
        assert older.response_type == 7
        lines = first.embed["description"].splitlines()  # the same message, edited
        assert [line.split()[0] for line in lines] == ["`#3`", "`#2`", "`#1`"]
        assert [b["disabled"] for b in first.buttons()] == [False, True]

    async with bot_env.run():  # the cursor lives in the button: a restart changes nothing
        newer = await fake.click(w.gm, first, label="◀ Newer")
        assert newer.response_type == 7
        assert first.embed["description"].splitlines()[0].startswith("`#13`")

        # One character's ledger, in French, with his own cursor.
        fr = await fake.slash(w.gm, "gm ledger", character="René Mathis", _locale="fr")
        assert fr.embed["title"] == "Registre — René Mathis"
        assert len(fr.embed["description"].splitlines()) == 1
        assert "7\u00a0$ : extérieur → **René Mathis** — don du MJ" in fr.embed["description"]
        bond = await fake.slash(w.gm, "gm ledger", character="James Bond")
        assert "René" not in bond.embed["description"]
        more = await fake.click(w.gm, bond, label="Older ▶")
        assert [line.split()[0] for line in bond.embed["description"].splitlines()] == [
            "`#2`",
            "`#1`",
        ]
        assert more.response_type == 7
        back = await fake.click(w.gm, bond, label="◀ Newer")
        assert back.response_type == 7
        assert bond.embed["description"].splitlines()[0].startswith("`#13`")

        denied = await fake.slash(w.player, "gm ledger")
        assert not_gm(denied)


async def test_house_rules(bot_env: BotEnv) -> None:
    fake, w = bot_env.fake, bot_env.world
    async with bot_env.run() as bot:
        await make_gm_role(bot_env)
        shown = await fake.slash(w.gm, "gm settings")
        fields = {f["name"]: f["value"] for f in shown.embed["fields"]}
        assert fields["Language"] == "English" and fields["Currency"] == "$"
        assert fields["Hero Point spend window"] == "60 s" and fields["Turn timer"] == "90 s"
        table = fields["Hero Points for simulating (by Gambling level) (the rule's default)"]
        assert table.splitlines()[1] == "Gambling 1–5: 1 HP"

        saved = await fake.slash(
            w.gm,
            "gm settings",
            language="fr",
            currency="€",
            spend_window=30,
            turn_timer=120,
            award_table="0:0, 1-7:1 8-14:2 15:5",
        )
        # The GM's Discord is in English: he keeps English; the server is now French.
        assert saved.content == t("gm.settings_saved", "en")
        fields = {f["name"]: f["value"] for f in saved.embed["fields"]}
        assert fields["Language"] == "Français" and fields["Currency"] == "€"
        assert fields["Hero Points for simulating (by Gambling level)"].splitlines() == [
            "Gambling 0: 0 HP",
            "Gambling 1–7: 1 HP",
            "Gambling 8–14: 2 HP",
            "Gambling 15: 5 HP",
        ]
        assert await query(
            bot,
            "SELECT locale, currency, spend_window_s, turn_timer_s, award_table"
            " FROM guild_settings",
        ) == [("fr", "€", 30, 120, "0:0 1-7:1 8-14:2 15:5")]

        # Bad values: nothing saved, each problem said in the user's language.
        before = await dump(bot)
        gap = await fake.slash(w.gm, "gm settings", award_table="0:0 1-5:1 7-15:2")
        assert refused(gap, "gm.awards_gap", level=6)
        syntax = await fake.slash(w.gm, "gm settings", award_table="zero", _locale="fr")
        assert refused(syntax, "gm.awards_syntax", "fr", token="zero")
        overlap = await fake.slash(w.gm, "gm settings", award_table="0-5:1 5-15:2")
        assert refused(overlap, "gm.awards_overlap", level=5)
        points = await fake.slash(w.gm, "gm settings", award_table="0-15:21")
        assert refused(points, "gm.awards_bad_points", points=21)
        numbers = await fake.slash(
            w.gm, "gm settings", spend_window=2, turn_timer=99999, _locale="fr"
        )
        assert numbers.content == t(
            "gm.settings_invalid",
            "fr",
            errors="• **Délai pour dépenser un Point d'Héroïsme** : doit valoir au moins 5\n"
            "• **Délai par tour** : doit valoir au plus 3600",
        )
        long_currency = await fake.slash(w.gm, "gm settings", currency="DOLLARS!!")
        assert "**Currency**: at most 8 characters" in long_currency.content
        denied = await fake.slash(w.player_fr, "gm settings", currency="£")
        assert not_gm(denied, "fr")
        assert await dump(bot) == before

        # Money now reads in euros; a user with neither French nor English gets French.
        await fake.slash(w.player, "sheet create", name="James Bond")
        grant = await fake.slash(
            w.gm, "gm cash", character="James Bond", action="give", amount="10", reason="r"
        )
        assert format_amount(Cents(1000), "€") in grant.content
        german = await fake.slash(w.player, "sheet show", _locale="de")
        assert german.embed["fields"][0]["name"] == "Caractéristiques"
        reset = await fake.slash(w.gm, "gm settings", award_table="default")
        assert "(valeur par défaut de la règle)" not in str(reset.embed)
        assert "(the rule's default)" in str(reset.embed)
    assert await query_file(bot_env.database, "SELECT award_table FROM guild_settings") == [(None,)]


async def test_the_ledger_of_a_deleted_character_opens_by_name(bot_env: BotEnv) -> None:
    fake, w = bot_env.fake, bot_env.world
    async with bot_env.run() as bot:
        await make_gm_role(bot_env)
        await fake.slash(w.player, "sheet create", name="James Bond")
        await fake.slash(
            w.gm, "gm hero", character="James Bond", action="give", amount=2, reason="first"
        )
        old = (await query(bot, "SELECT id FROM characters WHERE name = 'James Bond'"))[0][0]
        prompt = await fake.slash(w.player, "sheet delete", character="James Bond")
        await fake.click(w.player, prompt, f"bb:sheet:del:{old}")
        # By name, the deleted character's ledger opens, marked as deleted.
        shown = await fake.slash(w.gm, "gm ledger", character="james bond")
        assert shown.embed["title"] == t("gm.ledger_title_deleted", "en", name="James Bond")
        assert "“first”" in shown.embed["description"]
        # His name is free again: a new James Bond takes it; the name now opens the living
        # one's ledger, and autocomplete offers both, the deleted one marked and by id.
        await fake.slash(w.player, "sheet create", name="James Bond")
        await fake.slash(
            w.gm, "gm hero", character="James Bond", action="give", amount=1, reason="second"
        )
        living = await fake.slash(w.gm, "gm ledger", character="James Bond")
        assert living.embed["title"] == t("gm.ledger_title_character", "en", name="James Bond")
        assert "“second”" in living.embed["description"]
        assert "“first”" not in living.embed["description"]
        choices = await fake.autocomplete(w.gm, "gm ledger", focused="character", value="bond")
        today = bot_env.clock.now.date().isoformat()
        assert choices == [
            {"name": "James Bond", "value": "James Bond"},
            {"name": f"James Bond (deleted {today})", "value": f"#{old}"},
        ]
        fr = await fake.autocomplete(
            w.gm, "gm ledger", focused="character", value="bond", _locale="fr"
        )
        assert fr[1] == {"name": f"James Bond (supprimé le {today})", "value": f"#{old}"}
        picked = await fake.slash(w.gm, "gm ledger", character=f"#{old}", _locale="fr")
        assert picked.embed["title"] == t("gm.ledger_title_deleted", "fr", name="James Bond")
        assert "“first”" in picked.embed["description"]
        # Players get nothing from it; an unknown name is still refused.
        assert await fake.autocomplete(w.player, "gm ledger", focused="character", value="") == []
        nobody = await fake.slash(w.gm, "gm ledger", character="Blofeld")
        assert refused(nobody, "characters.not_found", name="Blofeld")
