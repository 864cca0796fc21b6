"""A battle over several simulated days: reminders, each deadline policy, restarts, pause and resume.

Time is a fake clock the tests move; the scheduler runs when a test calls tick(), as its loop would.
"""

from __future__ import annotations

from storage import ClockRecord
from tests.e2e.conftest import START_TIME, Table, last_message, text_of
from tests.e2e.turn_helpers import (
    DAY,
    HOUR,
    board,
    clock,
    end_turn,
    event_kinds,
    message_text,
    new_since,
    posted,
    prompts,
    start_side_battle,
    stored,
    stored_battle,
)


def reminders(messages: list) -> list:  # type: ignore[type-arg]
    """Return the reminder messages among these."""
    return [m for m in messages if m.content.startswith("\u23f0")]


async def test_reminders_come_at_half_time_and_an_hour_before(table: Table) -> None:
    await start_side_battle(table)
    record = await stored(table)
    timers = await table.db.timers.pending(record.id)
    assert [(t.kind, t.due_at - START_TIME) for t in timers] == [
        ("reminder", 12 * HOUR), ("reminder", 23 * HOUR), ("deadline", DAY)]

    before = posted(table)
    assert await table.tick(hours=11, minutes=59) == []
    assert new_since(table, before) == []
    [fired] = await table.tick(minutes=1)
    assert fired.action == "reminded"
    [half] = new_since(table, before)
    assert half.pings.users == {table.alice.id, table.bob.id}
    assert f"ends <t:{int(START_TIME + DAY)}:R>" in half.content

    await end_turn(table, user=table.alice)
    before = posted(table)
    await table.tick(hours=11)
    [late] = reminders(new_since(table, before))
    assert late.pings.users == {table.bob.id} and "the turn of Eva-02" in late.content

    before = posted(table)
    [expired] = await table.tick(hours=1)
    assert expired.action == "waiting"
    [notice] = new_since(table, before)
    assert notice.pings.users == {table.gm.id} and "Deadline passed: Eva-02" in message_text(notice)
    assert "waiting for the GM" in message_text(board(table))
    assert (await clock(table)).expired_at == START_TIME + DAY

    before = posted(table)
    assert await table.tick(days=1) == []
    assert new_since(table, before) == [], "a deadline waiting for its GM fires once"
    await table.gm_slash("gm skip")
    assert (await clock(table)).due_at == table.clock.now + DAY
    assert (await stored_battle(table)).turn.at == "Angels"


async def test_hold_policy_holds_the_units_due_and_passes_the_turn(table: Table) -> None:
    await table.setup_battle()
    reply = await table.gm_slash("gm policy", policy="hold")
    assert "the units due hold" in text_of(reply)
    await table.slash("battle start")
    before = posted(table)
    fired = await table.tick(days=1)
    assert [f.action for f in fired if f.timer.kind == "deadline"] == ["held"]
    messages = new_since(table, before)
    summary = next(m for m in messages if "Deadline passed" in message_text(m))
    assert "Eva-01 holds (2 action points unused).\nEva-02 holds" in message_text(summary)
    assert summary.pings.nobody
    [prompt] = prompts(messages)
    assert "Angels phase" in prompt.content and prompt.pings.users == {table.gm.id}
    record = await stored(table)
    events = await table.db.events.list(record.id, limit=2)
    assert [(e.kind, e.order_text, e.actor_id) for e in events] == [
        ("hold", "hold unit:Eva-02", 0), ("hold", "hold unit:Eva-01", 0)]
    assert (await clock(table)).due_at == table.clock.now + DAY


async def test_default_policy_follows_standing_orders_and_falls_back_to_hold(table: Table) -> None:
    await table.setup_battle()
    await table.gm_slash("gm policy", policy="default")
    await table.slash("turn standing", user=table.alice, unit="Eva-01", order="move to:E3 mode:half")
    await table.slash("turn standing", user=table.bob, unit="Eva-02", order="move to:A5 mode:half")
    await table.slash("battle start")
    # Legal when given; illegal once the GM has pinned Eva-02 down.
    await table.gm_slash("gm edit", unit="Eva-02", add_status="immobilised")
    before = posted(table)
    await table.tick(days=1)
    battle = await stored_battle(table)
    assert str(battle.unit("Eva-01").cell) == "E3" and str(battle.unit("Eva-02").cell) == "C5"
    assert {battle.unit(k).name: v for k, v in battle.turn.done.items()} == {"Eva-01": "standing", "Eva-02": "held"}
    summary = next(m for m in new_since(table, before) if "Deadline passed" in message_text(m))
    text = message_text(summary)
    assert "Eva-01 follows its standing order `move unit:Eva-01 to:E3 mode:half`." in text
    assert ("Eva-02 could not follow its standing order `move unit:Eva-02 to:A5 mode:half` "
            "(Eva-02 is immobilised and cannot move until it breaks free), so it holds instead.") in text
    assert summary.files, "a deadline that moved units shows the map"
    assert battle.turn.at == "Angels"


