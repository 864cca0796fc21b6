"""Setup orders for Combat Action: units with their stat blocks and the start with action points.

Painting, rule overrides, ending and removing units play as in every system (`rules.lifecycle`).
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from rules import lifecycle
from rules.core_effects import UnitEdited
from rules.errors import InvalidOrderError
from rules.orders import AddUnit, EditUnit, Start
from rules.statfile import StatError
from rules.systems.combat_action.actions.transport import board
from rules.systems.combat_action.effects import ReadyLost, UnitAdded
from rules.systems.combat_action.statblock import apply_stats
from rules.systems.combat_action.state import AIMED, PINNED, passengers
from rules.systems.combat_action.table import TABLE, checks, handles
from rules.systems.combat_action.units import Unit

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.systems.combat_action.board import Battle

TABLE.add("paint", lifecycle.paint, lifecycle.check_paint)
TABLE.add("set-rule", lifecycle.set_rule, lifecycle.check_set_rule)
TABLE.add("end", lifecycle.end, lifecycle.check_end)
TABLE.add("remove-unit", lifecycle.remove_unit, lifecycle.check_remove_unit)


def refresh_budgets(battle: Battle, dice: Dice | None = None, outcome: Outcome | None = None) -> None:
    """Give every model this round's action points from `ap_per_model` (A72)."""
    left = battle.turn.left
    for uid in left:
        left[uid] = int(battle.const("ap_per_model"))


@checks("add-unit")
def check_add_unit(battle: Battle, order: AddUnit) -> tuple[Unit, Unit | None]:
    """Check a new model and build it (not yet on the map); return it and the vehicle it starts inside."""
    name = lifecycle.new_unit_name(battle, order.name)
    cell = battle.check_cell(order.at)
    side = battle.check_side(order.side)
    unit = Unit(name=name, side=side, x=cell.x, y=cell.y, owner=order.owner)
    stats: dict[str, Any] = dict(order.stats or {})
    stats.setdefault("kind", "infantry")
    apply_stats(unit, stats)
    return unit, _carrier(battle, unit, stats.get("inside"))


@handles("add-unit")
def add_unit(battle: Battle, order: AddUnit, dice: Dice, outcome: Outcome) -> None:
    """Put a model, character, vehicle or robot on the map with its stat block."""
    unit, vehicle = check_add_unit(battle, order)
    unit.side = battle.ensure_side(unit.side).name
    battle.add_unit(unit)
    if vehicle is not None:
        board(battle, unit, vehicle)
    outcome.actor = unit.name
    outcome.highlight.target = str(unit.cell)
    outcome.add(UnitAdded(unit=unit.name, side=unit.side, at=str(unit.cell), owner=order.owner, unit_kind=unit.kind))


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


EDIT_EXAMPLE = "`pf:3` or `statuses:[\"pinned\"]`"


@checks("edit-unit")
def check_edit_unit(battle: Battle, order: EditUnit) -> Unit:
    """Check an edit of a model's stat block on a copy of the model; return the model."""
    unit = battle.unit(order.unit)
    stats = lifecycle.check_common(battle, unit, dict(order.stats or {}), EDIT_EXAMPLE)
    if "inside" in stats:
        raise InvalidOrderError("Models get into vehicles with the embark order, and out with disembark.")
    apply_stats(copy.deepcopy(unit), stats, partial=True)
    return unit


@handles("edit-unit")
def edit_unit(battle: Battle, order: EditUnit, dice: Dice, outcome: Outcome) -> None:
    """Change fields of a unit's stat block (statuses such as pinned or routing too, A87)."""
    unit = check_edit_unit(battle, order)
    was_pinned = PINNED in unit.statuses
    stats = lifecycle.edit_common(battle, unit, dict(order.stats or {}), EDIT_EXAMPLE)
    apply_stats(unit, stats, partial=True)
    outcome.actor = unit.name
    outcome.add(UnitEdited(unit=unit.name, fields=sorted((order.stats or {}).keys())))
    if not was_pinned and PINNED in unit.statuses:
        lose_ready(battle, unit, outcome)


def lose_ready(battle: Battle, unit: Unit, outcome: Outcome) -> None:
    """003:L169: a model just pinned loses its ready-to-fire status, the aim it paid for (A100)."""
    if battle.const("pinned_clears_ready") and AIMED in unit.statuses:
        unit.statuses.remove(AIMED)
        outcome.add(ReadyLost(unit=unit.name))


@checks("start")
def check_start(battle: Battle, order: Start) -> None:
    """Check that the battle can start, as in every system."""
    lifecycle.check_start(battle, order)


@handles("start")
def start(battle: Battle, order: Start, dice: Dice, outcome: Outcome) -> None:
    """End setup and begin round 1 with every model's action points."""
    lifecycle.start(battle, order, dice, outcome)
    refresh_budgets(battle)
