"""Handlers of the Surface Combat orders and of the core setup orders the system plays."""

from __future__ import annotations

from typing import Any

from rules import lifecycle
from rules.battle import check_name
from rules.colours import set_side_colour
from rules.dice import Dice
from rules.errors import IllegalOrderError, InvalidOrderError, NotFoundError
from rules.orders import AddUnit, EditUnit, End, RemoveUnit, SetRule, Start
from rules.outcome import Outcome
from rules.systems.surface.details import PlanDetails, SurfaceReport
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
from rules.systems.surface.state import KEY, Plan, Standing, SurfaceBattle, doc
from rules.systems.surface.table import handles
from rules.systems.surface.units import ESCAPED, Unit
from rules.systems.surface.unittypes import FLAGS, RATINGS, check_ratings, unit_type


def _open(battle: SurfaceBattle) -> None:
    lifecycle.require_not_ended(battle)
    if doc(battle)["resolved"]:
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


@handles("add-unit")
def add_unit(battle: SurfaceBattle, order: AddUnit, dice: Dice, outcome: Outcome) -> None:
    """Add a ground force to a side, from a unit type with any ratings overridden."""
    _open(battle)
    name = lifecycle.new_unit_name(battle, order.name)
    stats = dict(order.stats or {})
    damage = stats.pop("damage", 0)
    side = battle.ensure_side(order.side)
    unit = Unit(name=name, side=side.name, x=0, y=0, owner=order.owner, **build_stats(stats))
    unit.damage = check_damage(damage, unit.capacity)
    battle.add_unit(unit)
    outcome.actor = unit.id
    outcome.add(UnitAdded(unit=unit.name, id=unit.id, side=side.name, unit_type=unit.utype))


@handles("surface-import")
def import_forces(battle: SurfaceBattle, order: ImportForces, dice: Dice, outcome: Outcome) -> None:
    """Carry forces over from another battle: every unit of the document with its ratings and damage, or none."""
    _open(battle)
    add_forces(battle, read_forces(order.forces), lambda one: add_unit(battle, one, dice, outcome))
    outcome.actor = None


@handles("edit-unit")
def edit_unit(battle: SurfaceBattle, order: EditUnit, dice: Dice, outcome: Outcome) -> None:
    """Change a unit's type, ratings or flags (damage too, for forces carried over)."""
    _open(battle)
    unit = battle.unit(order.unit)
    stats = lifecycle.edit_common(battle, unit, dict(order.stats or {}), "`type:armor` or `damage:2`")
    damage = stats.pop("damage", unit.damage)
    new = build_stats(stats, unit)
    changed = [key for key, value in new.items() if getattr(unit, key) != value]
    for key, value in new.items():
        setattr(unit, key, value)
    if damage != unit.damage:
        changed.append("damage")
    unit.damage = check_damage(damage, unit.capacity)
    outcome.add(UnitEdited(unit=unit.name, id=unit.id, fields=", ".join(changed) or "nothing"))


@handles("remove-unit")
def remove_unit(battle: SurfaceBattle, order: RemoveUnit, dice: Dice, outcome: Outcome) -> None:
    """Take a unit out of its force."""
    _open(battle)
    unit = battle.unit(order.unit)
    battle.remove_unit(unit)
    outcome.add(UnitRemoved(unit=unit.name, id=unit.id))


@handles("set-rule")
def set_rule(battle: SurfaceBattle, order: SetRule, dice: Dice, outcome: Outcome) -> None:
    """Override a Surface Combat constant for this battle, checked against its declared range."""
    _open(battle)
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


@handles("start")
def start(battle: SurfaceBattle, order: Start, dice: Dice, outcome: Outcome) -> None:
    """End setup and open the pre-battle plans of the first game turn (two forces needed)."""
    if battle.status != "setup":
        raise IllegalOrderError(f"The battle is already {battle.status}; only a battle in setup can start.")
    two_forces(battle)
    battle.status = "active"
    outcome.add(BattleStarted(turn=int(doc(battle)["turn"])))


