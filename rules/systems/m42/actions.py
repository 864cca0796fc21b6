"""The handlers of M42: setup, the map's edges, roads and floors, actions and placement of models."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING, TypeVar

from rules import colours, edgeorders, lifecycle
from rules.core_effects import UnitEdited
from rules.errors import IllegalOrderError, InvalidOrderError
from rules.mapfile import MapData, parse_map, replace_map
from rules.orders import AddUnit, EditUnit, ImportMap, Move
from rules.statfile import PlacementError
from rules.systems.m42.board import Battle, kind_at
from rules.systems.m42.details import ActionDetails, MapDetails
from rules.systems.m42.effects import ActionTaken, Floors, MapImported, Placed, Road, UnitAdded
from rules.systems.m42.kinds import Action
from rules.systems.m42.mapfile import LAYERS
from rules.systems.m42.movement import Reach, action_of, explain_unreachable, reach_to, reachable
from rules.systems.m42.orders import Act, Place, SetFloors, SetRoad
from rules.systems.m42.placement import auto_place, check_placement, iter_legal_spots
from rules.systems.m42.squares import square_at
from rules.systems.m42.table import TABLE, checks, handles
from rules.systems.m42.units import Spot, Unit, read_stats

if TYPE_CHECKING:
    from rules.coords import Cell
    from rules.dice import Dice
    from rules.outcome import Outcome

MAX_FLOORS = 10
_O = TypeVar("_O", Move, Act)


def parse_spots(text: str) -> list[Spot]:
    """Parse a comma-separated list of spots (`C4,D4,C5^1`)."""
    spots = [Spot.parse(p) for p in text.replace(" ", ",").split(",") if p.strip()]
    if len(set(spots)) != len(spots):
        raise InvalidOrderError("Each model needs a spot of its own; a spot is listed twice.")
    return spots


@checks("import-map")
def check_import_map(battle: Battle, order: ImportMap) -> MapData:
    """Check a map file, and that no model would be left off the new map; return the map."""
    lifecycle.require_not_ended(battle)
    data = parse_map(order.text, battle.ruleset, LAYERS, edges=True)
    for unit in battle.iter_units():
        for spot in unit.spots():
            if not (0 <= spot.x < data.width and 0 <= spot.y < data.height):
                raise IllegalOrderError(f"A model of {unit.name} stands on {spot.cell}, outside the new "
                                        f"{data.width}x{data.height} map; move or remove the unit first.")
    return data


@handles("import-map")
def import_map(battle: Battle, order: ImportMap, dice: Dice, outcome: Outcome) -> None:
    """Replace the map with a map file of terrain, roads, floors and edges; no model may be left off the map."""
    data = check_import_map(battle, order)
    replace_map(battle, data, LAYERS)
    counts = {layer.name: sum(1 for f in data.flags.values() if f.get(layer.name)) for layer in LAYERS}
    outcome.details = MapDetails(width=data.width, height=data.height, edges=len(data.edges), road=counts["road"],
                                 floors=counts["floors"])
    outcome.add(MapImported(width=data.width, height=data.height, edges=len(data.edges), **counts))


@checks("set-road")
def check_set_road(battle: Battle, order: SetRoad) -> list[Cell]:
    """Check the rectangle of squares; return them."""
    lifecycle.require_not_ended(battle)
    return lifecycle.rectangle(battle, order.frm, order.to)


@handles("set-road")
def set_road(battle: Battle, order: SetRoad, dice: Dice, outcome: Outcome) -> None:
    """Lay or lift a road over a rectangle of squares."""
    cells = check_set_road(battle, order)
    for cell in cells:
        if order.on:
            square_at(battle, cell).road = True
        else:
            battle.clear_square(cell, "road")
    battle.map_version += 1
    outcome.add(Road(on=order.on, cells=len(cells)))


@checks("set-floors")
def check_set_floors(battle: Battle, order: SetFloors) -> list[Cell]:
    """Check the number of floors and that every square is a building or ruin; return the squares."""
    lifecycle.require_not_ended(battle)
    if not 1 <= order.floors <= MAX_FLOORS:
        raise InvalidOrderError(f"`floors` is 1 to {MAX_FLOORS}; 1 is the ground floor alone.")
    cells = lifecycle.rectangle(battle, order.frm, order.to)
    for cell in cells:
        if not kind_at(battle, cell).floors:
            raise IllegalOrderError(f"{cell} is {battle.terrain_at(cell).name}: only buildings and ruins have floors.")
    return cells


@handles("set-floors")
def set_floors(battle: Battle, order: SetFloors, dice: Dice, outcome: Outcome) -> None:
    """Give building or ruin squares their number of floors."""
    cells = check_set_floors(battle, order)
    for cell in cells:
        square_at(battle, cell).floors = order.floors
    battle.map_version += 1
    outcome.add(Floors(floors=order.floors, cells=len(cells)))


@checks("add-unit")
def check_add_unit(battle: Battle, order: AddUnit) -> Unit:
    """Check a new unit and build it with its models placed (not yet on the map)."""
    name = lifecycle.new_unit_name(battle, order.name)
    cell = battle.check_cell(order.at)
    ld, size, traits = read_stats(dict(order.stats or {}))
    side = battle.check_side(order.side)
    unit = Unit(name=name, side=side, x=cell.x, y=cell.y, owner=order.owner, ld=ld, size=size, traits=traits)
    if unit.infantry and kind_at(battle, cell).impassable:
        raise PlacementError(f"{cell} is impassable terrain: infantry may not enter it at all (004:L129).")
    if any(unit.leader in u.spots() for u in battle.iter_units()):
        raise PlacementError(f"{cell} already holds a model; put the leader elsewhere.")
    unit.models = auto_place(battle, unit, unit.leader)
    return unit


@handles("add-unit")
def add_unit(battle: Battle, order: AddUnit, dice: Dice, outcome: Outcome) -> None:
    """Put a unit on the map: its leader on the square given, its models placed legally around it."""
    unit = check_add_unit(battle, order)
    unit.side = battle.ensure_side(unit.side).name
    battle.add_unit(unit)
    outcome.actor = unit.name
    outcome.add(UnitAdded(unit=unit.name, side=unit.side, at=str(unit.cell), owner=order.owner,
                   models=[str(s) for s in unit.models]))
    outcome.highlight.update(actor=str(unit.cell), cells=sorted({str(s.cell) for s in unit.models}))


EDIT_EXAMPLE = "`ld:4` or `models:6`"


@checks("edit-unit")
def check_edit_unit(battle: Battle, order: EditUnit) -> Unit | None:
    """Check an edit of a unit; return the unit as the edit leaves its Ld, size, rules and models (None: no change
    of those)."""
    unit = battle.unit(order.unit)
    own = lifecycle.check_common(battle, unit, dict(order.stats or {}), EDIT_EXAMPLE)
    if not own:
        return None
    edited = copy.deepcopy(unit)
    current = {"ld": unit.ld, "models": unit.size, "traits": list(unit.traits)}
    edited.ld, edited.size, edited.traits = read_stats({**current, **own})
    edited.models = auto_place(battle, edited, edited.leader)
    return edited


@handles("edit-unit")
def edit_unit(battle: Battle, order: EditUnit, dice: Dice, outcome: Outcome) -> None:
    """Change a unit's name, side, owner, Ld, size or special rules; its models are placed again around the leader."""
    edited = check_edit_unit(battle, order)
    unit = battle.unit(order.unit)
    lifecycle.edit_common(battle, unit, dict(order.stats or {}), EDIT_EXAMPLE)
    if edited is not None:
        unit.ld, unit.size, unit.traits, unit.models = edited.ld, edited.size, edited.traits, edited.models
    outcome.actor = unit.name
    outcome.add(UnitEdited(unit=unit.name, fields=sorted(order.stats or {})))


