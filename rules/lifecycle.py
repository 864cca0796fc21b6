"""The orders every rule system resolves the same way: start and end a battle, override a rule constant.

Also the shared steps of the setup orders (a new unit's name and side, the fields every unit has, the
squares a paint order covers), which a system's own `add-unit`, `edit-unit` and `paint` handlers call
before and after their stat-block rules. A system plays a shared handler by registering it:
`TABLE.add("start", lifecycle.start, lifecycle.check_start)`: each shared handler has its check phase
beside it, and calls it first.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from rules import scale, turns
from rules.battle import MAX_UNITS, check_name
from rules.coords import Cell
from rules.core_details import PaintDetails
from rules.core_effects import BattleEnded, BattleStarted, Painted, RuleSet, UnitRemoved
from rules.errors import IllegalOrderError, InvalidOrderError

if TYPE_CHECKING:
    from rules.battle import Battle
    from rules.dice import Dice
    from rules.orders import End, Paint, RemoveUnit, SetRule, Start
    from rules.outcome import Outcome
    from rules.ruleset import Constant, TerrainType
    from rules.units import Unit

MAX_PAINT_CELLS = 10_000


def require_not_ended(battle: Battle[Any]) -> None:
    """Refuse any change to a battle that has ended."""
    if battle.status == "ended":
        raise IllegalOrderError("This battle has ended; nothing on it can change any more.")


def check_start(battle: Battle[Any], order: Start) -> None:
    """Check that the battle is in setup and has a unit to start with."""
    if battle.status != "setup":
        raise IllegalOrderError(f"The battle is already {battle.status}; only a battle in setup can start.")
    if not battle.units:
        raise IllegalOrderError("Add at least one unit with /unit add before starting the battle.")


def start(battle: Battle[Any], order: Start, dice: Dice, outcome: Outcome) -> None:
    """End setup and begin the first round."""
    check_start(battle, order)
    battle.status = "active"
    battle.round = 1
    outcome.add(BattleStarted(round=1))
    turns.begin_battle(battle, dice, outcome)


def check_end(battle: Battle[Any], order: End) -> None:
    """Check that the battle has not ended already."""
    require_not_ended(battle)


def end(battle: Battle[Any], order: End, dice: Dice, outcome: Outcome) -> None:
    """End the battle."""
    check_end(battle, order)
    battle.status = "ended"
    outcome.add(BattleEnded(round=battle.round))


def check_set_rule(battle: Battle[Any], order: SetRule) -> tuple[Constant, int | bool | str | float]:
    """Check a rule override: a constant of the ruleset and a value in its range; return both."""
    require_not_ended(battle)
    const = battle.ruleset.constant(order.key)
    value = scale.coerce_scale(battle.ruleset, order.value) if order.key == battle.ruleset.scale_key \
        else const.coerce(order.value)
    scale.check_new_scale(battle, order.key, value)
    return const, value


def set_rule(battle: Battle[Any], order: SetRule, dice: Dice, outcome: Outcome) -> None:
    """Override a rule constant for this battle, validated against its declared range."""
    const, value = check_set_rule(battle, order)
    old = battle.const(order.key)
    # Setting the default back clears the override, so the battle follows later changes of the default.
    if value == const.value:
        battle.constants.pop(order.key, None)
    else:
        battle.constants[order.key] = value
    outcome.add(RuleSet(key=order.key, old=old, new=value, default=const.value))


def check_remove_unit(battle: Battle[Any], order: RemoveUnit) -> Unit:
    """Check that the unit exists in a battle not yet ended; return it."""
    require_not_ended(battle)
    unit: Unit = battle.unit(order.unit)
    return unit


def remove_unit(battle: Battle[Any], order: RemoveUnit, dice: Dice, outcome: Outcome) -> None:
    """Take a unit off the map."""
    unit = check_remove_unit(battle, order)
    battle.remove_unit(unit)
    outcome.actor = unit.name
    outcome.add(UnitRemoved(unit=unit.name, at=str(unit.cell)))


# --- shared steps of the systems' own setup handlers -------------------------------------------------


def new_unit_name(battle: Battle[Any], name: str, pending: Collection[str] = ()) -> str:
    """Return a new unit's cleaned name, refused if another unit has it or the battle is full.

    `pending` holds the lower-case names of units about to be added before this one (a file of units).
    """
    require_not_ended(battle)
    clean = check_name(name, "unit name")
    existing = battle.find_unit(clean)
    if existing is not None and existing.name.lower() == clean.lower():
        raise IllegalOrderError(f"There is already a unit called {existing.name}; pick another name.")
    if clean.lower() in pending:
        raise IllegalOrderError(f"There is already a unit called {clean}; pick another name.")
    if len(battle.units) + len(pending) >= MAX_UNITS:
        raise IllegalOrderError(f"A battle holds at most {MAX_UNITS} units.")
    return clean


def _owner(value: Any) -> int | None:
    """Return the Discord user a unit's `owner` field names (none for empty), or explain the field."""
    if value in (None, "", 0):
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise InvalidOrderError(f"`owner` is a Discord user id (a whole number), not `{value}`.") from None


