"""Turn clocks: which turn a battle is in, when its deadline falls, and the timers that wake us for it.

A battle's clock row (storage `battle_clocks`) is the truth about its current turn: the turn's key,
when it started, when it is due, whether the GM paused it, and whether its deadline was already dealt
with. The `timers` rows (one deadline, a few reminders) only wake the scheduler; they are always
rebuilt from the clock, so a timer lost in a crash is put back by `TurnClocks.recover`.

The same row holds the battle's zone, clock hour, weekends and quiet hours (the arithmetic is in
`bot.clockhours`), each side's time bank and each player's vacation time: a turn's accounts are
settled (`settle_turn`) and opened (`start_turn`, `with_vacations`) in the write that starts the next
turn, so a restart or a second process never counts them twice.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from zoneinfo import ZoneInfo

from bot import clockhours
from bot.cache import UNKNOWN, MaybeTurn
from rules import turns
from rules.battle import Battle
from rules.errors import GameError, IllegalOrderError, InvalidOrderError
from rules.visibility import PUBLIC, Viewer, sees
from storage import BattleRecord, ClockRecord, Database, DeadlinePolicy, NewTimer, VacationRecord
from storage.records import DEFAULT_REMINDERS

log = logging.getLogger(__name__)

MINUTE = 60.0
HOUR = 3600.0
DAY = 86_400.0
MIN_DEADLINE = MINUTE
MAX_DEADLINE = 30 * DAY
MAX_REMINDERS = 5
POLICIES: tuple[DeadlinePolicy, ...] = ("wait", "hold", "default")
POLICY_NAMES = {
    "wait": "wait for the GM",
    "hold": "the units due hold",
    "default": "standing orders (hold without one)",
}


def policy_name(battle: Battle, policy: str) -> str:
    """Say what a deadline policy does in this battle's system (its own words for phases of its own)."""
    phases = battle.system.phases
    if phases is not None and policy in phases.policies:
        return phases.policies[policy]
    return POLICY_NAMES.get(policy, policy)


# Two reminders closer than this would read as one message sent twice.
REMINDER_GAP = MINUTE

_DURATION_RE = re.compile(r"(\d+(?:\.\d+)?)\s*(d|h|m|min|s)", re.IGNORECASE)
_UNIT_SECONDS = {"d": DAY, "h": HOUR, "m": MINUTE, "min": MINUTE, "s": 1.0}

Clock = Callable[[], float]


# --- reading a battle -----------------------------------------------------------------


def turn_key(battle: Battle) -> str | None:
    """Return a key naming the current turn (round, mode, unit or side), or None when no turn is running.

    A system with phases of its own (Surface Combat's secret plans) names its phase itself.
    """
    phases = battle.system.phases
    if phases is not None:
        waiting = phases.waiting(battle)
        return None if waiting is None else waiting.key
    if not turns.engaged(battle) or not turns.next_due(battle):
        return None
    mode = turns.mode_of(battle)
    at = turns.current_unit(battle) if mode == "initiative" else turns.current_side(battle) if mode == "side" else "*"
    return f"{battle.round}|{mode}|{at}"


def due_now(battle: Battle) -> list[str]:
    """Return who the current turn waits for: unit ids, or the sides a system's own phase waits for."""
    phases = battle.system.phases
    if phases is not None:
        waiting = phases.waiting(battle)
        return [] if waiting is None else list(waiting.due)
    return turns.next_due(battle)


def due_sides(battle: Battle) -> list[str]:
    """Return the sides the current turn waits for, in order."""
    if battle.system.phases is not None:
        return list(dict.fromkeys(due_now(battle)))
    sides = [unit.side for ref in due_now(battle) if (unit := battle.find_unit(ref)) is not None]
    return list(dict.fromkeys(sides))