# Starting, ending, rule overrides, painting, removing units and obstacles on edges play as in every system.
TABLE.add("paint", lifecycle.paint, lifecycle.check_paint)
TABLE.add("remove-unit", lifecycle.remove_unit, lifecycle.check_remove_unit)
TABLE.add("set-edge", edgeorders.set_edges, edgeorders.check_set_edges)
TABLE.add("clear-edge", edgeorders.clear_edges, edgeorders.check_clear_edges)
TABLE.add("start", lifecycle.start, lifecycle.check_start)
TABLE.add("end", lifecycle.end, lifecycle.check_end)
TABLE.add("set-rule", lifecycle.set_rule, lifecycle.check_set_rule)
TABLE.add("side-colour", colours.set_side_colour, colours.check_side_colour)


@dataclass(frozen=True)
class _Step:
    """A checked action: the unit, the action, where its leader ends, the walk there and where its models stand."""

    unit: Unit
    action: Action
    goal: Spot
    found: Reach
    models: list[Spot]


class Unreachable(IllegalOrderError):
    """A destination the leader cannot reach, explained (which rule keeps it away, and the squares it can reach)
    only when the refusal is read: `Battle.is_legal` asks the verdict alone, and a walk to explain is costly."""

    def __init__(self, say: Callable[[], tuple[str, list[str]]]) -> None:
        Exception.__init__(self)
        self._say: Callable[[], tuple[str, list[str]]] | None = say
        self._message = ""
        self._cells: tuple[str, ...] = ()

    def settle(self) -> None:
        """Work the explanation out now, from the battle as it stands when the order was refused."""
        if self._say is not None:
            message, cells = self._say()
            self._message, self._cells, self._say = message, tuple(cells), None

    @property
    def message(self) -> str:
        """Return the explanation, working it out on first reading."""
        self.settle()
        return self._message

    @message.setter
    def message(self, value: str) -> None:
        self._message, self._say = value, None

    @property
    def cells(self) -> tuple[str, ...]:
        """Return the squares the leader can reach, as labels, working them out on first reading."""
        self.settle()
        return self._cells

    @cells.setter
    def cells(self, value: tuple[str, ...]) -> None:
        self._cells = value

    def __reduce__(self) -> tuple[type[IllegalOrderError], tuple[str], dict[str, tuple[str, ...]]]:
        """Pickle as the plain refusal it reads as (the explanation cannot travel unworked)."""
        return IllegalOrderError, (self.message,), {"cells": self.cells}


