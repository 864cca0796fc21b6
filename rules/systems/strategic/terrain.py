"""What a square gives without any attack: DTV, elevation, stealth, cover AP and hit penalty."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.constants import const_or
from rules.systems.strategic.features import feature_at
from rules.systems.strategic.squares import state_at

if TYPE_CHECKING:
    from rules.coords import Cell
    from rules.modifiers import Breakdown
    from rules.systems.strategic.board import Battle
    from rules.systems.strategic.units import Unit

# Terrains that stand over water, so a deep-water mark under them matters once they melt or fall (A31, A33).
OVER_WATER = ("ice", "bridge")
# The tests a Difficult Terrain penalty applies to (000:L39, 001:L42).
DTV_TESTS = ("ag", "ws", "parry")


def combine(terrain_value: int, feature_value: int, bonus: int) -> int:
    """Combine a terrain's and a feature's value: the highest plus a bonus when both are present (A22, A23)."""
    if terrain_value > 0 and feature_value > 0:
        return max(terrain_value, feature_value) + bonus
    return max(terrain_value, feature_value, 0)


def effective_dtv(battle: Battle, unit: Unit | None, cell: Cell) -> int:
    """Return the DTV a unit meets on a square after its traits, features and storms (A23, A42, A43, A53)."""
    terrain = battle.terrain_at(cell)
    ftype = feature_at(battle, cell)
    flying = unit is not None and unit.flying
    ground = 0 if flying else terrain.dtv  # A43: flyers ignore ground DTV
    if ftype is not None and ftype.bridge:
        ground = 0  # 1.8.1: a standing bridge uses the Bridge row, whose DTV is blank
    if unit is not None and terrain.hover_ignores_dtv and unit.hovering:
        ground = 0  # A43: Hoverers ignore DTV on Ice, Shallows and Water only
    if unit is not None and terrain.aquatic_ignores and (unit.aquatic or unit.amphibious):
        ground = 0  # A42: Aquatic and Amphibious units in Water
    feature = 0 if flying or ftype is None else ftype.dtv
    dtv = combine(ground, feature, int(const_or(battle, "dtv_combine_bonus", 1)))
    storm = const_or(battle, "storm_dtv", None)
    if state_at(battle, cell).storm and storm is not None:
        # A53: a storm adds to difficult ground, or brings its own DTV; it affects fliers too (001:L62).
        dtv = dtv + int(const_or(battle, "storm_dtv_bonus", 1)) if dtv else int(storm)
    return dtv


def dtv_penalty(battle: Battle, unit: Unit, cell: Cell | None = None) -> int:
    """Return the Difficult Terrain modifier on a unit's Agility, Parry and WS tests (a Horde pays MP instead)."""
    if unit.is_horde:
        return 0
    dtv = effective_dtv(battle, unit, cell if cell is not None else unit.cell)
    return -int(battle.const("dtv_test_penalty")) * dtv


def add_dtv_line(battle: Battle, bd: Breakdown, unit: Unit, stat: str, cell: Cell | None = None,
                 source: str = "DTV") -> None:
    """Add the Difficult Terrain line to a unit's test when the test is one DTV penalises (000:L39, 001:L42)."""
    if stat not in DTV_TESTS or unit.is_horde:
        return
    where = cell if cell is not None else unit.cell
    bd.add(f"Difficult terrain (DTV {effective_dtv(battle, unit, where)})", dtv_penalty(battle, unit, where), source)


def elevation(battle: Battle, unit: Unit | None, cell: Cell) -> str | None:
    """Return the elevation a unit stands at (low, middle, high), or None for a flyer, which uses altitude (A19)."""
    if unit is not None and unit.flying:
        return None
    terrain = battle.terrain_at(cell)
    if unit is not None and terrain.aquatic_ignores and (unit.aquatic or unit.amphibious):
        return "middle"  # A42: no Low-ground disadvantage in water
    return terrain.elevation  # the table's "Normal" is stored as middle (A19)


def is_smoky(battle: Battle, cell: Cell) -> bool:
    """Return whether a square holds smoke: a smoke cloud, or a burning forest (A36, A37)."""
    state = state_at(battle, cell)
    return bool(state.smoke) or (bool(state.fire) and bool(const_or(battle, "burning_makes_smoke", True)))


