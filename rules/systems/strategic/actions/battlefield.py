"""Battlefield orders: the next round, putting out fires, traps and breaking free of them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules import turns
from rules.coords import Cell
from rules.errors import IllegalOrderError, NotFoundError
from rules.orders import Order
from rules.systems.strategic.battlefield import (
    ICE,
    add_status,
    fire_trap_held,
    freeze,
    remove_status,
    resist_fire_line,
    search_for_traps,
    spring_fire_trap,
)
from rules.systems.strategic.combat import can_act, roll_test, skill_breakdown
from rules.systems.strategic.details import TrapSearch
from rules.systems.strategic.effects import Bakelite, FireOut, StatusEnded, TrapSprung
from rules.systems.strategic.featuretable import allows_features
from rules.systems.strategic.squares import state_at
from rules.systems.strategic.table import checks, handles
from rules.systems.strategic.table import order as _order
from rules.turns import require_active

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.systems.strategic.board import Battle
    from rules.systems.strategic.units import Unit

TRAPS = ("bakelite_trap", "fire_trap")


@_order("next-round")
@dataclass(frozen=True)
class NextRound(Order):
    """Begin the next round: storms move, fires spread, smoke clears, timed conditions run down."""


@_order("extinguish", "owner")
@dataclass(frozen=True)
class Extinguish(Order):
    """Put out the fire on a unit."""

    unit: str


@_order("trigger-trap", "side")
@dataclass(frozen=True)
class TriggerTrap(Order):
    """Set off one of a side's traps (the side's Supreme Commander must be alive)."""

    side: str
    at: Cell


@_order("detect-traps", "owner")
@dataclass(frozen=True)
class DetectTraps(Order):
    """Search the unit's square and the squares around it for hidden traps (Awareness -20)."""

    unit: str


@_order("freeze")
@dataclass(frozen=True)
class Freeze(Order):
    """Turn a Water square to Ice (a GM's cryo power or weather); the units in it are frozen in place."""

    at: Cell


@_order("break-free", "owner")
@dataclass(frozen=True)
class BreakFree(Order):
    """Test Strength to shake off a Bakelite Trap or break out of ice."""

    unit: str


@checks("next-round")
def check_next_round(battle: Battle, order: NextRound) -> None:
    """Check that the battle is active, so its rounds advance."""
    if battle.status != "active":
        raise IllegalOrderError(f"The battle is {battle.status}; rounds only advance while it is active.")


@handles("next-round")
def next_round(battle: Battle, order: NextRound, dice: Dice, outcome: Outcome) -> None:
    """Advance the round counter and resolve the start-of-round effects (A06)."""
    check_next_round(battle, order)
    # The turn system owns the round counter; it runs begin_round, the system's round-start effect.
    turns.advance_round(battle, dice, outcome)




def _near_water(battle: Battle, unit: Unit) -> bool:
    cells = [unit.cell, *(c for c in unit.cell.neighbours() if battle.on_map(c))]
    return any(battle.terrain_at(c).water for c in cells)


@checks("extinguish")
def check_extinguish(battle: Battle, order: Extinguish) -> Unit:
    """Check that the unit can act and is on fire; return it."""
    require_active(battle)
    unit = battle.unit(order.unit)
    can_act(unit)
    if "on_fire" not in unit.statuses:
        raise IllegalOrderError(f"{unit.name} is not on fire.")
    return unit


@handles("extinguish")
def extinguish(battle: Battle, order: Extinguish, dice: Dice, outcome: Outcome) -> None:
    """Put out a burning unit: at once in or next to water or in a storm, else with an Agility test."""
    unit = check_extinguish(battle, order)
    outcome.actor = unit.name
    outcome.highlight.actor = str(unit.cell)
    if _near_water(battle, unit) or state_at(battle, unit.cell).storm:
        # 000:L74, 001:L61-62: water or a storm lets a unit put its fire out.
        remove_status(unit, "on_fire")
        outcome.add(FireOut(unit=unit.name, cause="water or storm"))
        return
    bd = skill_breakdown(battle, unit, "ag", int(battle.const("extinguish_test_mod")), "Putting out the flames")
    resist_fire_line(battle, bd, unit)
    result = roll_test(battle, dice, bd, f"{unit.name} puts out the flames")
    outcome.tests.append(result)
    if result.success:
        remove_status(unit, "on_fire")
        outcome.add(FireOut(unit=unit.name, cause="test"))


def _commander(battle: Battle, side: str) -> Unit:
    wanted = side.strip().lower()
    if battle.side(side) is None:
        raise NotFoundError(f"There is no side `{side}` in this battle.")
    for unit in battle.iter_units():
        if unit.side.lower() == wanted and unit.supreme_commander and unit.alive:
            return unit
    raise IllegalOrderError(f"{side} has no living Supreme Commander, so its traps can no longer be triggered.")


