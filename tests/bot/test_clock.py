"""The clock's arithmetic: deadlines, reminder times, durations, turn keys, and the scheduler's loop."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.clock import (
    check_deadline,
    describe_reminders,
    human_duration,
    parse_duration,
    parse_reminders,
    plan,
    reminder_times,
    turn_key,
)
from bot.service import TableService
from loopback.logcapture import ErrorLogCapture
from rules.battle import Battle
from rules.coords import Cell
from rules.errors import InvalidOrderError
from rules.orders import AddUnit, Start
from rules.turnorders import EndTurn, SetTurnMode
from storage import ClockRecord, Database
from tests.rules.conftest import dice

DAY = 86_400.0


def test_deadline_bounds_have_their_own_messages() -> None:
    assert check_deadline(60) == 60.0 and check_deadline(30 * DAY) == 30 * DAY
    with pytest.raises(InvalidOrderError, match="zero would end every turn"):
        check_deadline(0)
    with pytest.raises(InvalidOrderError, match="too short"):
        check_deadline(30)
    with pytest.raises(InvalidOrderError, match=r"720\.5 hours is too long: the longest is 30 days"):
        check_deadline(30 * DAY + 1800)
    with pytest.raises(InvalidOrderError, match=r"^A deadline of over 7200 hours is too long"):
        check_deadline(1e300)


def test_durations_read_like_speech() -> None:
    assert human_duration(0) == "less than a minute"
    assert human_duration(45 * 60) == "45 min"
    assert human_duration(5 * 3600 + 20 * 60) == "5 h 20 min"
    assert human_duration(DAY) == "1 day"
    assert human_duration(2 * DAY + 3 * 3600 + 29) == "2 days 3 h"
    assert human_duration(2 * DAY + 30 * 60) == "2 days 0 h 30 min", "the minutes of a long duration are kept"
    assert human_duration(DAY + 3600 + 60) == "1 day 1 h 1 min"
    assert parse_duration("1h30m") == 5400 and parse_duration("2d") == 2 * DAY
    with pytest.raises(InvalidOrderError, match="not a time"):
        parse_duration("soon")


def test_reminder_specs() -> None:
    assert parse_reminders("half, 1h") == ("50%", "1h")
    assert parse_reminders("default") == ("50%", "1h")
    assert parse_reminders("none") == ()
    assert parse_reminders("25% 90m 1d") == ("25%", "1h30m", "1d")
    assert describe_reminders(("50%", "1h")) == "at half-time and 1 h before"
    with pytest.raises(InvalidOrderError, match="never comes"):
        parse_reminders("100%")
    with pytest.raises(InvalidOrderError, match="at most 5"):
        parse_reminders("1h 2h 3h 4h 5h 6h")


def test_reminders_fall_inside_the_turn_and_never_twice_at_once() -> None:
    assert reminder_times(("50%", "1h"), 0.0, DAY) == [DAY / 2, DAY - 3600]
    # A two-hour turn: half-time and one hour before are the same moment, said once.
    assert reminder_times(("50%", "1h"), 0.0, 7200.0) == [3600.0]
    # A 30-minute turn has no "1 hour before".
    assert reminder_times(("1h",), 0.0, 1800.0) == []


def test_plan_arms_the_deadline_and_the_reminders_ahead() -> None:
    clock = ClockRecord(battle_id=1, turn_key="1|side|A", turn_started=0.0, due_at=DAY)
    assert [(t.kind, t.due_at) for t in plan(clock, after=0.0)] == [
        ("deadline", DAY), ("reminder", DAY / 2), ("reminder", DAY - 3600)]
    assert [t.kind for t in plan(clock, after=DAY / 2)] == ["deadline", "reminder"]
    assert plan(ClockRecord(battle_id=1, turn_key="k", due_at=DAY, paused_at=5.0), after=0.0) == []
    assert plan(ClockRecord(battle_id=1, turn_key="k", due_at=DAY, expired_at=DAY), after=0.0) == []


def test_turn_key_names_round_mode_and_who() -> None:
    battle = Battle.new("strategic-e", 10, 10)
    battle.apply(AddUnit(name="A1", side="Red", at=Cell.parse("A1")), dice())
    battle.apply(AddUnit(name="B1", side="Blue", at=Cell.parse("J10")), dice())
    assert turn_key(battle) is None
    battle.apply(Start(), dice())
    assert turn_key(battle) == "1|side|Red"
    battle.apply(EndTurn(unit="A1"), dice())
    assert turn_key(battle) == "1|side|Blue"
    battle.apply(SetTurnMode(mode="free"), dice())
    assert turn_key(battle) == "1|free|*"
    battle.apply(SetTurnMode(mode="initiative"), dice(5, 5, 1, 9))
    assert turn_key(battle) in (f"1|initiative|{battle.unit('A1').id}", f"1|initiative|{battle.unit('B1').id}")


async def test_the_loop_ticks_until_cancelled_and_survives_a_failed_pass(
        tmp_path: Path, logged_errors: ErrorLogCapture) -> None:
    async with await Database.open(tmp_path / "db.sqlite3") as db:
        service = TableService(db, clock=lambda: 1000.0)
        ticks: list[float] = []
        real_run_due = service.scheduler.run_due
        calls = 0

        async def flaky_run_due() -> list[object]:
            nonlocal calls
            calls += 1
            if calls == 1:
                raise RuntimeError("database went away for a moment")
            return list(await real_run_due())

        service.scheduler.run_due = flaky_run_due  # type: ignore[method-assign]
        stop = asyncio.Event()

        async def fake_sleep(seconds: float) -> None:
            ticks.append(seconds)
            if len(ticks) == 3:
                stop.set()
                raise asyncio.CancelledError
            await asyncio.sleep(0)

        task = asyncio.create_task(service.scheduler.run_forever(7.0, sleep=fake_sleep))
        await stop.wait()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert ticks == [7.0, 7.0, 7.0] and calls == 3
        assert service.scheduler.recovered
        claimed = logged_errors.take()
        assert len(claimed) == 1 and "failed a pass" in claimed[0].getMessage()


def test_absurd_times_are_refused_not_overflowed() -> None:
    """A reminder of 400 nines of hours, or a time of 100,000 digits, is refused in one short line."""
    with pytest.raises(InvalidOrderError, match="not a time") as long_one:
        parse_reminders("9" * 400 + "h")
    assert len(long_one.value.message) < 120
    with pytest.raises(InvalidOrderError, match="longer than a year"):
        parse_reminders("9" * 30 + "h")
    with pytest.raises(InvalidOrderError, match="not a time"):
        parse_duration("1" * 100_000 + "x")
    assert parse_reminders("1d 2h") == ("1d", "2h")
