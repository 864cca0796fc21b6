"""A Surface Combat engagement through slash commands: two sides plan from different accounts."""

from __future__ import annotations

import io
import json
from pathlib import Path

from bot.console import run_script
from rules.battle import Battle
from rules.replay import Step, replay, same_state
from rules.systems.surface.state import state
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.test_console import settings_for
from tests.e2e.turn_helpers import stored, stored_battle

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "surface.play"


async def setup(table: Table, start: bool = True) -> None:
    """Create the standard engagement: alice commands the Marines, bob the Rebels."""
    await table.slash("battle new", name="Landing at Kessel", ruleset="surface")
    await table.slash("surface add", name="Hammer", side="Marines", **{"type": "space-marines"}, owner=table.alice,
                      flags="powered_armor")
    await table.slash("surface add", name="Titan", side="Marines", **{"type": "battleoids"}, owner=table.alice)
    await table.slash("surface add", name="Cell 7", side="Rebels", **{"type": "rebels"}, owner=table.bob)
    await table.slash("surface add", name="Old Guard", side="Rebels", **{"type": "armor"}, owner=table.bob,
                      ratings='{"morale": 8}')
    await table.slash("surface side", side="Marines", leader="Kell", ability=2)
    if start:
        await table.slash("battle start")


async def test_new_surface_battle_asks_for_no_map(table: Table) -> None:
    created = await table.slash("battle new", name="Landing at Kessel", ruleset="surface")
    text = text_of(created)
    assert "New battle: Landing at Kessel" in text and "map" not in text.replace("no map", "")
    assert "/surface add" in text and last_message(created).files == []
    battle = await stored_battle(table)
    assert (battle.width, battle.height) == (1, 1)
    await table.slash("battle end")


async def test_map_sizes_are_refused_for_surface_and_required_for_maps(table: Table) -> None:
    sized = await table.slash("battle new", name="Kessel", ruleset="surface", width=10, height=10)
    assert last_message(sized).ephemeral and "has no map: leave out width and height" in text_of(sized)
    missing = await table.slash("battle new", name="Hakone", ruleset="strategic-e", width=10)
    assert "give its height in squares" in text_of(missing)
    assert await table.db.battles.in_channel(table.discord.guild.id, table.channel.id) is None


async def test_battle_info_lists_forces_and_plan_status_never_the_plan(table: Table) -> None:
    await setup(table)
    await table.slash("surface plan", user=table.alice, side="Marines", intensity=2)
    info = text_of(await table.slash("battle info", user=table.carol))
    assert "game turn 1: waiting for the plan of Rebels" in info
    assert "Leader Kell (Ability 2)" in info and "**plan committed**" in info and "**no plan yet**" in info
    assert "**Hammer** · Space Marines · damage 0/4 · space marine, powered armor" in info
    assert "intensity" not in info.lower()
    status = await table.slash("surface status", user=table.bob)
    assert last_message(status).ephemeral and "Deadline <t:" in text_of(status)
    turn = await table.slash("turn status", user=table.bob)
    assert "has no turns of units; `/surface status`" in text_of(turn)


async def test_two_sides_plan_privately_and_the_battle_resolves(table: Table) -> None:
    await setup(table, start=False)
    early = await table.slash("surface plan", user=table.alice, side="Marines")
    assert "has not started" in text_of(early)
    await table.slash("battle start")
    refused = await table.slash("surface plan", user=table.bob, side="Marines", intensity=2)
    assert last_message(refused).ephemeral and "Only the GM or a player commanding units of Marines" in text_of(refused)
    mine = await table.slash("surface plan", user=table.alice, side="Marines", intensity=2, daring=1, dropped="Titan")
    assert last_message(mine).ephemeral and "Only you see" in text_of(mine)
    waiting = await table.slash("surface resolve", user=table.bob)
    assert "Waiting for the plan of Rebels" in text_of(waiting)
    log = await table.slash("battle log", user=table.bob)
    assert "intensity" not in text_of(log).lower()
    theirs = await table.slash("surface plan", user=table.bob, side="Rebels", intensity=0, besieged=True)
    text = text_of(theirs)
    assert "Round 1" in text and "Target priority (balls)" in text and "Titan 18 = (2+4)×3" in text
    assert "Plan: intensity 2, daring 1, 1 dropped from transports" in text
    assert any(level in text for level in ("Victory", "Defeat", "Draw"))
    assert not theirs.messages[-1].ephemeral
    chart = theirs.messages[-1].files[0]
    assert chart.data.startswith(b"\x89PNG")
    assert (chart.description or "").startswith("Chart of damage points lost by the end of each round.")
    again = await table.slash("surface plan", user=table.bob, side="Rebels")
    assert "has been resolved" in text_of(again)
    battle = await stored_battle(table)
    report = state(battle).report
    assert report is not None and report.plans["Marines"].intensity == 2
    assert (await table.service.clock_of(await stored(table))).turn_key is None
    page = await table.slash("surface report", user=table.carol)
    assert "Log page 1/" in text_of(page)
    beyond = await table.slash("surface report", user=table.carol, page=500)
    assert "there is no page 500" in text_of(beyond)
    export = await table.slash("surface export")
    forces = json.loads(export.messages[-1].files[0].data)
    assert set(forces["forces"]) <= {"Marines", "Rebels"}