async def test_a_restart_and_two_days_down_neither_lose_nor_double_a_timer(table: Table) -> None:
    await table.setup_battle()
    await table.gm_slash("gm policy", policy="hold")
    await table.slash("battle start")
    [half] = await table.tick(hours=12)
    assert half.action == "reminded"
    table.clock.advance(days=2)
    await table.restart()
    assert len(reminders(posted(table))) == 1, "nothing fires while the bot is down"
    before = posted(table)
    fired = await table.tick()
    assert [(f.timer.kind, f.action) for f in fired] == [("reminder", "stale"), ("deadline", "held")]
    assert reminders(new_since(table, before)) == [], "a reminder of a deadline gone by is not sent late"
    assert [k for k, _ in await event_kinds(table)].count("hold") == 2
    [prompt] = prompts(new_since(table, before))
    assert "Angels phase" in prompt.content

    assert await table.tick() == []
    await table.restart()
    assert await table.tick() == []
    assert [k for k, _ in await event_kinds(table)].count("hold") == 2
    assert (await clock(table)).due_at == table.clock.now + DAY


async def test_missed_deadlines_are_handled_in_order_on_startup(table: Table) -> None:
    other = table.discord.add_channel(table.discord.guild, "second-front")
    await table.setup_battle()
    await table.gm_slash("gm policy", policy="hold")
    await table.gm_slash("gm deadline", hours=2)
    await table.slash("battle start")
    first = await stored(table)
    table.clock.advance(minutes=10)
    await table.slash("battle new", channel=other, name="Second Front", ruleset="strategic-e", width=8, height=8)
    await table.slash("unit add", channel=other, name="Mari", side="Euro", at="A1", owner=table.bob)
    await table.slash("unit add", channel=other, name="Ramiel", side="Angels", at="H8")
    await table.discord.slash("gm policy", user=table.gm, channel=other, options={"policy": "hold"})
    await table.discord.slash("gm deadline", user=table.gm, channel=other, options={"hours": 1.0})
    await table.slash("battle start", channel=other)
    second = await stored(table, other)
    table.clock.advance(days=1)
    await table.restart()
    fired = [f for f in await table.tick() if f.timer.kind == "deadline"]
    assert [(f.timer.battle_id, f.action) for f in fired] == [(second.id, "held"), (first.id, "held")]
    assert fired[0].timer.due_at == START_TIME + 10 * 60 + HOUR < fired[1].timer.due_at == START_TIME + 2 * HOUR


async def test_pause_keeps_the_time_left_and_resume_gives_it_back(table: Table) -> None:
    await start_side_battle(table)
    await table.tick(hours=20)
    paused = await table.gm_slash("gm pause")
    assert "This turn keeps 4 h." in text_of(paused)
    assert "Clock paused by the GM \u00b7 4 h left on this turn." in message_text(board(table))
    again = await table.gm_slash("gm pause")
    assert last_message(again).ephemeral and "already paused" in text_of(again)
    before = posted(table)
    assert await table.tick(days=3) == []
    assert new_since(table, before) == []
    resumed = await table.gm_slash("gm resume")
    due = table.clock.now + 4 * HOUR
    assert f"<t:{int(due)}:R>" in text_of(resumed)
    assert (await clock(table)).due_at == due
    [late] = await table.tick(hours=3)
    assert late.action == "reminded"
    [expired] = await table.tick(hours=1)
    assert expired.action == "waiting"
    running = await table.gm_slash("gm resume")
    assert last_message(running).ephemeral and "not paused" in text_of(running)


async def test_deadlines_of_zero_or_ten_years_are_refused(table: Table) -> None:
    await start_side_battle(table)
    before = await clock(table)
    zero = await table.gm_slash("gm deadline", hours=0)
    assert last_message(zero).ephemeral and "A deadline of zero would end every turn" in text_of(zero)
    # Ten years is past the option's range, which Discord refuses before the bot; just past 30 days the bot says so.
    over = await table.gm_slash("gm deadline", hours=720, minutes=30)
    assert last_message(over).ephemeral
    assert "A deadline of 720.5 hours is too long: the longest is 30 days (720 hours)" in text_of(over)
    short = await table.gm_slash("gm deadline", hours=0, minutes=0)
    assert "zero" in text_of(short)
    assert await clock(table) == before
    half_hour = await table.gm_slash("gm deadline", hours=0, minutes=30)
    assert "Each turn now lasts **30 min**" in text_of(half_hour)
    long = await table.gm_slash("gm deadline", hours=48, minutes=30)
    assert "Each turn now lasts **2 days 0 h 30 min**" in text_of(long), "a long deadline keeps its minutes"


