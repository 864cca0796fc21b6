"""An M42 battle through slash commands: two units through woods, over a wall, along a road, into a building.

The same battle is examples/m42/farmstead.play, which the console plays too; both replay to their state.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

from bot.console import run_script
from rules.battle import Battle
from rules.coords import Cell
from rules.replay import replay, same_state, steps_from_log
from rules.systems.m42.placement import verdict
from rules.systems.m42.units import Spot, Unit
from storage import Database
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.setup_helpers import refused, stored, stored_battle
from tests.e2e.test_console import settings_for
from tests.e2e.turn_helpers import end_turn, posted, prompts
from tests.e2e.turn_helpers import message_text as text_of_message

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "m42"


async def farmstead(table: Table) -> None:
    """Lay out the Farmstead as examples/m42/farmstead.play does, with Alpha and Bravo for alice."""
    await table.slash("battle new", name="Farmstead", ruleset="m42", width=34, height=20)
    await table.slash("map paint", terrain="woods", **{"from": "H1"}, to="K9")
    await table.slash("map edge", edges="L1-L9:e", obstacle="wall", height=2.0)
    await table.slash("map edge", edges="Q1-Q12:e", obstacle="wall", height=4.0)
    await table.slash("map road", **{"from": "A15"}, to="Z15")
    await table.slash("map paint", terrain="building", **{"from": "AA12"}, to="AE17")
    await table.slash("map floors", **{"from": "AA12"}, to="AE17", floors=2)
    await table.slash("map edge", edges="Z15|AA15", obstacle="wall", height=3.0, opening=1.5)
    await table.slash("map paint", terrain="lava", **{"from": "S17"}, to="U19")
    squads = (EXAMPLES / "squads.toml").read_bytes()
    await table.slash("unit import", file=("squads.toml", squads), owner=table.alice)
    await table.slash("unit add", name="Ghost", side="Blue", at="AF4", owner=table.bob, ld=2, models=3)
    await table.slash("battle start")


async def unit(table: Table, name: str) -> tuple[Battle, Unit]:
    """Return the stored battle and one of its M42 units."""
    battle = await stored_battle(table)
    found = battle.unit(name)
    assert isinstance(found, Unit)
    return battle, found


def all_placed_legally(battle: Battle, unit: Unit) -> bool:
    """Return whether every model of the unit stands where the placement rules allow around its leader."""
    return all(verdict(battle, unit, unit.leader, m, set(unit.models) - {m}).ok for m in unit.models)


async def next_round(table: Table) -> None:
    """End every unit's turn: Red's then Blue's."""
    await end_turn(table, user=table.alice, unit="Alpha")
    await end_turn(table, user=table.alice, unit="Bravo")
    await end_turn(table, user=table.bob, unit="Ghost")


