"""Movement: allowances per mode and trait, DTV costs, stacking, and the cheapest legal path."""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING

from rules.coords import Cell

if TYPE_CHECKING:
    from rules.battle import Battle
    from rules.units import Unit

MODE_NAMES = {"half": "Half Move", "full": "Full Move", "charge": "Charge", "run": "Run"}


def movement_base(unit: Unit) -> tuple[int, str]:
    """Return the value movement is computed from and where it comes from (AB, Flyer or Hoverer)."""
    if unit.flying and unit.flyer:
        return unit.flyer, f"Flyer({unit.flyer})"
    if unit.hoverer:
        return unit.hoverer, f"Hoverer({unit.hoverer})"
    return unit.ab, f"AB {unit.ab}"


def allowance(battle: Battle, unit: Unit, mode: str) -> int:
    """Return the squares (or a Horde's MP) a mode allows: AB/2, AB, AB*1.5, AB*2 floored, min 1."""
    base, _ = movement_base(unit)
    raw = {"half": base // 2, "full": base, "charge": (base * 3) // 2, "run": base * 2}[mode]
    floor = int(battle.const("min_move"))
    return max(floor, raw) if base > 0 else 0


def effective_dtv(battle: Battle, unit: Unit | None, cell: Cell) -> int:
    """Return the DTV a unit meets on a square after storms, features and its traits."""
    terrain = battle.terrain_at(cell)
    state = battle.square_state(cell)
    if unit is not None and unit.flying:
        return 0
    dtv = terrain.dtv
    if unit is not None:
        if terrain.hover_ignores_dtv and unit.hoverer:
            dtv = 0
        if terrain.aquatic_ignores and (unit.aquatic or unit.amphibious):
            dtv = 0
    feature_key = state.get("feature")
    if feature_key:
        fdtv = battle.ruleset.features[feature_key].dtv if feature_key in battle.ruleset.features else 0
        if fdtv and dtv:
            dtv = max(fdtv, dtv) + 1
        elif fdtv:
            dtv = fdtv
        if battle.ruleset.features.get(feature_key) and battle.ruleset.features[feature_key].bridge:
            dtv = 0
    if state.get("storm"):
        dtv = dtv + 1 if dtv else int(battle.const("storm_dtv"))
    return dtv


def step_cost(battle: Battle, unit: Unit, cell: Cell) -> int:
    """Return the cost of entering a square: 1 for a character, max(1, DTV) MP for a Horde (A39)."""
    if unit.is_horde:
        return max(1, effective_dtv(battle, unit, cell))
    return 1


def blocker(battle: Battle, unit: Unit, cell: Cell) -> str | None:
    """Return why a unit may not enter a square, or None if it may."""
    for other in battle.units_at(cell):
        if other is unit:
            continue
        enemy = battle.enemies(unit, other)
        if other.is_horde and enemy:
            return f"{cell} holds the enemy Horde {other.name}, and no unit may enter a square held by an enemy Horde"
        if other.is_horde and unit.is_horde:
            return f"{cell} already holds the Horde {other.name}, and two Hordes may not share a square"
        if battle.ruleset.stacking == "p" and enemy and not unit.is_horde and not other.is_horde:
            return f"{cell} holds the enemy {other.name}, and enemy characters block movement"
    return None


def find_path(battle: Battle, unit: Unit, goal: Cell, budget: int) -> tuple[list[Cell], int] | None:
    """Return the cheapest legal path (start excluded) and its cost within the budget, or None.

    Among paths of equal cost the one with the fewest diagonal steps wins, so paths look straight.
    """
    start = unit.cell
    if goal == start:
        return [], 0
    best: dict[Cell, tuple[int, int]] = {start: (0, 0)}
    came: dict[Cell, Cell] = {}
    heap: list[tuple[int, int, int, int, int]] = [(0, 0, start.distance(goal), start.x, start.y)]
    while heap:
        cost, diagonals, _h, x, y = heapq.heappop(heap)
        here = Cell(x, y)
        if (cost, diagonals) > best.get(here, (1 << 30, 0)):
            continue
        if here == goal:
            path = [here]
            while path[-1] in came:
                path.append(came[path[-1]])
            path.reverse()
            return path[1:], cost
        for nxt in here.neighbours():
            if not battle.on_map(nxt) or blocker(battle, unit, nxt) is not None:
                continue
            new = (cost + step_cost(battle, unit, nxt), diagonals + (nxt.x != x and nxt.y != y))
            if new[0] > budget or new >= best.get(nxt, (1 << 30, 0)):
                continue
            best[nxt] = new
            came[nxt] = here
            heapq.heappush(heap, (new[0], new[1], nxt.distance(goal), nxt.x, nxt.y))
    return None


def reachable(battle: Battle, unit: Unit, budget: int) -> dict[Cell, int]:
    """Return every square the unit can end its move on within the budget, with its cost."""
    start = unit.cell
    best: dict[Cell, int] = {start: 0}
    heap: list[tuple[int, int, int]] = [(0, start.x, start.y)]
    while heap:
        cost, x, y = heapq.heappop(heap)
        here = Cell(x, y)
        if cost > best[here]:
            continue
        for nxt in here.neighbours():
            if not battle.on_map(nxt) or blocker(battle, unit, nxt) is not None:
                continue
            new_cost = cost + step_cost(battle, unit, nxt)
            if new_cost <= budget and new_cost < best.get(nxt, 1 << 30):
                best[nxt] = new_cost
                heapq.heappush(heap, (new_cost, nxt.x, nxt.y))
    del best[start]
    return best