async def test_a_new_deadline_and_reminders_apply_to_the_running_turn(table: Table) -> None:
    await start_side_battle(table)
    await table.gm_slash("gm deadline", hours=3)
    record = await stored(table)
    pending = await table.db.timers.pending(record.id)
    assert [(t.kind, t.due_at - START_TIME) for t in pending] == [
        ("reminder", 1.5 * HOUR), ("reminder", 2 * HOUR), ("deadline", 3 * HOUR)]
    reply = await table.gm_slash("gm reminders", times="none")
    assert "no reminders" in text_of(reply)
    assert [t.kind for t in await table.db.timers.pending(record.id)] == ["deadline"]
    bad = await table.gm_slash("gm reminders", times="sometime")
    assert last_message(bad).ephemeral and "`sometime` is not a time" in text_of(bad)


async def test_a_deadline_claimed_but_never_applied_is_armed_again_at_startup(table: Table) -> None:
    await table.setup_battle()
    await table.gm_slash("gm policy", policy="hold")
    await table.slash("battle start")
    record = await stored(table)
    [deadline] = [t for t in await table.db.timers.pending(record.id) if t.kind == "deadline"]
    table.clock.advance(days=1)
    # The process stops right after claiming the timer, before the holds are committed.
    assert await table.db.timers.mark_fired(deadline.id, table.clock.now)
    await table.restart()
    fired = await table.tick()
    assert [(f.timer.kind, f.action) for f in fired if f.timer.kind == "deadline"] == [("deadline", "held")]
    assert [k for k, _ in await event_kinds(table)].count("hold") == 2
    assert (await stored_battle(table)).turn.at == "Angels"


async def test_a_deadline_claimed_by_a_process_that_never_came_back_is_armed_again(table: Table) -> None:
    """With several processes, the one that claimed a deadline may stop for good; another one applies it."""
    await table.setup_battle()
    await table.gm_slash("gm policy", policy="hold")
    await table.slash("battle start")
    assert await table.tick() == []
    record = await stored(table)
    [deadline] = [t for t in await table.db.timers.pending(record.id) if t.kind == "deadline"]
    table.clock.advance(days=1)
    # Another process claims the deadline and is killed before it applies it.
    assert await table.db.timers.mark_fired(deadline.id, table.clock.now)
    early = await table.tick(seconds=30)
    assert [f.action for f in early] == ["stale", "stale"]  # the two reminders, late: a deadline is not re-armed yet
    assert [k for k, _ in await event_kinds(table)].count("hold") == 0
    fired = await table.tick(seconds=31)
    assert [(f.timer.kind, f.action) for f in fired if f.timer.kind == "deadline"] == [("deadline", "held")]
    assert [k for k, _ in await event_kinds(table)].count("hold") == 2
    assert (await stored_battle(table)).turn.at == "Angels"
    assert await table.tick(minutes=5) == []


async def test_a_turn_whose_clock_never_started_is_started_at_startup(table: Table) -> None:
    await start_side_battle(table)
    record = await stored(table)
    # As if the process stopped between committing `start` and starting the turn's clock.
    await table.db.clocks.save(ClockRecord(battle_id=record.id), timers=[])
    await table.restart()
    before = posted(table)
    assert await table.tick() == []
    [prompt] = prompts(new_since(table, before))
    assert prompt.pings.users == {table.alice.id, table.bob.id}
    assert (await clock(table)).due_at == record.updated_at + DAY


async def test_a_timer_for_a_turn_already_over_does_nothing(table: Table) -> None:
    await start_side_battle(table)
    record = await stored(table)
    await table.db.timers.schedule(record.id, "deadline", table.clock.now + 60, {"turn": "1|side|Angels"})
    version = record.version
    [fired] = await table.tick(minutes=2)
    assert fired.action == "stale"
    assert (await stored(table)).version == version


async def test_choosing_a_policy_after_a_passed_deadline_applies_it(table: Table) -> None:
    await start_side_battle(table)
    fired = await table.tick(days=1)
    assert [f.action for f in fired] == ["stale", "stale", "waiting"], "reminders come too late to be sent"
    reply = await table.gm_slash("gm policy", policy="hold")
    assert "the units due hold" in text_of(reply)
    [held] = await table.tick()
    assert held.action == "held"
    assert (await stored_battle(table)).turn.at == "Angels"