async def test_replaying_the_log_rebuilds_the_battle(table: Table) -> None:
    """Replay equal to state: the stored orders with their recorded dice rebuild the stored battle."""
    await setup(table)
    await table.slash("surface plan", user=table.alice, side="Marines", intensity=2, dropped="Titan")
    await table.slash("surface plan", user=table.bob, side="Rebels", intensity=1)
    record = await stored(table)
    events = await table.db.events.list(record.id, limit=100, newest_first=False)
    steps = [Step.from_outcome(e.seq, e.order_text, e.outcome or {}) for e in events if e.kind != "create"]
    initial = await table.db.events.initial_state(record.id)
    assert initial is not None
    assert same_state(replay(initial, steps).to_dict(), record.state)
    assert state(Battle.from_dict(record.state)).resolved


async def test_forces_carry_over_into_the_next_battle(table: Table) -> None:
    """Campaign use: the survivors, with their damage, are exported and imported into the next battle."""
    await setup(table)
    await table.slash("surface plan", user=table.alice, side="Marines", besieged=True)
    await table.slash("surface plan", user=table.bob, side="Rebels")
    exported = await table.slash("surface export")
    data = exported.messages[-1].files[0].data
    survivors = json.loads(data)["forces"]
    await table.slash("battle end")
    carried = table.discord.add_channel(table.discord.guild, "next-battle")
    await table.slash("battle new", name="Second landing", ruleset="surface", channel=carried)
    refused = await table.discord.slash("surface import", user=table.alice, channel=carried, options={
        "file": ("forces.json", data)})
    assert "Only a GM can import forces" in text_of(refused)
    imported = await table.discord.slash("surface import", user=table.gm, channel=carried, options={
        "file": ("forces.json", data)})
    await table.settle()
    assert "Imported" in text_of(imported)
    record = await table.db.battles.in_channel(table.discord.guild.id, carried.id)
    assert record is not None
    battle = Battle.from_dict(record.state)
    before = {u["name"]: u["stats"]["damage"] for side in survivors.values() for u in side}
    assert {u.name: u.damage for u in battle.iter_units()} == before
    assert {u.name: u.owner for u in battle.iter_units()} == {
        u["name"]: u["owner"] for side in survivors.values() for u in side}


async def test_a_bad_forces_file_names_the_unit_and_imports_nothing(table: Table) -> None:
    await table.slash("battle new", name="Second landing", ruleset="surface")
    bad = {"ruleset": "surface", "forces": {"Marines": [
        {"name": "Hammer", "owner": None, "stats": {"type": "space-marines"}},
        {"name": "Titan", "owner": None, "stats": {"type": "battleoids", "damage": 9}}]}}
    reply = await table.slash("surface import", file=("forces.json", json.dumps(bad).encode()))
    text = text_of(reply)
    assert last_message(reply).ephemeral
    assert "Unit `Titan` of Marines: `damage` must be a whole number from 0 to 5" in text
    assert "Nothing was imported" in text
    assert list((await stored_battle(table)).iter_units()) == []
    broken = await table.slash("surface import", file=("forces.json", b'{"ruleset": "surface", '))
    assert "not valid JSON: line 1" in text_of(broken)


async def test_map_commands_refuse_a_surface_battle_and_surface_refuses_a_map_battle(table: Table) -> None:
    await table.setup_battle()
    reply = await table.slash("surface resolve", force=True)
    assert last_message(reply).ephemeral
    assert text_of(reply).startswith("/surface resolve is a command of Surface Combat battles; this battle plays "
                                     "Strategic Combat Rules.")


async def test_example_engagement_plays_in_the_console(tmp_path: Path) -> None:
    out = io.StringIO()
    status = await run_script(settings_for(tmp_path / "surface.sqlite3"), str(EXAMPLE), as_json=True, seed=7,
                              out_dir=str(tmp_path / "out"), stdout=out)
    assert status == 0
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [line["command"] for line in lines if not line["ok"]] == []
    plans = [line for line in lines if line["command"].startswith("/surface plan")]
    assert all(line["ephemeral"] for line in plans)
    texts = "\n".join(line["content"] + json.dumps(line["embeds"]) for line in lines)
    assert "Round 1" in texts and "Collateral damage" in texts and "Target priority" in texts
    assert any(f.endswith(".png") for line in plans for f in line["files"]), "the battle's chart is posted"
    exported = json.loads(next((tmp_path / "out").glob("*forces.json")).read_text())
    assert exported["ruleset"] == "surface" and exported["forces"]
