"""Clock hours, weekends, quiet hours, time banks and vacations over simulated weeks, through restarts.

Time is a fake clock the tests move across daylight-saving changes; the scheduler runs when a test
calls tick(), as its loop would. Every deadline is checked at its local hour.
"""

from __future__ import annotations

from itertools import pairwise

from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.turn_helpers import (
    DAY,
    HOUR,
    at,
    board,
    clock,
    end_turn,
    event_kinds,
    local,
    message_text,
    new_since,
    posted,
    stored,
    stored_battle,
)


async def test_every_turn_ends_at_twenty_hundred_in_berlin_across_the_autumn_change_and_restarts(
        table: Table) -> None:
    table.clock.now = at("Europe/Berlin", 2026, 10, 22, 7, 0)  # a Thursday; summer time ends on the 25th
    await table.setup_battle()
    await table.gm_slash("gm policy", policy="hold")
    reply = await table.gm_slash("gm deadline", at="20:00", zone="Europe/Berlin")
    assert "ends at **20:00 Europe/Berlin**" in text_of(reply)
    await table.slash("battle start")
    first = await clock(table)
    assert local(first.due_at or 0, "Europe/Berlin").timetuple()[:5] == (2026, 10, 22, 20, 0)

    deadlines: list[float] = []
    for day in range(8):
        if day in (2, 5):
            await table.restart()
        due = (await clock(table)).due_at
        assert due is not None
        assert local(due, "Europe/Berlin").hour == 20 and local(due, "Europe/Berlin").minute == 0
        table.clock.now = due - 1
        assert [f for f in await table.tick() if f.timer.kind == "deadline"] == []
        table.clock.now = due
        fired = [f for f in await table.tick() if f.timer.kind == "deadline"]
        assert [f.action for f in fired] == ["held"], f"one deadline on day {day}"
        deadlines.append(due)
    # The turn that spans the change lasts 25 hours; the others 24.
    gaps = [b - a for a, b in pairwise(deadlines)]
    assert sorted(set(gaps)) == [DAY, DAY + HOUR]
    assert gaps.count(DAY + HOUR) == 1
    holds = [k for k, _ in await event_kinds(table)].count("hold")
    await table.restart()
    assert [f for f in await table.tick() if f.timer.kind == "deadline"] == []
    assert [k for k, _ in await event_kinds(table)].count("hold") == holds, "nothing fires twice after a restart"


async def test_weekends_are_skipped_and_quiet_hours_hold_reminders_in_new_york_across_spring(
        table: Table) -> None:
    zone = "America/New_York"
    table.clock.now = at(zone, 2026, 3, 6, 14, 0)  # Friday; clocks go forward on Sunday the 8th
    await table.setup_battle()
    await table.gm_slash("gm deadline", hours=10, at="9:00", zone=zone, weekends="skip")
    quiet = await table.gm_slash("gm quiet", hours="22:00-08:00")
    assert "quiet hours 22:00\u201308:00 America/New_York" in text_of(quiet)
    await table.slash("battle start")
    current = await clock(table)
    due = local(current.due_at or 0, zone)
    assert (due.weekday(), due.hour, due.day) == (0, 9, 9), "Friday 14:00 + 10 weekday hours: Monday 9:00"
    timers = await table.db.timers.pending((await stored(table)).id)
    reminders = [t.due_at for t in timers if t.kind == "reminder"]
    for moment in reminders:
        hour = local(moment, zone).hour
        assert 8 <= hour < 22, f"a reminder at {local(moment, zone)} falls in quiet hours"
    # Half-time would fall on Saturday 23:00; it waits for Sunday 08:00 instead (in daylight time by then).
    assert local(reminders[0], zone).timetuple()[2:5] == (8, 8, 0)
    before = posted(table)
    await table.restart()
    table.clock.now = reminders[0] - 60
    await table.tick()
    assert new_since(table, before) == []
    table.clock.now = reminders[0]
    [fired] = await table.tick()
    assert fired.action == "reminded"
    assert len(new_since(table, before)) == 1


