"""Clock hours, time zones, weekends, quiet hours, time banks and vacations: pure functions of time.

Everything here takes unix seconds and IANA zone names and returns unix seconds, so it is tested
with plain dates. Local times are reckoned with `zoneinfo`, so "every day at 20:00 Europe/Berlin"
stays at 20:00 there across daylight-saving changes: a day is a calendar day, not 24 hours.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from rules.errors import InvalidOrderError

MAX_CHOICES = 25  # Discord shows at most 25 autocomplete choices
DEFAULT_ZONE = "UTC"
DAY_MINUTES = 24 * 60
SATURDAY = 5  # date.weekday() of Saturday; Sunday is 6
MAX_VACATION_DAYS = 366
# A deadline at a clock hour still leaves a turn at least this long, unless the GM gives a length.
DEFAULT_LEAST_TURN = 12 * 3600.0

_HOUR_RE = re.compile(r"^\s*(\d{1,2})(?::(\d{2}))?\s*$")
_DATE_RE = re.compile(r"^\s*(\d{4})-(\d{1,2})-(\d{1,2})\s*$")


# --- zones ----------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _zone_names() -> tuple[str, ...]:
    return tuple(sorted(available_timezones()))


@lru_cache(maxsize=512)
def zone(name: str) -> ZoneInfo:
    """Return an IANA time zone, or say how to name one."""
    clean = name.strip()
    wrong = (f"`{clean[:60]}` is not a time zone I know; use an IANA name like `Europe/Berlin`, "
             "`America/New_York` or `UTC` (the list offers them as you type).")
    if not clean or len(clean) > 60 or clean.startswith("/") or ".." in clean:
        raise InvalidOrderError(wrong)
    try:
        return ZoneInfo(clean)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise InvalidOrderError(wrong) from None


def zone_choices(typed: str) -> list[str]:
    """Return up to 25 zone names containing what was typed (those starting with it first)."""
    needle = typed.strip().lower().replace(" ", "_")
    names = _zone_names()
    if not needle:
        return list(names[:MAX_CHOICES])
    starts = [n for n in names if n.lower().startswith(needle)]
    inner = [n for n in names if needle in n.lower() and n not in starts]
    return (starts + inner)[:MAX_CHOICES]


# --- what the bot writes --------------------------------------------------------------


def stamp(at: float) -> str:
    """Return a moment as Discord timestamps, each reader seeing their own zone: `<t:…:f> (<t:…:R>)`."""
    seconds = int(at)
    return f"<t:{seconds}:f> (<t:{seconds}:R>)"


def when(at: float) -> str:
    """Return a moment relative first, then as a date: `<t:…:R> (<t:…:f>)`, each reader in their own zone."""
    seconds = int(at)
    return f"<t:{seconds}:R> (<t:{seconds}:f>)"


def relative(at: float) -> str:
    """Return a moment as a Discord relative timestamp: `<t:…:R>` (in 3 hours)."""
    return f"<t:{int(at)}:R>"


def full(at: float) -> str:
    """Return a moment as a Discord date and time: `<t:…:f>`."""
    return f"<t:{int(at)}:f>"


def local_time(at: float, zone_name: str) -> str:
    """Return a moment's wall-clock time in a zone, like `Mon 20:00`."""
    return _local(at, zone(zone_name)).strftime("%a %H:%M")


# --- clock hours ----------------------------------------------------------------------


def parse_clock_hour(text: str) -> int:
    """Parse `20:00`, `8:30` or `20` into minutes after midnight."""
    match = _HOUR_RE.match(text)
    wrong = f"`{text[:20]}` is not a clock hour; write it like `20:00` or `8:30` (24-hour clock)."
    if match is None:
        raise InvalidOrderError(wrong)
    hours, minutes = int(match.group(1)), int(match.group(2) or 0)
    if hours > 23 or minutes > 59:
        raise InvalidOrderError(wrong)
    return hours * 60 + minutes


def parse_quiet(text: str) -> tuple[int, int] | None:
    """Parse quiet hours `22:00-08:00` into minutes after midnight (from, to); `off` gives None."""
    clean = text.strip().lower()
    if clean in ("off", "none"):
        return None
    parts = re.split(r"\s*(?:-|\u2013|to)\s*", clean)
    if len(parts) != 2:
        raise InvalidOrderError(f"`{text[:20]}` is not a span of hours; write it like `22:00-08:00`, or `off`.")
    start, end = parse_clock_hour(parts[0]), parse_clock_hour(parts[1])
    if start == end:
        raise InvalidOrderError("Quiet hours that begin when they end are empty; write them like `22:00-08:00`.")
    return start, end


def clock_text(minute_of_day: int) -> str:
    """Return minutes after midnight as `20:00`."""
    return f"{minute_of_day // 60:02d}:{minute_of_day % 60:02d}"


def _local(at: float, tz: ZoneInfo) -> datetime:
    return datetime.fromtimestamp(at, tz=UTC).astimezone(tz)


