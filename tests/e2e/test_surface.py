"""A Surface Combat engagement through slash commands: two sides plan from different accounts."""

from __future__ import annotations

import io
import json
from pathlib import Path

from bot.console import run_script
from rules.battle import Battle
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.test_console import settings_for

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "surface.play"


async def _setup(table: Table) -> None:
    await table.slash("battle new", name="Landing at Kessel", ruleset="surface", width=1, height=1)
    await table.slash("surface add", name="Hammer", side="Marines", **{"type": "space-marines"}, owner=table.alice,
                      flags="powered_armor")
    await table.slash("surface add", name="Titan", side="Marines", **{"type": "battleoids"}, owner=table.alice)
    await table.slash("surface add", name="Cell 7", side="Rebels", **{"type": "rebels"}, owner=table.bob)
    await table.slash("surface add", name="Old Guard", side="Rebels", **{"type": "armor"}, owner=table.bob,
                      ratings='{"morale": 8}')
    await table.slash("surface side", side="Marines", leader="Kell", ability=2)


async def test_two_sides_plan_privately_and_the_battle_resolves(table: Table) -> None:
    await _setup(table)
    refused = await table.slash("surface plan", user=table.bob, side="Marines", intensity=2)
    assert last_message(refused).ephemeral and "Only the GM or a player commanding units of Marines" in text_of(refused)
    mine = await table.slash("surface plan", user=table.alice, side="Marines", intensity=2, daring=1, dropped="Titan")
    assert last_message(mine).ephemeral and "Only you see this" in text_of(mine)
    early = await table.slash("surface resolve", user=table.bob)
    assert "Waiting for the plan of Rebels" in text_of(early)
    record = await table.service.battle_here(table.discord.guild.id, table.channel.id)
    log = await table.slash("battle log", user=table.bob)
    assert "intensity" not in text_of(log).lower()
    theirs = await table.slash("surface plan", user=table.bob, side="Rebels", intensity=0, besieged=True)
    text = text_of(theirs)
    assert "Round 1" in text and "lottery d" in text
    assert any(level in text for level in ("Victory", "Defeat", "Draw"))
    assert not theirs.messages[-1].ephemeral
    chart = theirs.messages[-1].files[0]
    assert chart.data.startswith(b"\x89PNG")
    assert (chart.description or "").startswith("Chart of damage points lost by the end of each round.")
    again = await table.slash("surface plan", user=table.bob, side="Rebels")
    assert "has been resolved" in text_of(again)
    battle = Battle.from_dict((await table.db.battles.get(record.id)).state)
    report = battle.turn["surface"]["report"]
    assert report["plans"]["Marines"]["intensity"] == 2
    page = await table.slash("surface report", user=table.carol)
    assert "Log page 1/" in text_of(page)
    export = await table.slash("surface export")
    forces = json.loads(export.messages[-1].files[0].data)
    assert set(forces["forces"]) <= {"Marines", "Rebels"}


async def test_map_commands_refuse_a_surface_battle_and_surface_refuses_a_map_battle(table: Table) -> None:
    await table.setup_battle()
    reply = await table.slash("surface resolve", force=True)
    assert "not a Surface Combat battle" in text_of(reply) or "not played in" in text_of(reply)


async def test_example_engagement_plays_in_the_console(tmp_path: Path) -> None:
    out = io.StringIO()
    status = await run_script(settings_for(tmp_path / "surface.sqlite3"), str(EXAMPLE), as_json=True, seed=7,
                              out_dir=str(tmp_path / "out"), stdout=out)
    assert status == 0
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [line["command"] for line in lines if not line["ok"]] == []
    plans = [line for line in lines if line["command"].startswith("/surface plan")]
    assert all(line["ephemeral"] for line in plans[:1])
    texts = "\n".join(line["content"] + json.dumps(line["embeds"]) for line in lines)
    assert "Round 1" in texts and "Collateral damage" in texts
    exported = json.loads(next((tmp_path / "out").glob("*forces.json")).read_text())
    assert exported["ruleset"] == "surface" and exported["forces"]