def due_players(battle: Battle) -> list[int]:
    """Return the players commanding what the current turn waits for."""
    if battle.system.phases is not None:
        wanted = {s.lower() for s in due_now(battle)}
        owners = [u.owner for u in battle.iter_units() if u.side.lower() in wanted and u.owner]
    else:
        owners = [unit.owner for ref in due_now(battle) if (unit := battle.find_unit(ref)) is not None and unit.owner]
    return sorted(set(owners))


def turn_label(battle: Battle, viewer: Viewer = PUBLIC) -> str:
    """Describe the current turn for players: `round 2, NERV phase`, `round 3, Eva-01's turn`.

    A unit hidden from the viewer is not named: its turn reads as a unit's out of sight.
    """
    phases = battle.system.phases
    if phases is not None:
        waiting = phases.waiting(battle)
        return waiting.label if waiting is not None else f"game turn {battle.round}"
    mode = turns.mode_of(battle)
    if mode == "initiative":
        current = turns.current_unit(battle)
        unit = battle.units.get(current) if current else None
        if unit is not None and not sees(viewer, unit):
            return f"round {battle.round}, a unit out of sight acts"
        who = turns.name_of(battle, current) if current else None
        return f"round {battle.round}, {who}'s turn" if who else f"round {battle.round}"
    if mode == "side":
        side = turns.current_side(battle)
        return f"round {battle.round}, {side} phase" if side else f"round {battle.round}"
    return f"round {battle.round} (free order)"


def whose_turn(battle: Battle, viewer: Viewer = PUBLIC) -> str:
    """Say whose turn it is, for boards, replies and map titles: `Round 2, NERV phase`, `Setting up`."""
    if battle.status == "setup":
        return "Setting up"
    if battle.status == "ended":
        return f"Ended after round {battle.round}"
    label = turn_label(battle, viewer)
    return label[0].upper() + label[1:]


# --- durations and reminders ----------------------------------------------------------


