"""Setup orders: painting terrain, adding and editing units; start, end and rules are the core's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules import lifecycle
from rules.core_effects import UnitEdited
from rules.errors import IllegalOrderError
from rules.orders import AddUnit, EditUnit, Paint
from rules.statfile import PlacementError
from rules.systems.strategic.effects import UnitAdded
from rules.systems.strategic.movement import blocker
from rules.systems.strategic.statblock import apply_stats
from rules.systems.strategic.table import handles
from rules.systems.strategic.units import Unit

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.systems.strategic.board import Battle

# Starting, ending, rule overrides and taking a unit off play as in every system.
handles("start")(lifecycle.start)
handles("end")(lifecycle.end)
handles("set-rule")(lifecycle.set_rule)
handles("remove-unit")(lifecycle.remove_unit)


@handles("paint")
def paint(battle: Battle, order: Paint, dice: Dice, outcome: Outcome) -> None:
    """Paint terrain over a rectangle or a list of squares, never under a feature it cannot carry."""
    terrain = battle.ruleset.terrain_type(order.terrain)
    cells = lifecycle.paint_cells(battle, order)
    for cell in cells:
        feature = battle.square_state(cell).feature
        if feature and terrain.key not in battle.ruleset.features[feature].terrain:
            name = battle.ruleset.features[feature].name
            raise IllegalOrderError(f"{cell} holds a {name}, which cannot stand on {terrain.name}; remove it first.")
    lifecycle.lay_terrain(battle, cells, terrain, outcome)


@handles("add-unit")
def add_unit(battle: Battle, order: AddUnit, dice: Dice, outcome: Outcome) -> None:
    """Put a new unit on the map."""
    name = lifecycle.new_unit_name(battle, order.name)
    cell = battle.check_cell(order.at)
    side = battle.ensure_side(order.side)
    unit = Unit(name=name, side=side.name, x=cell.x, y=cell.y, owner=order.owner)
    apply_stats(unit, order.stats or {}, battle.ruleset.unit_kinds)
    why = blocker(battle, unit, cell)
    if why:
        raise PlacementError(f"{name} cannot be placed there: {why}.")
    battle.add_unit(unit)
    outcome.actor = name
    outcome.highlight.target = str(cell)
    outcome.add(UnitAdded(unit=name, side=side.name, at=str(cell), owner=order.owner))


@handles("edit-unit")
def edit_unit(battle: Battle, order: EditUnit, dice: Dice, outcome: Outcome) -> None:
    """Change fields of a unit's stat block."""
    unit = battle.unit(order.unit)
    stats = lifecycle.edit_common(battle, unit, dict(order.stats or {}), "`ag:45` or `wounds:12`")
    apply_stats(unit, stats, battle.ruleset.unit_kinds, partial=True)
    outcome.actor = unit.name
    outcome.add(UnitEdited(unit=unit.name, fields=sorted((order.stats or {}).keys())))