async def test_two_units_through_woods_over_a_wall_along_a_road_into_a_building(table: Table) -> None:
    await farmstead(table)
    alice = table.alice
    # Open ground: the full 6" (004:L23, L31).
    moved = await table.slash("move", user=alice, unit="Alpha", to="J5", mode="advance")
    assert last_message(moved).ephemeral
    assert 'the way there (6") goes through area terrain (004:L29), which halves the move to 3" (A90)' in text_of(moved)
    moved = await table.slash("move", user=alice, unit="Alpha", to="G5", mode="advance")
    assert 'Advance D5 \u2192 G5, 3" of 6"' in text_of(moved)
    # Its one action taken, the unit may still place its models by hand: its turn does not end by itself.
    assert "nothing left to do" not in text_of(moved)
    # Along the road, starting and ending on it: 12" + 2" (004:L72).
    road = await table.slash("move", user=alice, unit="Bravo", to="R15", mode="at-the-double")
    assert 'At-The-Double D15 \u2192 R15, 14" of 14"' in text_of(road)
    battle, bravo = await unit(table, "Bravo")
    assert all_placed_legally(battle, bravo) and len(bravo.models) == 3
    await end_turn(table, user=alice, unit="Alpha")
    await end_turn(table, user=alice, unit="Bravo")
    await end_turn(table, user=table.bob, unit="Ghost")
    # Into the woods: halved to 3" (004:L29); models by hand inside the woods with the leader (004:L44).
    woods = await table.slash("action", user=alice, unit="Alpha", action="advance", to="J5", models="I5 J4 J6 I4")
    assert 'Advance G5 \u2192 J5, 3" of 3", halved once for area terrain (A90)' in text_of(woods)
    battle, alpha = await unit(table, "Alpha")
    assert [str(m) for m in alpha.models] == ["I5", "J4", "J6", "I4"]
    # Along the road again: 6" + 2".
    road = await table.slash("move", user=alice, unit="Bravo", to="Z15", mode="advance")
    assert 'Advance R15 \u2192 Z15, 8" of 8"' in text_of(road)
    await next_round(table)
    # Out of the woods and over the 2" wall: halved once, not twice (A90).
    wall = await table.slash("move", user=alice, unit="Alpha", to="M5", mode="advance")
    assert '3" of 3", halved once for area terrain, a linear obstacle (A90)' in text_of(wall)
    battle, alpha = await unit(table, "Alpha")
    assert all_placed_legally(battle, alpha)
    # Models left behind the wall stand within 1 x Ld = 3" (004:L58).
    assert all((m.x - alpha.x) ** 2 + (m.y - alpha.y) ** 2 <= 9 for m in alpha.models if m.x < 12)
    # Through the door into the building: no halving, the models follow inside (004:L83, L94).
    door = await table.slash("action", user=alice, unit="Bravo", action="advance", to="AB15")
    assert 'Advance Z15 \u2192 AB15, 2" of 6"' in text_of(door) and "halved" not in text_of(door)
    battle, bravo = await unit(table, "Bravo")
    assert all(battle.terrain_at(m.cell).key == "building" for m in bravo.models)
    await next_round(table)
    # Up the stairs, a model left at the door below (004:L90, L96).
    up = await table.slash("action", user=alice, unit="Bravo", action="advance", to="AB15", floor=1,
                           models="AA15 AB14^1 AC15^1")
    assert '3" of 6"' in text_of(up)
    battle, bravo = await unit(table, "Bravo")
    assert bravo.leader == Spot.parse("AB15^1") and bravo.models[0] == Spot.parse("AA15")
    record = await stored(table)
    initial = await table.db.events.initial_state(record.id)
    assert initial is not None
    events = await table.db.events.list(record.id, limit=1000, newest_first=False)
    log = [{"seq": e.seq, "kind": e.kind, "order": e.order_text, "outcome": e.outcome, "undone": e.undone}
           for e in events]
    assert same_state(replay(initial, steps_from_log(log)).to_dict(), record.state)


async def test_my_options_lists_each_action_and_how_far_it_goes(table: Table) -> None:
    await farmstead(table)
    record = await stored(table)
    [prompt] = prompts(posted(table))
    assert "/action" in text_of_message(prompt) and "/place" in text_of_message(prompt)
    reply = await table.click(prompt, f"bp:opts:{record.id}:Bravo", user=table.alice)
    text = text_of(reply)
    assert last_message(reply).ephemeral and last_message(reply).files
    # Bravo stands on the road: each action gains 2" (004:L72), halved after the bonus (A91).
    assert 'Advance**: 8", 4" through area terrain' in text and 'At-The-Double**: 14", 7"' in text
    assert "Command Radius" in text and "Ld 2: 2 x Ld = 4\"" in text


async def test_bad_moves_and_placements_are_refused_naming_the_rule(table: Table) -> None:
    """The issue's bad input: impassable terrain, a tall wall, a model outside its radius, a wall without opening."""
    await farmstead(table)
    alice = table.alice
    await refused(table, "action", "T17 is impassable terrain: infantry may not enter it at all (004:L129)",
                  user=alice, unit="Bravo", action="at-the-double", to="T17")
    # Bravo's leader stands on the road at D15: its models reach 3 x Ld = 6" along it (004:L74), K15 is 7".
    await refused(table, "place", "cannot stand on K15: its base would reach 7\" from the leader's, beyond the limit "
                  "here, along the leader's road: 3 x Ld = 6\" (004:L74)", user=alice, unit="Bravo", models="K15")
    await refused(table, "place", "D5 already holds a model of Alpha", user=alice, unit="Bravo", models="D14 D5")
    await table.slash("move", user=alice, unit="Alpha", to="J5", mode="at-the-double")
    await next_round(table)
    await table.slash("move", user=alice, unit="Alpha", to="P5", mode="at-the-double")
    await next_round(table)
    await refused(table, "move", "a wall taller than 3\" is in the way: an infantry leader cannot cross it (004:L59)",
                  user=alice, unit="Alpha", to="S5", mode="at-the-double")
    await refused(table, "move", "not yours", user=table.bob, unit="Alpha", to="P6", mode="advance")
    await refused(table, "move", "`full` is not a way to move in", user=alice, unit="Alpha", to="P6", mode="full")


