"""Setup orders for Combat Action: terrain, units with their stat blocks, rules, start and end."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules import turns
from rules.battle import MAX_UNITS, check_name
from rules.errors import IllegalOrderError, InvalidOrderError
from rules.orders import AddUnit, EditUnit, End, Paint, RemoveUnit, SetRule, Start
from rules.statblock_file import StatError
from rules.systems.combat_action.actions.transport import board
from rules.systems.combat_action.statblock import apply_stats
from rules.systems.combat_action.state import passengers
from rules.systems.combat_action.table import handles
from rules.systems.combat_action.units import Unit

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.systems.combat_action.board import Battle


def _not_ended(battle: Battle) -> None:
    if battle.status == "ended":
        raise IllegalOrderError("This battle has ended; nothing on it can change any more.")


def refresh_budgets(battle: Battle, dice: Dice | None = None, outcome: Outcome | None = None) -> None:
    """Give every model this round's action points from `ap_per_model` (A72)."""
    left = battle.turn.get("left")
    if isinstance(left, dict):
        for uid in left:
            left[uid] = int(battle.const("ap_per_model"))


@handles("paint")
def paint(battle: Battle, order: Paint, dice: Dice, outcome: Outcome) -> None:
    """Paint terrain (cover, obstacles) over a rectangle of squares."""
    _not_ended(battle)
    terrain = battle.ruleset.terrain_type(order.terrain)
    if order.frm is None and not order.cells:
        raise InvalidOrderError("Say where to paint: `from:` a cell (and `to:` a second corner).")
    cells = [battle.check_cell(c) for c in order.cells]
    if order.frm is not None:
        a = battle.check_cell(order.frm)
        b = battle.check_cell(order.to) if order.to is not None else a
        cells += [type(a)(x, y) for y in range(min(a.y, b.y), max(a.y, b.y) + 1)
                  for x in range(min(a.x, b.x), max(a.x, b.x) + 1)]
    for cell in cells:
        battle.set_terrain(cell, terrain.key)
    battle.map_version += 1
    outcome.effect("painted", terrain=terrain.key, cells=len(cells))


@handles("add-unit")
def add_unit(battle: Battle, order: AddUnit, dice: Dice, outcome: Outcome) -> None:
    """Put a model, character, vehicle or robot on the map with its stat block."""
    _not_ended(battle)
    name = check_name(order.name, "unit name")
    if battle.find_unit(name) is not None:
        raise IllegalOrderError(f"There is already a unit called {name}; pick another name.")
    if len(battle.units) >= MAX_UNITS:
        raise IllegalOrderError(f"A battle holds at most {MAX_UNITS} units.")
    cell = battle.check_cell(order.at)
    side = battle.ensure_side(order.side)
    unit = Unit(name=name, side=side.name, x=cell.x, y=cell.y, owner=order.owner)
    stats: dict[str, Any] = dict(order.stats or {})
    stats.setdefault("kind", "infantry")
    apply_stats(unit, stats)
    vehicle = _carrier(battle, unit, stats.get("inside"))
    battle.add_unit(unit)
    if vehicle is not None:
        board(battle, unit, vehicle)
    outcome.actor = name
    outcome.highlight["target"] = str(cell)
    outcome.effect("unit_added", unit=name, side=side.name, at=str(cell), owner=order.owner, unit_kind=unit.kind)


def _carrier(battle: Battle, unit: Unit, name: Any) -> Unit | None:
    """Return the friendly vehicle a new model starts inside, checking its hold has room."""
    if not name:
        return None
    vehicle = battle.find_unit(str(name))
    if vehicle is None or vehicle.kind != "vehicle" or "hold" not in vehicle.locations:
        raise StatError(("inside",), f"`inside` names `{name}`, which is not a vehicle with a hold in this battle; "
                                     "add the vehicle first.")
    if vehicle.side.lower() != unit.side.lower():
        raise StatError(("inside",), f"`inside` names {vehicle.name} of {vehicle.side}; a model rides in its own "
                                     "side's vehicles.")
    if unit.machine or unit.building:
        raise StatError(("inside",), "only models ride inside vehicles.")
    if len(passengers(battle, vehicle)) >= vehicle.capacity:
        raise StatError(("inside",), f"{vehicle.name}'s hold is full ({vehicle.capacity} models).")
    return vehicle


@handles("edit-unit")
def edit_unit(battle: Battle, order: EditUnit, dice: Dice, outcome: Outcome) -> None:
    """Change fields of a unit's stat block (statuses such as pinned or routing too, A87)."""
    _not_ended(battle)
    unit = battle.unit(order.unit)
    stats: dict[str, Any] = dict(order.stats or {})
    if not stats:
        raise InvalidOrderError("Say what to change, for example `pf:3` or `statuses:[\"pinned\"]`.")
    if "name" in stats:
        battle.rename_unit(unit, str(stats.pop("name")))
    if "inside" in stats:
        raise InvalidOrderError("Models get into vehicles with the embark order, and out with disembark.")
    apply_stats(unit, stats, partial=True)
    outcome.actor = unit.name
    outcome.effect("unit_edited", unit=unit.name, fields=sorted((order.stats or {}).keys()))


@handles("remove-unit")
def remove_unit(battle: Battle, order: RemoveUnit, dice: Dice, outcome: Outcome) -> None:
    """Take a unit off the map."""
    _not_ended(battle)
    unit = battle.unit(order.unit)
    battle.remove_unit(unit)
    outcome.effect("unit_removed", unit=unit.name, at=str(unit.cell))


@handles("set-rule")
def set_rule(battle: Battle, order: SetRule, dice: Dice, outcome: Outcome) -> None:
    """Override a rule constant for this battle, validated against its declared range."""
    _not_ended(battle)
    const = battle.ruleset.constant(order.key)
    value = const.coerce(order.value)
    old = battle.const(order.key)
    if value == const.value:
        battle.constants.pop(order.key, None)
    else:
        battle.constants[order.key] = value
    outcome.effect("rule_set", key=order.key, old=old, new=value, default=const.value)


@handles("start")
def start(battle: Battle, order: Start, dice: Dice, outcome: Outcome) -> None:
    """End setup and begin round 1 with every model's action points."""
    if battle.status != "setup":
        raise IllegalOrderError(f"The battle is already {battle.status}; only a battle in setup can start.")
    if not battle.units:
        raise IllegalOrderError("Add at least one unit with /unit add before starting the battle.")
    battle.status = "active"
    outcome.effect("battle_started", round=1)
    turns.begin_battle(battle, dice, outcome)
    refresh_budgets(battle)


@handles("end")
def end(battle: Battle, order: End, dice: Dice, outcome: Outcome) -> None:
    """End the battle."""
    _not_ended(battle)
    battle.status = "ended"
    outcome.effect("battle_ended", round=battle.round)