def _at(day: date, minute_of_day: int, tz: ZoneInfo) -> float:
    """Return the moment a wall clock in `tz` shows this time on this day.

    A time that does not exist (skipped by a spring change) is read as the same wall time after the
    change (fold 0 puts 02:30 on a 02:00->03:00 day at 03:30); a time that happens twice is its first.
    """
    wall = datetime.combine(day, time(minute_of_day // 60, minute_of_day % 60), tzinfo=tz)
    return wall.timestamp()


def is_weekend(at: float, tz: ZoneInfo) -> bool:
    """Return whether a moment falls on a Saturday or Sunday in this zone."""
    return _local(at, tz).weekday() >= SATURDAY


def _next_midnight(at: float, tz: ZoneInfo) -> float:
    return _at(_local(at, tz).date() + timedelta(days=1), 0, tz)


def add_weekday_time(start: float, seconds: float, tz: ZoneInfo) -> float:
    """Return when `seconds` of working-day time have passed after start (weekends in this zone do not count)."""
    at, left = start, seconds
    for _ in range(3 * 366):  # a day at a time; any deadline ends well within this
        if is_weekend(at, tz):
            at = _next_midnight(at, tz)
            continue
        midnight = _next_midnight(at, tz)
        if at + left <= midnight:
            return at + left
        left -= midnight - at
        at = midnight
    return at + left


def next_clock_hour(after: float, minute_of_day: int, tz: ZoneInfo, *, skip_weekends: bool = False) -> float:
    """Return the first moment at or after `after` when the wall clock shows this time (on a weekday, if asked)."""
    day = _local(after, tz).date()
    for _ in range(10):
        candidate = _at(day, minute_of_day, tz)
        if candidate >= after and not (skip_weekends and day.weekday() >= SATURDAY):
            return candidate
        day += timedelta(days=1)
    raise AssertionError("a clock hour comes within ten days")  # pragma: no cover - every day has each hour


def next_daily(now: float, minute_of_day: int, tz: ZoneInfo, last: float | None = None) -> float:
    """Return when a once-a-day message at a local clock hour is next due: from now on, on a later day than the last.

    A day is the local calendar day, so across a daylight-saving change the wait is 23 or 25 hours, and a
    message sent late (after downtime) is not followed by a second one the same day.
    """
    at = next_clock_hour(now, minute_of_day, tz)
    if last is not None:
        at = max(at, _at(_local(last, tz).date() + timedelta(days=1), minute_of_day, tz))
    return at


def in_quiet(at: float, quiet: tuple[int, int] | None, tz: ZoneInfo) -> bool:
    """Return whether a moment falls within quiet hours (from, to in minutes; they may wrap past midnight)."""
    if quiet is None or quiet[0] == quiet[1]:
        return False
    local = _local(at, tz)
    minute = local.hour * 60 + local.minute
    start, end = quiet
    return start <= minute < end if start < end else (minute >= start or minute < end)


def after_quiet(at: float, quiet: tuple[int, int] | None, tz: ZoneInfo) -> float:
    """Return `at`, or the end of the quiet hours it falls in (when the message may go out)."""
    if not in_quiet(at, quiet, tz):
        return at
    assert quiet is not None
    return next_clock_hour(at, quiet[1], tz)


def due_time(started: float, length: float, tz: ZoneInfo, *, at_minute: int | None = None,
             skip_weekends: bool = False, quiet: tuple[int, int] | None = None) -> float:
    """Return when a turn begun at `started` is due.

    The turn lasts `length` (weekend time not counted when weekends are skipped); with a clock hour,
    it is then due at the first such hour after that (on a weekday, when weekends are skipped). A
    deadline never falls in quiet hours: one that would is due at their end.
    """
    end = add_weekday_time(started, length, tz) if skip_weekends else started + length
    if at_minute is not None:
        end = next_clock_hour(end, at_minute, tz, skip_weekends=skip_weekends)
    moved = after_quiet(end, quiet, tz)
    if skip_weekends and moved != end and is_weekend(moved, tz):
        moved = add_weekday_time(moved, 0.0, tz)
        moved = after_quiet(moved, quiet, tz)
    return moved


# --- time banks -----------------------------------------------------------------------


def bank_at_turn(left: float | None, *, start: float, per_turn: float, cap: float) -> float:
    """Return a side's bank as its turn begins: its first turn gets `start`, later ones add `per_turn`, up to `cap`."""
    if left is None:
        return min(start, cap)
    return min(max(0.0, left) + per_turn, cap)


# --- vacations ------------------------------------------------------------------------


def parse_day(text: str) -> date:
    """Parse a date written `2026-12-24`."""
    match = _DATE_RE.match(text)
    wrong = f"`{text[:20]}` is not a date; write it like `2026-12-24` (year-month-day)."
    if match is None:
        raise InvalidOrderError(wrong)
    try:
        return date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    except ValueError:
        raise InvalidOrderError(wrong) from None


def vacation_span(first: date, last: date, tz: ZoneInfo, now: float) -> tuple[float, float]:
    """Return a vacation's start and end (unix seconds) from its first and last day away in the player's zone.

    It begins at midnight of the first day (or now, if that has begun) and ends at midnight after the last.
    """
    if last < first:
        raise InvalidOrderError(f"The vacation ends ({last}) before it begins ({first}); give the first day "
                                "away, then the last.")
    starts = _at(first, 0, tz)
    ends = _at(last + timedelta(days=1), 0, tz)
    if ends <= now:
        raise InvalidOrderError(f"A vacation ending {last} is already over; give days from today on.")
    if (last - first).days + 1 > MAX_VACATION_DAYS:
        raise InvalidOrderError(f"A vacation of {(last - first).days + 1} days is longer than a year; "
                                f"give at most {MAX_VACATION_DAYS} days.")
    return max(starts, now), ends


def vacation_extension(turn_started: float, due_at: float, away_from: float, away_until: float) -> float:
    """Return how far a vacation moves a turn's deadline: the time away from the turn's start on.

    A player away before the deadline gets back, after their return, the time of the turn the
    vacation took: the deadline moves by the whole absence after the turn began.
    """
    if away_from >= due_at or away_until <= turn_started:
        return 0.0
    return away_until - max(away_from, turn_started)
