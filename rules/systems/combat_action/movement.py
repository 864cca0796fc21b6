"""Moving on the table: how far a model or machine may go, the pinned and routing limits, and the move itself."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from rules.scale import square_size
from rules.systems.combat_action.effects import LeftTheTable, Moved
from rules.systems.combat_action.state import (
    FLAT_DOWN,
    HALTED,
    HIDDEN,
    ROUTING,
    cm_between,
    fresh,
    halted,
    nearest_enemy_distance,
    passengers,
    pinned_hint,
    pinned_rules_apply,
)
from rules.systems.combat_action.units import Unit

if TYPE_CHECKING:
    from rules.coords import Cell
    from rules.outcome import Outcome
    from rules.systems.combat_action.board import Battle

MOVE_MODES = ("walk", "charge")
# Jumping or climbing over an obstacle moves a model one square (003:L38-39); it is a movement action.
OBSTACLE_MOVES = ("jump", "climb")


def move_limit_cm(unit: Unit, mode: str, battle: Battle) -> int:
    """Return how far a move may go in cm: MV for a walk, twice MV for a charge, 0 when halted or carried."""
    if HALTED in unit.statuses or FLAT_DOWN in unit.statuses or unit.inside or unit.building:
        return 0
    return unit.mv_now() * (2 if mode == "charge" else 1)


def why_not_step(battle: Battle, unit: Unit, to: Cell, mode: str) -> str | None:
    """Return why a model may not step to a square, pinned (4.10) or routing (4.11), or None."""
    routing = ROUTING in unit.statuses
    if not routing and not pinned_rules_apply(unit, battle):
        return None  # only a routing or pinned model cares how near the enemy it ends
    before = nearest_enemy_distance(battle, unit)
    after = nearest_enemy_distance(battle, unit, to)
    if routing:
        if mode != "charge":
            return f"{unit.name} is routing: it may only charge away from the enemy."
        if before is not None and after is not None and after <= before:
            return f"{unit.name} is routing: it must charge away from the enemy, and {to} is not farther."
    elif pinned_rules_apply(unit, battle) and before is not None and after is not None and after < before:
        return f"{unit.name} is pinned: it cannot move closer to the enemy.{pinned_hint(battle, unit)}"
    return None


def why_not_move(battle: Battle, unit: Unit, to: Cell, mode: str) -> str | None:
    """Return why a model may not move there now (pinned 4.10, routing 4.11, power grid), or None."""
    return why_not_move_now(battle, unit, mode) or why_not_move_to(battle, unit, to, mode)


def why_not_move_now(battle: Battle, unit: Unit, mode: str) -> str | None:
    """Return why a model may not move this way at all now, wherever to, or None."""
    if mode not in MOVE_MODES:
        return f"`{mode}` is not a way to move; use walk (1 AP) or charge (2 AP)."
    if unit.building:
        return f"{unit.name} is a building; it does not move."
    if unit.inside:
        return f"{unit.name} is inside a vehicle; disembark first (1 AP)."
    if halted(battle, unit):
        return f"{unit.name} has ground to a halt and cannot move."
    if FLAT_DOWN in unit.statuses:
        return f"{unit.name} is flat down; get up first (1 AP)."
    # Opening the activation clears last turn's shot, so a fresh unit has not fired.
    if "power_grid" in unit.damaged and unit.fired and not fresh(battle, unit):
        return f"{unit.name}'s power grid is damaged: it fired this turn, so it cannot move too."
    return None


def why_not_move_to(battle: Battle, unit: Unit, to: Cell, mode: str) -> str | None:
    """Return why a model that may move this way may not end on that square (too far, pinned, routing), or None."""
    if to == unit.cell:
        return f"{unit.name} is already on {to}."
    cm_per = square_size(battle)
    cm = cm_between(battle, unit.cell, to)
    limit = move_limit_cm(unit, mode, battle)
    if cm > limit:
        return f"{to} is {cm} cm away; {unit.name} may {mode} {limit} cm ({int(limit // cm_per)} squares)."
    return why_not_step(battle, unit, to, mode)


def heading(frm: Cell, to: Cell) -> int:
    """Return the compass heading from one square to another, degrees clockwise from north (row 1 is north)."""
    return round(math.degrees(math.atan2(to.x - frm.x, frm.y - to.y))) % 360


def relocate(battle: Battle, unit: Unit, to: Cell, outcome: Outcome, how: str) -> int | float:
    """Put a unit on a square, turning it to face the way it went and carrying its passengers; return the cm."""
    frm = unit.cell
    cm = cm_between(battle, frm, to)
    unit.facing = heading(frm, to)
    unit.x, unit.y = to.x, to.y
    unit.moved_cm += cm
    unit.last_action = f"move {to.x - frm.x} {to.y - frm.y} {how}"
    if HIDDEN in unit.statuses:
        unit.statuses.remove(HIDDEN)
    for rider in passengers(battle, unit):
        rider.x, rider.y = to.x, to.y
    outcome.highlight.update(path=[str(frm), str(to)], target=str(to))
    outcome.add(Moved(unit=unit.name, frm=str(frm), to=str(to), cm=cm, mode=how))
    if ROUTING in unit.statuses and not (0 < to.x < battle.width - 1 and 0 < to.y < battle.height - 1):
        unit.state = "ooa"
        outcome.add(LeftTheTable(unit=unit.name))  # 4.11.4
    return cm
