"""The handlers of M42: setup, the map's edges, roads and floors, actions and placement of models."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules import edgeorders, lifecycle
from rules.core_effects import UnitEdited
from rules.errors import IllegalOrderError, InvalidOrderError
from rules.mapfile import parse_map, replace_map
from rules.orders import AddUnit, EditUnit, ImportMap, Move
from rules.statfile import PlacementError
from rules.systems.m42.board import Battle, kind_at
from rules.systems.m42.details import ActionDetails, MapDetails
from rules.systems.m42.effects import ActionTaken, Floors, MapImported, Placed, Road, UnitAdded
from rules.systems.m42.mapfile import LAYERS
from rules.systems.m42.movement import action_of, explain_unreachable, reachable
from rules.systems.m42.orders import Act, Place, SetFloors, SetRoad
from rules.systems.m42.placement import auto_place, check_placement, legal_spots
from rules.systems.m42.table import handles
from rules.systems.m42.units import Spot, Unit, read_stats

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.outcome import Outcome

MAX_FLOORS = 10


def parse_spots(text: str) -> list[Spot]:
    """Parse a comma-separated list of spots (`C4,D4,C5^1`)."""
    spots = [Spot.parse(p) for p in text.replace(" ", ",").split(",") if p.strip()]
    if len(set(spots)) != len(spots):
        raise InvalidOrderError("Each model needs a spot of its own; a spot is listed twice.")
    return spots


@handles("import-map")
def import_map(battle: Battle, order: ImportMap, dice: Dice, outcome: Outcome) -> None:
    """Replace the map with a map file of terrain, roads, floors and edges; no model may be left off the map."""
    lifecycle.require_not_ended(battle)
    data = parse_map(order.text, battle.ruleset, LAYERS, edges=True)
    for unit in battle.iter_units():
        for spot in unit.spots():
            if not (0 <= spot.x < data.width and 0 <= spot.y < data.height):
                raise IllegalOrderError(f"A model of {unit.name} stands on {spot.cell}, outside the new "
                                        f"{data.width}x{data.height} map; move or remove the unit first.")
    replace_map(battle, data, LAYERS)
    counts = {layer.name: sum(1 for f in data.flags.values() if f.get(layer.name)) for layer in LAYERS}
    outcome.details = MapDetails(width=data.width, height=data.height, edges=len(data.edges), road=counts["road"],
                                 floors=counts["floors"])
    outcome.add(MapImported(width=data.width, height=data.height, edges=len(data.edges), **counts))


@handles("set-road")
def set_road(battle: Battle, order: SetRoad, dice: Dice, outcome: Outcome) -> None:
    """Lay or lift a road over a rectangle of squares."""
    lifecycle.require_not_ended(battle)
    cells = lifecycle.rectangle(battle, order.frm, order.to)
    for cell in cells:
        if order.on:
            battle.square(cell).road = True
        else:
            battle.clear_square(cell, "road")
    battle.map_version += 1
    outcome.add(Road(on=order.on, cells=len(cells)))


@handles("set-floors")
def set_floors(battle: Battle, order: SetFloors, dice: Dice, outcome: Outcome) -> None:
    """Give building or ruin squares their number of floors."""
    lifecycle.require_not_ended(battle)
    if not 1 <= order.floors <= MAX_FLOORS:
        raise InvalidOrderError(f"`floors` is 1 to {MAX_FLOORS}; 1 is the ground floor alone.")
    cells = lifecycle.rectangle(battle, order.frm, order.to)
    for cell in cells:
        if not kind_at(battle, cell).floors:
            raise IllegalOrderError(f"{cell} is {battle.terrain_at(cell).name}: only buildings and ruins have floors.")
    for cell in cells:
        battle.square(cell).floors = order.floors
    battle.map_version += 1
    outcome.add(Floors(floors=order.floors, cells=len(cells)))


@handles("add-unit")
def add_unit(battle: Battle, order: AddUnit, dice: Dice, outcome: Outcome) -> None:
    """Put a unit on the map: its leader on the square given, its models placed legally around it."""
    name = lifecycle.new_unit_name(battle, order.name)
    cell = battle.check_cell(order.at)
    ld, size, traits = read_stats(dict(order.stats or {}))
    side = battle.ensure_side(order.side)
    unit = Unit(name=name, side=side.name, x=cell.x, y=cell.y, owner=order.owner, ld=ld, size=size, traits=traits)
    if unit.infantry and kind_at(battle, cell).impassable:
        raise PlacementError(f"{cell} is impassable terrain: infantry may not enter it at all (004:L129).")
    if any(unit.leader in u.spots() for u in battle.iter_units()):
        raise PlacementError(f"{cell} already holds a model; put the leader elsewhere.")
    unit.models = auto_place(battle, unit, unit.leader)
    battle.add_unit(unit)
    outcome.actor = unit.name
    outcome.add(UnitAdded(unit=unit.name, side=side.name, at=str(cell), owner=order.owner,
                   models=[str(s) for s in unit.models]))
    outcome.highlight.update(actor=str(cell), cells=sorted({str(s.cell) for s in unit.models}))


@handles("edit-unit")
def edit_unit(battle: Battle, order: EditUnit, dice: Dice, outcome: Outcome) -> None:
    """Change a unit's name, side, owner, Ld, size or special rules; its models are placed again around the leader."""
    unit = battle.unit(order.unit)
    own = lifecycle.edit_common(battle, unit, dict(order.stats or {}), "`ld:4` or `models:6`")
    if own:
        current = {"ld": unit.ld, "models": unit.size, "traits": list(unit.traits)}
        unit.ld, unit.size, unit.traits = read_stats({**current, **own})
        unit.models = auto_place(battle, unit, unit.leader)
    outcome.actor = unit.name
    outcome.add(UnitEdited(unit=unit.name, fields=sorted(order.stats or {})))