async def test_a_time_bank_runs_only_while_the_side_is_due_and_its_end_applies_the_policy(table: Table) -> None:
    await table.setup_battle()
    await table.gm_slash("gm policy", policy="hold")
    reply = await table.gm_slash("gm timebank", start="3d", cap="5d", **{"per-turn": "1d"})
    assert "time bank" in text_of(reply) and "3 days to start, 1 day more each turn, at most 5 days" in text_of(reply)
    await table.slash("battle start")
    start = table.clock.now
    assert (await clock(table)).due_at == start + 3 * DAY, "NERV's first turn has its whole start bank"

    await table.tick(days=1)
    await end_turn(table, user=table.alice)
    await end_turn(table, user=table.bob)
    angels = await clock(table)
    assert angels.banks["NERV"] == 2 * DAY and angels.banks["Angels"] == 3 * DAY
    assert angels.due_at == table.clock.now + 3 * DAY
    assert "Time banks" in message_text(board(table)) and "NERV: 2 days" in message_text(board(table))

    await table.restart()
    await table.tick(hours=6)
    await end_turn(table, user=table.gm)
    nerv = await clock(table)
    assert nerv.banks["Angels"] == 3 * DAY - 6 * HOUR
    assert nerv.banks["NERV"] == 3 * DAY, "two days left plus one for the turn"
    assert nerv.due_at == table.clock.now + 3 * DAY
    status = await table.slash("turn status", user=table.alice)
    assert "Time banks" in text_of(status) and "NERV: runs out" in text_of(status)

    # Paused, the bank does not run; the bank's end applies the battle's policy (hold) once.
    await table.tick(days=1)
    await table.gm_slash("gm pause")
    await table.tick(days=5)
    await table.gm_slash("gm resume")
    assert (await clock(table)).due_at == table.clock.now + 2 * DAY
    fired = [f for f in await table.tick(days=2) if f.timer.kind == "deadline"]
    assert [f.action for f in fired] == ["held"]
    after = await clock(table)
    assert after.banks["NERV"] == 0.0 and (await stored_battle(table)).turn.at == "Angels"
    assert after.due_at == table.clock.now + 3 * DAY + 18 * HOUR, "the Angels' bank: 3 days - 6 h + 1 day"


async def test_a_timebank_out_of_bounds_is_refused_and_changes_nothing(table: Table) -> None:
    await table.setup_battle()
    before = await clock(table)
    for options, words in (({"start": "6d", "cap": "5d"}, "cannot start"),
                           ({"start": "soon"}, "is not a time"),
                           ({"start": "40d"}, "too long")):
        reply = await table.gm_slash("gm timebank", **options)
        assert last_message(reply).ephemeral and words in text_of(reply), text_of(reply)
    assert await clock(table) == before


async def test_a_vacation_moves_the_deadline_tells_the_others_once_and_ends_early(table: Table) -> None:
    zone = "Australia/Sydney"
    table.clock.now = at(zone, 2026, 4, 1, 12, 0)  # Sydney leaves summer time on 5 April
    await table.setup_battle()
    reply = await table.slash("settings timezone", user=table.alice, zone=zone)
    assert last_message(reply).ephemeral and "**Australia/Sydney**" in text_of(reply)
    await table.slash("battle start")
    due = (await clock(table)).due_at or 0
    before = posted(table)
    away = await table.slash("vacation start", user=table.alice, **{"from": "2026-04-02", "to": "2026-04-06"})
    assert last_message(away).ephemeral and "deadline moved by" in text_of(away)
    [told] = new_since(table, before)
    assert told.pings.users == {table.bob.id, table.gm.id}, "the other player and the GM, once"
    starts, ends = at(zone, 2026, 4, 2, 0, 0), at(zone, 2026, 4, 7, 0, 0)
    assert ends - starts == 5 * DAY + HOUR, "Sydney's autumn change makes the last day 25 hours"
    moved = await clock(table)
    assert moved.due_at == due + (ends - starts)
    assert "Vacation moved this deadline by 5 days 1 h" in message_text(board(table)), "the board shows it"
    status = await table.slash("turn status", user=table.bob)
    assert "Vacation used" in text_of(status) and f"<@{table.alice.id}>" in text_of(status)

    await table.restart()
    assert [f for f in await table.tick(days=2) if f.timer.kind == "deadline"] == []
    assert (await clock(table)).due_at == moved.due_at, "a restart keeps the moved deadline"
    before = posted(table)
    back = await table.slash("vacation end", user=table.alice)
    assert "Welcome back" in text_of(back)
    now = table.clock.now
    assert (await clock(table)).due_at == due + (now - starts)
    assert len(new_since(table, before)) == 1
    ended = await clock(table)
    assert ended.vacation_turn == {str(table.alice.id): now - starts}


