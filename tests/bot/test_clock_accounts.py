"""A turn's accounts: banks spent and topped up, vacations applied within the allowance, paused or running."""

from __future__ import annotations

from dataclasses import replace

from bot.clock import plan, settle_turn, start_turn, with_vacations
from storage import ClockRecord, VacationRecord

HOUR = 3600.0
DAY = 86_400.0
BANK = (3 * DAY, DAY, 5 * DAY)


def away(user: int, starts: float, ends: float) -> VacationRecord:
    """Return a vacation of one player."""
    return VacationRecord(id=user, guild_id=1, user_id=user, starts=starts, ends=ends, created_at=0.0)


def test_a_bank_turn_is_due_when_the_smallest_bank_due_runs_out_and_each_side_pays_what_it_took() -> None:
    clock = ClockRecord(battle_id=1, bank=BANK, banks={"A": DAY, "B": 4 * DAY})
    both = start_turn(clock, "1|free|*", 0.0, ["A", "B"])
    assert both.banks == {"A": 2 * DAY, "B": 5 * DAY} and both.due_at == 2 * DAY
    settled = settle_turn(both, 12 * HOUR)
    assert settled.banks == {"A": 1.5 * DAY, "B": 4.5 * DAY} and settled.bank_due == ()
    paused = replace(both, paused_at=HOUR, due_at=None, remaining=2 * DAY - HOUR)
    assert settle_turn(paused, 10 * DAY).banks["A"] == 2 * DAY - HOUR, "a paused clock spends nothing more"
    expired = replace(both, expired_at=2 * DAY)
    assert settle_turn(expired, 3 * DAY).banks == {"A": 0.0, "B": 3 * DAY}


def test_a_fixed_deadline_ignores_banks_and_a_paused_clock_keeps_the_whole_turn() -> None:
    clock = ClockRecord(battle_id=1, deadline=DAY)
    assert start_turn(clock, "k", 100.0, ["A"]).due_at == 100.0 + DAY
    paused = start_turn(replace(clock, paused_at=50.0), "k", 100.0, ["A"])
    assert paused.due_at is None and paused.remaining == DAY


def test_vacations_move_a_deadline_by_the_longest_absence_within_each_allowance() -> None:
    clock = start_turn(ClockRecord(battle_id=1, deadline=DAY, vacation_allowance=2 * DAY,
                                   vacation_used={"7": 1.5 * DAY}), "k", 0.0, ["A"])
    moved = with_vacations(clock, [7, 8], [away(7, HOUR, 5 * DAY), away(8, 0.0, 6 * HOUR)])
    assert moved.vacation_turn == {"7": 0.5 * DAY, "8": 6 * HOUR}, "7 has only half a day of allowance left"
    assert moved.due_at == DAY + 0.5 * DAY
    again = with_vacations(moved, [7, 8], [away(7, HOUR, 5 * DAY), away(8, 0.0, 6 * HOUR)])
    assert again == moved, "applying the same vacations twice moves nothing further"
    back = with_vacations(moved, [7, 8], [])
    assert back.due_at == DAY and back.vacation_turn == {}
    assert settle_turn(moved, DAY).vacation_used == {"7": 2 * DAY, "8": 6 * HOUR}


def test_a_vacation_in_a_paused_turn_adds_to_the_time_left() -> None:
    running = start_turn(ClockRecord(battle_id=1, deadline=DAY), "k", 0.0, ["A"])
    paused = replace(running, paused_at=2 * HOUR, due_at=None, remaining=22 * HOUR)
    moved = with_vacations(paused, [7], [away(7, 4 * HOUR, 10 * HOUR)])
    assert moved.remaining == 28 * HOUR and moved.due_at is None
    assert with_vacations(moved, [7], []).remaining == 22 * HOUR


def test_reminders_and_deadlines_keep_out_of_quiet_hours() -> None:
    # 1 June 2026 in UTC; quiet from 22:00 to 06:00.
    midnight = 1_780_272_000.0
    clock = start_turn(ClockRecord(battle_id=1, deadline=DAY, quiet=(1320, 360), reminders=("50%", "1h")),
                       "k", midnight + 23 * HOUR, ["A"])
    assert clock.due_at == midnight + DAY + 23 * HOUR + 7 * HOUR, "due at 23:00 moves to 06:00"
    timers = plan(clock, after=midnight)
    kinds = [(t.kind, t.payload.get("for"), (t.due_at - midnight) / HOUR) for t in timers]
    assert ("reminder", "turn", 30.0) in kinds, "the turn began at 23:00: its ping waits for 06:00"
    assert all(not (22 <= (at % 24) or (at % 24) < 6) for kind, _, at in kinds if kind == "reminder")
