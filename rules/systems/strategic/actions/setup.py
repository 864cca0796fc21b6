"""Setup orders: painting terrain, adding and editing units, starting and ending the battle."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules import turns
from rules.battle import MAX_UNITS, check_name
from rules.coords import Cell
from rules.errors import IllegalOrderError, InvalidOrderError
from rules.orders import AddUnit, EditUnit, End, Paint, RemoveUnit, SetRule, Start
from rules.systems.strategic.movement import blocker
from rules.systems.strategic.statblock import apply_stats
from rules.systems.strategic.table import handles
from rules.systems.strategic.units import Unit

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.systems.strategic.board import Battle

MAX_PAINT_CELLS = 10_000


def _require_not_ended(battle: Battle) -> None:
    if battle.status == "ended":
        raise IllegalOrderError("This battle has ended; nothing on it can change any more.")


def paint_cells(battle: Battle, order: Paint) -> list[Cell]:
    """Return the squares a paint order covers, checked against the map."""
    if order.cells:
        if order.frm is not None or order.to is not None:
            raise InvalidOrderError("Paint either a rectangle (`from` and `to`) or a list of `cells`, not both.")
        return [battle.check_cell(c) for c in order.cells]
    if order.frm is None:
        raise InvalidOrderError("Say where to paint: `from:` a cell (and `to:` a second corner for a rectangle).")
    a = battle.check_cell(order.frm)
    b = battle.check_cell(order.to) if order.to is not None else a
    return [
        Cell(x, y)
        for y in range(min(a.y, b.y), max(a.y, b.y) + 1)
        for x in range(min(a.x, b.x), max(a.x, b.x) + 1)
    ]


@handles("paint")
def paint(battle: Battle, order: Paint, dice: Dice, outcome: Outcome) -> None:
    """Paint terrain over a rectangle or a list of squares."""
    _require_not_ended(battle)
    terrain = battle.ruleset.terrain_type(order.terrain)
    cells = paint_cells(battle, order)
    if len(cells) > MAX_PAINT_CELLS:
        raise InvalidOrderError(f"Paint at most {MAX_PAINT_CELLS} squares at once.")
    for cell in cells:
        feature = battle.square_state(cell).get("feature")
        if feature and terrain.key not in battle.ruleset.features[feature].terrain:
            name = battle.ruleset.features[feature].name
            raise IllegalOrderError(f"{cell} holds a {name}, which cannot stand on {terrain.name}; remove it first.")
    for cell in cells:
        battle.set_terrain(cell, terrain.key)
    battle.map_version += 1
    outcome.data.update(terrain=terrain.key, count=len(cells))
    outcome.highlight["cells"] = [str(c) for c in cells[:200]]
    outcome.effect("painted", terrain=terrain.key, cells=len(cells))


@handles("add-unit")
def add_unit(battle: Battle, order: AddUnit, dice: Dice, outcome: Outcome) -> None:
    """Put a new unit on the map."""
    _require_not_ended(battle)
    name = check_name(order.name, "unit name")
    existing = battle.find_unit(name)
    if existing is not None and existing.name.lower() == name.lower():
        raise IllegalOrderError(f"There is already a unit called {existing.name}; pick another name.")
    if len(battle.units) >= MAX_UNITS:
        raise IllegalOrderError(f"A battle holds at most {MAX_UNITS} units.")
    cell = battle.check_cell(order.at)
    side = battle.ensure_side(order.side)
    unit = Unit(name=name, side=side.name, x=cell.x, y=cell.y, owner=order.owner)
    apply_stats(unit, order.stats or {}, battle.ruleset.unit_kinds)
    why = blocker(battle, unit, cell)
    if why:
        raise IllegalOrderError(f"{name} cannot be placed there: {why}.")
    battle.add_unit(unit)
    outcome.actor = name
    outcome.highlight["target"] = str(cell)
    outcome.effect("unit_added", unit=name, side=side.name, at=str(cell), owner=order.owner)


@handles("edit-unit")
def edit_unit(battle: Battle, order: EditUnit, dice: Dice, outcome: Outcome) -> None:
    """Change fields of a unit's stat block."""
    _require_not_ended(battle)
    unit = battle.unit(order.unit)
    stats: dict[str, Any] = dict(order.stats or {})
    if not stats:
        raise InvalidOrderError("Say what to change, for example `ag:45` or `wounds:12`.")
    if "name" in stats:
        battle.rename_unit(unit, str(stats.pop("name")))
    if "side" in stats:
        unit.side = battle.ensure_side(str(stats.pop("side"))).name
    if "owner" in stats:
        owner = stats.pop("owner")
        unit.owner = None if owner in (None, "", 0) else int(owner)
    apply_stats(unit, stats, battle.ruleset.unit_kinds, partial=True)
    outcome.actor = unit.name
    outcome.effect("unit_edited", unit=unit.name, fields=sorted((order.stats or {}).keys()))


@handles("remove-unit")
def remove_unit(battle: Battle, order: RemoveUnit, dice: Dice, outcome: Outcome) -> None:
    """Take a unit off the map."""
    _require_not_ended(battle)
    unit = battle.unit(order.unit)
    battle.remove_unit(unit)
    outcome.actor = unit.name
    outcome.effect("unit_removed", unit=unit.name, at=str(unit.cell))


@handles("start")
def start(battle: Battle, order: Start, dice: Dice, outcome: Outcome) -> None:
    """End setup and begin the first round."""
    if battle.status != "setup":
        raise IllegalOrderError(f"The battle is already {battle.status}; only a battle in setup can start.")
    if not battle.units:
        raise IllegalOrderError("Add at least one unit with /unit add before starting the battle.")
    battle.status = "active"
    battle.round = 1
    outcome.effect("battle_started", round=1)
    turns.begin_battle(battle, dice, outcome)


@handles("end")
def end(battle: Battle, order: End, dice: Dice, outcome: Outcome) -> None:
    """End the battle."""
    _require_not_ended(battle)
    battle.status = "ended"
    outcome.effect("battle_ended", round=battle.round)


@handles("set-rule")
def set_rule(battle: Battle, order: SetRule, dice: Dice, outcome: Outcome) -> None:
    """Override a rule constant for this battle, validated against its declared range."""
    _require_not_ended(battle)
    const = battle.ruleset.constant(order.key)
    value = const.coerce(order.value)
    old = battle.const(order.key)
    if value == const.value:
        battle.constants.pop(order.key, None)
    else:
        battle.constants[order.key] = value
    outcome.effect("rule_set", key=order.key, old=old, new=value, default=const.value)