@handles("end")
def end(battle: SurfaceBattle, order: End, dice: Dice, outcome: Outcome) -> None:
    """End the battle (an unresolved engagement is not fought)."""
    lifecycle.require_not_ended(battle)
    battle.status = "ended"
    outcome.add(BattleEnded(turn=int(doc(battle)["turn"])))


@handles("surface-side")
def set_side(battle: SurfaceBattle, order: SetSide, dice: Dice, outcome: Outcome) -> None:
    """Record a side's leader, Ability and strategic situation."""
    _open(battle)
    name = battle.ensure_side(order.side).name
    if order.ability < 0:
        raise InvalidOrderError(f"Leader Ability is 0 or more, not {order.ability}.")
    leader = check_name(order.leader, "leader name") if order.leader else ""
    record = Standing(leader, order.ability, order.blockaded, order.last_ground)
    doc(battle)["standing"][name.lower()] = record.to_dict()
    outcome.add(SideSet(side=name, **record.to_dict()))


@handles("surface-plan")
def submit_plan(battle: SurfaceBattle, order: SubmitPlan, dice: Dice, outcome: Outcome) -> None:
    """Store a side's plan where only resolution reads it; the outcome is hidden from the table."""
    _planning(battle)
    outcome.hidden = True
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
    plans = doc(battle)["plans"]
    replaced = name.lower() in plans
    plans[name.lower()] = Plan(order.intensity, order.daring, tuple(dropped), order.besieged).to_dict()
    sides = {s.lower() for s in two_forces_or_none(battle)}
    outcome.details = PlanDetails(side=name, replaced=replaced, ready=bool(sides) and sides <= set(plans))
    outcome.add(PlanSubmitted(side=name))


@handles("surface-resolve")
def resolve(battle: SurfaceBattle, order: Resolve, dice: Dice, outcome: Outcome) -> None:
    """Fight the engagement: when both plans are in, or at once if the GM forces it."""
    _planning(battle)
    sides = two_forces(battle)
    missing = [s for s in sides if s.lower() not in doc(battle)["plans"]]
    if missing and not order.force:
        raise IllegalOrderError(
            f"Waiting for the plan of {' and '.join(missing)}. Each side commits one with `/surface plan`; "
            "the GM may fight now with `/surface resolve force:true` (missing plans take the defaults)."
        )
    report = resolve_battle(battle, dice, outcome, last_plans=order.standing)
    state = doc(battle)
    report["turn"] = int(state["turn"])
    state["resolved"] = True
    # The battle keeps the result; the round-by-round log, every roll of it, lives in this order's outcome
    # (the event log), so the battle stays small to load and to snapshot however long the fight was.
    state["report"] = {k: v for k, v in report.items() if k != "log"}
    outcome.details = SurfaceReport.build(report)


@handles("surface-next-turn")
def next_turn(battle: SurfaceBattle, order: NextTurn, dice: Dice, outcome: Outcome) -> None:
    """Clear the plans and the report so the survivors fight another game turn."""
    state = doc(battle)
    if battle.status != "active":
        raise IllegalOrderError("Only a running battle has a next game turn; this one is " + battle.status + ".")
    if not state["resolved"]:
        raise IllegalOrderError("This turn's engagement has not been fought yet; resolve it first.")
    gone = [u for u in battle.iter_units() if not u.alive or u.state == ESCAPED]
    for u in gone:
        battle.remove_unit(u)
    # The plans fought with stay on as each side's standing plan, for a deadline passed without a new one.
    battle.turn.systems[KEY] = {"standing": state["standing"], "plans": {}, "resolved": False,
                                "turn": int(state["turn"]) + 1, "report": None,
                                "last_plans": {s.lower(): p for s, p in state["report"]["plans"].items()}}
    battle.round = 0
    outcome.add(GameTurnBegan(turn=int(state["turn"]) + 1, removed=[u.name for u in gone]))


# A side's colour on the chart and any other view: the core's order, played here like on a map.
handles("side-colour")(set_side_colour)
