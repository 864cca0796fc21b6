"""A unit's activation: the Discipline Phase (A87), emergency landings (A84) and out-of-control machines (A85)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.coords import Cell
from rules.scale import square_size
from rules.systems.combat_action.effects import (
    Activation,
    Altitude,
    Drifted,
    EmergencyLanding,
    Halted,
    NoTarget,
    NothingToRepeat,
    OutOfControl,
    Unpinned,
)
from rules.systems.combat_action.fire import may_reach, offset_cell
from rules.systems.combat_action.hits import crash
from rules.systems.combat_action.movement import relocate
from rules.systems.combat_action.rolltests import DisciplineTest
from rules.systems.combat_action.shooting import CLASS_MODES, band_to, resolve_shot, weapon_ready
from rules.systems.combat_action.state import EMERGENCY_LANDING, HALTED, PINNED, on_table
from rules.systems.combat_action.tables import tables
from rules.systems.combat_action.units import Unit

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.systems.combat_action.board import Battle


def activate(battle: Battle, unit: Unit, dice: Dice, outcome: Outcome) -> bool:
    """Open a unit's activation once per round; return True when its out-of-control table took it over.

    The Discipline Phase test comes first, then a crippled flyer's emergency landing, then, for a machine
    out of control, its table: such a machine acts by the table and obeys no order this activation.
    """
    if battle.status != "active" or unit.activated == battle.round:
        return False
    unit.activated = battle.round
    unit.moved_last_cm, unit.moved_cm, unit.fired = unit.moved_cm, 0, False
    unit.previous_action, unit.last_action = unit.last_action, ""
    outcome.add(Activation(unit=unit.name, round=battle.round))
    if PINNED in unit.statuses and battle.const("discipline_removes_pinned"):
        _discipline(battle, unit, dice, outcome)
    if EMERGENCY_LANDING in unit.statuses and unit.flying:
        _descend(battle, unit, outcome)
    if unit.machine and unit.ooc_turns != 0 and unit.alive:
        out_of_control(battle, unit, dice, outcome)
        return True
    return False


def _discipline(battle: Battle, unit: Unit, dice: Dice, outcome: Outcome) -> None:
    die = dice.d(6, f"Discipline test of {unit.name}")
    mod = int(battle.const("discipline_mod"))
    total = die + mod
    passed = total >= unit.discipline
    outcome.tests.append(DisciplineTest(unit=unit.name, die=die, mod=mod, total=total, need=unit.discipline,
                                        passed=passed))
    if passed:
        unit.statuses.remove(PINNED)
        outcome.add(Unpinned(unit=unit.name))


def _descend(battle: Battle, unit: Unit, outcome: Outcome) -> None:
    """A84: an emergency landing descends `emergency_landing_levels` a turn without damage, landing from Low."""
    for _ in range(int(battle.const("emergency_landing_levels"))):
        if unit.altitude == "high":
            unit.altitude = "low"
        else:
            unit.flying, unit.altitude = False, ""
            unit.statuses.remove(EMERGENCY_LANDING)
            if HALTED not in unit.statuses:
                unit.statuses.append(HALTED)
            break
    outcome.add(EmergencyLanding(unit=unit.name, altitude=unit.altitude or "ground", landed=not unit.flying))


def out_of_control(battle: Battle, unit: Unit, dice: Dice, outcome: Outcome) -> None:
    """Roll the machine's out-of-control table and act by it (003:L128-159)."""
    table = tables()
    face: int | None = None
    if unit.kind == "robot":
        face = dice.d(6, f"{unit.name} out of control")
        action = (table.ooc_slave if unit.control == "slave" else table.ooc_autonomous)[face]
    else:
        action = "drift"  # vehicles have no table: they keep going (003:L146), their direction die below
    outcome.add(OutOfControl(unit=unit.name, face=face, action=action))
    if action == "drift" and unit.moved_last_cm:
        _drift(battle, unit, unit.moved_last_cm, dice, outcome)
    elif action == "move_half_random":
        _drift(battle, unit, unit.mv_now() // 2, dice, outcome)
    elif action in ("shoot_nearest_enemy", "shoot_nearest_any"):
        _shoot_nearest(battle, unit, action == "shoot_nearest_enemy", dice, outcome)
    elif action == "repeat":
        _repeat(battle, unit, dice, outcome)
    if unit.flying and unit.alive:
        change = table.altitude[dice.d(6, f"{unit.name} altitude")]
        if change < 0 and unit.altitude == "low":
            crash(battle, unit, dice, outcome)
        elif change:
            unit.altitude = "high" if change > 0 else "low"
            outcome.add(Altitude(unit=unit.name, altitude=unit.altitude))
    if unit.ooc_turns > 0:
        unit.ooc_turns -= 1
        if unit.ooc_turns == 0 and HALTED not in unit.statuses:
            unit.statuses.append(HALTED)  # A85: a power plant hit halts it after its turn out of control
            outcome.add(Halted(unit=unit.name))


def _drift(battle: Battle, unit: Unit, cm: int | float, dice: Dice, outcome: Outcome) -> None:
    """Move the machine `cm` toward the side its direction die gives (003:L150-151, A80)."""
    if HALTED in unit.statuses:
        return
    face = dice.d(6, f"{unit.name} direction")
    angle = tables().vehicle_direction[face] * int(battle.const("ooc_vehicle_angle"))
    squares = int(cm // square_size(battle))
    if not squares:
        return
    to = offset_cell(unit.cell, unit.cell, unit.facing + angle, squares)
    to = Cell(max(0, min(battle.width - 1, to.x)), max(0, min(battle.height - 1, to.y)))
    if to != unit.cell:
        # The drift reports the distance the move went (edges stop it short), measured as the move measures it.
        moved = relocate(battle, unit, to, outcome, "out of control")
        outcome.add(Drifted(unit=unit.name, to=str(to), cm=moved, face=face))


def _can_shoot(battle: Battle, unit: Unit, target: Unit) -> tuple[str, str] | None:
    """Return the first weapon and mode the machine could fire at a target, ignoring action points."""
    for weapon in unit.weapons:
        modes = CLASS_MODES.get(weapon.wclass, ())
        if not modes or weapon_ready(battle, unit, weapon):
            continue
        wclass = tables().weapon_classes[weapon.wclass]
        if may_reach(wclass, weapon.max_band or None, band_to(battle, unit, target)):
            return weapon.name, modes[0]
    return None


def _shoot_nearest(battle: Battle, unit: Unit, enemies_only: bool, dice: Dice, outcome: Outcome) -> None:
    """Shoot at the nearest enemy (4), or the nearest model whoever it is (6)."""
    others = [u for u in battle.iter_units()
              if u is not unit and on_table(u) and (battle.enemies(unit, u) or not enemies_only)]
    for target in sorted(others, key=lambda u: u.cell.distance(unit.cell)):
        found = _can_shoot(battle, unit, target)
        if found is not None:
            weapon = unit.weapon(found[0])
            assert weapon is not None
            resolve_shot(battle, unit, weapon, target, found[1], dice, outcome)
            return
    outcome.add(NoTarget(unit=unit.name))


def _repeat(battle: Battle, unit: Unit, dice: Dice, outcome: Outcome) -> None:
    """A slave robot repeats the last action of its previous turn: the same move again, or the same shot."""
    words = unit.previous_action.split(" ", 3)
    if words[0] == "move" and len(words) >= 3 and HALTED not in unit.statuses:
        to = Cell(max(0, min(battle.width - 1, unit.x + int(words[1]))),
                  max(0, min(battle.height - 1, unit.y + int(words[2]))))
        if to != unit.cell:
            relocate(battle, unit, to, outcome, "out of control")
            return
    if words[0] == "fire" and len(words) == 4:
        target = battle.units.get(words[1])
        weapon = unit.weapon(words[3])
        if target is not None and weapon is not None and on_table(target) and not weapon_ready(battle, unit, weapon):
            resolve_shot(battle, unit, weapon, target, words[2], dice, outcome)
            return
    outcome.add(NothingToRepeat(unit=unit.name))
