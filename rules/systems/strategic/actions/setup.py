"""Setup orders: painting terrain, adding and editing units; start, end and rules are the core's."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from rules import colours, lifecycle
from rules.core_effects import UnitEdited
from rules.errors import IllegalOrderError
from rules.orders import AddUnit, EditUnit, Paint
from rules.statfile import PlacementError
from rules.systems.strategic.effects import UnitAdded
from rules.systems.strategic.featuretable import features_of
from rules.systems.strategic.movement import blocker
from rules.systems.strategic.squares import state_at
from rules.systems.strategic.statblock import apply_stats
from rules.systems.strategic.table import TABLE, checks, handles
from rules.systems.strategic.units import Unit

if TYPE_CHECKING:
    from rules.coords import Cell
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.ruleset import TerrainType
    from rules.systems.strategic.board import Battle

# Starting, ending, rule overrides and taking a unit off play as in every system.
TABLE.add("start", lifecycle.start, lifecycle.check_start)
TABLE.add("end", lifecycle.end, lifecycle.check_end)
TABLE.add("set-rule", lifecycle.set_rule, lifecycle.check_set_rule)
TABLE.add("side-colour", colours.set_side_colour, colours.check_side_colour)
TABLE.add("remove-unit", lifecycle.remove_unit, lifecycle.check_remove_unit)


@checks("paint")
def check_paint(battle: Battle, order: Paint) -> tuple[TerrainType, list[Cell]]:
    """Check a paint order: a terrain, squares on the map, and no feature left on ground it cannot stand on."""
    terrain, cells = lifecycle.check_paint(battle, order)
    for cell in cells:
        feature = state_at(battle, cell).feature
        if feature and terrain.key not in features_of(battle.ruleset)[feature].terrain:
            name = features_of(battle.ruleset)[feature].name
            raise IllegalOrderError(f"{cell} holds a {name}, which cannot stand on {terrain.name}; remove it first.")
    return terrain, cells


@handles("paint")
def paint(battle: Battle, order: Paint, dice: Dice, outcome: Outcome) -> None:
    """Paint terrain over a rectangle or a list of squares, never under a feature it cannot carry."""
    terrain, cells = check_paint(battle, order)
    lifecycle.lay_terrain(battle, cells, terrain, outcome)


@checks("add-unit")
def check_add_unit(battle: Battle, order: AddUnit) -> Unit:
    """Check a new unit and build it (not yet on the map): its name, square, side and stat block."""
    name = lifecycle.new_unit_name(battle, order.name)
    cell = battle.check_cell(order.at)
    side = battle.check_side(order.side)
    unit = Unit(name=name, side=side, x=cell.x, y=cell.y, owner=order.owner)
    apply_stats(unit, order.stats or {}, battle.ruleset.unit_kinds)
    why = blocker(battle, unit, cell)
    if why:
        raise PlacementError(f"{name} cannot be placed there: {why}.")
    return unit


@handles("add-unit")
def add_unit(battle: Battle, order: AddUnit, dice: Dice, outcome: Outcome) -> None:
    """Put a new unit on the map."""
    unit = check_add_unit(battle, order)
    unit.side = battle.ensure_side(unit.side).name
    battle.add_unit(unit)
    outcome.actor = unit.name
    outcome.highlight.target = str(unit.cell)
    outcome.add(UnitAdded(unit=unit.name, side=unit.side, at=str(unit.cell), owner=order.owner))


EDIT_EXAMPLE = "`ag:45` or `wounds:12`"


@checks("edit-unit")
def check_edit_unit(battle: Battle, order: EditUnit) -> Unit:
    """Check an edit of a unit's stat block on a copy of the unit; return the unit."""
    unit = battle.unit(order.unit)
    stats = lifecycle.check_common(battle, unit, dict(order.stats or {}), EDIT_EXAMPLE)
    apply_stats(copy.deepcopy(unit), stats, battle.ruleset.unit_kinds, partial=True)
    return unit


@handles("edit-unit")
def edit_unit(battle: Battle, order: EditUnit, dice: Dice, outcome: Outcome) -> None:
    """Change fields of a unit's stat block."""
    unit = check_edit_unit(battle, order)
    stats = lifecycle.edit_common(battle, unit, dict(order.stats or {}), EDIT_EXAMPLE)
    apply_stats(unit, stats, battle.ruleset.unit_kinds, partial=True)
    outcome.actor = unit.name
    outcome.add(UnitEdited(unit=unit.name, fields=sorted((order.stats or {}).keys())))
