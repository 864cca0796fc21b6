"""How far a unit's leader may move and where: halving (A90), the road bonus (A91), walls and standoff."""

from __future__ import annotations

import heapq
import threading
from dataclasses import dataclass
from math import sqrt
from typing import Any

from rules.coords import Cell
from rules.errors import IllegalOrderError
from rules.scale import square_size
from rules.systems.m42.board import Battle, kind_at, obstacle, region, top_level
from rules.systems.m42.geometry import offsets_closer_than
from rules.systems.m42.kinds import Action, action_key, actions_of
from rules.systems.m42.memo import kept, map_key
from rules.systems.m42.units import Spot, Unit

AREA, OBSTACLE, WALL = "area", "obstacle", "wall"  # the causes of halving (004:L29, L58, L88)
HALVING_RULES = {
    AREA: "area terrain (004:L29)", OBSTACLE: "a linear obstacle (004:L58)",
    WALL: "an outer wall or ceiling without an opening (004:L88)",
}
EPSILON = 1e-9


@dataclass(frozen=True, slots=True)
class Reach:
    """A spot the leader can reach: the inches walked, what halved the move, and the allowance."""

    spot: Spot
    walked: float
    causes: frozenset[str]
    allowance: float


def action_of(battle: Battle, key: str) -> Action:
    """Return the action with this key, or explain which exist."""
    actions = actions_of(battle)
    found = actions.get(action_key(key))
    if found is None:
        raise IllegalOrderError(f"`{key}` is not an action of this battle; use one of {', '.join(actions)}.")
    return found


def allowance(battle: Battle, action: Action, causes: frozenset[str], road: bool) -> float:
    """Return the leader's move in inches for an action, given the halving causes and the road (A90, A91)."""
    bonus = int(battle.const("road_bonus")) if road else 0
    halvings = (1 if causes else 0) if battle.const("halve_once") else len(causes)
    base = int(battle.const(action.constant))
    if battle.const("road_before_halving"):
        return float((base + bonus) / 2 ** halvings)
    return float(base / 2 ** halvings + bonus)


