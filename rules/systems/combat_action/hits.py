"""Resolve a hit on a model or machine: the damage tables, and every location effect kept for the battle."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.systems.combat_action.damage import living_result, living_value, machine_location, machine_value
from rules.systems.combat_action.effects import (
    Crashed,
    CrewHit,
    LocationDamaged,
    ModelHit,
    ShutDown,
    TransportedHit,
    WeaponFaulty,
)
from rules.systems.combat_action.state import HALTED, cover_pf
from rules.systems.combat_action.tables import tables
from rules.systems.combat_action.units import Unit

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.systems.combat_action.board import Battle

MAX_DEPTH = 3  # a hit on a hit (crew of a crew) stops here


def hit(battle: Battle, target: Unit, pen: int, dice: Dice, outcome: Outcome, source: str, depth: int = 0) -> None:
    """Apply one hit of a Pen to a target: living table (A79, A88) or machine location (A82)."""
    if not target.alive or depth > MAX_DEPTH:
        return
    if target.machine:
        _hit_machine(battle, target, pen, dice, outcome, source, depth)
        return
    die = dice.d(6, f"damage to {target.name}")
    pf = target.pf + cover_pf(battle, target)
    uses_pf = bool(battle.const("living_damage_uses_pf"))
    large = bool(battle.const("large_scale"))
    result = living_result(die, pf, pen, uses_pf, large)
    outcome.tests.append({"test": "damage", "target": target.name, "die": die, "pf": pf, "pen": pen,
                          "value": living_value(die, pf, pen, uses_pf), "large_scale": large, "result": result,
                          "source": source})
    if result == "wounded" and target.state == "wounded":
        result = "ooa"  # a second Wounded takes the model out of action
    target.state = result if result != "wounded" else "wounded"
    outcome.add(ModelHit(unit=target.name, result=result, at=str(target.cell)))


def _hit_machine(battle: Battle, target: Unit, pen: int, dice: Dice, outcome: Outcome, source: str, depth: int) -> None:
    die = dice.d(6, f"damage to {target.name}")
    pf = target.pf + cover_pf(battle, target)
    value = machine_value(die, pen, pf)
    row = machine_location(value, target.locations, target.damaged, bool(battle.const("next_result_down")))
    outcome.tests.append({"test": "machine_damage", "target": target.name, "die": die, "pen": pen, "pf": pf,
                          "value": value, "location": row.key, "source": source})
    if row.key not in target.damaged:
        target.damaged.append(row.key)
    outcome.add(LocationDamaged(unit=target.name, location=row.key, effect=row.effect, at=str(target.cell)))
    _location_effect(battle, target, row.effect, pen, dice, outcome, depth)


def _location_effect(battle: Battle, target: Unit, effect: str, pen: int, dice: Dice, outcome: Outcome,
                     depth: int) -> None:
    if effect == "comms_down":
        _status(target, "comms_down")
    elif effect == "hatch_jammed":
        _status(target, "hatch_jammed")
    elif effect == "weapon_faulty" and target.weapons:
        working = [w for w in target.weapons if not w.disabled] or target.weapons
        pick = working[dice.d(len(working), f"which weapon of {target.name} is faulty") - 1]
        pick.faulty = True
        outcome.add(WeaponFaulty(unit=target.name, weapon=pick.name))
    elif effect == "one_more_shot":
        for weapon in target.weapons:
            weapon.shots_left = 1 if weapon.shots_left != 0 else 0
    elif effect == "engine_out":
        if target.flying:
            _status(target, "emergency_landing")
        else:
            _status(target, HALTED)
    elif effect == "out_of_control":
        target.ooc_turns = -1
    elif effect == "pilot_or_core":
        if target.kind == "vehicle":
            target.ooc_turns = -1
            outcome.add(CrewHit(unit=target.name, crew=target.crew, pen=pen))
        else:
            target.state = "destroyed"
            outcome.add(ShutDown(unit=target.name, crashed=target.flying))
    elif effect == "power_plant":
        _power_plant(battle, target, dice, outcome, depth)


def _status(unit: Unit, status: str) -> None:
    if status not in unit.statuses:
        unit.statuses.append(status)


def _power_plant(battle: Battle, target: Unit, dice: Dice, outcome: Outcome, depth: int) -> None:
    """003:L197: every location destroyed, out of control one turn then halt, passengers and 5 cm splash hit."""
    target.damaged = list(dict.fromkeys([*target.damaged, *target.locations, tables().locations[-1].key]))
    target.ooc_turns = int(battle.const("power_plant_ooc_turns"))
    if target.flying:
        target.state = "destroyed"
        outcome.add(Crashed(unit=target.name, at=str(target.cell)))
    crash_pen = int(battle.const("crash_pen"))
    outcome.add(TransportedHit(unit=target.name, models=list(target.transported), pen=crash_pen))
    reach = int(battle.const("splash_cm")) // int(battle.const("cm_per_square"))
    need = int(battle.const("splash_min_roll"))
    pen = int(battle.const("splash_pen"))
    for other in list(battle.iter_units()):
        if other is target or not other.alive or other.cell.distance(target.cell) > reach:
            continue
        die = dice.d(6, f"splash on {other.name}")
        outcome.tests.append({"test": "splash", "target": other.name, "die": die, "need": need, "hit": die >= need})
        if die >= need:
            hit(battle, other, pen, dice, outcome, "power plant explosion", depth + 1)