async def test_a_building_entered_through_a_wall_without_opening_halves_the_move(table: Table) -> None:
    """004:L88: crossing an outer wall with no opening halves the move; a goal only the full move reaches is refused."""
    await table.slash("battle new", name="Shed", ruleset="m42", width=12, height=4)
    await table.slash("map paint", terrain="building", **{"from": "E1"}, to="L4")
    await table.slash("unit add", name="Alpha", side="Red", at="B2", owner=table.alice, ld=1, models=1)
    await table.slash("unit add", name="Watcher", side="Blue", at="L4", ld=1, models=1)
    await table.slash("battle start")
    await refused(table, "move", "the way there (5\") goes through an outer wall or ceiling without an opening "
                  "(004:L88), which halves the move to 3\" (A90)", user=table.alice, unit="Alpha", to="G2",
                  mode="advance")
    moved = await table.slash("move", user=table.alice, unit="Alpha", to="E2", mode="advance")
    assert 'Advance B2 \u2192 E2, 3" of 3", halved once for a wall without an opening (A90)' in text_of(moved)


async def test_the_example_battle_plays_in_the_console_and_replays_to_its_state(tmp_path: Path) -> None:
    out = io.StringIO()
    db_path = tmp_path / "farmstead.sqlite3"
    status = await run_script(settings_for(db_path), str(EXAMPLES / "farmstead.play"), as_json=True, seed=3,
                              out_dir=str(tmp_path / "maps"), stdout=out)
    assert status == 0
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    refusals = [(line["command"].split()[0], line["error"]) for line in lines if not line["ok"]]
    assert [command for command, _ in refusals] == ["/action", "/place", "/move"]
    assert "impassable terrain" in refusals[0][1] and "(004:L74)" in refusals[1][1] and "(004:L59)" in refusals[2][1]
    legal = [line for line in lines if line["command"].startswith("/place") and not line["ok"]]
    assert legal[0]["ephemeral"] and any(f.endswith("legal.png") for f in legal[0]["files"])
    db = await Database.open(db_path)
    try:
        record = await db.battles.get(1)
        assert record is not None
        initial = await db.events.initial_state(record.id)
        events = await db.events.list(record.id, limit=1000, newest_first=False)
    finally:
        await db.close()
    assert initial is not None
    log = [{"seq": e.seq, "kind": e.kind, "order": e.order_text, "outcome": e.outcome, "undone": e.undone}
           for e in events]
    rebuilt = replay(initial, steps_from_log(log))
    assert same_state(rebuilt.to_dict(), record.state)
    bravo = rebuilt.unit("Bravo")
    assert isinstance(bravo, Unit) and bravo.leader == Spot(27, 14, 1) and rebuilt.unit("Alpha").cell == Cell.parse("P5")


async def test_help_guides_an_m42_battle_with_commands_that_exist(table: Table) -> None:
    """A GM sets up and runs an M42 battle from /help alone: every command and option it names is offered."""
    reply = await table.slash("help", user=table.carol)
    fields = {f["name"]: f["value"] for m in reply.messages for e in m.embeds for f in e.get("fields", [])}
    guides = fields["M42: leaders, models and Command Radius"] + fields["Players in M42"]
    for word in ("ruleset:m42", "inches_per_square", "/map edge", "/map road", "/map floors", "/unit add",
                 "/move", "/action", "/place", "/radius"):
        assert word in guides
    offered = table.discord.world.commands_for(table.discord.guild.id)
    cited = re.findall(r"`(/[^`]+)`", guides)
    assert len(cited) >= 10
    for text in cited:
        words = re.sub(r'"[^"]*"', '""', text[1:]).split()
        node = offered[words[0]]
        for word in (w for w in words[1:] if w != "\u2026"):
            options = {o["name"]: o for o in node.get("options", [])}
            name = word.strip("[]").split(":")[0]
            assert name in options, f"{text}: `{name}` is not an option or subcommand"
            if options[name].get("type") in (1, 2):  # a subcommand (group): its options follow
                node = options[name]


async def test_inches_per_square_is_a_battle_setting_the_gm_changes(table: Table) -> None:
    """A89: distances are in inches; the GM sets how many inches a square stands for (default 1)."""
    await table.slash("battle new", name="Scale", ruleset="m42", width=20, height=5)
    await table.slash("battle rules set", key="inches_per_square", value="2")
    await table.slash("unit add", name="Alpha", side="Red", at="B3", owner=table.alice, ld=3, models=1)
    await table.slash("unit add", name="Watcher", side="Blue", at="T1", ld=1, models=1)
    # Once units stand on the map, every distance would change under them: the scale stays.
    await refused(table, "battle rules set", "`inches_per_square` cannot change once units are placed",
                  key="inches_per_square", value="1")
    await table.slash("battle start")
    # Advance 6" is three squares of 2".
    await refused(table, "move", "out of reach for advance (6\")", user=table.alice, unit="Alpha", to="F3",
                  mode="advance")
    moved = await table.slash("move", user=table.alice, unit="Alpha", to="E3", mode="advance")
    assert 'Advance B3 \u2192 E3, 6" of 6"' in text_of(moved)