def check_common(battle: Battle[Any], unit: Unit, stats: dict[str, Any], example: str) -> dict[str, Any]:
    """Check the fields every unit has (name, side, owner) and return the system's own fields left over."""
    require_not_ended(battle)
    rest = dict(stats)
    if not rest:
        raise InvalidOrderError(f"Say what to change, for example {example}.")
    if "name" in rest:
        battle.check_rename(unit, str(rest.pop("name")))
    if "side" in rest:
        battle.check_side(str(rest.pop("side")))
    if "owner" in rest:
        _owner(rest.pop("owner"))
    return rest


def edit_common(battle: Battle[Any], unit: Unit, stats: dict[str, Any], example: str) -> dict[str, Any]:
    """Apply the fields every unit has (name, side, owner) and return the system's own fields left over."""
    rest = check_common(battle, unit, stats, example)
    if "name" in stats:
        battle.rename_unit(unit, str(stats["name"]))
    if "side" in stats:
        unit.side = battle.ensure_side(str(stats["side"])).name
    if "owner" in stats:
        unit.owner = _owner(stats["owner"])
    return rest


def paint_cells(battle: Battle[Any], order: Paint) -> list[Cell]:
    """Return the squares a paint order covers, checked against the map and the size of one order."""
    require_not_ended(battle)
    if order.cells:
        if order.frm is not None or order.to is not None:
            raise InvalidOrderError("Paint either a rectangle (`from` and `to`) or a list of `cells`, not both.")
        cells = [battle.check_cell(c) for c in order.cells]
    elif order.frm is None:
        raise InvalidOrderError("Say where to paint: `from:` a cell (and `to:` a second corner for a rectangle).")
    else:
        cells = rectangle(battle, order.frm, order.to)
    if len(cells) > MAX_PAINT_CELLS:
        raise InvalidOrderError(f"Paint at most {MAX_PAINT_CELLS} squares at once.")
    return cells


def rectangle(battle: Battle[Any], first: Cell, second: Cell | None) -> list[Cell]:
    """Return the squares of the rectangle between two corners (one square without a second), checked on the map."""
    a = battle.check_cell(first)
    b = battle.check_cell(second) if second is not None else a
    return [Cell(x, y) for y in range(min(a.y, b.y), max(a.y, b.y) + 1) for x in range(min(a.x, b.x), max(a.x, b.x) + 1)]


def lay_terrain(battle: Battle[Any], cells: list[Cell], terrain: TerrainType, outcome: Outcome) -> None:
    """Set checked squares to a terrain and record what was painted."""
    for cell in cells:
        battle.set_terrain(cell, terrain.key)
    battle.map_version += 1
    outcome.details = PaintDetails(terrain=terrain.key, count=len(cells))
    outcome.highlight.cells = [str(c) for c in cells[:200]]
    outcome.add(Painted(terrain=terrain.key, cells=len(cells)))


def check_paint(battle: Battle[Any], order: Paint) -> tuple[TerrainType, list[Cell]]:
    """Check a paint order: a terrain of the battle and squares on the map; return both."""
    terrain = battle.ruleset.terrain_type(order.terrain)
    return terrain, paint_cells(battle, order)


def paint(battle: Battle[Any], order: Paint, dice: Dice, outcome: Outcome) -> None:
    """Paint terrain over a rectangle or a list of squares, where a system adds no rule of its own."""
    terrain, cells = check_paint(battle, order)
    lay_terrain(battle, cells, terrain, outcome)
