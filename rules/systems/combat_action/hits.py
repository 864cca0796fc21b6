"""Resolve a hit on a model or machine: the damage tables, and every location effect kept for the battle."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.scale import square_size
from rules.systems.combat_action.damage import (
    OOA,
    building_result,
    living_result,
    living_value,
    machine_location,
    machine_value,
)
from rules.systems.combat_action.effects import (
    BuildingHit,
    Crashed,
    CrewHit,
    LocationDamaged,
    ModelHit,
    ShutDown,
    TransportedHit,
    WeaponFaulty,
)
from rules.systems.combat_action.rolltests import (
    BuildingDamageTest,
    DamageTest,
    MachineDamageTest,
    SplashTest,
)
from rules.systems.combat_action.state import (
    COMMS_DOWN,
    EMERGENCY_LANDING,
    HALTED,
    HATCH_JAMMED,
    cover_pf,
    passengers,
)
from rules.systems.combat_action.tables import tables
from rules.systems.combat_action.units import Unit

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.systems.combat_action.board import Battle

MAX_DEPTH = 3  # a hit on a hit (crew of a crew) stops here
# A building's state after each result of the building table; a second Partial Collapse brings it down.
BUILDING_STATES = {"section_pierced": "pierced", "partial_collapse": "collapsed", "section_destroyed": "destroyed"}


def obstacle_pf(battle: Battle, material: str) -> int:
    """Return the PF of a terrain feature's material, with the GM's Concrete values (A81)."""
    value = tables().obstacle_pf.get(material, 0)
    return int(battle.const(value)) if isinstance(value, str) else int(value)


def hit(battle: Battle, target: Unit, pen: int, dice: Dice, outcome: Outcome, source: str, depth: int = 0) -> None:
    """Apply one hit of a Pen to a target: living table (A79, A88) or machine location (A82)."""
    if not target.alive or depth > MAX_DEPTH:
        return
    if target.machine:
        _hit_machine(battle, target, pen, dice, outcome, source, depth)
        return
    if target.building:
        _hit_building(battle, target, pen, dice, outcome, source)
        return
    cover = cover_pf(battle, target)
    pf = target.pf + cover
    if battle.const("large_scale"):
        # 003:L100: no table at large scale (A88), so no damage die is rolled at all.
        outcome.tests.append(DamageTest(target=target.name, pf=pf, cover=cover, pen=pen, large_scale=True,
                                        result=OOA, source=source))
        target.state = OOA
        outcome.add(ModelHit(unit=target.name, result=OOA, at=str(target.cell)))
        return
    die = dice.d(6, f"damage to {target.name}")
    uses_pf = bool(battle.const("living_damage_uses_pf"))
    result = living_result(die, pf, pen, uses_pf)
    # A second Wounded takes the model out of action.
    final = "ooa" if result == "wounded" and target.state == "wounded" else None
    outcome.tests.append(DamageTest(target=target.name, die=die, pf=pf, cover=cover, pen=pen,
                                    value=living_value(die, pf, pen, uses_pf), large_scale=False, result=result,
                                    source=source, final=final))
    result = final or result
    target.state = result
    outcome.add(ModelHit(unit=target.name, result=result, at=str(target.cell)))


def _hit_building(battle: Battle, target: Unit, pen: int, dice: Dice, outcome: Outcome, source: str) -> None:
    """Look a hit on a building section up on the building table; its material sets the least PF (A81)."""
    die = dice.d(6, f"damage to {target.name}")
    pf = max(target.pf, obstacle_pf(battle, target.material)) if target.material else target.pf
    uses_pf = bool(battle.const("living_damage_uses_pf"))
    result = building_result(die, pf, pen, uses_pf)
    outcome.tests.append(BuildingDamageTest(target=target.name, die=die, pf=pf, pen=pen,
                                            value=living_value(die, pf, pen, uses_pf), result=result, source=source))
    state = BUILDING_STATES[result]
    if state == "collapsed" and target.state == "collapsed":
        state = "destroyed"
    if state == "pierced" and target.state in ("collapsed", "destroyed"):
        state = target.state  # a pierced section that already collapsed stays collapsed
    target.state = state
    outcome.add(BuildingHit(unit=target.name, result=result, state=state, at=str(target.cell)))


def _hit_machine(battle: Battle, target: Unit, pen: int, dice: Dice, outcome: Outcome, source: str, depth: int) -> None:
    die = dice.d(6, f"damage to {target.name}")
    cover = cover_pf(battle, target)
    pf = target.pf + cover
    value = machine_value(die, pen, pf)
    row = machine_location(value, target.locations, target.damaged, bool(battle.const("next_result_down")))
    outcome.tests.append(MachineDamageTest(target=target.name, die=die, pen=pen, pf=pf, cover=cover, value=value,
                                           location=row.key, source=source))
    if row.key not in target.damaged:
        target.damaged.append(row.key)
    outcome.add(LocationDamaged(unit=target.name, location=row.key, effect=row.effect, at=str(target.cell)))
    _location_effect(battle, target, row.effect, pen, dice, outcome, depth)


def _location_effect(battle: Battle, target: Unit, effect: str, pen: int, dice: Dice, outcome: Outcome,
                     depth: int) -> None:
    if effect == "comms_down":
        _status(target, COMMS_DOWN)
    elif effect == "hatch_jammed":
        _status(target, HATCH_JAMMED)
        if target.hatch == "open":
            target.hatch = "closed"  # the jammed hatches stay shut until broken open in close combat
    elif effect == "weapon_faulty" and target.weapons:
        working = [w for w in target.weapons if not w.disabled] or target.weapons
        pick = working[dice.d(len(working), f"which weapon of {target.name} is faulty") - 1]
        pick.faulty = True
        outcome.add(WeaponFaulty(unit=target.name, weapon=pick.name))
    elif effect == "one_more_shot":
        for weapon in target.weapons:
            weapon.shots_left = 1 if weapon.shots_left != 0 else 0
    elif effect == "engine_out":
        _status(target, EMERGENCY_LANDING if target.flying else HALTED)
    elif effect == "out_of_control":
        target.ooc_turns = -1
    elif effect == "pilot_or_core":
        if target.kind == "vehicle":
            target.ooc_turns = -1
            _crew_hit(battle, target, pen, dice, outcome)
        else:
            if target.flying:
                crash(battle, target, dice, outcome, depth)
            else:
                target.state = "destroyed"
            outcome.add(ShutDown(unit=target.name, crashed=target.flying))
    elif effect == "power_plant":
        _power_plant(battle, target, dice, outcome, depth)


def _crew_hit(battle: Battle, target: Unit, pen: int, dice: Dice, outcome: Outcome) -> None:
    """003:L196: the pilot and the gunners take an automatic hit with the weapon's Pen; the fallen leave the crew."""
    lost = 0
    uses_pf = bool(battle.const("living_damage_uses_pf"))
    if battle.const("large_scale"):
        # 003:L100: the crew are living creatures, all Out of Action with no table roll (A88).
        for n in range(target.crew):
            outcome.tests.append(DamageTest(target=f"{target.name} crew {n + 1}", pf=0, pen=pen, large_scale=True,
                                            result=OOA, source="pilot compartment"))
        lost, target.crew = target.crew, 0
        outcome.add(CrewHit(unit=target.name, pen=pen, lost=lost, crew=target.crew))
        return
    for n in range(target.crew):
        die = dice.d(6, f"hit on {target.name}'s crew member {n + 1}")
        result = living_result(die, 0, pen, uses_pf)
        outcome.tests.append(DamageTest(target=f"{target.name} crew {n + 1}", die=die, pf=0, pen=pen,
                                        value=living_value(die, 0, pen, uses_pf), result=result,
                                        source="pilot compartment"))
        lost += 0 if result == "wounded" else 1
    target.crew -= lost
    outcome.add(CrewHit(unit=target.name, pen=pen, lost=lost, crew=target.crew))


