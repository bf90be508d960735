"""/sheet end to end: players and the GM, English and French, refusals that change nothing."""

from __future__ import annotations

import json

import pytest
from e2e_env import BotEnv
from sheet_helpers import dump, make_gm_role, not_gm, query, query_file, refused

from bondbot.i18n import t
from bondbot.local import InteractionRejected, Upload


async def _id(bot, name: str) -> int:  # type: ignore[no-untyped-def]
    rows = await query(bot, "SELECT id FROM characters WHERE name = ? AND alive = 1", name)
    assert rows, name
    return int(rows[0][0])


async def test_players_create_set_skills_and_see_sheets_in_their_language(bot_env: BotEnv) -> None:
    fake, w = bot_env.fake, bot_env.world
    async with bot_env.run() as bot:
        await make_gm_role(bot_env)
        # French users see French command, option and choice names.
        sheet = fake.command("sheet", w.guild)
        assert sheet["name_localizations"]["fr"] == "fiche"
        create = next(o for o in sheet["options"] if o["name"] == "create")
        assert create["name_localizations"]["fr"] == "créer"
        kind = next(o for o in create["options"] if o["name"] == "kind")
        assert [c["name_localizations"]["fr"] for c in kind["choices"]] == ["PJ", "PNJ"]
        roll = fake.command("roll", w.guild)
        assert roll["name_localizations"]["fr"] == "jet"
        assert fake.command("gm", w.guild)["name_localizations"]["fr"] == "mj"

        made = await fake.slash(w.player, "sheet create", name="  James   Bond ", perception=9)
        assert made.ephemeral
        assert made.content == t("sheet.created", "en", name="James Bond")
        embed = made.embed
        assert embed is not None and embed["title"] == "James Bond"
        assert "**PER** 9" in embed["fields"][0]["value"]
        bond = await _id(bot, "James Bond")
        rows = await query(bot, "SELECT kind, owner_id FROM characters WHERE id = ?", bond)
        assert rows == [("PC", w.player.id)]
        # A new PC becomes the player's active character.
        assert await query(
            bot, "SELECT character_id FROM active_characters WHERE user_id = ?", w.player.id
        ) == [(bond,)]

        fr = await fake.slash(w.player_fr, "sheet create", name="René Mathis", rank="Rookie")
        assert fr.content == t("sheet.created", "fr", name="René Mathis")
        assert fr.embed["description"].startswith("PJ · Recrue")
        assert fr.embed["fields"][0]["name"] == "Caractéristiques"
        assert "**FOR** 5" in fr.embed["fields"][0]["value"]

        # Skills: standard names in either language, house skills, level 0 removes.
        done = await fake.slash(w.player, "sheet skill", skill="gambling", level=8)
        assert done.content == t("sheet.skill_set", "en", name="James Bond")
        await fake.slash(w.player, "sheet skill", skill="Conduite", level=5)
        await fake.slash(w.player, "sheet skill", skill="Baccarat lore", level=3)
        await fake.slash(w.player, "sheet skill", skill="Driving", level=0)
        data = await query(bot, "SELECT data FROM characters WHERE id = ?", bond)
        assert json.loads(data[0][0])["skills"] == {"gambling": 8, "Baccarat lore": 3}
        fr_skill = await fake.slash(w.player_fr, "sheet skill", skill="Jeu", level=6)
        assert fr_skill.content == t("sheet.skill_set", "fr", name="René Mathis")
        assert "Jeu **6**" in str(fr_skill.embed["fields"])

        # Autocomplete in the user's language, house skills included.
        choices = await fake.autocomplete(w.player_fr, "sheet skill", focused="skill", value="je")
        assert {"name": "Jeu", "value": "gambling"} in choices
        choices = await fake.autocomplete(w.player, "sheet skill", focused="skill", value="gam")
        assert choices[0] == {"name": "Gambling", "value": "gambling"}
        choices = await fake.autocomplete(w.player, "sheet skill", focused="skill", value="bacc")
        assert {"name": "Baccarat lore", "value": "Baccarat lore"} in choices
        names = await fake.autocomplete(w.player, "sheet show", focused="character", value="re")
        assert names == [{"name": "René Mathis", "value": "René Mathis"}]

        # /sheet set: numbers, rank, rename; errors list each field, translated.
        changed = await fake.slash(w.player, "sheet set", strength=8, rank="00", height="1.83 m")
        assert changed.content == t("sheet.updated", "en", name="James Bond")
        assert changed.embed["description"].startswith("PC · 00")
        before = await dump(bot)
        bad = await fake.slash(w.player_fr, "sheet set", perception=16, intelligence=18)
        assert bad.ephemeral and not bad.embeds
        assert bad.content.startswith("Rien n'a été modifié")
        assert "PER, INT au-dessus de 15" in bad.content
        assert "**Caractéristiques**" in bad.content
        taken = await fake.slash(w.player_fr, "sheet set", rename="james bond")
        assert refused(taken, "characters.name_unavailable", "fr", name="james bond")
        too_long = await fake.slash(w.player, "sheet set", rename="x" * 65)
        assert too_long.content == t(
            "sheet.invalid", "en", errors="• **Name**: at most 64 characters"
        )
        nothing = await fake.slash(w.player, "sheet set")
        assert refused(nothing, "sheet.nothing_to_change")
        survival = await fake.slash(w.player, "sheet set", survival_points=3)
        assert refused(survival, "sheet.survival_gm_only")
        assert await dump(bot) == before

        # Anyone sees a PC; a public show is posted in the channel.
        seen = await fake.slash(w.player, "sheet show", character="rené mathis")
        assert seen.ephemeral and seen.embed["title"] == "René Mathis"
        posted = await fake.slash(w.player_fr, "sheet show", public=True)
        assert not posted.ephemeral and posted.embed["title"] == "René Mathis"
        assert posted.embed["fields"][0]["name"] == "Caractéristiques"
        unknown = await fake.slash(w.player, "sheet show", character="Blofeld")
        assert refused(unknown, "characters.not_found", name="Blofeld")

        listed = await fake.slash(w.player, "sheet list")
        assert listed.ephemeral
        lines = listed.embed["description"].splitlines()
        assert lines[0].startswith("**James Bond** — PC, 00") and "★ active" in lines[0]
        assert lines[1].startswith("**René Mathis** — PC, Rookie")
        listed_fr = await fake.slash(w.player_fr, "sheet list", mine=True)
        assert listed_fr.embed["title"] == "Personnages"
        assert listed_fr.embed["description"].startswith("**René Mathis** — PJ, Recrue")
        assert "James Bond" not in listed_fr.embed["description"]

        # Someone else's sheet: neither edit, set, skill, use, delete nor export.
        before = await dump(bot)
        for command, options in (
            ("sheet edit", {"character": "René Mathis"}),
            ("sheet set", {"character": "René Mathis", "strength": 9}),
            ("sheet skill", {"character": "René Mathis", "skill": "Jeu", "level": 15}),
            ("sheet delete", {"character": "René Mathis"}),
            ("sheet export", {"character": "René Mathis"}),
        ):
            answer = await fake.slash(w.player, command, **options)
            assert refused(answer, "sheet.not_allowed", name="René Mathis"), command
            assert answer.modal is None
        steal = await fake.slash(w.player, "sheet use", character="René Mathis")
        assert refused(steal, "characters.not_owner", name="René Mathis")
        french = await fake.slash(
            w.player_fr, "sheet skill", character="James Bond", skill="x", level=1
        )
        assert refused(french, "sheet.not_allowed", "fr", name="James Bond")
        # Out-of-range numbers never reach the bot: Discord enforces the option limits.
        for options in ({"level": 16}, {"level": -1}):
            with pytest.raises(InteractionRejected):
                await fake.slash(w.player, "sheet skill", skill="Jeu", **options)
        assert await dump(bot) == before