def _standoff_zone(battle: Battle, unit: Unit, around: Cell | None = None, radius: int = 0) -> set[Cell]:
    """Return the squares closer than the standoff to any enemy model (A93).

    With `around`, only the zone within `radius` squares of it (as far as a walk from there can go).
    """
    limit, s = int(battle.const("standoff")), square_size(battle)
    zone: set[Cell] = set()
    if limit <= 0:
        return zone
    offsets = offsets_closer_than(limit, s)
    span = int(limit // s) + 2
    for other in battle.iter_units():
        if not battle.enemies(unit, other):
            continue
        for spot in other.spots():
            if around is not None and max(abs(spot.x - around.x), abs(spot.y - around.y)) > radius + span:
                continue
            for dx, dy in offsets:
                x, y = spot.x + dx, spot.y + dy
                if 0 <= x < battle.width and 0 <= y < battle.height:
                    zone.add(Cell(x, y))
    return zone


def _edge_step(battle: Battle, unit: Unit, a: Cell, b: Cell) -> tuple[bool, str | None]:
    """Return whether a leader may step across the side a-b, and the halving cause it brings."""
    obs = obstacle(battle, a, b)
    if obs is not None:
        if obs.opening > 0:
            return True, None  # through a door, window or hole: no effect (004:L88)
        if obs.thickness > int(battle.const("linear_max_width")):
            return True, AREA  # wider than a Linear Obstacle: area terrain (004:L54, A99)
        if unit.infantry and obs.height > int(battle.const("tall_wall")):
            return False, None  # 004:L59, A99
        return True, OBSTACLE
    if kind_at(battle, a).building != kind_at(battle, b).building:
        return True, WALL  # an outer wall with no opening (004:L88)
    return True, None


def _enterable(battle: Battle, unit: Unit, cell: Cell, level: int, zone: set[Cell]) -> bool:
    if not battle.on_map(cell) or cell in zone:
        return False
    if unit.infantry and kind_at(battle, cell).impassable:
        return False
    return level <= top_level(battle, cell)


@dataclass(frozen=True, slots=True)
class _Step:
    """One step from a spot as the map alone allows it, before any standoff: where, what it costs, what it halves.

    `mids` is None for a step that stays on its square (a floor up or down), () for a step along a row or
    column, and for a diagonal the corner squares of which one must lie outside the standoff.
    """

    to: Spot
    cost: float
    causes: frozenset[str]
    mids: tuple[Cell, ...] | None
    at: Cell  # the square of `to`, asked of the standoff zone on every step

_STEP_CONSTANTS = ("inches_per_square", "floor_height", "linear_max_width", "tall_wall")
_STEP_TABLES = 8  # the maps in play at once on one process, each for infantry or not
_STEPS: dict[tuple[Any, ...], dict[Spot, tuple[_Step, ...]]] = {}
_STEPS_LOCK = threading.Lock()


def _step_table(battle: Battle, unit: Unit, walls: bool) -> dict[Spot, tuple[_Step, ...]]:
    """Return the steps already worked out from each spot of this map (filled as walks need them).

    Steps depend on the map alone (size, terrain, edges, floors), a few constants and whether the unit is
    infantry, not on where units stand: every walk on the same map shares them, whichever battle object (the
    table service decodes a fresh one per order) holds it.
    """
    key = (*map_key(battle), tuple(battle.const(k) for k in _STEP_CONSTANTS), unit.infantry, walls)
    table = _STEPS.get(key)
    if table is None:
        with _STEPS_LOCK:  # the table service resolves orders of different battles on several threads
            table = _STEPS.get(key)
            if table is None:
                if len(_STEPS) >= _STEP_TABLES:
                    _STEPS.pop(next(iter(_STEPS)))  # the oldest map's steps go first
                table = _STEPS[key] = {}
    return table


def _steps_from(battle: Battle, unit: Unit, spot: Spot, walls: bool) -> tuple[_Step, ...]:
    """Return the single steps from a spot as the map allows them (`_steps` without a standoff zone)."""
    # Float steps are safe at the limits: a path with a diagonal is s * (a + b * sqrt(2)), never a
    # whole or fractional number of inches, and straight paths of dyadic squares add up exactly.
    s = float(square_size(battle))
    here = spot.cell
    none: set[Cell] = set()
    out: list[_Step] = []
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if not dx and not dy:
                continue
            to = Cell(here.x + dx, here.y + dy)
            if not _enterable(battle, unit, to, spot.level, none):
                continue
            causes: set[str] = set()
            mids: tuple[Cell, ...] = ()
            if dx and dy:
                # A diagonal step slips past a corner only where one of its two L-shaped routes is clear.
                mids = tuple(mid for mid in (Cell(here.x + dx, here.y), Cell(here.x, here.y + dy))
                             if _enterable(battle, unit, mid, spot.level, none)
                             and _edge_step(battle, unit, here, mid) == (True, None)
                             and _edge_step(battle, unit, mid, to) == (True, None))
                if not mids:
                    continue
                cost = s * sqrt(2)
            else:
                passable, cause = _edge_step(battle, unit, here, to)
                if not passable and walls:
                    continue
                if cause:
                    causes.add(cause)
                cost = s
            if spot.level and kind_at(battle, here).building != kind_at(battle, to).building:
                continue  # upper floors are left by the stairs, not through the wall
            if kind_at(battle, to).area:
                causes.add(AREA)
            out.append(_Step(Spot(to.x, to.y, spot.level), cost, frozenset(causes), mids, to))
    if kind_at(battle, here).floors:
        rise = float(battle.const("floor_height"))
        top = top_level(battle, here)
        for level in (spot.level - 1, spot.level + 1):
            if 0 <= level <= top:
                # Onto a building's roof through its ceiling: a ceiling with no opening halves (004:L88).
                extra = frozenset({WALL}) if kind_at(battle, here).building and max(level, spot.level) == top else frozenset()
                out.append(_Step(Spot(here.x, here.y, level), rise, extra, None, here))
    return tuple(out)


def _walk(battle: Battle, unit: Unit, zone: set[Cell], top: float, walls: bool) -> dict[tuple[Spot, frozenset[str]], float]:
    """Return the shortest walk in inches to every spot the leader reaches within `top`, per set of halving causes."""
    table = _step_table(battle, unit, walls)
    start = unit.leader
    start_causes: frozenset[str] = frozenset({AREA}) if kind_at(battle, start.cell).area else frozenset()
    best: dict[tuple[Spot, frozenset[str]], float] = {(start, start_causes): 0.0}
    # Entries sort by distance, then spot, then the causes' names in order; the set rides along unsorted.
    heap: list[tuple[float, Spot, tuple[str, ...], frozenset[str]]] = [
        (0.0, start, _named(start_causes), start_causes)]
    joined: dict[tuple[frozenset[str], frozenset[str]], frozenset[str]] = {}
    while heap:
        walked, spot, _order, causes = heapq.heappop(heap)
        if walked > best.get((spot, causes), _INF) + EPSILON:
            continue
        steps = table.get(spot)
        if steps is None:
            steps = table[spot] = _steps_from(battle, unit, spot, walls)
        for step in steps:
            # The standoff (A93): no step into it, and a diagonal needs a corner square outside it.
            if step.mids is not None and zone and (
                    step.at in zone or (step.mids and all(m in zone for m in step.mids))):
                continue
            pair = (causes, step.causes)
            new_causes = joined.get(pair)
            if new_causes is None:
                new_causes = joined[pair] = causes | step.causes
            total = walked + step.cost
            if total > top + EPSILON or total >= best.get((step.to, new_causes), _INF) - EPSILON:
                continue
            best[(step.to, new_causes)] = total
            heapq.heappush(heap, (total, step.to, _named(new_causes), new_causes))
    return best


_INF = float("inf")
_NAMES: dict[frozenset[str], tuple[str, ...]] = {}


def _named(causes: frozenset[str]) -> tuple[str, ...]:
    """Return a set of causes as its sorted names (few sets exist: each is sorted once)."""
    found = _NAMES.get(causes)
    if found is None:
        found = _NAMES[causes] = tuple(sorted(causes))
    return found


def _ends(battle: Battle, unit: Unit, action: Action, best: dict[tuple[Spot, frozenset[str]], float],
          road: frozenset[Cell], halving: bool, taken: set[Spot] | None = None) -> dict[Spot, Reach]:
    """Return the spots an action may end on, from the walks found: free of models and within its allowance."""
    start = unit.leader
    if taken is None:
        taken = _taken(battle, unit)
    limits: dict[tuple[frozenset[str], bool], float] = {}  # few sets of causes: each allowance worked out once
    out: dict[Spot, Reach] = {}
    for (spot, causes), walked in best.items():
        if spot in taken or spot == start:
            continue
        key = (causes if halving else frozenset(), spot.cell in road)
        limit = limits.get(key)
        if limit is None:
            limit = limits[key] = allowance(battle, action, key[0], key[1])
        if walked <= limit + EPSILON:
            current = out.get(spot)
            if current is None or walked < current.walked:
                out[spot] = Reach(spot, walked, causes, limit)
    return out


def _taken(battle: Battle, unit: Unit) -> set[Spot]:
    """Return the spots the other units' models stand on."""
    return {s for u in battle.iter_units() if u is not unit for s in u.spots()}


def _squares(battle: Battle, inches: float) -> int:
    """Return how many squares a walk of `inches` can get from its start (a step costs at least a square's inches)."""
    return int(inches // float(square_size(battle))) + 1


def reachable(battle: Battle, unit: Unit, action: Action, *, walls: bool = True,
              halving: bool = True) -> dict[Spot, Reach]:
    """Return every spot the leader may end on for an action, with how far it walked and why it halved.

    `walls=False` lets the leader over tall walls and `halving=False` lets it walk the whole distance,
    to say which rule keeps it from a spot.
    """
    if walls and halving:
        return reachable_all(battle, unit)[action.key]
    road = region(battle, unit.leader.cell, "road")
    top = allowance(battle, action, frozenset(), bool(road))
    zone = set() if action.assault else _standoff_zone(battle, unit, unit.cell, _squares(battle, top))
    return _ends(battle, unit, action, _walk(battle, unit, zone, top, walls), road, halving)


def reachable_all(battle: Battle, unit: Unit) -> dict[str, dict[Spot, Reach]]:
    """Return every action's reach, by action key in the ruleset's order, as `reachable` gives each.

    The board is walked once for the actions that keep the standoff and once for the assaults, as far as the
    longest of them goes: a walk's shortest distance to a spot does not depend on how far the walk may go on.
    What is found is kept with the battle until anything a walk reads changes (the map, the rules, where any
    model stands), so checking, then applying, then offering the next orders walk once.
    """
    found: dict[str, dict[Spot, Reach]] | None
    reaches = kept(battle, "reach")
    mine = (unit.id, tuple(unit.traits))
    found = reaches.get(mine)
    if found is None:
        found = reaches[mine] = _reach_all(battle, unit)
    return found


def _reach_all(battle: Battle, unit: Unit) -> dict[str, dict[Spot, Reach]]:
    """Work out every action's reach (see `reachable_all`)."""
    actions = actions_of(battle)
    road = region(battle, unit.leader.cell, "road")
    taken = _taken(battle, unit)
    found: dict[str, dict[Spot, Reach]] = {}
    for assault in (False, True):
        group = [a for a in actions.values() if a.assault == assault]
        if not group:
            continue
        top = max(allowance(battle, a, frozenset(), bool(road)) for a in group)
        zone = set() if assault else _standoff_zone(battle, unit, unit.cell, _squares(battle, top))
        best = _walk(battle, unit, zone, top, True)
        for action in group:
            found[action.key] = _ends(battle, unit, action, best, road, True, taken)
    return {key: found[key] for key in actions}


def explain_unreachable(battle: Battle, unit: Unit, action: Action, goal: Spot) -> str:
    """Say, naming the rule, why the leader cannot end its move on a spot."""
    cell = goal.cell
    if not battle.on_map(cell):
        return f"{goal} is off the map."
    if unit.infantry and kind_at(battle, cell).impassable:
        return f"{cell} is impassable terrain: infantry may not enter it at all (004:L129)."
    if goal.level > top_level(battle, cell):
        return f"{cell} has no level {goal.level}; its highest is {top_level(battle, cell)}."
    if any(goal in u.spots() for u in battle.iter_units() if u is not unit):
        return f"{goal} is taken by another unit's model."
    if not action.assault and cell in _standoff_zone(battle, unit):
        return (f"{cell} is within {battle.const('standoff')}\" of an enemy model: only an assault may come "
                f"that close (A93).")
    # Beyond any walk of this action neither a wall nor halving is what keeps the spot away: no walk is asked.
    road = region(battle, unit.cell, "road")
    beyond = unit.cell.distance(cell) > _squares(battle, allowance(battle, action, frozenset(), bool(road)))
    if not beyond and goal in reachable(battle, unit, action, walls=False):
        return (f"a wall taller than {battle.const('tall_wall')}\" is in the way: an infantry leader cannot "
                f"cross it (004:L59).")
    whole = None if beyond else reachable(battle, unit, action, halving=False).get(goal)
    if whole is not None:
        crossed = " and ".join(HALVING_RULES[c] for c in sorted(whole.causes))
        halved = allowance(battle, action, whole.causes, whole.spot.cell in region(battle, unit.cell, "road"))
        return (f"the way there ({whole.walked:.3g}\") goes through {crossed}, which halves the move to "
                f"{halved:g}\" (A90).")
    return (f"it is out of reach for {action.key} ({battle.const(action.constant)}\"): the move halves once for area terrain, "
            f"an obstacle or a wall without an opening (A90), and gains {battle.const('road_bonus')}\" only "
            f"along one connected road (A91).")
