"""A Combat Action battle through slash commands: setup from /battle new, activations, fire, refusals, the end."""

from __future__ import annotations

import io
import json
from pathlib import Path

from bot.console import run_script
from rules.battle import Battle
from rules.replay import replay, same_state, steps_from_log
from storage import Database
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.setup_helpers import EXAMPLES, refused, stored, stored_battle
from tests.e2e.test_console import settings_for
from tests.e2e.test_gm import log_entries

EXAMPLE = EXAMPLES / "combat-action.play"
STATS = EXAMPLES / "combat-action"


def attachment(name: str) -> tuple[str, bytes]:
    """Return one of the example stat-block files as an attachment."""
    return (name, (STATS / name).read_bytes())


async def setup(table: Table) -> None:
    """Create the example's battle: Rangers for alice, Raiders for bob, side turns, started."""
    await table.slash("battle new", name="Ford", ruleset="combat-action", width=20, height=16,
                      rules="discipline_removes_pinned=false")
    await table.slash("unit import", file=attachment("rangers.toml"), owner=table.alice)
    await table.slash("unit import", file=attachment("raiders.toml"), owner=table.bob)
    await table.slash("turn mode", mode="side")
    await table.slash("battle start")


async def test_battle_new_sets_the_scale_and_rules_or_refuses_before_making_anything(table: Table) -> None:
    """Issue: "`/battle new ruleset:combat-action` with the table scale a GM sets ... `large_scale` ... speed"."""
    bad = await table.slash("battle new", name="Ford", ruleset="combat-action", width=20, height=16,
                            rules="cm_per_square=0")
    assert last_message(bad).ephemeral and "`cm_per_square` is a multiple of 0.5 from 0.5 to 100" in text_of(bad)
    assert "at 0.5 cm a square a map is at most 144x96 squares" in text_of(bad)
    assert await table.db.battles.in_channel(table.discord.guild.id, table.channel.id) is None
    made = await table.slash("battle new", name="Ford", ruleset="combat-action", width=20, height=16,
                             rules="cm_per_square=10 large_scale=true speed_modifier=true")
    assert "1 square = 10 cm of table" in text_of(made)
    battle = await stored_battle(table)
    assert (battle.const("cm_per_square"), battle.const("large_scale"), battle.const("speed_modifier")) == (10, True, True)


async def test_units_from_add_and_import_with_bad_blocks_refused_by_field(table: Table) -> None:
    """Issue: "a stat block with an unknown weapon class or a negative PF: a specific message, nothing changed"."""
    await table.slash("battle new", name="Ford", ruleset="combat-action", width=20, height=16)
    added = await table.slash("unit add", name="Tank", side="Red", at="E5", stats="kind=vehicle pf=6 mv=30 facing=E")
    assert not last_message(added).ephemeral
    tank = (await stored_battle(table)).unit("Tank")
    assert (tank.kind, tank.pf, tank.facing) == ("vehicle", 6, 90)
    await refused(table, "unit add", "`pf` cannot be negative", name="Wreck", side="Red", at="E6",
                  stats="kind=vehicle pf=-2")
    body = (STATS / "raiders.toml").read_text().replace('class = "pistol"', 'class = "laser"')
    await refused(table, "unit import", "(unit Raider Boss), field `weapons[2].class`: `weapons[2].class` is `laser`",
                  file=("raiders.toml", body.encode()))
    await refused(table, "unit edit", "`statuses[1]` is `dizzy`", unit="Tank", stats="statuses=dizzy,pinned")
    card = await table.slash("unit info", unit="Tank")
    assert "Locations" in text_of(card) and "Facing E" in text_of(card)