async def test_the_vacation_allowance_caps_how_far_deadlines_move(table: Table) -> None:
    table.clock.now = at("Europe/Berlin", 2026, 6, 1, 12, 0)
    await table.setup_battle()
    await table.gm_slash("gm vacation-allowance", days=2)
    await table.slash("battle start")
    due = (await clock(table)).due_at or 0
    await table.slash("vacation start", user=table.alice, **{"from": "2026-06-01", "to": "2026-06-20"})
    assert (await clock(table)).due_at == due + 2 * DAY


async def test_bad_zones_and_vacations_are_refused_privately_and_change_nothing(table: Table) -> None:
    table.clock.now = at("Europe/Berlin", 2026, 6, 1, 12, 0)
    await table.setup_battle()
    await table.slash("battle start")
    before = await clock(table)
    zone = await table.slash("settings timezone", user=table.alice, zone="Mars/Olympus")
    assert last_message(zone).ephemeral and "not a time zone I know" in text_of(zone)
    assert await table.db.users.get_zone(table.alice.id) is None
    for days, words in ((("2026-05-01", "2026-05-03"), "already over"),
                        (("2026-07-01", "2027-07-03"), "longer than a year"),
                        (("2026-07-09", "2026-07-03"), "before it begins"),
                        (("next week", "2026-07-03"), "not a date")):
        reply = await table.slash("vacation start", user=table.alice, **{"from": days[0], "to": days[1]})
        assert last_message(reply).ephemeral and words in text_of(reply), text_of(reply)
    await table.slash("vacation start", user=table.alice, **{"from": "2026-07-01", "to": "2026-07-05"})
    clash = await table.slash("vacation start", user=table.alice, **{"from": "2026-07-04", "to": "2026-07-08"})
    assert last_message(clash).ephemeral and "overlap your vacation" in text_of(clash)
    assert len(await table.db.vacations.of_user(table.discord.guild.id, table.alice.id, 0.0)) == 1
    none = await table.slash("vacation end", user=table.bob)
    assert last_message(none).ephemeral and "no vacation to end" in text_of(none)
    wrong = await table.gm_slash("gm deadline", at="25:00")
    assert last_message(wrong).ephemeral and "not a clock hour" in text_of(wrong)
    quiet = await table.gm_slash("gm quiet", hours="22:00")
    assert last_message(quiet).ephemeral and "not a span of hours" in text_of(quiet)
    assert await clock(table) == before


async def test_time_zones_are_offered_as_typed(table: Table) -> None:
    choices = await table.discord.autocomplete("settings timezone", "zone", "berl", user=table.alice,
                                               channel=table.channel)
    assert [c["value"] for c in choices] == ["Europe/Berlin"]
    many = await table.discord.autocomplete("settings timezone", "zone", "a", user=table.alice, channel=table.channel)
    assert len(many) == 25


async def test_a_turn_begun_in_quiet_hours_is_pinged_once_at_their_end_even_after_a_restart(table: Table) -> None:
    zone = "Europe/Berlin"
    table.clock.now = at(zone, 2026, 3, 28, 12, 0)  # the night of 28 to 29 March loses an hour
    await table.setup_battle()
    await table.gm_slash("gm deadline", hours=48)
    await table.gm_slash("gm quiet", hours="22:00-08:00", zone=zone)
    await table.slash("battle start")
    table.clock.now = at(zone, 2026, 3, 28, 23, 0)
    await end_turn(table, user=table.alice)
    before = posted(table)
    await end_turn(table, user=table.bob)
    quiet = new_since(table, before)
    assert quiet and all(not m.pings.users for m in quiet), "no ping in quiet hours"
    assert any("Sachiel" in message_text(m) for m in quiet), "the prompt is posted all the same"

    await table.restart()
    table.clock.now = at(zone, 2026, 3, 29, 7, 59)
    await table.tick()
    assert new_since(table, before) == quiet
    table.clock.now = at(zone, 2026, 3, 29, 8, 0)
    fired = await table.tick()
    assert [f.action for f in fired] == ["reminded"]
    [held] = [m for m in new_since(table, before) if m not in quiet]
    assert held.pings.users == {table.gm.id} and "began in the quiet hours" in held.content
    assert await table.tick(minutes=30) == [], "the held ping goes once"
    table.clock.now = at(zone, 2026, 3, 29, 9, 0)
    before = posted(table)
    await end_turn(table, user=table.gm)
    pinged = {uid for m in new_since(table, before) for uid in m.pings.users}
    assert pinged == {table.alice.id, table.bob.id}, "outside quiet hours the turn pings at once"


