"""Handlers of the Surface Combat orders and of the core setup orders the system plays."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from typing import Any

from rules import lifecycle
from rules.battle import check_name
from rules.colours import check_side_colour, set_side_colour
from rules.dice import Dice
from rules.errors import IllegalOrderError, InvalidOrderError, NotFoundError
from rules.orders import AddUnit, EditUnit, End, RemoveUnit, SetRule, Start
from rules.outcome import Outcome
from rules.systems.surface.details import PlanDetails
from rules.systems.surface.effects import (
    BattleEnded,
    BattleStarted,
    GameTurnBegan,
    PlanSubmitted,
    SideSet,
    UnitAdded,
    UnitEdited,
    UnitRemoved,
)
from rules.systems.surface.forces import add_forces, read_forces
from rules.systems.surface.orders import ImportForces, NextTurn, Resolve, SetSide, SubmitPlan
from rules.systems.surface.resolve import resolve_battle, two_forces, two_forces_or_none
from rules.systems.surface.state import Plan, Standing, SurfaceBattle, SurfaceState, state, store
from rules.systems.surface.table import TABLE, checks, handles
from rules.systems.surface.units import ESCAPED, Unit
from rules.systems.surface.unittypes import FLAGS, RATINGS, check_ratings, unit_type


def _open(battle: SurfaceBattle) -> None:
    lifecycle.require_not_ended(battle)
    if state(battle).resolved:
        raise IllegalOrderError(
            "This engagement has been resolved; see `/surface report`. The GM opens the next turn with "
            "`/surface next-turn`."
        )


def build_stats(stats: dict[str, Any] | None, base: Unit | None = None) -> dict[str, Any]:
    """Return a unit's type, ratings and flags from a stats dict over its type's defaults (or the unit)."""
    raw = dict(stats or {})
    kind = unit_type(str(raw.pop("type", base.utype if base else "grunts")))
    ratings = base.ratings() if base and base.utype == kind.key else dict(kind.ratings)
    flags = list(base.flags if base and base.utype == kind.key else kind.flags)
    for flag in raw.pop("flags", []) or []:
        if flag not in FLAGS:
            raise InvalidOrderError(f"`{flag}` is not a unit flag; flags are {', '.join(FLAGS)}.")
        if flag not in flags:
            flags.append(flag)
    for key, value in raw.items():
        if key not in RATINGS:
            raise InvalidOrderError(f"`{key}` is not a rating; ratings are {', '.join(RATINGS)}, plus type, flags and damage.")
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidOrderError(f"`{key}` must be a whole number, not `{value}`.")
        ratings[key] = value
    check_ratings(ratings, "That unit")
    return {"utype": kind.key, "category": kind.category, "flags": tuple(flags), **ratings}


def check_damage(value: Any, capacity: int) -> int:
    """Return the damage a unit carries in (a force carried over), below its Damage Capacity."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < capacity:
        raise InvalidOrderError(f"`damage` must be a whole number from 0 to {capacity - 1} (its Damage Capacity less 1).")
    return value


@dataclass(frozen=True)
class _NewUnit:
    """A checked new force: its name, side, type and ratings, and the damage it carries in."""

    name: str
    side: str
    stats: dict[str, Any]
    damage: int


def _check_new(battle: SurfaceBattle, order: AddUnit, names: Collection[str] = (), sides: Collection[str] = ()) -> _NewUnit:
    """Check a new unit, after the units (`names`) and sides (`sides`, lower case) a file adds before it."""
    _open(battle)
    name = lifecycle.new_unit_name(battle, order.name, names)
    stats = dict(order.stats or {})
    damage = stats.pop("damage", 0)
    fresh = battle.side(order.side) is None and order.side.strip().lower() not in sides
    side = battle.check_side(order.side, len(sides) if fresh else 0)
    built = build_stats(stats)
    return _NewUnit(name, side, built, check_damage(damage, int(built["capacity"])))


@checks("add-unit")
def check_add_unit(battle: SurfaceBattle, order: AddUnit) -> _NewUnit:
    """Check a new unit: its name, side, type, ratings and damage."""
    return _check_new(battle, order)


@handles("add-unit")
def add_unit(battle: SurfaceBattle, order: AddUnit, dice: Dice, outcome: Outcome) -> None:
    """Add a ground force to a side, from a unit type with any ratings overridden."""
    new = check_add_unit(battle, order)
    side = battle.ensure_side(new.side)
    unit = Unit(name=new.name, side=side.name, x=0, y=0, owner=order.owner, **new.stats)
    unit.damage = new.damage
    battle.add_unit(unit)
    outcome.actor = unit.id
    outcome.add(UnitAdded(unit=unit.name, id=unit.id, side=side.name, unit_type=unit.utype))


@checks("surface-import")
def check_import_forces(battle: SurfaceBattle, order: ImportForces) -> list[AddUnit]:
    """Check a forces document and every unit of it, in the order they would be added; return their orders."""
    _open(battle)
    orders = read_forces(order.forces)
    names: set[str] = set()
    sides: list[str] = []

    def check(one: AddUnit) -> None:
        new = _check_new(battle, one, names, sides)
        names.add(new.name.lower())
        if battle.side(new.side) is None and new.side.lower() not in sides:
            sides.append(new.side.lower())

    add_forces(battle, orders, check)
    return orders


