"""The slash commands end to end: real bot, loopback Discord, real SQLite file."""

from __future__ import annotations

import io

from PIL import Image

from tests.e2e.conftest import Table, last_message, text_of


async def test_battle_new_posts_an_embed_with_the_map(table: Table) -> None:
    reply = await table.slash("battle new", name="Siege of Hakone", ruleset="strategic-e", width=30, height=20)
    message = last_message(reply)
    assert not message.ephemeral
    assert message.embeds[0]["title"] == "New battle: Siege of Hakone"
    assert message.embeds[0]["image"]["url"] == "attachment://map.png"
    image = Image.open(io.BytesIO(message.files[0].data))
    assert image.format == "PNG" and image.width > 30 * 18
    record = await table.db.battles.in_channel(table.discord.guild.id, table.channel.id)
    assert record is not None and record.name == "Siege of Hakone" and record.created_by == table.gm.id


async def test_toy_battle_paint_add_move_and_map(table: Table) -> None:
    await table.setup_battle()
    paint = await table.slash("map paint", terrain="forest", **{"from": "E1"}, to="G6")
    assert "18 squares painted forest" in text_of(paint)
    await table.slash("battle start")
    move = await table.slash("move", user=table.alice, unit="Eva-01", to="G3")
    assert "Eva-01 moved C3 → G3 (cost 4)" in text_of(move)
    assert last_message(move).files, "a move posts the map"
    record = await table.db.battles.in_channel(table.discord.guild.id, table.channel.id)
    assert record is not None
    units = {u["name"]: (u["x"], u["y"]) for u in record.state["units"]}
    assert units["Eva-01"] == (6, 2)
    shown = await table.slash("map show", full=True)
    assert last_message(shown).files[0].filename == "map.png"


async def test_move_without_to_shows_reach_ephemerally(table: Table) -> None:
    await table.setup_battle()
    await table.slash("battle start")
    reply = await table.slash("move", user=table.alice, unit="Eva-01")
    message = last_message(reply)
    assert message.ephemeral
    assert "**Full**: " in text_of(reply) and message.files


async def test_act_shows_the_breakdown(table: Table) -> None:
    await table.setup_battle()
    reply = await table.slash("act", user=table.alice, unit="Eva-01", stat="ag", modifier=10, reason="footing")
    text = text_of(reply)
    assert "Agility (AG) **45**" in text and "+10 footing" in text and "Target **55**" in text


async def test_roll_outside_a_battle(table: Table) -> None:
    reply = await table.slash("roll", user=table.carol, dice="2d6+3")
    text = text_of(reply)
    assert "carol rolls" in text and "`2d6+3`" in text


async def test_unit_info_and_remove(table: Table) -> None:
    await table.setup_battle()
    info = await table.slash("unit info", user=table.bob, unit="eva-02")
    assert "Eva-02 (NERV)" in text_of(info) and "AG 52" in text_of(info)
    await table.slash("unit remove", unit="Sachiel")
    record = await table.db.battles.in_channel(table.discord.guild.id, table.channel.id)
    assert record is not None and "Sachiel" not in {u["name"] for u in record.state["units"]}


async def test_battle_list_and_info(table: Table) -> None:
    await table.setup_battle()
    listing = await table.slash("battle list", user=table.carol)
    assert "Test Battle" in text_of(listing) and last_message(listing).ephemeral
    info = await table.slash("battle info", user=table.carol)
    assert "Eva-01 on C3" in text_of(info) and "Sachiel on P10" in text_of(info)


async def test_thread_option_opens_a_thread(table: Table) -> None:
    reply = await table.slash("battle new", name="Thread War", ruleset="strategic-p", width=10, height=10, thread=True)
    threads = table.discord.threads(table.channel)
    assert len(threads) == 1 and threads[0].name == "Thread War"
    assert f"<#{threads[0].id}>" in text_of(reply)
    info = await table.slash("battle info", channel=threads[0])
    assert "Thread War" in text_of(info)


async def test_help_has_both_guides(table: Table) -> None:
    reply = await table.slash("help", user=table.carol)
    text = text_of(reply)
    assert "GM: set up a battle in four steps" in text and "Players" in text
    assert last_message(reply).ephemeral
    # Every guide arrives whole: each message within Discord's 6,000 embed characters, no field cut away.
    # Outside a battle every rule system's part is shown, in the order of the systems' ids.
    names = [f["name"] for m in reply.messages for e in m.embeds for f in e.get("fields", [])]
    assert names == ["GM: set up a battle in four steps", "Combat Action (squads, vehicles, robots): the GM",
                     "M42: leaders, models and Command Radius", "Strategic Combat: set up a battle",
                     "Surface Combat (no map)", "Weapons typed in /unit add and /unit edit", "The clock: deadlines, clock hours, time banks, quiet hours",
                     "Players", "Takebacks, your battles, substitutes", "Combat Action players", "Players in M42", "Strategic Combat players",
                     "Time zones and vacations"]
    for message in reply.messages:
        assert message.ephemeral
        size = sum(len(e.get("title", "")) + len(e.get("description", "")) + len(e.get("footer", {}).get("text", ""))
                   + sum(len(f["name"]) + len(f["value"]) for f in e.get("fields", [])) for e in message.embeds)
        assert size <= 6000


async def test_battle_survives_a_restart(table: Table) -> None:
    await table.setup_battle()
    await table.restart()
    reply = await table.slash("unit info", user=table.alice, unit="Eva-01")
    assert "on **C3**" in text_of(reply)


async def test_gm_role_setting(table: Table) -> None:
    role = table.discord.add_role(table.discord.guild, "Referee")
    table.discord.give_role(table.carol, role)
    await table.setup_battle()
    refused = await table.slash("map paint", user=table.carol, terrain="forest", **{"from": "A1"})
    assert last_message(refused).ephemeral and "Only a GM" in text_of(refused)
    await table.slash("settings gm-role", role=role)
    allowed = await table.slash("map paint", user=table.carol, terrain="forest", **{"from": "A1"})
    assert "1 square painted forest" in text_of(allowed)


async def test_battle_rules_show_and_set(table: Table) -> None:
    await table.setup_battle()
    shown = await table.slash("battle rules show", user=table.alice)
    assert "`modifier_cap` = **60**" in text_of(shown) and last_message(shown).ephemeral
    await table.slash("battle rules set", key="modifier_cap", value="40")
    after = await table.slash("battle rules show", user=table.alice)
    assert "`modifier_cap` = **40** (default 60)" in text_of(after)
    bad = await table.slash("battle rules set", key="modifier_cap", value="500")
    assert last_message(bad).ephemeral and "between 0 and 100" in text_of(bad)
    refused = await table.slash("battle rules set", user=table.alice, key="modifier_cap", value="30")
    assert "Only a GM" in text_of(refused)


async def test_roll_takes_keep_highest_and_a_comment(table: Table) -> None:
    """/roll reads the notation players know: 4d6kh3 keeps the three highest, and words after the dice say why."""
    reply = await table.slash("roll", user=table.carol, dice="4d6kh3 for strength")
    text = text_of(reply)
    assert "`4d6kh3`" in text and "for strength" in text
    refused = await table.slash("roll", user=table.carol, dice="d")
    assert "`d` is not dice notation" in text_of(refused)