def stealth(battle: Battle, cell: Cell, unit: Unit | None = None) -> int | None:
    """Return the Stealth bonus hiding on a square gives, or None where no one can hide (A41, A37, A43)."""
    terrain = battle.terrain_at(cell)
    options: list[int] = []
    if terrain.stealth is not None and not (unit is not None and unit.flying):
        options.append(terrain.stealth)
    if is_smoky(battle, cell):
        options.append(0)  # A37: smoke allows hiding at +0
    if state_at(battle, cell).storm and const_or(battle, "storm_allows_stealth", False):
        options.append(0)  # A41: a Storm is Natural Cover, valid for Stealth
    # A25: no feature has a Stealth value, so a feature never changes this.
    return max(options) if options else None


def cover_ap(battle: Battle, cell: Cell, unit: Unit | None = None) -> tuple[int, int, int]:
    """Return a square's terrain AP, current feature Cover AP and their combination (A22); flyers get none."""
    if unit is not None and unit.flying:
        return 0, 0, 0
    terrain = max(0, battle.terrain_at(cell).ap)
    ftype = feature_at(battle, cell)
    feature = 0
    if ftype is not None and ftype.cover_ap:
        worn = state_at(battle, cell).feature_ap
        feature = max(0, ftype.cover_ap if worn is None else worn)
    return terrain, feature, combine(terrain, feature, int(const_or(battle, "cover_combine_bonus", 1)))


def line_penalties(battle: Battle, cell: Cell) -> tuple[int, int]:
    """Return what a square on a line of fire costs a shot: its terrain Hit Penalty and its smoke (A20, A37)."""
    smoke = int(battle.const("smoke_hit_penalty")) if is_smoky(battle, cell) else 0
    return battle.terrain_at(cell).hit_penalty, smoke


def feature_hit_penalty(battle: Battle, cell: Cell, unit: Unit | None = None) -> int:
    """Return the Hit Penalty of the feature a ranged target stands on (000:L91, A24); flyers stand on none."""
    ftype = feature_at(battle, cell)
    if ftype is None or (unit is not None and unit.flying):
        return 0
    return ftype.hit_penalty


def hit_penalty(battle: Battle, cell: Cell, *, target_here: bool) -> int:
    """Return a square's Hit Penalty: terrain and smoke, plus its feature's when the target stands on it (A24, A37)."""
    terrain, smoke = line_penalties(battle, cell)
    # A24: penalties add; a feature counts only under the target
    return terrain + smoke + (feature_hit_penalty(battle, cell) if target_here else 0)


def hit_bonus(battle: Battle, cell: Cell, unit: Unit | None = None) -> int:
    """Return the Hit Bonus every attack gets against a unit on this square (000:L46, A42, A43)."""
    if unit is not None and unit.flying:
        return 0
    terrain = battle.terrain_at(cell)
    value = terrain.hit_bonus
    if unit is not None and terrain.aquatic_ignores and (unit.aquatic or unit.amphibious):
        value = 0
    ftype = feature_at(battle, cell)
    return value + (ftype.hit_bonus if ftype is not None else 0)


def deep_water(battle: Battle, cell: Cell) -> bool:
    """Return whether a square is deep water now (the mark only matters on water, A35)."""
    return state_at(battle, cell).deep and battle.terrain_at(cell).water


def square_info(battle: Battle, cell: Cell, unit: Unit | None = None) -> dict[str, Any]:
    """Describe a square for the front end: terrain, feature, DTV, cover, elevation, stealth and hit penalty."""
    terrain = battle.terrain_at(cell)
    state = state_at(battle, cell)
    t_ap, f_ap, ap = cover_ap(battle, cell, unit)
    return {
        "cell": str(cell), "terrain": terrain.key, "terrain_name": terrain.name,
        "dtv": effective_dtv(battle, unit, cell), "cover_ap": {"terrain": t_ap, "feature": f_ap, "combined": ap},
        "elevation": elevation(battle, unit, cell), "stealth": stealth(battle, cell, unit),
        "hit_penalty": hit_penalty(battle, cell, target_here=True), "hit_bonus": hit_bonus(battle, cell, unit),
        "smoke": is_smoky(battle, cell), "storm": state.storm, "deep": deep_water(battle, cell),
    }