async def test_edit_modal_delete_confirm_and_restart(bot_env: BotEnv) -> None:
    fake, w = bot_env.fake, bot_env.world
    async with bot_env.run() as bot:
        await make_gm_role(bot_env)
        await fake.slash(w.player, "sheet create", name="James Bond")
        await fake.slash(w.player_fr, "sheet create", name="René Mathis")
        bond = await _id(bot, "James Bond")

        opened = await fake.slash(w.player, "sheet edit")
        modal = opened.modal
        assert modal is not None and modal.title == "Edit James Bond"
        assert modal.field_ids == [
            "height_weight",
            "appearance",
            "weaknesses",
            "fields_of_experience",
            "notes",
        ]
        saved = await fake.submit_modal(
            w.player,
            opened,
            {
                "height_weight": "1.83 m / 76 kg",
                "appearance": "Scar on the right cheek",
                "weaknesses": "Martinis\r\nCards",
                "notes": "Licence to kill",
            },
        )
        assert saved.ephemeral and saved.content == t("sheet.updated", "en", name="James Bond")
        data = json.loads(
            (await query(bot, "SELECT data FROM characters WHERE id = ?", bond))[0][0]
        )
        assert (data["height"], data["weight"]) == ("1.83 m", "76 kg")
        assert data["weaknesses"] == "Martinis\nCards"
        assert data["appearance"] == "Scar on the right cheek"
        # The modal opens again prefilled with the sheet; French labels for a French user.
        again = await fake.slash(w.player, "sheet edit")
        assert again.modal.field("height_weight")["value"] == "1.83 m / 76 kg"
        fr = await fake.slash(w.player_fr, "sheet edit")
        assert fr.modal.title == "Modifier René Mathis"
        assert fr.modal.labels()[0].startswith("Taille / Poids")
        bad = await fake.submit_modal(w.player_fr, fr, {"height_weight": "x" * 40})
        assert bad.content == t(
            "sheet.invalid", "fr", errors="• **Taille** : au plus 32 caractères"
        )

        # The GM edits anyone's sheet through the same modal.
        gm_edit = await fake.slash(w.gm, "sheet edit", character="René Mathis")
        done = await fake.submit_modal(w.gm, gm_edit, {"notes": "Works for Mathis Ltd"})
        assert done.content == t("sheet.updated", "en", name="René Mathis")

        # Delete asks first; Keep changes nothing.
        asked = await fake.slash(w.player, "sheet delete", character="James Bond")
        assert asked.ephemeral
        assert asked.custom_ids() == [f"bb:sheet:del:{bond}", f"bb:sheet:keep:{bond}"]
        kept = await fake.click(w.player, asked, label="Keep it")
        assert kept.response_type == 7 and kept.content == t("sheet.kept", "en")
        assert await _id(bot, "James Bond") == bond
        asked = await fake.slash(w.player, "sheet delete", character="James Bond")

    # The confirmation still works after a restart: it is routed by its custom id.
    async with bot_env.run() as bot:
        deleted = await fake.click(w.player, asked, label="Delete")
        assert deleted.content == t("sheet.deleted", "en", name="James Bond")
        assert deleted.components == []
        rows = await query(bot, "SELECT alive FROM characters WHERE id = ?", bond)
        assert rows == [(0,)]
        assert (
            await query(bot, "SELECT * FROM active_characters WHERE character_id = ?", bond) == []
        )
        # The name is free again; the GM deletes René's sheet in French.
        again = await fake.slash(w.player, "sheet create", name="James Bond")
        assert again.content == t("sheet.created", "en", name="James Bond")
        gm_delete = await fake.slash(w.gm, "sheet delete", character="René Mathis", _locale="fr")
        assert gm_delete.content == t("sheet.delete_confirm", "fr", name="René Mathis")
        gone = await fake.click(w.gm, gm_delete, label="Supprimer", _locale="fr")
        assert gone.content == t("sheet.deleted", "fr", name="René Mathis")
        no_active = await fake.slash(w.player_fr, "sheet show")
        assert refused(no_active, "sheet.no_active", "fr")
    assert await query_file(bot_env.database, "SELECT name, alive FROM characters ORDER BY id") == [
        ("James Bond", 0),
        ("René Mathis", 0),
        ("James Bond", 1),
    ]