def _checked(check: Callable[[Battle, _O], _Step], battle: Battle, order: _O) -> _Step:
    """Run an action's check for its handler, explaining a refusal at once, while the battle is as it was checked."""
    try:
        return check(battle, order)
    except Unreachable as refusal:
        refusal.settle()
        raise


def _check_act(battle: Battle, name: str, action_key: str, goal: Spot, models: str) -> _Step:
    """Check an action: an active battle, an action of the ruleset, a spot the leader reaches, room for the models."""
    unit = battle.unit(name)
    if battle.status != "active":
        raise IllegalOrderError("The battle has not started yet; the GM starts it with /battle start.")
    action = action_of(battle, action_key)
    battle.check_cell(goal.cell)
    found = reach_to(battle, unit, action, goal)
    if found is None:
        def say() -> tuple[str, list[str]]:
            options = reachable(battle, unit, action)
            return (f"{unit.name}'s leader cannot {action.key} to {goal}: "
                    f"{explain_unreachable(battle, unit, action, goal)}", sorted({str(s.cell) for s in options}))

        raise Unreachable(say)
    return _Step(unit, action, goal, found, _models(battle, unit, goal, parse_spots(models) if models else []))


def _act(battle: Battle, step: _Step, outcome: Outcome) -> None:
    unit, action, goal, found = step.unit, step.action, step.goal, step.found
    start_spot = unit.leader
    unit.x, unit.y, unit.level = goal.x, goal.y, goal.level
    unit.models = step.models
    outcome.actor = unit.name
    outcome.turn.action = action.key  # what the turns count it as replaces it when they count this order
    outcome.details = ActionDetails(walked=round(found.walked, 3), allowance=found.allowance, halved=sorted(found.causes))
    outcome.add(ActionTaken(unit=unit.name, action=action.key, name=action.title, frm=str(start_spot), to=str(goal),
                   walked=round(found.walked, 3), allowance=found.allowance, halved=sorted(found.causes),
                   models=[str(s) for s in unit.models]))
    outcome.highlight.update(path=[str(start_spot.cell), str(goal.cell)], actor=str(goal.cell),
                             cells=sorted({str(s.cell) for s in unit.models}))


def _models(battle: Battle, unit: Unit, leader: Spot, spots: list[Spot]) -> list[Spot]:
    """Return where the models stand with the leader at `leader`: those given by hand, the rest by the bot, all
    checked against the rules."""
    wanted = unit.size - 1
    if len(spots) > wanted:
        raise InvalidOrderError(f"{unit.name} has {wanted} models besides its leader; {len(spots)} spots were given.")
    check_placement(battle, unit, leader, spots)
    # The nearest legal spots are the ones taken: the spots beyond them are never judged.
    rest = list(islice((p for p in iter_legal_spots(battle, unit, leader, set(spots)) if p not in spots),
                       wanted - len(spots)))
    if len(spots) + len(rest) < wanted:
        raise IllegalOrderError(
            f"Only {len(spots) + len(rest)} of the {wanted} other models of {unit.name} can stand within its "
            f"Command Radius around {leader}; choose another square."
        )
    return [*spots, *rest]


@checks("move")
def check_move(battle: Battle, order: Move) -> _Step:
    """Check an action on the ground floor, with the models placed by the bot."""
    return _check_act(battle, order.unit, order.mode, Spot(order.to.x, order.to.y), "")


@handles("move")
def move(battle: Battle, order: Move, dice: Dice, outcome: Outcome) -> None:
    """Take an action on the ground floor: the leader moves, then the models are placed around it."""
    _act(battle, _checked(check_move, battle, order), outcome)


@checks("take-action")
def check_take_action(battle: Battle, order: Act) -> _Step:
    """Check an action to a square and floor, with the models placed by hand or by the bot."""
    return _check_act(battle, order.unit, order.action, Spot(order.to.x, order.to.y, order.level), order.models)


@handles("take-action")
def act(battle: Battle, order: Act, dice: Dice, outcome: Outcome) -> None:
    """Take an action to a square and floor, with the models placed by hand or by the bot."""
    _act(battle, _checked(check_take_action, battle, order), outcome)


@checks("place")
def check_place(battle: Battle, order: Place) -> tuple[Unit, list[Spot]]:
    """Check models placed by hand around where the leader stands now; return the unit and every model's spot."""
    lifecycle.require_not_ended(battle)
    unit = battle.unit(order.unit)
    spots = parse_spots(order.models)
    if not spots:
        raise InvalidOrderError("List the spots for the models, like `models:C4,D4,C5`.")
    return unit, _models(battle, unit, unit.leader, spots)


@handles("place")
def place(battle: Battle, order: Place, dice: Dice, outcome: Outcome) -> None:
    """Place models by hand around where the leader stands now."""
    unit, models = check_place(battle, order)
    unit.models = models
    outcome.actor = unit.name
    outcome.add(Placed(unit=unit.name, models=[str(s) for s in unit.models]))
    outcome.highlight.update(actor=str(unit.cell), cells=sorted({str(s.cell) for s in unit.models}))