def human_duration(seconds: float) -> str:
    """Return a duration as people say it, to the minute: `2 days 3 h`, `2 days 0 h 30 min`, `5 h 20 min`, `45 min`."""
    total = round(max(0.0, seconds) / MINUTE)
    if total < 1:
        return "less than a minute"
    days, rest = divmod(total, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = []
    if days:
        parts.append(f"{days} day{'s' if days != 1 else ''}")
    if hours or (days and minutes):
        parts.append(f"{hours} h")  # `2 days 0 h 30 min`: no minutes read as hours
    if minutes:
        parts.append(f"{minutes} min")
    return " ".join(parts)


def check_deadline(seconds: float) -> float:
    """Return a deadline in seconds, or explain the allowed range (1 minute to 30 days)."""
    if seconds != seconds or seconds <= 0:
        raise InvalidOrderError(
            "A deadline of zero would end every turn the moment it starts; give at least 1 minute "
            "(`minutes:1`) and at most 30 days (720 hours)."
        )
    if seconds < MIN_DEADLINE:
        raise InvalidOrderError(
            f"A deadline of {int(seconds)} seconds is too short to answer in; give at least 1 minute."
        )
    if seconds > MAX_DEADLINE:
        # An absurd number is not repeated back: the answer stays one short line whatever was typed.
        given = f"{seconds / 3600:.6g} hours" if seconds < 10 * MAX_DEADLINE else "over 7200 hours"
        raise InvalidOrderError(
            f"A deadline of {given} is too long: the longest is 30 days (720 hours). "
            "To stop the clock altogether, use /gm pause."
        )
    return float(seconds)


def parse_duration(text: str) -> float:
    """Parse `1h`, `90m`, `2d`, `1h30m` into seconds."""
    compact = text.strip().lower().replace(" ", "")
    wrong = f"`{text[:40]}` is not a time; write it like `1h`, `30m`, `2d` or `1h30m`."
    if len(compact) > 40:
        raise InvalidOrderError(wrong)
    pos, total = 0, 0.0
    while pos < len(compact):
        match = _DURATION_RE.match(compact, pos)
        if match is None:
            raise InvalidOrderError(wrong)
        total += float(match.group(1)) * _UNIT_SECONDS[match.group(2).lower()]
        pos = match.end()
    if not compact or total <= 0:
        raise InvalidOrderError(wrong)
    if total > 366 * DAY:
        # Past a year no deadline or reminder means anything, and absurd numbers would overflow a date.
        raise InvalidOrderError(f"`{text[:40]}` is longer than a year; write a time like `1h`, `30m` or `2d`.")
    return total


def parse_reminders(text: str) -> tuple[str, ...]:
    """Parse reminder times: `half`, `25%` (of the turn gone), `1h`, `30m` (before the deadline), `none`."""
    words = [w for w in re.split(r"[,;\s]+", text.strip().lower()) if w]
    if not words or words == ["default"]:
        return DEFAULT_REMINDERS
    if words in (["none"], ["off"]):
        return ()
    out: list[str] = []
    for word in words:
        if word in ("half", "halfway", "half-time"):
            spec = "50%"
        elif word.endswith("%"):
            try:
                share = float(word[:-1])
            except ValueError:
                raise InvalidOrderError(f"`{word}` is not a share of the turn; write it like `50%`.") from None
            if not 0 < share < 100:
                raise InvalidOrderError(f"A reminder at `{word}` of the turn never comes; use 1% to 99%.")
            spec = f"{share:g}%"
        else:
            spec = _canonical(parse_duration(word))
        if spec not in out:
            out.append(spec)
    if len(out) > MAX_REMINDERS:
        raise InvalidOrderError(f"Set at most {MAX_REMINDERS} reminders per turn.")
    return tuple(out)


def _canonical(seconds: float) -> str:
    minutes = round(seconds / MINUTE)
    if minutes < 1:
        raise InvalidOrderError("A reminder needs at least one minute before the deadline.")
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    return "".join(f"{v}{u}" for v, u in ((days, "d"), (hours, "h"), (mins, "m")) if v)


def describe_reminders(specs: Sequence[str]) -> str:
    """Describe reminder times for a GM: `at half-time and 1 h before`."""
    if not specs:
        return "no reminders"
    words = []
    for spec in specs:
        if spec == "50%":
            words.append("at half-time")
        elif spec.endswith("%"):
            words.append(f"when {spec} of the turn has passed")
        else:
            words.append(f"{human_duration(parse_duration(spec))} before")
    return ", ".join(words[:-1]) + (" and " if len(words) > 1 else "") + words[-1]


def reminder_times(specs: Sequence[str], started: float, due: float) -> list[float]:
    """Return when a turn's reminders fall: inside the turn, in order, none two within a minute."""
    length = due - started
    times: list[float] = []
    for spec in specs:
        at = started + length * float(spec[:-1]) / 100 if spec.endswith("%") else due - parse_duration(spec)
        if started < at < due:
            times.append(at)
    out: list[float] = []
    for at in sorted(times):
        if not out or at - out[-1] >= REMINDER_GAP:
            out.append(at)
    return out


# --- each player's own reminders ------------------------------------------------------

BATTLE_REMINDERS = "battle"  # the battle's reminder times, as the GM set them
HELD_TURN = "turn"  # the ping of a turn that began in quiet hours, sent at their end
REMIND_CHOICES = ("battle", "once", "every", "off")
MIN_EVERY_HOURS = 1
MAX_EVERY_HOURS = 72
MAX_SERIES = 24  # reminders of one player's series in one turn, at most


def every_spec(hours: int) -> str:
    """Return the stored form of `every N hours`."""
    return f"every:{hours}"


def every_hours(spec: str) -> int | None:
    """Return N of a stored `every:N`, or None for the other choices."""
    if not spec.startswith("every:"):
        return None
    return int(spec.split(":", 1)[1])


def parse_remind(how: str, hours: int | None) -> str:
    """Return a player's reminder choice as stored, or say what is wrong with it."""
    if how not in REMIND_CHOICES:
        raise InvalidOrderError(f"`{how}` is not a choice; use battle, once, every or off.")
    if how != "every":
        if hours is not None:
            raise InvalidOrderError(f"`hours` goes only with `every`; `{how}` takes no hours.")
        return how
    if hours is None:
        raise InvalidOrderError(f"Say how often with `hours`: every {MIN_EVERY_HOURS} to {MAX_EVERY_HOURS} hours "
                                "(`how:every hours:6`).")
    if not MIN_EVERY_HOURS <= hours <= MAX_EVERY_HOURS:
        raise InvalidOrderError(f"A reminder every {hours} hours is out of bounds: choose {MIN_EVERY_HOURS} to "
                                f"{MAX_EVERY_HOURS} hours.")
    return every_spec(hours)


def describe_remind(spec: str, battle_specs: Sequence[str]) -> str:
    """Say when a player is reminded: `at the battle's times (at half-time and 1 h before)`, `every 6 h`."""
    hours = every_hours(spec)
    if hours is not None:
        return f"every {hours} h of your turn (at most {MAX_SERIES} a turn)"
    if spec == "off":
        return "none"
    battle = describe_reminders(battle_specs)
    if spec == "once":
        return f"once, at the first of the battle's reminders ({battle})"
    return f"at the battle's reminder times ({battle})"


def series_times(hours: int, started: float, due: float) -> list[float]:
    """Return the times of an every-N-hours series inside a turn: N, 2N ... hours after it began."""
    step = hours * HOUR
    out: list[float] = []
    at = started + step
    while at < due and len(out) < MAX_SERIES:
        out.append(at)
        at += step
    return out


def wants_reminder(remind: str, meant_for: str, first: bool) -> bool:
    """Return whether a player who chose `remind` gets a reminder timer meant for `meant_for`."""
    if meant_for == HELD_TURN:
        return True  # not a reminder: the turn's own ping, which every player gets
    if remind == "off":
        return False
    if remind == "once":
        return meant_for == BATTLE_REMINDERS and first
    if remind == BATTLE_REMINDERS:
        return meant_for == BATTLE_REMINDERS
    return meant_for == remind


# --- the clock of one battle ----------------------------------------------------------


@dataclass(frozen=True)
class TurnStart:
    """A turn that has just begun: who is due, and until when."""

    key: str
    units: tuple[str, ...]  # unit ids; the sides due, in a system with phases of its own
    started: float
    due_at: float | None
    paused: bool
    remaining: float | None = None


def zone_of(clock: ClockRecord) -> ZoneInfo:
    """Return the battle's time zone (UTC unless its GM chose one)."""
    return clockhours.zone(clock.zone or clockhours.DEFAULT_ZONE)


def turn_due(clock: ClockRecord, started: float, length: float) -> float:
    """Return when a turn of this length begun at `started` is due, by the battle's clock hours and weekends."""
    return clockhours.due_time(started, length, zone_of(clock), at_minute=clock.at_minute,
                               skip_weekends=clock.skip_weekends, quiet=clock.quiet)


def _out_of_quiet(clock: ClockRecord, times: list[float]) -> list[float]:
    """Move reminder times out of quiet hours to their end; keep those still before the deadline, none twice."""
    if clock.quiet is None or clock.due_at is None:
        return times
    tz = zone_of(clock)
    moved = sorted(clockhours.after_quiet(at, clock.quiet, tz) for at in times)
    out: list[float] = []
    for at in moved:
        if at < clock.due_at and (not out or at - out[-1] >= REMINDER_GAP):
            out.append(at)
    return out


def plan(clock: ClockRecord, *, after: float, every: Sequence[int] = ()) -> list[NewTimer]:
    """Return the timers a running turn needs: its deadline and the reminders still ahead.

    The battle's own reminders are `for` "battle" (the first of them marked `first`, for players reminded
    once); `every` adds, per number of hours some player chose, a series `for` "every:N". Reminders that
    would come in the battle's quiet hours come at their end instead.
    """
    if clock.turn_key is None or clock.paused or clock.expired_at is not None or clock.due_at is None:
        return []
    payload = {"turn": clock.turn_key, "due_at": clock.due_at}
    timers = [NewTimer("deadline", clock.due_at, payload)]
    started = clock.turn_started if clock.turn_started is not None else clock.due_at - clock.deadline
    for index, at in enumerate(_out_of_quiet(clock, reminder_times(clock.reminders, started, clock.due_at))):
        if at > after:
            timers.append(NewTimer("reminder", at, {**payload, "for": BATTLE_REMINDERS, "first": index == 0}))
    for hours in sorted(set(every)):
        for at in _out_of_quiet(clock, series_times(hours, started, clock.due_at)):
            if at > after:
                timers.append(NewTimer("reminder", at, {**payload, "for": every_spec(hours)}))
    if clock.quiet is not None and clock.turn_started is not None:
        held = clockhours.after_quiet(clock.turn_started, clock.quiet, zone_of(clock))
        if held != clock.turn_started and after < held < clock.due_at:
            timers.append(NewTimer("reminder", held, {**payload, "for": HELD_TURN}))
    return timers


def quiet_now(clock: ClockRecord, now: float) -> bool:
    """Return whether the battle is in its quiet hours now (no ping goes out)."""
    return clockhours.in_quiet(now, clock.quiet, zone_of(clock))


def settle_turn(clock: ClockRecord, now: float) -> ClockRecord:
    """Close the accounts of a turn that ends now: its banks spend the time it took, its vacation time is kept."""
    if clock.turn_key is None:
        return clock
    used = dict(clock.vacation_used)
    for user, seconds in clock.vacation_turn.items():
        used[user] = used.get(user, 0.0) + seconds
    banks = dict(clock.banks)
    charged = [side for side in clock.bank_due if side in banks]
    if clock.bank is not None and charged:
        if clock.expired_at is not None:
            left = 0.0
        elif clock.paused:
            left = clock.remaining or 0.0
        else:
            left = max(0.0, (clock.due_at or now) - now)
        # The turn was given the smallest bank of the sides due; each of them spent what it took.
        spent = max(0.0, min(banks[side] for side in charged) - left)
        for side in charged:
            banks[side] = max(0.0, banks[side] - spent)
    return replace(clock, vacation_used=used, vacation_turn={}, banks=banks, bank_due=())


def start_turn(clock: ClockRecord, key: str, begun: float, sides: Sequence[str]) -> ClockRecord:
    """Return the clock of a turn beginning now: due by the deadline and clock hours, or by the sides' banks."""
    new = replace(clock, turn_key=key, turn_started=begun, expired_at=None, vacation_turn={}, bank_due=())
    if clock.bank is not None and sides:
        start, per_turn, cap = clock.bank
        banks = dict(clock.banks)
        for side in sides:
            banks[side] = clockhours.bank_at_turn(banks.get(side), start=start, per_turn=per_turn, cap=cap)
        length = min(banks[side] for side in sides)
        new = replace(new, banks=banks, bank_due=tuple(sides))
        # A bank runs by the hour (no clock hour); only a deadline in quiet hours waits for their end.
        due = clockhours.after_quiet(begun + length, clock.quiet, zone_of(clock))
    else:
        due = turn_due(clock, begun, clock.deadline)
    if clock.paused:
        return replace(new, due_at=None, remaining=due - begun)
    return replace(new, due_at=due, remaining=None)


def with_vacations(clock: ClockRecord, players: Sequence[int], vacations: Sequence[VacationRecord]) -> ClockRecord:
    """Move the current turn's deadline by the due players' time away, each within what is left of their allowance.

    The turn's deadline moves by the longest of their absences; the time each player used is kept per
    player, so `/vacation end` or a new vacation recomputes it instead of adding to it.
    """
    if clock.turn_key is None or clock.turn_started is None or clock.expired_at is not None:
        return clock
    old_shift = clock.vacation_shift
    if clock.paused:
        if clock.remaining is None or clock.paused_at is None:
            return clock
        base_due = clock.paused_at + clock.remaining - old_shift
    elif clock.due_at is None:
        return clock
    else:
        base_due = clock.due_at - old_shift
    turn: dict[str, float] = {}
    for user in players:
        key = str(user)
        left = max(0.0, clock.vacation_allowance - clock.vacation_used.get(key, 0.0))
        away = sum(clockhours.vacation_extension(clock.turn_started, base_due, v.starts, v.ends)
                   for v in vacations if v.user_id == user)
        if min(away, left) > 0:
            turn[key] = min(away, left)
    shift = max(turn.values(), default=0.0)
    new = replace(clock, vacation_turn=turn)
    if clock.paused:
        return replace(new, remaining=max(0.0, (clock.remaining or 0.0) + shift - old_shift))
    return replace(new, due_at=base_due + shift)


class TurnClocks:
    """Keep each battle's clock in step with its turns, and apply the GM's clock settings."""

    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def get(self, battle_id: int) -> ClockRecord:
        """Return a battle's clock."""
        return await self.db.clocks.get(battle_id)

    async def _plan(self, clock: ClockRecord, after: float) -> list[NewTimer]:
        """Plan a clock's timers with the reminder series its players chose."""
        every = [h for p in await self.db.players.of_battle(clock.battle_id) if (h := every_hours(p.remind))]
        return plan(clock, after=after, every=every)

    async def replan(self, battle_id: int) -> ClockRecord:
        """Schedule the current turn's reminders again (a player changed how often they are reminded)."""
        clock = await self.db.clocks.get(battle_id)
        await self.db.clocks.save(clock, timers=await self._plan(clock, self.clock()))
        return clock

    async def sync(self, record: BattleRecord, battle: Battle, *, started: float | None = None,
                   key: MaybeTurn = UNKNOWN) -> TurnStart | None:
        """Start the deadline of a turn that has just begun; return it, or None if the turn is unchanged.

        `key` is the battle's turn key when the caller worked it out already (off the event loop).
        """
        clock = await self.db.clocks.get(record.id)
        if key is UNKNOWN:
            key = turn_key(battle)
        if key == clock.turn_key:
            return None
        begun = self.clock() if started is None else started
        clock = settle_turn(clock, begun)
        if key is None:
            await self.db.clocks.save(
                replace(clock, turn_key=None, turn_started=None, due_at=None, expired_at=None,
                        remaining=None if not clock.paused else clock.remaining),
                timers=[],
            )
            return None
        new = start_turn(clock, key, begun, due_sides(battle))
        new = await self._vacations(record, battle, new)
        await self.db.clocks.save(new, timers=await self._plan(new, begun))
        log.info("battle %s: turn %s begins, due %s", record.id, key, new.due_at)
        return TurnStart(key=key, units=tuple(due_now(battle)), started=begun, due_at=new.due_at,
                         paused=new.paused, remaining=new.remaining)

    async def _vacations(self, record: BattleRecord, battle: Battle, clock: ClockRecord) -> ClockRecord:
        """Return the clock with the due players' vacations applied to the current turn."""
        players = due_players(battle)
        if not players or clock.turn_started is None:
            return replace(clock, vacation_turn={}) if clock.vacation_turn else clock
        vacations = await self.db.vacations.of_users(record.guild_id, players, clock.turn_started)
        return with_vacations(clock, players, vacations)

    async def refresh_vacations(self, record: BattleRecord, battle: Battle) -> ClockRecord | None:
        """Move the current turn's deadline after a vacation was added or ended; return the clock if it changed."""
        clock = await self.db.clocks.get(record.id)
        if clock.turn_key is None or clock.turn_key != turn_key(battle):
            return None
        new = await self._vacations(record, battle, clock)
        if new == clock:
            return None
        await self.db.clocks.save(new, timers=await self._plan(new, self.clock()))
        return new

    async def recover(self, record: BattleRecord, battle: Battle) -> TurnStart | None:
        """Bring a battle's clock and timers back in step after a restart; return a turn that began unseen."""
        # A turn the clock never heard of began when the battle was last written.
        begun = await self.sync(record, battle, started=record.updated_at)
        if begun is not None:
            return begun
        clock = await self.db.clocks.get(record.id)
        wanted = await self._plan(clock, self.clock())
        if not wanted:
            return None
        pending = await self.db.timers.pending(record.id)
        if not any(t.kind == "deadline" and t.payload.get("turn") == clock.turn_key for t in pending):
            # The deadline was claimed but never applied (the process stopped in between): arm it again.
            # Reminders still pending stay as they are, so none is sent twice or dropped.
            keep = [t for t in pending if t.kind == "reminder" and t.payload.get("turn") == clock.turn_key]
            timers = [NewTimer(t.kind, t.due_at, t.payload) for t in keep] + [wanted[0]]
            await self.db.clocks.save(clock, timers=timers)
            log.warning("battle %s: deadline timer of turn %s was missing; armed again", record.id, clock.turn_key)
        return None

    async def expire(self, clock: ClockRecord) -> ClockRecord:
        """Mark the current turn's deadline as dealt with (the battle now waits for its GM)."""
        new = replace(clock, expired_at=self.clock())
        await self.db.clocks.save(new, timers=[])
        return new

    async def pause(self, record: BattleRecord) -> ClockRecord:
        """Stop the clock, keeping the time the current turn has left."""
        clock = await self.db.clocks.get(record.id)
        if clock.paused:
            raise IllegalOrderError("The clock is already paused; /gm resume starts it again.")
        now = self.clock()
        remaining = None
        if clock.turn_key is not None and clock.due_at is not None:
            remaining = 0.0 if clock.expired_at is not None else max(0.0, clock.due_at - now)
        new = replace(clock, paused_at=now, remaining=remaining, due_at=None)
        await self.db.clocks.save(new, timers=[])
        return new

    async def resume(self, record: BattleRecord) -> ClockRecord:
        """Start the clock again; the current turn gets back the time it had left."""
        clock = await self.db.clocks.get(record.id)
        if not clock.paused:
            raise IllegalOrderError("The clock is not paused; /gm pause stops it.")
        now = self.clock()
        new = replace(clock, paused_at=None, remaining=None)
        if clock.turn_key is not None:
            left = clock.deadline if clock.remaining is None else clock.remaining
            due = now + left
            # Shift the turn's start by the pause too, so its reminders keep their places.
            begun = clock.turn_started if clock.turn_started is not None else due - clock.deadline
            new = replace(new, due_at=due, turn_started=begun + (now - (clock.paused_at or now)))
        await self.db.clocks.save(new, timers=await self._plan(new, now))
        return new

    async def set_deadline(self, record: BattleRecord, seconds: float, *, at_minute: int | None = None,
                           zone: str | None = None, skip_weekends: bool | None = None) -> ClockRecord:
        """Set the turn deadline (and its clock hour, zone, weekends); the current turn's deadline follows.

        A fixed deadline replaces a time bank. The current turn keeps its start and the time vacations added.
        """
        deadline = check_deadline(seconds)
        if zone is not None:
            zone = clockhours.zone(zone).key
        clock = await self.db.clocks.get(record.id)
        now = self.clock()
        new = replace(clock, deadline=deadline, at_minute=at_minute, bank=None, banks={}, bank_due=(),
                      zone=clock.zone if zone is None else zone,
                      skip_weekends=clock.skip_weekends if skip_weekends is None else skip_weekends)
        if clock.turn_key is not None and clock.turn_started is not None:
            due = turn_due(new, clock.turn_started, deadline) + clock.vacation_shift
            if clock.paused:
                spent = (clock.paused_at or now) - clock.turn_started
                new = replace(new, remaining=max(0.0, due - clock.turn_started - spent), expired_at=None)
            else:
                new = replace(new, due_at=due, expired_at=None)
        await self.db.clocks.save(new, timers=await self._plan(new, now))
        return new

    async def set_bank(self, record: BattleRecord, bank: tuple[float, float, float] | None) -> ClockRecord:
        """Give each side a time bank (start, per turn, cap), or with None go back to a fixed deadline.

        The current turn keeps its deadline; the banks count from the next turn on.
        """
        if bank is not None:
            start, per_turn, cap = bank
            for seconds in (start, cap):
                check_deadline(seconds)
            if per_turn < 0 or per_turn > MAX_DEADLINE:
                raise InvalidOrderError("A bank gains 0 to 30 days a turn; write it like `per-turn:1d`.")
            if start > cap:
                raise InvalidOrderError(f"A bank cannot start ({human_duration(start)}) above its cap "
                                        f"({human_duration(cap)}); raise the cap or start lower.")
        clock = await self.db.clocks.get(record.id)
        new = replace(clock, bank=bank, banks={}, bank_due=())
        await self.db.clocks.save(new)
        return new

    async def set_quiet(self, record: BattleRecord, quiet: tuple[int, int] | None, zone: str | None) -> ClockRecord:
        """Set (or with None, end) quiet hours in the battle's zone; the current turn's reminders follow."""
        if zone is not None:
            zone = clockhours.zone(zone).key
        clock = await self.db.clocks.get(record.id)
        new = replace(clock, quiet=quiet, zone=clock.zone if zone is None else zone)
        await self.db.clocks.save(new, timers=await self._plan(new, self.clock()))
        return new

    async def set_vacation_allowance(self, record: BattleRecord, seconds: float) -> ClockRecord:
        """Set how much vacation may move each player's deadlines in this battle."""
        if not 0 <= seconds <= clockhours.MAX_VACATION_DAYS * DAY:
            raise InvalidOrderError(f"A vacation allowance is 0 to {clockhours.MAX_VACATION_DAYS} days; "
                                    "write it like `days:14`.")
        clock = await self.db.clocks.get(record.id)
        new = replace(clock, vacation_allowance=float(seconds))
        await self.db.clocks.save(new)
        return new

    async def set_policy(self, record: BattleRecord, policy: DeadlinePolicy) -> ClockRecord:
        """Choose what happens when a deadline passes."""
        if policy not in POLICIES:
            raise InvalidOrderError(f"`{policy}` is not a policy; use wait, hold or default.")
        clock = await self.db.clocks.get(record.id)
        new = replace(clock, policy=policy)
        if clock.expired_at is not None and policy != "wait":
            # The turn is waiting on its passed deadline: the new policy takes it from here, at the next tick.
            new = replace(new, expired_at=None)
            await self.db.clocks.save(new, timers=await self._plan(new, self.clock()))
            return new
        await self.db.clocks.save(new)
        return new

    async def set_reminders(self, record: BattleRecord, specs: tuple[str, ...]) -> ClockRecord:
        """Choose when players are reminded before a deadline; the current turn's reminders follow."""
        clock = await self.db.clocks.get(record.id)
        new = replace(clock, reminders=specs)
        await self.db.clocks.save(new, timers=await self._plan(new, self.clock()))
        return new


def policy_of(text: str) -> DeadlinePolicy:
    """Return a deadline policy by name."""
    clean = text.strip().lower()
    for policy in POLICIES:
        if clean == policy:
            return policy
    raise GameError(f"`{text}` is not a policy; use wait, hold or default.")