@checks("trigger-trap")
def check_trigger_trap(battle: Battle, order: TriggerTrap) -> tuple[Unit, Cell, str]:
    """Check that the side's commander lives and the side has a trap there to trigger (a Fire Trap only in dry
    weather); return the commander, the square and the trap."""
    require_active(battle)
    commander = _commander(battle, order.side)
    cell = battle.check_cell(order.at)
    state = state_at(battle, cell)
    feature = state.feature or ""
    if feature not in TRAPS or (state.feature_side or "").lower() != commander.side.lower():
        raise IllegalOrderError(f"{commander.side} has no trap on {cell} to trigger.")
    if feature == "fire_trap" and fire_trap_held(battle, cell):
        raise IllegalOrderError(f"The Fire Trap on {cell} cannot be triggered while it rains or storms there.")
    return commander, cell, feature


@handles("trigger-trap")
def trigger_trap(battle: Battle, order: TriggerTrap, dice: Dice, outcome: Outcome) -> None:
    """Set off a Bakelite Trap or Fire Trap of the side (000:L107, L109, A29)."""
    commander, cell, feature = check_trigger_trap(battle, order)
    outcome.actor = commander.name
    outcome.highlight.update(actor=str(commander.cell), target=str(cell))
    if feature == "fire_trap":
        spring_fire_trap(battle, cell, dice, outcome, cause=f"triggered by {commander.name}")
        return
    _spring_bakelite(battle, cell, dice, outcome, commander.name)


def _spring_bakelite(battle: Battle, cell: Cell, dice: Dice, outcome: Outcome, by: str) -> None:
    battle.clear_square(cell, "feature", "feature_side", "feature_ap", "revealed")
    outcome.add(TrapSprung(feature="bakelite_trap", cell=str(cell), cause=f"triggered by {by}"))
    outcome.highlight.mark(str(cell), "Bakelite")
    for unit in battle.units_at(cell):
        if not unit.is_horde:  # Hordes are caught automatically (000:L107)
            result = roll_test(battle, dice, skill_breakdown(battle, unit, "dodge"), f"{unit.name} dodges the Bakelite")
            outcome.tests.append(result)
            if result.success:
                continue
        penalty = dice.roll(str(battle.const("bakelite_penalty")), f"Bakelite penalty on {unit.name}").total
        add_status(unit, "bakelite", penalty + int(unit.status_rounds.get("bakelite", 0)))
        outcome.add(Bakelite(unit=unit.name, penalty=penalty, total=unit.status_rounds["bakelite"]))


@checks("detect-traps")
def check_detect_traps(battle: Battle, order: DetectTraps) -> Unit:
    """Check that the unit can act and the ruleset has traps to find; return the unit."""
    require_active(battle)
    unit = battle.unit(order.unit)
    can_act(unit)
    if not allows_features(battle.ruleset):
        raise IllegalOrderError(f"{battle.ruleset.name} has no artificial features, so there are no traps to find.")
    return unit


@handles("detect-traps")
def detect_traps(battle: Battle, order: DetectTraps, dice: Dice, outcome: Outcome) -> None:
    """Make one Awareness test against every hidden enemy trap on or next to the unit (A29)."""
    unit = check_detect_traps(battle, order)
    outcome.actor = unit.name
    outcome.highlight.actor = str(unit.cell)
    outcome.details = TrapSearch(revealed=search_for_traps(battle, unit, dice, outcome))


@checks("freeze")
def check_freeze(battle: Battle, order: Freeze) -> Cell:
    """Check that the square is Water and the ruleset has Ice; return the square."""
    require_active(battle)
    cell = battle.check_cell(order.at)
    terrain = battle.terrain_at(cell)
    if ICE not in battle.ruleset.terrain:
        raise IllegalOrderError(f"{battle.ruleset.name} has no Ice terrain, so water cannot freeze.")
    if not terrain.water:
        raise IllegalOrderError(f"{cell} is {terrain.name}; only Water freezes. Pick a Water square.")
    return cell


@handles("freeze")
def freeze_square(battle: Battle, order: Freeze, dice: Dice, outcome: Outcome) -> None:
    """Freeze a Water square into Ice over that water (000:L74, A34)."""
    cell = check_freeze(battle, order)
    freeze(battle, cell, outcome, cause="GM")
    outcome.highlight.target = str(cell)


@checks("break-free")
def check_break_free(battle: Battle, order: BreakFree) -> tuple[Unit, list[str]]:
    """Check that the unit can act and is held by a trap or ice; return it and what holds it."""
    require_active(battle)
    unit = battle.unit(order.unit)
    can_act(unit)
    held: list[str] = [s for s in ("bakelite", "immobilised") if s in unit.statuses]
    if not held:
        raise IllegalOrderError(f"{unit.name} is not held by a Bakelite Trap or ice.")
    return unit, held


@handles("break-free")
def break_free(battle: Battle, order: BreakFree, dice: Dice, outcome: Outcome) -> None:
    """Test Strength (a Free Action) to end a Bakelite penalty or an icy grip (000:L107, A34)."""
    unit, held = check_break_free(battle, order)
    outcome.actor = unit.name
    outcome.highlight.actor = str(unit.cell)
    result = roll_test(battle, dice, skill_breakdown(battle, unit, "s"), f"{unit.name} breaks free")
    outcome.tests.append(result)
    if result.success:
        for status in held:
            remove_status(unit, status)
            outcome.add(StatusEnded(unit=unit.name, status=status))