@handles("surface-import")
def import_forces(battle: SurfaceBattle, order: ImportForces, dice: Dice, outcome: Outcome) -> None:
    """Carry forces over from another battle: every unit of the document with its ratings and damage, or none."""
    orders = check_import_forces(battle, order)
    add_forces(battle, orders, lambda one: add_unit(battle, one, dice, outcome))
    outcome.actor = None


@dataclass(frozen=True)
class _Edit:
    """A checked edit: the unit, its new type, ratings and flags, and its damage."""

    unit: Unit
    stats: dict[str, Any]
    damage: int


@checks("edit-unit")
def check_edit_unit(battle: SurfaceBattle, order: EditUnit) -> _Edit:
    """Check an edit of a unit: the common fields, its type, ratings, flags and damage."""
    _open(battle)
    unit = battle.unit(order.unit)
    stats = lifecycle.check_common(battle, unit, dict(order.stats or {}), "`type:armor` or `damage:2`")
    damage = stats.pop("damage", unit.damage)
    new = build_stats(stats, unit)
    return _Edit(unit, new, check_damage(damage, int(new["capacity"])))


@handles("edit-unit")
def edit_unit(battle: SurfaceBattle, order: EditUnit, dice: Dice, outcome: Outcome) -> None:
    """Change a unit's type, ratings or flags (damage too, for forces carried over)."""
    edit = check_edit_unit(battle, order)
    unit = edit.unit
    lifecycle.edit_common(battle, unit, dict(order.stats or {}), "`type:armor` or `damage:2`")
    changed = [key for key, value in edit.stats.items() if getattr(unit, key) != value]
    for key, value in edit.stats.items():
        setattr(unit, key, value)
    if edit.damage != unit.damage:
        changed.append("damage")
    unit.damage = edit.damage
    outcome.add(UnitEdited(unit=unit.name, id=unit.id, fields=", ".join(changed) or "nothing"))


@checks("remove-unit")
def check_remove_unit(battle: SurfaceBattle, order: RemoveUnit) -> Unit:
    """Check that the unit exists while the engagement is open; return it."""
    _open(battle)
    return battle.unit(order.unit)


@handles("remove-unit")
def remove_unit(battle: SurfaceBattle, order: RemoveUnit, dice: Dice, outcome: Outcome) -> None:
    """Take a unit out of its force."""
    unit = check_remove_unit(battle, order)
    battle.remove_unit(unit)
    outcome.add(UnitRemoved(unit=unit.name, id=unit.id))


@checks("set-rule")
def check_set_rule(battle: SurfaceBattle, order: SetRule) -> None:
    """Check a rule override while the engagement is open."""
    _open(battle)
    lifecycle.check_set_rule(battle, order)


@handles("set-rule")
def set_rule(battle: SurfaceBattle, order: SetRule, dice: Dice, outcome: Outcome) -> None:
    """Override a Surface Combat constant for this battle, checked against its declared range."""
    check_set_rule(battle, order)
    lifecycle.set_rule(battle, order, dice, outcome)


def _side_name(battle: SurfaceBattle, side: str) -> str:
    found = battle.side(side)
    if found is None:
        known = ", ".join(s.name for s in battle.sides) or "none yet"
        raise NotFoundError(f"There is no side `{side}` in this battle. Sides: {known}.")
    return found.name


def _planning(battle: SurfaceBattle) -> None:
    """Refuse plans and resolution outside the planning phase of an active battle."""
    _open(battle)
    if battle.status == "setup":
        raise IllegalOrderError(
            "The battle has not started: the GM adds both forces, then `/battle start` opens the pre-battle plans."
        )


@checks("start")
def check_start(battle: SurfaceBattle, order: Start) -> None:
    """Check that the battle is in setup with two forces to fight."""
    if battle.status != "setup":
        raise IllegalOrderError(f"The battle is already {battle.status}; only a battle in setup can start.")
    two_forces(battle)


@handles("start")
def start(battle: SurfaceBattle, order: Start, dice: Dice, outcome: Outcome) -> None:
    """End setup and open the pre-battle plans of the first game turn (two forces needed)."""
    check_start(battle, order)
    battle.status = "active"
    now = state(battle)
    store(battle, now)  # the battle saves its surface state from the start on
    outcome.add(BattleStarted(turn=now.turn))


@checks("end")
def check_end(battle: SurfaceBattle, order: End) -> None:
    """Check that the battle has not ended already."""
    lifecycle.require_not_ended(battle)


@handles("end")
def end(battle: SurfaceBattle, order: End, dice: Dice, outcome: Outcome) -> None:
    """End the battle (an unresolved engagement is not fought)."""
    check_end(battle, order)
    battle.status = "ended"
    now = state(battle)
    store(battle, now)
    outcome.add(BattleEnded(turn=now.turn))