# Starting, ending, rule overrides, painting, removing units and obstacles on edges play as in every system.
handles("paint")(lifecycle.paint)
handles("remove-unit")(lifecycle.remove_unit)
handles("set-edge")(edgeorders.set_edges)
handles("clear-edge")(edgeorders.clear_edges)
handles("start")(lifecycle.start)
handles("end")(lifecycle.end)
handles("set-rule")(lifecycle.set_rule)


def _act(battle: Battle, unit: Unit, action_key: str, goal: Spot, models: str, outcome: Outcome) -> None:
    if battle.status != "active":
        raise IllegalOrderError("The battle has not started yet; the GM starts it with /battle start.")
    action = action_of(battle, action_key)
    battle.check_cell(goal.cell)
    options = reachable(battle, unit, action)
    found = options.get(goal)
    if found is None:
        raise IllegalOrderError(f"{unit.name}'s leader cannot {action.key} to {goal}: "
                                f"{explain_unreachable(battle, unit, action, goal)}",
                                cells=sorted({str(s.cell) for s in options}))
    start_spot = unit.leader
    unit.x, unit.y, unit.level = goal.x, goal.y, goal.level
    _place(battle, unit, parse_spots(models) if models else [])
    outcome.actor = unit.name
    outcome.turn.action = action.key  # what the turns count it as replaces it when they count this order
    outcome.details = ActionDetails(walked=round(found.walked, 3), allowance=found.allowance, halved=sorted(found.causes))
    outcome.add(ActionTaken(unit=unit.name, action=action.key, name=action.title, frm=str(start_spot), to=str(goal),
                   walked=round(found.walked, 3), allowance=found.allowance, halved=sorted(found.causes),
                   models=[str(s) for s in unit.models]))
    outcome.highlight.update(path=[str(start_spot.cell), str(goal.cell)], actor=str(goal.cell),
                             cells=sorted({str(s.cell) for s in unit.models}))


def _place(battle: Battle, unit: Unit, spots: list[Spot]) -> None:
    """Place the given models by hand and the rest by the bot, all checked against the rules."""
    wanted = unit.size - 1
    if len(spots) > wanted:
        raise InvalidOrderError(f"{unit.name} has {wanted} models besides its leader; {len(spots)} spots were given.")
    check_placement(battle, unit, unit.leader, spots)
    rest = [p for p in legal_spots(battle, unit, unit.leader, set(spots)) if p not in spots]
    if len(spots) + len(rest) < wanted:
        raise IllegalOrderError(
            f"Only {len(spots) + len(rest)} of the {wanted} other models of {unit.name} can stand within its "
            f"Command Radius around {unit.leader}; choose another square."
        )
    unit.models = [*spots, *rest[:wanted - len(spots)]]


@handles("move")
def move(battle: Battle, order: Move, dice: Dice, outcome: Outcome) -> None:
    """Take an action on the ground floor: the leader moves, then the models are placed around it."""
    unit = battle.unit(order.unit)
    _act(battle, unit, order.mode, Spot(order.to.x, order.to.y), "", outcome)


@handles("take-action")
def act(battle: Battle, order: Act, dice: Dice, outcome: Outcome) -> None:
    """Take an action to a square and floor, with the models placed by hand or by the bot."""
    unit = battle.unit(order.unit)
    _act(battle, unit, order.action, Spot(order.to.x, order.to.y, order.level), order.models, outcome)


@handles("place")
def place(battle: Battle, order: Place, dice: Dice, outcome: Outcome) -> None:
    """Place models by hand around where the leader stands now."""
    lifecycle.require_not_ended(battle)
    unit = battle.unit(order.unit)
    spots = parse_spots(order.models)
    if not spots:
        raise InvalidOrderError("List the spots for the models, like `models:C4,D4,C5`.")
    _place(battle, unit, spots)
    outcome.actor = unit.name
    outcome.add(Placed(unit=unit.name, models=[str(s) for s in unit.models]))
    outcome.highlight.update(actor=str(unit.cell), cells=sorted({str(s.cell) for s in unit.models}))
