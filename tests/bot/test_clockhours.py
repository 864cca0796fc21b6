"""Clock hours across daylight saving, weekends, quiet hours, time banks and vacations, as pure functions of time."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from itertools import pairwise
from zoneinfo import ZoneInfo

import pytest

from bot.clockhours import (
    add_weekday_time,
    after_quiet,
    bank_at_turn,
    due_time,
    next_clock_hour,
    next_daily,
    parse_clock_hour,
    parse_day,
    stamp,
    vacation_extension,
    vacation_span,
    zone,
    zone_choices,
)
from rules.errors import InvalidOrderError

HOUR = 3600.0
DAY = 86_400.0
ZONES = ["Europe/Berlin", "America/New_York", "Australia/Sydney"]
# Daylight-saving changes of 2026: Berlin 29 March and 25 October, New York 8 March and 1 November,
# Sydney 5 April (back) and 4 October (forward).
CHANGES = {
    "Europe/Berlin": [date(2026, 3, 29), date(2026, 10, 25)],
    "America/New_York": [date(2026, 3, 8), date(2026, 11, 1)],
    "Australia/Sydney": [date(2026, 4, 5), date(2026, 10, 4)],
}


def moment(zone_name: str, *parts: int) -> float:
    """Return unix seconds of a wall-clock time in a zone."""
    return datetime(*parts, tzinfo=ZoneInfo(zone_name)).timestamp()  # type: ignore[misc]


def wall(at: float, zone_name: str) -> datetime:
    """Return the wall-clock time of a moment in a zone."""
    return datetime.fromtimestamp(at, tz=ZoneInfo(zone_name))


@pytest.mark.parametrize("zone_name", ZONES)
def test_every_day_at_twenty_hundred_stays_at_twenty_hundred_across_both_changes(zone_name: str) -> None:
    tz = zone(zone_name)
    for change in CHANGES[zone_name]:
        started = moment(zone_name, change.year, change.month, change.day, 0, 0) - 5 * DAY
        for _ in range(10):  # ten daily turns, across the change
            due = due_time(started, 12 * HOUR, tz, at_minute=parse_clock_hour("20:00"))
            local = wall(due, zone_name)
            assert (local.hour, local.minute) == (20, 0)
            assert due - started >= 12 * HOUR
            started = due
    # A day across a change is 23 or 25 hours long, not 24.
    before = due_time(moment("Europe/Berlin", 2026, 3, 28, 20, 0), 12 * HOUR, zone("Europe/Berlin"), at_minute=1200)
    assert before - moment("Europe/Berlin", 2026, 3, 28, 20, 0) == 23 * HOUR
    after = due_time(moment("Europe/Berlin", 2026, 10, 24, 20, 0), 12 * HOUR, zone("Europe/Berlin"), at_minute=1200)
    assert after - moment("Europe/Berlin", 2026, 10, 24, 20, 0) == 25 * HOUR


def test_a_clock_hour_that_does_not_exist_on_the_spring_day_comes_an_hour_later() -> None:
    tz = zone("America/New_York")
    due = next_clock_hour(moment("America/New_York", 2026, 3, 8, 0, 0), parse_clock_hour("2:30"), tz)
    local = wall(due, "America/New_York")
    assert (local.day, local.hour, local.minute) == (8, 3, 30)


def test_a_clock_hour_that_happens_twice_in_autumn_is_its_first() -> None:
    tz = zone("America/New_York")
    due = next_clock_hour(moment("America/New_York", 2026, 11, 1, 0, 0), parse_clock_hour("1:30"), tz)
    assert due == datetime(2026, 11, 1, 5, 30, tzinfo=UTC).timestamp(), "01:30 EDT, not 01:30 EST an hour later"
    assert wall(due, "America/New_York").utcoffset() == timedelta(hours=-4), "still daylight time"


@pytest.mark.parametrize("zone_name", ZONES)
def test_skipped_weekends_neither_count_nor_hold_a_deadline(zone_name: str) -> None:
    tz = zone(zone_name)
    friday_noon = moment(zone_name, 2026, 3, 6, 12, 0)  # the weekend of 7-8 March (a change in New York)
    due = due_time(friday_noon, DAY, tz, skip_weekends=True)
    local = wall(due, zone_name)
    assert (local.weekday(), local.hour) == (0, 12), "Friday noon plus a working day is Monday noon"
    at_hour = due_time(friday_noon, HOUR, tz, at_minute=parse_clock_hour("20:00"), skip_weekends=True)
    assert (wall(at_hour, zone_name).weekday(), wall(at_hour, zone_name).hour) == (4, 20)
    late = due_time(moment(zone_name, 2026, 3, 6, 21, 0), HOUR, tz, at_minute=1200, skip_weekends=True)
    assert (wall(late, zone_name).weekday(), wall(late, zone_name).hour) == (0, 20), "not Saturday at 20:00"
    saturday = moment(zone_name, 2026, 3, 7, 10, 0)
    assert wall(add_weekday_time(saturday, 2 * HOUR, tz), zone_name).timetuple()[:5] == (2026, 3, 9, 2, 0)
    without = due_time(friday_noon, DAY, tz)
    assert without == friday_noon + DAY


@pytest.mark.parametrize("zone_name", ZONES)
def test_quiet_hours_move_a_message_to_their_end_even_over_midnight(zone_name: str) -> None:
    tz = zone(zone_name)
    quiet = (parse_clock_hour("22:00"), parse_clock_hour("8:00"))
    for change in CHANGES[zone_name]:
        night = moment(zone_name, change.year, change.month, change.day, 1, 0)
        end = after_quiet(night, quiet, tz)
        assert wall(end, zone_name).hour == 8 and wall(end, zone_name).day == change.day
        evening = moment(zone_name, change.year, change.month, change.day, 23, 0)
        assert wall(after_quiet(evening, quiet, tz), zone_name).timetuple()[2:4] == (change.day + 1, 8)
    noon = moment(zone_name, 2026, 6, 1, 12, 0)
    assert after_quiet(noon, quiet, tz) == noon
    day_quiet = (parse_clock_hour("12:00"), parse_clock_hour("14:00"))
    assert wall(after_quiet(noon, day_quiet, tz), zone_name).hour == 14
    due = due_time(moment(zone_name, 2026, 6, 1, 2, 0), HOUR, tz, quiet=quiet)
    assert wall(due, zone_name).hour == 8, "a deadline never falls in quiet hours"


def test_zones_are_checked_and_offered_as_typed() -> None:
    assert zone("Europe/Berlin").key == "Europe/Berlin"
    for wrong in ("Mars/Olympus", "", "../etc/passwd", "Europe/" + "x" * 80):
        with pytest.raises(InvalidOrderError, match="not a time zone"):
            zone(wrong)
    offered = zone_choices("berl")
    assert offered == ["Europe/Berlin"]
    assert zone_choices("america/")[0].startswith("America/") and len(zone_choices("america/")) == 25
    assert zone_choices("york") == ["America/New_York"]
    assert zone_choices("zzzz") == []


def test_stamps_are_discord_timestamps() -> None:
    assert stamp(1_750_000_000.7) == "<t:1750000000:f> (<t:1750000000:R>)"


def test_clock_hours_and_days_are_parsed_or_refused() -> None:
    assert parse_clock_hour("20:00") == 1200 and parse_clock_hour("8:30") == 510 and parse_clock_hour("7") == 420
    for wrong in ("24:00", "8:60", "eight", "20:0"):
        with pytest.raises(InvalidOrderError, match="not a clock hour"):
            parse_clock_hour(wrong)
    assert parse_day("2026-12-24") == date(2026, 12, 24)
    for wrong in ("2026-02-30", "24.12.2026", "tomorrow"):
        with pytest.raises(InvalidOrderError, match="not a date"):
            parse_day(wrong)


def test_a_bank_starts_full_gains_a_turn_each_turn_and_stops_at_its_cap() -> None:
    assert bank_at_turn(None, start=3 * DAY, per_turn=DAY, cap=5 * DAY) == 3 * DAY
    assert bank_at_turn(2 * DAY, start=3 * DAY, per_turn=DAY, cap=5 * DAY) == 3 * DAY
    assert bank_at_turn(4.5 * DAY, start=3 * DAY, per_turn=DAY, cap=5 * DAY) == 5 * DAY
    assert bank_at_turn(-HOUR, start=3 * DAY, per_turn=DAY, cap=5 * DAY) == DAY


def test_a_vacation_moves_a_deadline_by_the_absence_after_the_turn_began() -> None:
    started, due = 0.0, DAY
    assert vacation_extension(started, due, 2 * DAY, 5 * DAY) == 0.0, "away only after the deadline"
    assert vacation_extension(started, due, -5 * DAY, -DAY) == 0.0, "back before the turn began"
    assert vacation_extension(started, due, 6 * HOUR, 12 * HOUR) == 6 * HOUR
    assert vacation_extension(started, due, -DAY, 3 * DAY) == 3 * DAY, "away the whole turn: it starts again on return"
    assert vacation_extension(started, due, 20 * HOUR, 3 * DAY) == 3 * DAY - 20 * HOUR


@pytest.mark.parametrize("zone_name", ZONES)
def test_a_vacation_runs_from_midnight_to_midnight_in_the_players_zone(zone_name: str) -> None:
    tz = zone(zone_name)
    now = moment(zone_name, 2026, 3, 1, 12, 0)
    starts, ends = vacation_span(date(2026, 3, 2), date(2026, 3, 9), tz, now)
    assert wall(starts, zone_name).timetuple()[:4] == (2026, 3, 2, 0)
    assert wall(ends, zone_name).timetuple()[:4] == (2026, 3, 10, 0)
    begun, _ = vacation_span(date(2026, 3, 1), date(2026, 3, 2), tz, now)
    assert begun == now, "a vacation that has begun counts from now"
    with pytest.raises(InvalidOrderError, match="already over"):
        vacation_span(date(2026, 2, 1), date(2026, 2, 28), tz, now)
    with pytest.raises(InvalidOrderError, match="longer than a year"):
        vacation_span(date(2026, 3, 2), date(2027, 3, 9), tz, now)
    with pytest.raises(InvalidOrderError, match="before it begins"):
        vacation_span(date(2026, 3, 9), date(2026, 3, 2), tz, now)


@pytest.mark.parametrize("zone_name", ZONES)
def test_a_daily_message_keeps_its_local_hour_across_both_changes_and_comes_once_a_local_day(zone_name: str) -> None:
    tz = zone(zone_name)
    for change in CHANGES[zone_name]:
        now = moment(zone_name, change.year, change.month, change.day, 0, 0) - 4 * DAY
        sent: list[float] = []
        for _ in range(8):
            due = next_daily(now, parse_clock_hour("7:30"), tz, sent[-1] if sent else None)
            assert (wall(due, zone_name).hour, wall(due, zone_name).minute) == (7, 30)
            sent.append(due)
            now = due + 10 * 60  # the pass that sends it comes a little after the hour
        days = [wall(at, zone_name).date() for at in sent]
        assert days == [days[0] + timedelta(days=n) for n in range(8)], "one a local day, none skipped"
        gaps = {b - a for a, b in pairwise(sent)}
        assert gaps == {DAY, DAY - HOUR} or gaps == {DAY, DAY + HOUR}, "the day of the change is 23 or 25 hours"


def test_a_daily_message_sent_late_is_not_followed_by_another_the_same_day() -> None:
    tz = zone("Europe/Berlin")
    # Down overnight: the 08:00 message of the 3rd went out at 07:00 on the 4th; the next is the 5th's.
    late = moment("Europe/Berlin", 2026, 6, 4, 7, 0)
    assert next_daily(late, 8 * 60, tz, late) == moment("Europe/Berlin", 2026, 6, 5, 8, 0)
    # Never sent: the next 08:00, today's if it is still to come.
    assert next_daily(late, 8 * 60, tz) == moment("Europe/Berlin", 2026, 6, 4, 8, 0)