async def test_two_weeks_in_three_zones_with_a_vacation_and_restarts_lose_and_double_nothing(table: Table) -> None:
    berlin, new_york, sydney = "Europe/Berlin", "America/New_York", "Australia/Sydney"
    table.clock.now = at(berlin, 2026, 10, 20, 7, 0)  # two weeks over both autumn changes (25 Oct, 1 Nov)
    await table.setup_battle()
    await table.slash("settings timezone", user=table.alice, zone=berlin)
    await table.slash("settings timezone", user=table.bob, zone=new_york)
    await table.slash("settings timezone", user=table.gm, zone=sydney)
    await table.gm_slash("gm policy", policy="hold")
    await table.gm_slash("gm deadline", at="20:00", zone=berlin, hours=6)
    await table.gm_slash("gm quiet", hours="22:00-07:00")
    # Nobody here acts, on purpose: the clock alone is under test, so civil disorder is off.
    await table.slash("seat disorder", missed=0)
    await table.slash("battle start")
    await table.slash("vacation start", user=table.bob, **{"from": "2026-10-27", "to": "2026-10-29"})
    bob_away = (at(new_york, 2026, 10, 27, 0, 0), at(new_york, 2026, 10, 30, 0, 0))

    end = at(berlin, 2026, 11, 3, 7, 0)
    fired_ids: list[int] = []
    deadlines: list[tuple[str, float]] = []
    pings: list[tuple[float, frozenset[int], str]] = []
    seen = posted(table)
    step = 0
    while table.clock.now < end:
        step += 1
        if step % 50 == 0:
            await table.restart()
        for fired in await table.tick(hours=1):
            fired_ids.append(fired.timer.id)
            if fired.timer.kind == "deadline":
                deadlines.append((fired.timer.payload["turn"], fired.timer.due_at))
        now_posted = posted(table)
        for message in new_since(table, seen):
            if message.pings.users:
                pings.append((table.clock.now, frozenset(message.pings.users), message.content[:40]))
        seen = now_posted

    assert len(fired_ids) == len(set(fired_ids)), "no timer acted on twice"
    turns_ended = [turn for turn, _ in deadlines]
    assert len(turns_ended) == len(set(turns_ended)), "each turn's deadline once"
    assert len(deadlines) >= 10
    nerv = [due for turn, due in deadlines if "NERV" in turn]
    assert not any(bob_away[0] <= due < bob_away[1] for due in nerv), "no NERV deadline while bob is away"
    assert any(local(due, berlin).timetuple()[3:5] != (20, 0) for due in nerv), "his vacation moved one"
    regular = [due for turn, due in deadlines if "Angels" in turn]
    assert all(local(due, berlin).timetuple()[3:5] == (20, 0) for due in regular), "Angels' turns end at 20:00"
    for moment, _users, text in pings:
        hour = local(moment, berlin).hour
        assert 7 <= hour < 22, f"a ping at {local(moment, berlin)} in quiet hours: {text}"
    # Nobody hears of one turn twice: one ping per turn start, reminder or held turn, never the same hour twice.
    per_hour = [(moment, user) for moment, users, _ in pings for user in users]
    assert len(per_hour) == len(set(per_hour))
    status = await table.slash("turn status", user=table.alice)
    assert f"<@{table.bob.id}>" in text_of(status) and "Vacation used" in text_of(status)