async def test_a_round_of_activations_through_slash_commands(table: Table) -> None:
    """Issue 3-6: AP per action, over-budget refusals saying what is left, fire with every term, pinned limits."""
    await setup(table)
    options = await table.slash("ca options", user=table.alice, unit="Sgt Vance")
    text = text_of(options)
    assert last_message(options).ephemeral and "**2 AP** left" in text and "**Walk** (1 AP)" in text
    assert "Fire (`/ca fire`)" in text and "Prime Frag (1 AP)" in text
    await refused(table, "ca options", "not yours", user=table.bob, unit="Sgt Vance")
    pinned = await table.slash("unit edit", unit="Sgt Vance", stats="statuses=pinned")
    assert not last_message(pinned).ephemeral and "pinned" in (await stored_battle(table)).unit("Sgt Vance").statuses
    await refused(table, "move", "pinned: it cannot move closer to the enemy", user=table.alice, unit="Sgt Vance",
                  to="C11", mode="walk")
    moved = await table.slash("move", user=table.alice, unit="Sgt Vance", to="C13", mode="walk")
    assert "walks C12 \u2192 C13: **5 cm**" in text_of(moved) and "**1 AP** left" in text_of(moved)
    await refused(table, "move", "has 1 action left this turn", user=table.alice, unit="Sgt Vance", to="C14",
                  mode="charge")
    await refused(table, "ca fire", "pinned: it may only move", user=table.alice, unit="Sgt Vance", weapon="Pistol",
                  target="Raider Boss")
    await table.slash("ca posture", user=table.alice, unit="Sgt Vance", posture="flat-down")
    await table.slash("turn end", user=table.alice, unit="Sgt Vance")
    await refused(table, "ca fire", "fires in mode standard, automatic, not `sniping`", user=table.alice,
                  unit="Trooper Kell", weapon="Rifle", target="Raider Boss", mode="sniping")
    shot = await table.slash("attack", user=table.alice, unit="Trooper Kell", weapon="Rifle", target="Raider Boss")
    text = text_of(shot)
    assert "Range 30 cm: **Short** (S)" in text and "vs SS **4**" in text and "`1d6`" in text
    assert last_message(shot).files, "the shot is drawn on the map"
    await refused(table, "range", "/range is a command of Strategic Combat Rules battles; this battle plays Combat "
                  "Action. `/ca options` gives each target's range band", user=table.alice, to="G6", weapon="Rifle",
                  unit="Trooper Kell")
    await refused(table, "attack", "/attack's `called` option is an option of Strategic Combat Rules battles", user=table.alice, unit="Trooper Kell", weapon="Rifle",
                  target="Raider Boss", called="head")
    await table.slash("turn end", user=table.alice, unit="Trooper Kell")
    await table.slash("unit edit", unit="Mule", stats='{"weapons": [{"name": "Stubber", "class": "heavy", "pen": 3, '
                                                      '"disabled": true}]}')
    await refused(table, "attack", "has malfunctioned and cannot fire again", user=table.alice, unit="Mule",
                  weapon="Stubber", target="Raider Boss")
    battle = await stored_battle(table)
    assert battle.turn.left[battle.unit("Sgt Vance").id] == 0 and "flat_down" in battle.unit("Sgt Vance").statuses
    record = await stored(table)
    initial = await table.db.events.initial_state(record.id)
    assert initial is not None
    assert same_state(replay(initial, steps_from_log(await log_entries(table))).to_dict(), record.state)


async def test_my_options_button_lists_combat_action_choices(table: Table) -> None:
    """Issue 7: "`My options` lists the legal actions with their AP"."""
    await setup(table)
    record = await stored(table)
    prompt = next(m for m in reversed(table.discord.messages(table.channel)) if m.custom_ids())
    shown = await table.click(prompt, f"bp:opts:{record.id}:Trooper Kell", user=table.alice)
    text = text_of(shown)
    assert last_message(shown).ephemeral and "What Trooper Kell can do" in text
    assert "Fire (`/ca fire`)" in text and "Rifle**, standard fire (1 AP)" in text and "Raider Boss (Short" in text


async def test_help_explains_combat_action(table: Table) -> None:
    """Done when: "A GM can set up and run a combat-action battle from `/help` alone"."""
    gm = text_of(await table.slash("help", role="gm"))
    assert "ruleset:combat-action" in gm and "cm_per_square" in gm and "examples/combat-action/" in gm
    player = text_of(await table.slash("help", role="player"))
    assert "/ca close-combat" in player and "mode:walk" in player and "My options" in player


async def test_example_battle_plays_in_the_console_and_replays(tmp_path: Path) -> None:
    """The example of two squads and a vehicle plays to its end; the log replays to the stored state."""
    out = io.StringIO()
    db_path = tmp_path / "ca.sqlite3"
    status = await run_script(settings_for(db_path), str(EXAMPLE), as_json=True, seed=4,
                              out_dir=str(tmp_path / "out"), stdout=out)
    assert status == 0
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [(line["command"], line.get("error")) for line in lines if not line["ok"]] == []
    texts = "\n".join(line["content"] + json.dumps(line["embeds"], ensure_ascii=False) for line in lines)
    assert "Strike back: Raider Boss" in texts and "Locomotive System" in texts and "Battle over" in texts
    db = await Database.open(db_path)
    try:
        (battle_id,) = await db.battles.all_ids()
        record = await db.battles.get(battle_id)
        assert record is not None
        events = await db.events.list(record.id, limit=1000, newest_first=False)
        initial = await db.events.initial_state(record.id)
        steps = steps_from_log([{"seq": e.seq, "kind": e.kind, "order": e.order_text, "outcome": e.outcome,
                                 "undone": e.undone} for e in events])
        assert initial is not None and record.status == "ended"
        assert same_state(replay(initial, steps).to_dict(), record.state)
        assert not Battle.from_dict(record.state).unit("Raider Boss").alive
    finally:
        await db.close()