def crash(battle: Battle, target: Unit, dice: Dice, outcome: Outcome, depth: int = 0) -> None:
    """Destroy a flying machine where it is; everything it carries takes an automatic crash hit (A84)."""
    target.state = "destroyed"
    pen = int(battle.const("crash_pen"))
    outcome.add(Crashed(unit=target.name, at=str(target.cell), pen=pen))
    _carried_hit(battle, target, pen, dice, outcome, depth)


def _carried_hit(battle: Battle, target: Unit, pen: int, dice: Dice, outcome: Outcome, depth: int) -> None:
    """Hit every model a machine carries automatically; survivors stay inside until they disembark."""
    riders = passengers(battle, target)
    if riders:
        outcome.add(TransportedHit(unit=target.name, models=[u.name for u in riders], pen=pen))
    for rider in riders:
        hit(battle, rider, pen, dice, outcome, f"{target.name} destroyed", depth + 1)


def _status(unit: Unit, status: str) -> None:
    if status not in unit.statuses:
        unit.statuses.append(status)


def _power_plant(battle: Battle, target: Unit, dice: Dice, outcome: Outcome, depth: int) -> None:
    """003:L197: every location destroyed, out of control one turn then halt, passengers and 5 cm splash hit."""
    target.damaged = list(dict.fromkeys([*target.damaged, *target.locations, tables().locations[-1].key]))
    target.ooc_turns = int(battle.const("power_plant_ooc_turns"))
    target.hatch = "broken"  # 003:L197 "Surviving crew may disembark on the next turn"
    if HATCH_JAMMED in target.statuses:
        target.statuses.remove(HATCH_JAMMED)
    if target.flying:
        crash(battle, target, dice, outcome, depth)
    else:
        _carried_hit(battle, target, int(battle.const("crash_pen")), dice, outcome, depth)
    reach = int(int(battle.const("splash_cm")) // square_size(battle))
    need = int(battle.const("splash_min_roll"))
    pen = int(battle.const("splash_pen"))
    for other in list(battle.iter_units()):
        if other is target or not other.alive or other.inside or other.cell.distance(target.cell) > reach:
            continue
        die = dice.d(6, f"splash on {other.name}")
        outcome.tests.append(SplashTest(target=other.name, die=die, need=need, hit=die >= need))
        if die >= need:
            hit(battle, other, pen, dice, outcome, "power plant explosion", depth + 1)
