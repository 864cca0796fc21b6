"""How far a unit's leader may move and where: halving (A90), the road bonus (A91), walls and standoff."""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from math import sqrt

from rules.coords import Cell
from rules.errors import IllegalOrderError
from rules.scale import square_size
from rules.systems.m42.board import Battle, kind_at, obstacle, region, top_level
from rules.systems.m42.geometry import closer_than
from rules.systems.m42.kinds import Action, action_key, actions_of
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


def _standoff_zone(battle: Battle, unit: Unit) -> set[Cell]:
    """Return the squares closer than the standoff to any enemy model (A93)."""
    limit, s = int(battle.const("standoff")), square_size(battle)
    zone: set[Cell] = set()
    if limit <= 0:
        return zone
    span = int(limit // s) + 2
    for other in battle.iter_units():
        if not battle.enemies(unit, other):
            continue
        for spot in other.spots():
            for y in range(spot.y - span, spot.y + span + 1):
                for x in range(spot.x - span, spot.x + span + 1):
                    c = Cell(x, y)
                    if battle.on_map(c) and closer_than(c, spot.cell, limit, s):
                        zone.add(c)
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


def _steps(battle: Battle, unit: Unit, spot: Spot, zone: set[Cell], walls: bool) -> list[tuple[Spot, float, set[str]]]:
    """Return the single steps from a spot: its cost in inches and the halving causes it adds."""
    # Float steps are safe at the limits: a path with a diagonal is s * (a + b * sqrt(2)), never a
    # whole or fractional number of inches, and straight paths of dyadic squares add up exactly.
    s = float(square_size(battle))
    here = spot.cell
    out: list[tuple[Spot, float, set[str]]] = []
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if not dx and not dy:
                continue
            to = Cell(here.x + dx, here.y + dy)
            if not _enterable(battle, unit, to, spot.level, zone):
                continue
            causes: set[str] = set()
            if dx and dy:
                # A diagonal step slips past a corner only where one of its two L-shaped routes is clear.
                ok = False
                for mid in (Cell(here.x + dx, here.y), Cell(here.x, here.y + dy)):
                    if not _enterable(battle, unit, mid, spot.level, zone):
                        continue
                    first, second = _edge_step(battle, unit, here, mid), _edge_step(battle, unit, mid, to)
                    if first == (True, None) and second == (True, None):
                        ok = True
                if not ok:
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
            out.append((Spot(to.x, to.y, spot.level), cost, causes))
    if kind_at(battle, here).floors:
        rise = float(battle.const("floor_height"))
        top = top_level(battle, here)
        for level in (spot.level - 1, spot.level + 1):
            if 0 <= level <= top:
                # Onto a building's roof through its ceiling: a ceiling with no opening halves (004:L88).
                extra = {WALL} if kind_at(battle, here).building and max(level, spot.level) == top else set()
                out.append((Spot(here.x, here.y, level), rise, extra))
    return out


def reachable(battle: Battle, unit: Unit, action: Action, *, walls: bool = True,
              halving: bool = True) -> dict[Spot, Reach]:
    """Return every spot the leader may end on for an action, with how far it walked and why it halved.

    `walls=False` lets the leader over tall walls and `halving=False` lets it walk the whole distance,
    to say which rule keeps it from a spot.
    """
    zone = set() if action.assault else _standoff_zone(battle, unit)
    start = unit.leader
    start_causes = frozenset({AREA}) if kind_at(battle, start.cell).area else frozenset()
    road = region(battle, start.cell, "road")
    top = allowance(battle, action, frozenset(), bool(road))
    best: dict[tuple[Spot, frozenset[str]], float] = {(start, start_causes): 0.0}
    heap: list[tuple[float, Spot, tuple[str, ...]]] = [(0.0, start, tuple(sorted(start_causes)))]
    while heap:
        walked, spot, raw = heapq.heappop(heap)
        causes = frozenset(raw)
        if walked > best.get((spot, causes), float("inf")) + EPSILON:
            continue
        for to, cost, more in _steps(battle, unit, spot, zone, walls):
            new_causes = causes | more
            total = walked + cost
            if total > top + EPSILON or total >= best.get((to, new_causes), float("inf")) - EPSILON:
                continue
            best[(to, new_causes)] = total
            heapq.heappush(heap, (total, to, tuple(sorted(new_causes))))
    taken = {s for u in battle.iter_units() if u is not unit for s in u.spots()}
    out: dict[Spot, Reach] = {}
    for (spot, causes), walked in best.items():
        if spot in taken or spot == start:
            continue
        limit = allowance(battle, action, causes if halving else frozenset(), spot.cell in road)
        if walked <= limit + EPSILON:
            current = out.get(spot)
            if current is None or walked < current.walked:
                out[spot] = Reach(spot, walked, causes, limit)
    return out


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
    if goal in reachable(battle, unit, action, walls=False):
        return (f"a wall taller than {battle.const('tall_wall')}\" is in the way: an infantry leader cannot "
                f"cross it (004:L59).")
    whole = reachable(battle, unit, action, halving=False).get(goal)
    if whole is not None:
        crossed = " and ".join(HALVING_RULES[c] for c in sorted(whole.causes))
        halved = allowance(battle, action, whole.causes, whole.spot.cell in region(battle, unit.cell, "road"))
        return (f"the way there ({whole.walked:.3g}\") goes through {crossed}, which halves the move to "
                f"{halved:g}\" (A90).")
    return (f"it is out of reach for {action.key} ({battle.const(action.constant)}\"): the move halves once for area terrain, "
            f"an obstacle or a wall without an opening (A90), and gains {battle.const('road_bonus')}\" only "
            f"along one connected road (A91).")