async def test_gm_npcs_reveal_use_and_pcs_for_players(bot_env: BotEnv) -> None:
    fake, w = bot_env.fake, bot_env.world
    async with bot_env.run() as bot:
        # Before a GM role exists, nobody reveals anything.
        await fake.slash(w.player, "sheet create", name="James Bond")
        nobody = await fake.slash(w.gm, "sheet reveal", character="James Bond")
        assert nobody.ephemeral and nobody.content in {
            t("errors.no_gm_role", "en"),
            t("gm.no_role_set", "en"),
        }
        await make_gm_role(bot_env)
        before = await dump(bot)
        npc = await fake.slash(w.player, "sheet create", name="Le Chiffre", kind="NPC")
        assert refused(npc, "sheet.npc_gm_only")
        other = await fake.slash(w.player, "sheet create", name="Vesper", player=w.player_fr)
        assert refused(other, "sheet.other_player_gm_only")
        npc_fr = await fake.slash(w.player_fr, "sheet create", name="Le Chiffre", kind="NPC")
        assert refused(npc_fr, "sheet.npc_gm_only", "fr")
        assert await dump(bot) == before

        made = await fake.slash(
            w.gm, "sheet create", name="Le Chiffre", kind="NPC", intelligence=18, perception=17
        )
        assert made.embed["description"] == "NPC · Agent · hidden from players"
        villain = await _id(bot, "Le Chiffre")
        for_fr = await fake.slash(w.gm, "sheet create", name="Mathis", player=w.player_fr)
        assert f"<@{w.player_fr.id}>" in for_fr.embed["description"]
        assert await query(bot, "SELECT owner_id FROM characters WHERE name = 'Mathis'") == [
            (w.player_fr.id,)
        ]
        assert await query(
            bot, "SELECT character_id FROM active_characters WHERE user_id = ?", w.player_fr.id
        ) == [(await _id(bot, "Mathis"),)]
        both = await fake.slash(w.gm, "sheet create", name="X", kind="NPC", player=w.player)
        assert refused(both, "sheet.npc_has_no_player")
        over = await fake.slash(w.gm, "sheet create", name="Jaws", kind="PC", strength=19)
        assert over.content.startswith("Nothing was changed") and "STR above 15" in over.content

        # A hidden NPC: players neither see nor list it; the GM does.
        hidden = await fake.slash(w.player, "sheet show", character="Le Chiffre")
        assert refused(hidden, "characters.not_found", name="Le Chiffre")
        hidden_fr = await fake.slash(w.player_fr, "sheet show", character="le chiffre")
        assert refused(hidden_fr, "characters.not_found", "fr", name="le chiffre")
        assert "Le Chiffre" not in (await fake.slash(w.player, "sheet list")).embed["description"]
        assert (
            await fake.autocomplete(w.player, "sheet show", focused="character", value="le") == []
        )
        gm_list = await fake.slash(w.gm, "sheet list")
        assert "**Le Chiffre** — NPC, Agent — hidden from players" in gm_list.embed["description"]
        gm_sees = await fake.slash(w.gm, "sheet show", character="Le Chiffre")
        assert gm_sees.embed["title"] == "Le Chiffre"
        assert "**INT** 18" in gm_sees.embed["fields"][0]["value"]

        # Only the GM reveals; then players see it, until it is hidden again.
        denied = await fake.slash(w.player, "sheet reveal", character="Le Chiffre")
        assert not_gm(denied)
        denied_fr = await fake.slash(w.player_fr, "sheet reveal", character="Le Chiffre")
        assert not_gm(denied_fr, "fr")
        pc = await fake.slash(w.gm, "sheet reveal", character="James Bond")
        assert refused(pc, "sheet.reveal_npc_only")
        shown = await fake.slash(w.gm, "sheet reveal", character="Le Chiffre")
        assert shown.content == t("sheet.now_revealed", "en", name="Le Chiffre")
        seen = await fake.slash(w.player_fr, "sheet show", character="Le Chiffre")
        assert seen.embed["description"] == "PNJ · Agent · visible des joueurs"
        assert "Le Chiffre" in (await fake.slash(w.player, "sheet list")).embed["description"]
        # Players still cannot change or play a revealed NPC.
        edit = await fake.slash(w.player, "sheet set", character="Le Chiffre", strength=1)
        assert refused(edit, "sheet.not_allowed", name="Le Chiffre")
        play = await fake.slash(w.player, "sheet use", character="Le Chiffre")
        assert refused(play, "sheet.npc_use_gm_only")
        hide = await fake.slash(w.gm, "sheet reveal", character="Le Chiffre", revealed=False)
        assert hide.content == t("sheet.now_hidden", "en", name="Le Chiffre")
        again = await fake.slash(w.player, "sheet show", character="Le Chiffre")
        assert refused(again, "characters.not_found", name="Le Chiffre")

        # The GM plays the NPC, changes anyone's numbers, and sets Survival Points.
        used = await fake.slash(w.gm, "sheet use", character="Le Chiffre")
        assert used.content == t("sheet.now_active", "en", name="Le Chiffre")
        survival = await fake.slash(w.gm, "sheet set", survival_points=4, strength=20)
        assert "Survival Points" in str(survival.embed["fields"])
        bond_set = await fake.slash(w.gm, "sheet set", character="James Bond", dexterity=12)
        assert "**DEX** 12" in bond_set.embed["fields"][0]["value"]
        data = json.loads(
            (await query(bot, "SELECT data FROM characters WHERE id = ?", villain))[0][0]
        )
        assert data["survival_points"] == 4 and data["characteristics"]["STR"] == 20
        # The player picks his PC again after the GM's changes.
        mine = await fake.slash(w.player, "sheet use", character="james bond")
        assert mine.content == t("sheet.now_active", "en", name="James Bond")
        fr_use = await fake.slash(w.player_fr, "sheet use", character="Mathis")
        assert fr_use.content == t("sheet.now_active", "fr", name="Mathis")


