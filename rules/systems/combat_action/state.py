"""What the battle says about a model now: its cover, whether it is engaged, pinned or routing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.scale import as_number, square_size
from rules.systems.combat_action.fire import cover_bonus, distance_cm
from rules.systems.combat_action.tables import tables
from rules.systems.combat_action.units import Unit

if TYPE_CHECKING:
    from rules.coords import Cell
    from rules.systems.combat_action.board import Battle

PINNED = "pinned"
ROUTING = "routing"
FLAT_DOWN = "flat_down"
AIMED = "aimed"
HALTED = "halted"
HIDDEN = "hidden"
HATCH_JAMMED = "hatch_jammed"
COMMS_DOWN = "comms_down"
EMERGENCY_LANDING = "emergency_landing"


def cm_between(battle: Battle, frm: Cell, to: Cell) -> int | float:
    """Return the table distance in cm between two squares, the one metric of every Combat Action distance.

    A square may stand for half a centimetre, so the distance is exact: whole, or a float of halves.
    """
    return as_number(distance_cm(frm.distance(to), square_size(battle)))


def on_table(unit: Unit) -> bool:
    """Return whether a unit stands on the table: in play and not carried inside a vehicle."""
    return unit.alive and not unit.inside


def passengers(battle: Battle, vehicle: Unit) -> list[Unit]:
    """Return the models carried inside a vehicle, in the order they were added."""
    return [u for u in battle.iter_units() if u.inside == vehicle.id and u.alive]


def covers(battle: Battle, unit: Unit) -> list[str]:
    """Return the cover a model has: its square's partial cover or slit, and Flat down."""
    found = [battle.terrain_at(unit.cell).key]
    if FLAT_DOWN in unit.statuses:
        found.append(FLAT_DOWN)
    return [c for c in found if c in tables().cover]


def cover_pf(battle: Battle, unit: Unit) -> int:
    """Return the PF bonus of a model's cover (highest only unless the GM stacks them, A78)."""
    return cover_bonus(covers(battle, unit), bool(battle.const("cover_stacks")))


def enemies_of(battle: Battle, unit: Unit) -> list[Unit]:
    """Return the enemy models and machines on the table (buildings and carried models are not enemies)."""
    return [u for u in battle.iter_units() if on_table(u) and not u.building and battle.enemies(unit, u)]


def nearest_enemy_distance(battle: Battle, unit: Unit, at: object = None) -> int | None:
    """Return the squares from a cell (default: the unit's) to the nearest enemy."""
    cell = unit.cell if at is None else at
    distances = [e.cell.distance(cell) for e in enemies_of(battle, unit)]  # type: ignore[arg-type]
    return min(distances) if distances else None


def engaged(battle: Battle, unit: Unit) -> bool:
    """Return whether a model is in close combat: an enemy in base contact."""
    reach = int(battle.const("base_contact_squares"))
    return any(e.cell.distance(unit.cell) <= reach for e in enemies_of(battle, unit))


def fresh(battle: Battle, unit: Unit) -> bool:
    """Return whether the unit's activation is still to open this round (its order opens it first)."""
    return battle.status == "active" and unit.activated != battle.round


def lands_on_activation(battle: Battle, unit: Unit) -> bool:
    """Return whether opening the unit's activation ends its emergency landing on the ground, halted (A84)."""
    if not fresh(battle, unit) or EMERGENCY_LANDING not in unit.statuses or not unit.flying:
        return False
    return int(battle.const("emergency_landing_levels")) >= (2 if unit.altitude == "high" else 1)


def halted(battle: Battle, unit: Unit) -> bool:
    """Return whether the unit cannot move this activation: halted, or about to land halted."""
    return HALTED in unit.statuses or lands_on_activation(battle, unit)


def loses_control(battle: Battle, unit: Unit) -> bool:
    """Return whether opening the unit's activation hands it to its out-of-control table (A85)."""
    return fresh(battle, unit) and unit.machine and unit.ooc_turns != 0 and unit.alive


def pinned_rules_apply(unit: Unit, battle: Battle) -> bool:
    """Return whether the pinned constraints bind: pinned and not engaged in close combat (4.10.6)."""
    return PINNED in unit.statuses and not engaged(battle, unit)


def pinned_hint(battle: Battle, unit: Unit) -> str:
    """Return how a pinned unit whose activation is still to open may shed Pinned first (its Discipline test, A87).

    An order is checked before its dice are rolled, so it is checked on the unit pinned; the activation's own
    order rolls the test, and what it rolled stands.
    """
    if fresh(battle, unit) and battle.const("discipline_removes_pinned"):
        return " Open its activation first with `/ca activate`: its Discipline test may remove Pinned."
    return ""


def safe_from_pinning(battle: Battle, unit: Unit) -> bool:
    """Return whether a pinned model may act beyond moving: in cover, flat down or hidden from sight (4.10.4)."""
    return bool(covers(battle, unit)) or HIDDEN in unit.statuses
