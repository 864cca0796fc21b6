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


def _standoff_zone(battle: Battle, unit: Unit) -> set[Cell]:
    """Return the squares closer than the standoff to any enemy model (A93)."""
    h = battle.height
    return {Cell(n // h, n % h) for n in _zone(battle, unit, None, 0)}


def _zone(battle: Battle, unit: Unit, around: Cell | None, radius: int) -> set[int]:
    """Return the squares closer than the standoff to any enemy model (A93), as the numbers a walk knows squares
    by (x * height + y).

    With `around`, only the zone within `radius` squares of it (as far as a walk from there can go).
    """
    limit, s = int(battle.const("standoff")), square_size(battle)
    zone: set[int] = set()
    if limit <= 0:
        return zone
    offsets = offsets_closer_than(limit, s)
    span = int(limit // s) + 2
    w, h = battle.width, battle.height
    for other in battle.iter_units():
        if not battle.enemies(unit, other):
            continue
        for spot in other.spots():
            if around is not None and max(abs(spot.x - around.x), abs(spot.y - around.y)) > radius + span:
                continue
            for dx, dy in offsets:
                x, y = spot.x + dx, spot.y + dy
                if 0 <= x < w and 0 <= y < h:
                    zone.add(x * h + y)
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
# A compiled step: the number of the spot it ends on, its cost, the causes it brings (as bits), the numbers of
# its corner squares (None: a step between floors) and the number of the square it ends on.
_Compiled = tuple[int, float, int, tuple[int, ...] | None, int]
_STEPS: dict[tuple[Any, ...], dict[int, tuple[_Compiled, ...]]] = {}
_STEPS_LOCK = threading.Lock()


def _step_table(battle: Battle, unit: Unit, walls: bool) -> dict[int, tuple[_Compiled, ...]]:
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


# Inside a walk a square is the number x * height + y, a spot (x * height + y) << LEVEL_BITS | level, and a spot
# with a set of halving causes (spot << 3) | rank, the rank being the causes' place among every set of them
# ordered by their sorted names. Numbers hash and compare at once, and ordered this way they order as the spot
# (x, y, level), then the causes' names did: the walk visits the board in exactly the same order.
LEVEL_BITS = 16
_BITS = {AREA: 1, OBSTACLE: 2, WALL: 4}
_SETS = [frozenset(c for c, bit in _BITS.items() if mask & bit) for mask in range(8)]
_BY_NAMES = sorted(range(8), key=lambda mask: tuple(sorted(_SETS[mask])))
_RANK = [_BY_NAMES.index(mask) for mask in range(8)]  # by bits
_CAUSES = [_SETS[mask] for mask in _BY_NAMES]  # by rank
_JOIN = tuple(_RANK[_BY_NAMES[rank] | bits] for rank in range(8) for bits in range(8))  # [rank * 8 + bits]
# The ranks of the sets made of some but not all of a set's causes, by the set's rank.
_FEWER = tuple(tuple(_RANK[sub] for sub in range(8) if sub != mask and sub & mask == sub) for mask in _BY_NAMES)


def _bits(causes: frozenset[str]) -> int:
    """Return a set of halving causes as bits."""
    return sum(_BITS[c] for c in causes)


def _number(battle: Battle, spot: Spot) -> int:
    """Return the number a walk knows a spot by."""
    return (spot.x * battle.height + spot.y) << LEVEL_BITS | spot.level


def _spot(battle: Battle, number: int) -> Spot:
    """Return the spot a walk's number stands for."""
    square = number >> LEVEL_BITS
    return Spot(square // battle.height, square % battle.height, number & ((1 << LEVEL_BITS) - 1))


def _compiled(battle: Battle, unit: Unit, number: int, walls: bool) -> tuple[_Compiled, ...]:
    """Return the single steps from a numbered spot, as numbers (see `_steps_from`)."""
    h = battle.height
    return tuple((_number(battle, step.to), step.cost, _bits(step.causes),
                  None if step.mids is None else tuple(m.x * h + m.y for m in step.mids), step.at.x * h + step.at.y)
                 for step in _steps_from(battle, unit, _spot(battle, number), walls))


def _walk(battle: Battle, unit: Unit, zone: set[int], caps: tuple[float, ...], walls: bool,
          goal: Spot | None = None) -> dict[int, float]:
    """Return the shortest walk in inches to every spot the leader reaches, per set of halving causes, as far as
    an action could end a walk halved by those causes (`caps`, by the causes' rank; see `_caps`).

    Spots with their causes are numbered (see LEVEL_BITS), and so are the squares of the standoff `zone`. With a
    `goal`, the walk goes on only from spots a way to the goal could pass: the walks found to the goal are the
    same, and the other spots are left partly walked.
    """
    table = _step_table(battle, unit, walls)
    start = unit.leader
    first = _number(battle, start) << 3 | _RANK[_bits(frozenset({AREA}) if kind_at(battle, start.cell).area else frozenset())]
    best: dict[int, float] = {first: 0.0}
    # Entries sort by distance, then spot, then the causes' names in order, as their numbers do.
    heap: list[tuple[float, int]] = [(0.0, first)]
    limits = tuple(cap + EPSILON for cap in caps)
    join, pop, push, get = _JOIN, heapq.heappop, heapq.heappush, best.get
    h = battle.height
    straight = float(square_size(battle))
    diagonal = straight * sqrt(2)  # as a diagonal step costs (`_steps_from`)
    # No way is shorter than straight and diagonal steps over open ground; the margin, far above any rounding of
    # a sum of steps, keeps every spot a way to the goal passes.
    beyond = tuple(cap + _GOAL_MARGIN for cap in caps)
    gx, gy = (goal.x, goal.y) if goal is not None else (0, 0)
    while heap:
        walked, state = pop(heap)
        if walked > get(state, _INF) + EPSILON:
            continue
        here = state >> 3
        # A spot already walked to shorter with fewer causes leads everywhere shorter, halved no more: nothing
        # found on from here could be the way an action takes (the margin keeps near-equal walks apart).
        fewer = _FEWER[state & 7]
        if fewer and any(get(here << 3 | rank, _INF) < walked - _SHORTER for rank in fewer):
            continue
        if goal is not None:
            dx, dy = abs((here >> LEVEL_BITS) // h - gx), abs((here >> LEVEL_BITS) % h - gy)
            if walked + straight * abs(dx - dy) + diagonal * min(dx, dy) > beyond[state & 7]:
                continue
        steps = table.get(here)
        if steps is None:
            steps = table[here] = _compiled(battle, unit, here, walls)
        row = (state & 7) << 3
        for to, cost, bits, mids, at in steps:
            # The standoff (A93): no step into it, and a diagonal needs a corner square outside it.
            if mids is not None and zone and (at in zone or (mids and all(m in zone for m in mids))):
                continue
            total = walked + cost
            rank = join[row | bits]
            if total > limits[rank]:
                continue  # no action ends a walk this long with these causes, nor one with more causes
            key = to << 3 | rank
            if total >= get(key, _INF) - EPSILON:
                continue
            best[key] = total
            push(heap, (total, key))
    return best


_INF = float("inf")
_GOAL_MARGIN = 1e-6
_SHORTER = 1e-6


def _ends(battle: Battle, unit: Unit, actions: list[Action], best: dict[int, float], road: frozenset[Cell],
          halving: bool, taken: set[Spot] | None = None) -> dict[str, dict[Spot, Reach]]:
    """Return the spots each action may end on, from the walks found: free of models and within its allowance.

    Actions of the same distance end on the same spots: their reach is worked out once and shared (a reach is
    only read, never changed).
    """
    start = _number(battle, unit.leader)
    if taken is None:
        taken = _taken(battle, unit)
    closed = {_number(battle, p) for p in taken}
    closed.add(start)
    h = battle.height
    on_road = {c.x * h + c.y for c in road}
    # Each walk found once: its spot, its causes (none when halving is not asked), its length, and its road.
    plain = _RANK[0]
    found = [(state >> 3, state & 7 if halving else plain, state & 7, walked, (state >> 3 >> LEVEL_BITS) in on_road)
             for state, walked in best.items() if state >> 3 not in closed]
    spots: dict[int, Spot] = {}
    by_distance: dict[int, dict[Spot, Reach]] = {}
    out: dict[str, dict[Spot, Reach]] = {}
    for action in actions:
        base = int(battle.const(action.constant))
        if base not in by_distance:
            limits: dict[tuple[int, bool], float] = {}  # few sets of causes: each allowance worked out once
            chosen: dict[int, tuple[float, int, float]] = {}
            for number, counted, rank, walked, road_here in found:
                limit = limits.get((counted, road_here))
                if limit is None:
                    limit = limits[(counted, road_here)] = allowance(battle, action, _CAUSES[counted], road_here)
                if walked <= limit + EPSILON:
                    current = chosen.get(number)
                    if current is None or walked < current[0]:
                        chosen[number] = (walked, rank, limit)
            reaches: dict[Spot, Reach] = {}
            for number, (walked, rank, limit) in chosen.items():
                spot = spots.get(number)
                if spot is None:
                    spot = spots[number] = _spot(battle, number)
                reaches[spot] = Reach(spot, walked, _CAUSES[rank], limit)
            by_distance[base] = reaches
        out[action.key] = by_distance[base]  # one reach, read by each action of that distance
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
    caps = _caps(battle, [action], bool(road), halving)
    zone = set() if action.assault else _zone(battle, unit, unit.cell, _squares(battle, max(caps)))
    return _ends(battle, unit, [action], _walk(battle, unit, zone, caps, walls), road, halving)[action.key]


def _caps(battle: Battle, actions: list[Action], road: bool, halving: bool) -> tuple[float, ...]:
    """Return, by the rank of each set of halving causes, the longest walk with those causes any of the actions
    may end (the whole distance for every set, without halving)."""
    if not halving:
        return (max(allowance(battle, a, frozenset(), road) for a in actions),) * 8
    return tuple(max(allowance(battle, a, causes, road) for a in actions) for causes in _CAUSES)


def reach_to(battle: Battle, unit: Unit, action: Action, goal: Spot) -> Reach | None:
    """Return how the leader reaches one spot for an action, or None if it cannot end its move there.

    The same as `reachable(...).get(goal)`. When the battle's reaches are not worked out yet, the walk goes only
    where a way to the spot could lead, which judges one order without walking the whole board.
    """
    reaches = kept(battle, "reach").get((unit.id, tuple(unit.traits)))
    if reaches is not None:
        found: Reach | None = reaches[action.key].get(goal)
        return found
    road = region(battle, unit.leader.cell, "road")
    caps = _caps(battle, [action], bool(road), True)
    zone = set() if action.assault else _zone(battle, unit, unit.cell, _squares(battle, max(caps)))
    there = _number(battle, goal)
    best = {state: walked for state, walked in _walk(battle, unit, zone, caps, True, goal).items() if state >> 3 == there}
    return _ends(battle, unit, [action], best, road, True)[action.key].get(goal)


def reachable_all(battle: Battle, unit: Unit) -> dict[str, dict[Spot, Reach]]:
    """Return every action's reach, by action key in the ruleset's order, as `reachable` gives each.

    The board is walked once for the actions that keep the standoff and once for the assaults, as far as the
    longest of them could end a walk with its halving causes: a walk's shortest distance to a spot does not
    depend on how far the walk may go on. What is found is kept with the battle until anything a walk reads
    changes (the map, the rules, where any model stands), so checking, then applying, then offering the next
    orders walk once.
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
        caps = _caps(battle, group, bool(road), True)
        zone = set() if assault else _zone(battle, unit, unit.cell, _squares(battle, max(caps)))
        found.update(_ends(battle, unit, group, _walk(battle, unit, zone, caps, True), road, True, taken))
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