async def test_export_and_import(bot_env: BotEnv) -> None:
    fake, w = bot_env.fake, bot_env.world
    async with bot_env.run() as bot:
        await make_gm_role(bot_env)
        await fake.slash(w.player, "sheet create", name="James Bond", perception=9)
        await fake.slash(w.player, "sheet skill", skill="Gambling", level=8)
        await fake.slash(
            w.gm, "gm hero", character="James Bond", action="give", amount=2, reason="r"
        )

        exported = await fake.slash(w.player, "sheet export")
        assert exported.ephemeral
        assert exported.content == t("sheet.exported", "en", name="James Bond")
        (file,) = exported.attachments
        assert file.filename == "james-bond.json"
        document = json.loads(file.data)
        assert document["format"] == "bondbot.sheet" and document["version"] == 1
        assert document["skills"] == {"gambling": 8} and document["hero_points"] == 2

        # A player's import: owned by him, his Hero Points and cash left behind.
        copy = {**document, "name": "Bond (backup)", "cash": 5000}
        imported = await fake.slash(
            w.player_fr, "sheet import", file=Upload("bond.json", json.dumps(copy).encode())
        )
        fields = "Points d'Héroïsme, Argent"
        assert imported.content == t(
            "sheet.imported",
            "fr",
            name="Bond (backup)",
            dropped="\n" + t("sheet.import_dropped", "fr", fields=fields),
        )
        backup = await _id(bot, "Bond (backup)")
        assert await query(bot, "SELECT owner_id FROM characters WHERE id = ?", backup) == [
            (w.player_fr.id,)
        ]
        assert await query(bot, "SELECT * FROM balances WHERE account = ?", f"sheet:{backup}") == []

        # The GM's import keeps them, ledgered, and may give the PC to a player.
        gm_copy = {**document, "name": "Bond (GM copy)"}
        gm_imported = await fake.slash(
            w.gm,
            "sheet import",
            file=Upload("bond.json", json.dumps(gm_copy).encode()),
            player=w.player,
        )
        assert gm_imported.content == t("sheet.imported", "en", name="Bond (GM copy)", dropped="")
        gm_id = await _id(bot, "Bond (GM copy)")
        rows = await query(
            bot,
            "SELECT kind, amount, src, reason, note FROM ledger WHERE dst = ?",
            f"sheet:{gm_id}",
        )
        assert rows == [("hero", 2, None, "sheet.create", "import")]
        npc = {**document, "name": "Henchman", "kind": "NPC", "owner_id": None}
        before = await dump(bot)
        player_npc = await fake.slash(
            w.player, "sheet import", file=Upload("npc.json", json.dumps(npc).encode())
        )
        assert refused(player_npc, "sheet.npc_gm_only")

        # A bad file: every bad field listed, translated; nothing created.
        bad = {
            "format": "bondbot.sheet",
            "version": 1,
            "name": "",
            "kind": "PC",
            "rank": "General",
            "characteristics": {"STR": 99, "DEX": "high"},
            "skills": {"Jeu": 3, "gambling": 4, "Driving": 16},
            "colour": "blue",
        }
        answer = await fake.slash(
            w.player_fr, "sheet import", file=Upload("bad.json", json.dumps(bad).encode())
        )
        assert answer.ephemeral and not answer.embeds
        text = answer.content
        assert text.startswith("Ce fichier ne peut pas être importé")
        for expected in (
            "**Nom** (`name`) : ne doit pas être vide",
            "**Rang** (`rank`) : doit valoir 'Rookie', 'Agent' ou '00'",
            "**Caractéristiques › FOR** (`characteristics.STR`) : doit valoir au plus 20",
            "**Caractéristiques › DEX** (`characteristics.DEX`) : doit être un nombre entier",
            "**Compétences › Driving** (`skills.Driving`) : doit valoir au plus 15",
            "(`colour`) : champ inconnu",
        ):
            assert expected in text, (expected, text)
        english = await fake.slash(
            w.player, "sheet import", file=Upload("bad.json", json.dumps(bad).encode())
        )
        assert "**Characteristics › STR** (`characteristics.STR`): must be at most 20" in (
            english.content
        )
        not_json = await fake.slash(w.player, "sheet import", file=Upload("x.json", b"{oops"))
        assert refused(not_json, "sheet.import_not_json", line=1, column=2)
        not_sheet = await fake.slash(w.player, "sheet import", file=Upload("x.json", b"[1, 2]"))
        assert "a sheet must be a JSON object" in not_sheet.content
        binary = await fake.slash(w.player, "sheet import", file=Upload("x.json", b"\xff\xfe\x00"))
        assert refused(binary, "sheet.import_not_utf8")
        huge = await fake.slash(w.player, "sheet import", file=Upload("x.json", b" " * 70_000))
        assert refused(huge, "sheet.import_too_big", max=64)
        assert await dump(bot) == before
