"""The shared commands answer for every rule system: a map-less battle refuses map commands, a Combat Action
battle lists, shows, draws and moves its own units, and /move offers the battle's own modes."""

from __future__ import annotations

import pytest

from rules.battle import Battle
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.test_surface import setup as surface_setup

MAP_COMMANDS = [
    ("map show", {}),
    ("map paint", {"terrain": "plain", "from": "A1"}),
    ("map export", {}),
    ("unit add", {"name": "Stray", "side": "Marines", "at": "B2"}),
    ("move", {"unit": "Hammer", "to": "A1"}),
    ("move", {"unit": "Hammer"}),
]


@pytest.mark.parametrize(("command", "options"), MAP_COMMANDS, ids=[c for c, _ in MAP_COMMANDS])
async def test_a_mapless_battle_refuses_map_commands_privately(table: Table, command: str, options: dict[str, str]) -> None:
    """DESIGN 3: "A system without a map (`surface`) uses the same orders, dice, outcomes, undo, turns and storage";
    commands that need squares say why they cannot run, only to the caller, and change nothing."""
    await surface_setup(table, start=False)
    record = await table.service.battle_here(table.discord.guild.id, table.channel.id)
    before = (await table.db.battles.get(record.id)).version
    reply = await table.slash(command, **options)
    assert last_message(reply).ephemeral
    assert "Surface Combat, which has no map" in text_of(reply)
    assert (await table.db.battles.get(record.id)).version == before


async def test_a_mapless_battle_lists_its_forces_in_its_own_terms(table: Table) -> None:
    """/battle info shows a Surface force through the system's front end and /unit info reads a unit through its
    hooks: type, damage, ratings, no squares."""
    await surface_setup(table, start=False)
    info = text_of(await table.slash("battle info"))
    assert "**Hammer** \u00b7 Space Marines \u00b7 damage 0/4" in info and "Leader Kell (Ability 2)" in info
    assert " on A1" not in info and "map 1\u00d71" not in info
    card = text_of(await table.slash("unit info", unit="Old Guard"))
    assert "morale 8" in card and "damage 0/" in card and "**A1**" not in card


async def _combat_battle(table: Table) -> None:
    await table.slash("battle new", name="Skirmish", ruleset="combat-action", width=20, height=20)
    await table.slash("unit add", name="Trooper", side="Red", at="B2", owner=table.alice)
    await table.slash("unit add", name="Raider", side="Blue", at="B9", owner=table.bob)


async def test_a_combat_action_battle_shows_its_units_and_map(table: Table) -> None:
    """The unit list, the card, the status board and the map read a Combat Action unit, not a Strategic one."""
    await _combat_battle(table)
    info = text_of(await table.slash("battle info"))
    assert "Trooper on B2 \u00b7 infantry SS 4 PF 0 MV 10 cm, unhurt" in info
    card = text_of(await table.slash("unit info", unit="Trooper"))
    assert "SS **4** \u00b7 PF **0** \u00b7 MV **10** cm \u00b7 size medium \u00b7 Discipline 4" in card
    board = text_of(await table.slash("turn status"))
    assert "**Raider** B9 \u00b7 infantry SS 4 PF 0 MV 10 cm, unhurt" in board
    shown = await table.slash("map show")
    assert last_message(shown).files[0].data.startswith(b"\x89PNG")


async def test_move_takes_the_battles_own_modes(table: Table) -> None:
    """/move offers the ruleset's modes: `run` is Strategic, so a Combat Action battle refuses it and names its
    own; without a mode the ruleset's default (walk, 1 AP) moves the unit."""
    await _combat_battle(table)
    await table.slash("turn mode", mode="free")
    await table.slash("battle start")
    refused = await table.slash("move", user=table.alice, unit="Trooper", to="B4", mode="run")
    assert last_message(refused).ephemeral
    assert "`run` is not a way to move" in text_of(refused) and "walk, charge (default walk)" in text_of(refused)
    moved = await table.slash("move", user=table.alice, unit="Trooper", to="B4")
    assert not last_message(moved).ephemeral and last_message(moved).files
    assert "mode:walk" in text_of(moved)
    record = await table.service.battle_here(table.discord.guild.id, table.channel.id)
    battle = Battle.from_dict((await table.db.battles.get(record.id)).state)
    assert str(battle.unit("Trooper").cell) == "B4"


async def test_strategic_move_refuses_another_systems_mode(table: Table) -> None:
    """The modes are the battle's: `walk` is Combat Action's, so a Strategic battle refuses it with its own."""
    await table.setup_battle()
    refused = await table.slash("move", user=table.alice, unit="Eva-01", to="D3", mode="walk")
    assert last_message(refused).ephemeral
    assert "half, full, run (default full)" in text_of(refused)


async def test_move_mode_autocomplete_offers_the_battles_modes(table: Table) -> None:
    """The mode menu lists the ruleset's modes, its default first."""
    await _combat_battle(table)
    choices = await table.discord.autocomplete("move", "mode", "", user=table.alice, channel=table.channel,
                                               options={"unit": "Trooper"})
    assert [c["value"] for c in choices] == ["walk", "charge"]
