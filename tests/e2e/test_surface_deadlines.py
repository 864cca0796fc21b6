"""Surface Combat under the play-by-post clock: the battle is fought when both plans are in or the deadline
passes, as the battle's deadline policy says. Time is a fake clock the tests move; tick() runs the scheduler.
"""

from __future__ import annotations

from rules.systems.surface.state import state
from tests.e2e.conftest import START_TIME, Table
from tests.e2e.test_surface import setup
from tests.e2e.turn_helpers import DAY, clock, message_text, new_since, posted, stored, stored_battle


async def test_starting_opens_the_plans_with_a_deadline_and_pings_both_sides(table: Table) -> None:
    await setup(table, start=False)
    before = posted(table)
    await table.slash("battle start")
    [ping] = [m for m in new_since(table, before) if "plans are open" in m.content]
    assert ping.pings.users == {table.alice.id, table.bob.id}
    text = message_text(ping)
    assert "game turn 1" in text and f"Deadline <t:{int(START_TIME + DAY)}:R>" in text
    assert "then wait for the GM" in text
    record_clock = await clock(table)
    assert record_clock.turn_key == "surface|1|plans" and record_clock.due_at == START_TIME + DAY


async def test_reminder_pings_only_the_side_without_a_plan(table: Table) -> None:
    await setup(table)
    await table.slash("surface plan", user=table.alice, side="Marines", intensity=2)
    before = posted(table)
    fired = await table.tick(hours=12)
    assert [f.action for f in fired] == ["reminded"]
    [reminder] = new_since(table, before)
    assert reminder.pings.users == {table.bob.id}
    assert "Rebels still owes a pre-battle plan" in reminder.content


async def test_hold_policy_fights_at_the_deadline_with_the_default_plan(table: Table) -> None:
    await setup(table, start=False)
    await table.gm_slash("gm policy", policy="hold")
    await table.slash("battle start")
    await table.slash("surface plan", user=table.alice, side="Marines", intensity=2, daring=1)
    before = posted(table)
    assert [f.action for f in await table.tick(hours=23, minutes=59) if f.timer.kind == "deadline"] == []
    assert not state(await stored_battle(table)).resolved
    fired = await table.tick(minutes=1)
    assert [f.action for f in fired if f.timer.kind == "deadline"] == ["held"]
    battle = await stored_battle(table)
    report = battle.turn.systems["surface"]["report"]
    assert battle.turn.systems["surface"]["resolved"] is True
    assert report["fallback"] == {"Rebels": "default"} and report["plans"]["Rebels"]["intensity"] == 1
    assert report["plans"]["Marines"] == {"intensity": 2, "daring": 1, "dropped": [], "besieged": False}
    [posted_report] = [m for m in new_since(table, before) if "deadline passed" in m.content.lower()]
    text = message_text(posted_report)
    assert "without a plan from Rebels" in text and "Round 1" in text
    assert "No plan, so the default plan: intensity 1, daring 0" in text
    assert posted_report.files and posted_report.files[0].data.startswith(b"\x89PNG")
    assert posted_report.pings.nobody
    assert (await clock(table)).turn_key is None
    late = await table.slash("surface plan", user=table.bob, side="Rebels")
    assert "has been resolved" in message_text(late.messages[-1])


async def test_wait_policy_pings_the_gm_and_the_last_plan_still_fights(table: Table) -> None:
    await setup(table)
    await table.slash("surface plan", user=table.alice, side="Marines")
    before = posted(table)
    fired = await table.tick(days=1)
    assert [f.action for f in fired if f.timer.kind == "deadline"] == ["waiting"]
    [notice] = [m for m in new_since(table, before) if "Deadline passed" in message_text(m)]
    assert notice.pings.users == {table.gm.id} and "no plan from Rebels" in message_text(notice)
    assert "/surface resolve force:true" in message_text(notice)
    assert not state(await stored_battle(table)).resolved
    assert await table.tick(days=1) == [], "a deadline waiting for its GM fires once"
    fought = await table.slash("surface plan", user=table.bob, side="Rebels", intensity=2)
    assert "Round 1" in message_text(fought.messages[-1])
    report = state(await stored_battle(table)).report
    assert report is not None and report.fallback == {}


async def test_default_policy_repeats_last_turns_plan(table: Table) -> None:
    await setup(table, start=False)
    await table.gm_slash("gm policy", policy="default")
    await table.slash("battle start")
    await table.slash("surface plan", user=table.alice, side="Marines")
    await table.slash("surface plan", user=table.bob, side="Rebels", intensity=2, besieged=True)
    first = await stored_battle(table)
    assert first.turn.systems["surface"]["resolved"] is True and (await clock(table)).turn_key is None
    await table.slash("surface next-turn")
    assert (await clock(table)).turn_key == "surface|2|plans"
    # Reinforcements join the new game turn (the Rebels may have nothing left standing).
    await table.slash("surface add", name="Second Wave", side="Rebels", **{"type": "partisans"}, owner=table.bob)
    await table.slash("surface add", name="Relief", side="Marines", **{"type": "grunts"}, owner=table.alice)
    await table.slash("surface plan", user=table.alice, side="Marines", intensity=0)
    fired = await table.tick(days=1)
    assert [f.action for f in fired if f.timer.kind == "deadline"] == ["standing"]
    report = (await stored_battle(table)).turn.systems["surface"]["report"]
    assert report["fallback"] == {"Rebels": "standing"}
    assert report["plans"]["Rebels"] == {"intensity": 2, "daring": 0, "dropped": [], "besieged": True}


async def test_both_plans_before_the_deadline_leave_nothing_to_fire(table: Table) -> None:
    await setup(table)
    await table.slash("surface plan", user=table.alice, side="Marines")
    await table.slash("surface plan", user=table.bob, side="Rebels")
    assert (await table.db.timers.pending((await stored(table)).id)) == []
    before = posted(table)
    assert await table.tick(days=2) == []
    assert new_since(table, before) == []


async def test_the_deadline_survives_a_restart(table: Table) -> None:
    await setup(table, start=False)
    await table.gm_slash("gm policy", policy="hold")
    await table.gm_slash("gm deadline", hours=2)
    await table.slash("battle start")
    await table.restart()
    fired = await table.tick(hours=2)
    assert [f.action for f in fired if f.timer.kind == "deadline"] == ["held"]
    report = state(await stored_battle(table)).report
    assert report is not None and report.fallback == {"Marines": "default", "Rebels": "default"}


async def test_undoing_the_resolution_opens_the_plans_again(table: Table) -> None:
    await setup(table)
    await table.slash("surface plan", user=table.alice, side="Marines")
    await table.slash("surface plan", user=table.bob, side="Rebels")
    table.clock.advance(hours=3)
    await table.gm_slash("gm undo")
    assert not state(await stored_battle(table)).resolved
    restarted = await clock(table)
    assert restarted.turn_key == "surface|1|plans" and restarted.due_at == table.clock.now + DAY
