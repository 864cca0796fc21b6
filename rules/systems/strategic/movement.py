"""Movement: allowances per mode and trait, DTV costs, stacking, and the cheapest legal path."""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING

from rules.constants import const_or
from rules.coords import Cell
from rules.systems.strategic.features import feature_at
from rules.systems.strategic.squares import all_squares, state_at
from rules.systems.strategic.terrain import deep_water
from rules.systems.strategic.terrain import effective_dtv as effective_dtv

if TYPE_CHECKING:
    from rules.systems.strategic.board import Battle
    from rules.systems.strategic.units import Unit

MODE_NAMES = {"half": "Half Move", "full": "Full Move", "charge": "Charge", "run": "Run"}
_FAR = 1 << 30
_FAR3 = (_FAR, _FAR, _FAR)


def movement_base(unit: Unit) -> tuple[int, str]:
    """Return the value movement is computed from and where it comes from (AB, Flyer, Hoverer or a Horde's MP)."""
    if unit.flying and unit.flyer:
        return unit.flyer, f"Flyer({unit.flyer})"  # 000:L8: a flying unit moves by its Flyer value
    if unit.hoverer:
        return unit.hoverer, f"Hoverer({unit.hoverer})"
    if unit.is_horde and unit.movement_points:
        return unit.movement_points, f"MP {unit.movement_points}"
    return unit.ab, f"AB {unit.ab}"