@checks("surface-side")
def check_set_side(battle: SurfaceBattle, order: SetSide) -> tuple[str, str]:
    """Check a side's standing: a side that exists or fits in, an Ability of 0 or more, a leader's name."""
    _open(battle)
    name = battle.check_side(order.side)
    if order.ability < 0:
        raise InvalidOrderError(f"Leader Ability is 0 or more, not {order.ability}.")
    return name, check_name(order.leader, "leader name") if order.leader else ""


@handles("surface-side")
def set_side(battle: SurfaceBattle, order: SetSide, dice: Dice, outcome: Outcome) -> None:
    """Record a side's leader, Ability and strategic situation."""
    _, leader = check_set_side(battle, order)
    name = battle.ensure_side(order.side).name
    record = Standing(leader, order.ability, order.blockaded, order.last_ground)
    now = state(battle)
    store(battle, replace(now, standing={**now.standing, name.lower(): record}))
    outcome.add(SideSet(side=name, **record.to_dict()))


@checks("surface-plan")
def check_submit_plan(battle: SurfaceBattle, order: SubmitPlan) -> tuple[str, tuple[str, ...]]:
    """Check a plan: in the planning phase, a side of the battle, Intensity and Daring in range, its own units
    dropped; return the side's name and the ids of the dropped units."""
    _planning(battle)
    name = _side_name(battle, order.side)
    for label, value, most in (("Intensity", order.intensity, "intensity_max"), ("Daring", order.daring, "daring_max")):
        top = int(battle.const(most))
        if not 0 <= value <= top:
            raise InvalidOrderError(f"{label} is 0 to {top}, not {value}.")
    dropped: list[str] = []
    for ref in order.dropped:
        unit = battle.unit(ref)
        if unit.side.lower() != name.lower():
            raise IllegalOrderError(f"{unit.name} is not a unit of {name}; a plan drops only its own units.")
        dropped.append(unit.id)
    return name, tuple(dropped)


@handles("surface-plan")
def submit_plan(battle: SurfaceBattle, order: SubmitPlan, dice: Dice, outcome: Outcome) -> None:
    """Store a side's plan where only resolution reads it; the outcome is hidden from the table."""
    name, dropped = check_submit_plan(battle, order)
    outcome.hidden = True
    now = state(battle)
    replaced = name.lower() in now.plans
    plans = {**now.plans, name.lower(): Plan(order.intensity, order.daring, dropped, order.besieged)}
    store(battle, replace(now, plans=plans))
    sides = {s.lower() for s in two_forces_or_none(battle)}
    outcome.details = PlanDetails(side=name, replaced=replaced, ready=bool(sides) and sides <= set(plans))
    outcome.add(PlanSubmitted(side=name))


@checks("surface-resolve")
def check_resolve(battle: SurfaceBattle, order: Resolve) -> None:
    """Check that the engagement can be fought now: two forces, and both plans in unless the GM forces it."""
    _planning(battle)
    sides = two_forces(battle)
    plans = state(battle).plans
    missing = [s for s in sides if s.lower() not in plans]
    if missing and not order.force:
        raise IllegalOrderError(
            f"Waiting for the plan of {' and '.join(missing)}. Each side commits one with `/surface plan`; "
            "the GM may fight now with `/surface resolve force:true` (missing plans take the defaults)."
        )


@handles("surface-resolve")
def resolve(battle: SurfaceBattle, order: Resolve, dice: Dice, outcome: Outcome) -> None:
    """Fight the engagement: when both plans are in, or at once if the GM forces it."""
    check_resolve(battle, order)
    report = resolve_battle(battle, dice, outcome, last_plans=order.standing)
    # The battle keeps the result; the round-by-round log, every roll of it, lives in this order's outcome
    # (the event log), so the battle stays small to load and to snapshot however long the fight was.
    store(battle, replace(state(battle), resolved=True, report=report.kept()))
    outcome.details = report


@checks("surface-next-turn")
def check_next_turn(battle: SurfaceBattle, order: NextTurn) -> None:
    """Check that the battle runs and this turn's engagement has been fought."""
    if battle.status != "active":
        raise IllegalOrderError("Only a running battle has a next game turn; this one is " + battle.status + ".")
    if not state(battle).resolved:
        raise IllegalOrderError("This turn's engagement has not been fought yet; resolve it first.")


@handles("surface-next-turn")
def next_turn(battle: SurfaceBattle, order: NextTurn, dice: Dice, outcome: Outcome) -> None:
    """Clear the plans and the report so the survivors fight another game turn."""
    check_next_turn(battle, order)
    now = state(battle)
    gone = [u for u in battle.iter_units() if not u.alive or u.state == ESCAPED]
    for u in gone:
        battle.remove_unit(u)
    # The plans fought with stay on as each side's standing plan, for a deadline passed without a new one.
    fought = now.report.plans if now.report is not None else {}
    store(battle, SurfaceState(standing=now.standing, turn=now.turn + 1,
                               last_plans={s.lower(): p for s, p in fought.items()}))
    battle.round = 0
    outcome.add(GameTurnBegan(turn=now.turn + 1, removed=[u.name for u in gone]))


# A side's colour on the chart and any other view: the core's order, played here like on a map.
TABLE.add("side-colour", set_side_colour, check_side_colour)
