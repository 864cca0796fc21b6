"""A unit's activation: the Discipline Phase (A87) and out-of-control machines (A85) before it acts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.systems.combat_action.effects import Altitude, Crashed, Drifted, OutOfControl, Unpinned
from rules.systems.combat_action.fire import offset_cell
from rules.systems.combat_action.state import HALTED, PINNED
from rules.systems.combat_action.tables import tables
from rules.systems.combat_action.units import Unit

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.systems.combat_action.board import Battle


def activate(battle: Battle, unit: Unit, dice: Dice, outcome: Outcome) -> None:
    """Open a unit's activation once per round: reset its turn, test Discipline, roll out of control."""
    if battle.status != "active" or unit.activated == battle.round:
        return
    unit.activated = battle.round
    unit.moved_last_cm, unit.moved_cm, unit.fired = unit.moved_cm, 0, False
    if PINNED in unit.statuses and battle.const("discipline_removes_pinned"):
        die = dice.d(6, f"Discipline test of {unit.name}")
        total = die + int(battle.const("discipline_mod"))
        passed = total >= unit.discipline
        outcome.tests.append({"test": "discipline", "unit": unit.name, "die": die,
                              "mod": int(battle.const("discipline_mod")), "total": total,
                              "need": unit.discipline, "passed": passed})
        if passed:
            unit.statuses.remove(PINNED)
            outcome.add(Unpinned(unit=unit.name))
    if unit.machine and unit.ooc_turns != 0 and unit.alive:
        out_of_control(battle, unit, dice, outcome)


def out_of_control(battle: Battle, unit: Unit, dice: Dice, outcome: Outcome) -> None:
    """Roll the machine's out-of-control table and act by it (003:L130-159)."""
    table = tables()
    face = dice.d(6, f"{unit.name} out of control")
    if unit.kind == "robot":
        action = (table.ooc_slave if unit.control == "slave" else table.ooc_autonomous)[face]
    else:
        action = "drift"
    outcome.add(OutOfControl(unit=unit.name, face=face, action=action))
    if action == "halt":
        if HALTED not in unit.statuses:
            unit.statuses.append(HALTED)
    elif action in ("drift", "move_half_random"):
        cm = unit.moved_last_cm if action == "drift" else unit.mv_now() // 2
        turn_face = face if action == "move_half_random" else dice.d(6, f"{unit.name} direction")
        angle = table.vehicle_direction[turn_face] * int(battle.const("ooc_vehicle_angle"))
        squares = cm // int(battle.const("cm_per_square"))
        if squares:
            to = offset_cell(unit.cell, unit.cell, unit.facing + angle, squares)
            to = type(to)(max(0, min(battle.width - 1, to.x)), max(0, min(battle.height - 1, to.y)))
            unit.x, unit.y = to.x, to.y
            unit.moved_cm = cm
            outcome.add(Drifted(unit=unit.name, to=str(to), cm=cm))
    if unit.flying:
        change = table.altitude[dice.d(6, f"{unit.name} altitude")]
        if change < 0 and unit.altitude == "low":
            unit.state = "destroyed"
            outcome.add(Crashed(unit=unit.name, at=str(unit.cell), pen=int(battle.const("crash_pen")),
                           models=list(unit.transported)))
        elif change:
            unit.altitude = "high" if change > 0 else "low"
            outcome.add(Altitude(unit=unit.name, altitude=unit.altitude))
    if unit.ooc_turns > 0:
        unit.ooc_turns -= 1
        if unit.ooc_turns == 0 and HALTED not in unit.statuses:
            unit.statuses.append(HALTED)  # A85: a power plant hit halts it after its turn out of control