def allowance(battle: Battle, unit: Unit, mode: str) -> int:
    """Return the squares (or a Horde's MP) a mode allows: X/2, X, X*1.5, X*2 floored, at least min_move (A03)."""
    base, _ = movement_base(unit)
    raw = {"half": base // 2, "full": base, "charge": (base * 3) // 2, "run": base * 2}[mode]
    return max(int(battle.const("min_move")), raw) if base > 0 else 0


def step_cost(battle: Battle, unit: Unit, cell: Cell) -> int:
    """Return the cost of entering a square: 1 for a character, max(1, DTV) MP for a Horde (A39)."""
    if unit.is_horde:
        return max(int(const_or(battle, "horde_min_step_cost", 1)), effective_dtv(battle, unit, cell))
    return 1  # 1.2: characters are never slowed by difficult terrain, only penalised


def blocker(battle: Battle, unit: Unit, cell: Cell) -> str | None:
    """Return why a unit may not enter (or pass through) a square, or None if it may (000:L9, 001:L18, A13, A58)."""
    return _blocked_by(battle, unit, cell, battle.units_at(cell))


def _blocked_by(battle: Battle, unit: Unit, cell: Cell, others: list[Unit]) -> str | None:
    for other in others:
        if other is unit or not other.alive:
            continue
        enemy = battle.enemies(unit, other)
        if other.is_horde and enemy:
            return f"{cell} holds the enemy Horde {other.name}, and no unit may enter a square held by an enemy Horde"
        if other.is_horde and unit.is_horde:
            return f"{cell} already holds the Horde {other.name}, and two Hordes may not share a square"
        if battle.ruleset.stacking == "p" and enemy and not unit.is_horde and not other.is_horde:
            return f"{cell} holds the enemy {other.name}, and enemy characters block movement"
    return None


class _Steps:
    """What stepping onto each square costs one unit, worked out once per search (squares as y*width+x)."""

    def __init__(self, battle: Battle, unit: Unit) -> None:
        self.battle = battle
        self.unit = unit
        self.width, self.height = battle.width, battle.height
        self.occupants: dict[int, list[Unit]] = {}
        for other in battle.iter_units():
            if other is not unit and other.alive:
                self.occupants.setdefault(self.index(other.cell), []).append(other)
        # Squares with their own state (feature, storm, deep water...) are costed one by one;
        # every other square costs what its terrain costs this unit.
        self.stateful = {self.index(Cell.parse(k)) for k, state in all_squares(battle) if not state.empty}
        self._open: dict[int, bool] = {}
        self._cost: dict[int, tuple[int, int]] = {}
        self._by_terrain: dict[str, tuple[int, int]] = {}

    def index(self, cell: Cell) -> int:
        """Return the square's index."""
        return cell.y * self.width + cell.x

    def cell(self, index: int) -> Cell:
        """Return the square of an index."""
        return Cell(index % self.width, index // self.width)

    def neighbours(self, index: int) -> list[int]:
        """Return the indices of the squares around one, on the map."""
        x, y = index % self.width, index // self.width
        return [
            (y + dy) * self.width + x + dx
            for dy in (-1, 0, 1) for dx in (-1, 0, 1)
            if (dx or dy) and 0 <= x + dx < self.width and 0 <= y + dy < self.height
        ]

    def open(self, index: int) -> bool:
        """Return whether the unit may enter the square."""
        found = self._open.get(index)
        if found is None:
            others = self.occupants.get(index)
            found = not others or _blocked_by(self.battle, self.unit, self.cell(index), others) is None
            self._open[index] = found
        return found

    def cost(self, index: int) -> tuple[int, int]:
        """Return the cost of entering the square and its count of known dangers."""
        found = self._cost.get(index)
        if found is None:
            key = self.battle.terrain[index]
            if index not in self.stateful and key in self._by_terrain:
                found = self._by_terrain[key]
            else:
                cell = self.cell(index)
                found = (step_cost(self.battle, self.unit, cell), hazard_count(self.battle, self.unit, cell))
                if index not in self.stateful:
                    self._by_terrain[key] = found
            self._cost[index] = found
        return found


def hazard_count(battle: Battle, unit: Unit, cell: Cell) -> int:
    """Count the known dangers of entering a square: a Difficult Terrain test, deep water, an enemy minefield."""
    count = 0
    if not unit.is_horde and effective_dtv(battle, unit, cell) > 0:
        count += 1
    if unit.sinks_in_deep_water and not (unit.flying or unit.hovering) and deep_water(battle, cell):
        count += 1
    ftype = feature_at(battle, cell)
    # Hidden traps never steer the path: that would tell the player where they are.
    if ftype is not None and ftype.triggers and not ftype.hidden:
        flies_over = unit.flying and bool(const_or(battle, "minefield_ignores_flying", True))
        if not flies_over and (state_at(battle, cell).feature_side or "").lower() != unit.side.lower():
            count += 1
    return count


# The eight headings in clockwise order, so two headings k apart differ by k times 45 degrees.
_HEADINGS = {(0, -1): 0, (1, -1): 1, (1, 0): 2, (1, 1): 3, (0, 1): 4, (-1, 1): 5, (-1, 0): 6, (-1, -1): 7}


def _heading(here: int, nxt: int, width: int) -> int:
    """Return the heading (0 north, clockwise to 7) of a step between neighbouring squares."""
    return _HEADINGS[((nxt % width) - (here % width), (nxt // width) - (here // width))]


def _turn(before: int, after: int) -> int:
    """Return how sharp a change of heading is, in 45-degree steps (0 at the start of a path)."""
    if before < 0:
        return 0
    k = abs(before - after) % 8
    return min(k, 8 - k)


def find_path(battle: Battle, unit: Unit, goal: Cell, budget: int) -> tuple[list[Cell], int] | None:
    """Return the cheapest legal path (start excluded) and its cost within the budget, or None.

    Among paths of equal cost the one with the fewest known dangers is taken, so a unit does not walk
    through a minefield or a difficult square when an equally short way avoids it; among those, the one
    that turns least (a 90-degree turn counts twice a 45-degree one), so a unit walks straight rather
    than zigzagging.
    """
    cheapest = path_cost(battle, unit, goal, budget)
    if cheapest is None:
        return None
    return straightest_path(battle, unit, goal, cheapest), cheapest


def path_cost(battle: Battle, unit: Unit, goal: Cell, budget: int) -> int | None:
    """Return what the cheapest legal path to the goal costs within the budget, or None (no path is built)."""
    if goal == unit.cell:
        return 0
    return _cheapest(_Steps(battle, unit), unit.cell, goal, budget, least_step(battle, unit))


def straightest_path(battle: Battle, unit: Unit, goal: Cell, cost: int) -> list[Cell]:
    """Return the path (start excluded) `find_path` takes to a goal known to be reachable at `cost`."""
    if goal == unit.cell:
        return []
    return _straightest(_Steps(battle, unit), unit.cell, goal, cost, least_step(battle, unit))


def _cheapest(steps: _Steps, origin: Cell, goal: Cell, budget: int, least: int) -> int | None:
    """Return the cost of the cheapest legal path within the budget, or None when there is none.

    Searched toward the goal: every step costs at least `least` and brings the goal at most one square nearer,
    so `least` times the squares left never overstates what is left to pay, and the first time the goal is
    taken from the heap its cost is the cheapest. Between equal estimates the farthest walked goes first.
    """
    start, target = steps.index(origin), steps.index(goal)
    width, gx, gy = steps.width, goal.x, goal.y
    best: dict[int, tuple[int, int]] = {start: (0, 0)}
    heap: list[tuple[int, int, int, int]] = [(least * origin.distance(goal), 0, 0, start)]
    while heap:
        _f, back, risk, here = heapq.heappop(heap)
        cost = -back
        if (cost, risk) > best[here]:
            continue
        if here == target:
            return cost
        for nxt in steps.neighbours(here):
            if not steps.open(nxt):
                continue
            step, danger = steps.cost(nxt)
            key = (cost + step, risk + danger)
            left = least * max(abs(nxt % width - gx), abs(nxt // width - gy))
            if key[0] + left > budget or key >= best.get(nxt, (_FAR, _FAR)):
                continue
            best[nxt] = key
            heapq.heappush(heap, (key[0] + left, -key[0], key[1], nxt))
    return None


def least_step(battle: Battle, unit: Unit) -> int:
    """Return the least any step can cost the unit (a Horde's floor is a GM-overridable constant)."""
    if not unit.is_horde:
        return 1
    return max(0, min(1, int(const_or(battle, "horde_min_step_cost", 1))))


def _straightest(steps: _Steps, origin: Cell, goal: Cell, cost_bound: int, least: int) -> list[Cell]:
    """Return the path of least (cost, dangers, turning) to a goal known to be reachable at cost_bound."""
    start, target = steps.index(origin), steps.index(goal)
    # A state is a square and the heading that entered it (-1 at the start), so turns can be counted;
    # A* on the cost (every step costs at least `least`) keeps the search to squares on a cheapest way.
    best: dict[tuple[int, int], tuple[int, int, int]] = {(start, -1): (0, 0, 0)}
    came: dict[tuple[int, int], tuple[int, int]] = {}
    heap: list[tuple[int, int, int, int, int, int, int]] = [(origin.distance(goal) * least, 0, 0, 0, start, -1, 0)]
    while heap:
        _f, risk, turns, _h, here, heading, cost = heapq.heappop(heap)
        if (cost, risk, turns) > best[(here, heading)]:
            continue
        if here == target:
            state = (here, heading)
            path = [here]
            while state in came:
                state = came[state]
                path.append(state[0])
            return [steps.cell(i) for i in reversed(path[:-1])]
        for nxt in steps.neighbours(here):
            if not steps.open(nxt):
                continue
            step, danger = steps.cost(nxt)
            way = _heading(here, nxt, steps.width)
            key = (cost + step, risk + danger, turns + _turn(heading, way))
            left = steps.cell(nxt).distance(goal) * least
            if key[0] + left > cost_bound or key >= best.get((nxt, way), _FAR3):
                continue
            best[(nxt, way)] = key
            came[(nxt, way)] = (here, heading)
            heapq.heappush(heap, (key[0] + left, key[1], key[2], left, nxt, way, key[0]))
    raise AssertionError(f"no path to {goal} at cost {cost_bound}, which the cheapest search found")


def reachable(battle: Battle, unit: Unit, budget: int) -> dict[Cell, int]:
    """Return every square the unit can end its move on within the budget, with its cost."""
    steps = _Steps(battle, unit)
    start = steps.index(unit.cell)
    best: dict[int, int] = {start: 0}
    heap: list[tuple[int, int]] = [(0, start)]
    while heap:
        cost, here = heapq.heappop(heap)
        if cost > best[here]:
            continue
        for nxt in steps.neighbours(here):
            if not steps.open(nxt):
                continue
            new_cost = cost + steps.cost(nxt)[0]
            if new_cost <= budget and new_cost < best.get(nxt, _FAR):
                best[nxt] = new_cost
                heapq.heappush(heap, (new_cost, nxt))
    del best[start]
    return {steps.cell(i): c for i, c in best.items()}
