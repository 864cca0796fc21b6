"""Where a unit's models may stand around its leader: the Command Radius rules of RULES.md 5.2."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from math import hypot

from rules.coords import Cell
from rules.errors import IllegalOrderError
from rules.scale import square_size
from rules.systems.m42.board import (
    Battle,
    Opening,
    kind_at,
    on_road,
    opening_models,
    openings,
    region,
    top_level,
)
from rules.systems.m42.geometry import (
    Inches,
    edges_crossed,
    fully_within,
    gap_within,
    offsets_closer_than,
    reach,
    segments_meet,
    squares_crossed,
)
from rules.systems.m42.memo import kept
from rules.systems.m42.units import Spot, Unit

MAX_LISTED = 40
ORIGIN = Cell(0, 0)


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a model may stand on a spot: the limit in inches that applied, or the rule it breaks."""

    ok: bool
    limit: Inches
    rule: str


def _refuse(rule: str) -> Verdict:
    return Verdict(False, 0, rule)


Box = tuple[int, int, int, int]  # the squares a unit's models span: least x and y, greatest x and y
NO_BOX: Box = (0, 0, -1, -1)


Line = tuple[Cell, Cell, int, int, int, int]  # two enemy models' squares and the box their segment spans


@dataclass(frozen=True, slots=True)
class Surroundings:
    """What the other units put around one unit, worked out once for every spot judged against one board.

    The other units count in the order they were added: `holders` maps each spot another unit's model holds
    to that unit's place in the order and its name, `close` each square closer than the standoff to an enemy
    model (A93) to the place of the first such enemy, and `lines` holds the enemy lines of troops (A94):
    every two models of one enemy unit close enough to form one, with the box their segment spans.
    """

    holders: dict[Spot, tuple[int, str]]
    close: dict[Cell, int]
    lines: tuple[Line, ...]


_Enemies = tuple[dict[Cell, int], tuple[tuple[Box, tuple[Line, ...]], ...]]


def surroundings(battle: Battle, unit: Unit, within: Box | None = None) -> Surroundings:
    """Return what the other units put around a unit: their models, the standoff, and the enemy lines of troops.

    With `within`, only the lines that reach into that box are kept: enough when every line judged
    (leader to spot) lies inside it.
    """
    around = kept(battle, "around")
    held: dict[Spot, tuple[int, str]] | None = around.get(("holders", unit.id))
    if held is None:
        held = around[("holders", unit.id)] = _holders(battle, unit)
    # What enemies put around a unit is the same for every unit of its side (but for a copy of a unit judged as
    # it would be after an order, which leaves the unit it copies out).
    same = battle.units.get(unit.id)
    key = ("enemies", unit.side.lower(), unit.id if same is not None and battle.enemies(unit, same) else None)
    found: _Enemies | None = around.get(key)
    if found is None:
        found = around[key] = _enemies(battle, unit)
    close, groups = found
    if within is None:
        return Surroundings(held, close, tuple(line for _box, lines in groups for line in lines))
    wx0, wy0, wx1, wy1 = within
    # A line's box lies within its unit's: a unit whose models span no square of the box has no line into it.
    return Surroundings(held, close, tuple(
        line for (ux0, uy0, ux1, uy1), lines in groups if ux0 <= wx1 and wx0 <= ux1 and uy0 <= wy1 and wy0 <= uy1
        for line in lines if line[2] <= wx1 and wx0 <= line[4] and line[3] <= wy1 and wy0 <= line[5]))


def _others(battle: Battle, unit: Unit) -> Iterator[tuple[int, Unit]]:
    """Yield the other units with their places in the order units were added."""
    for place, other in enumerate(battle.iter_units()):
        if other is not unit and other.id != unit.id:  # a unit judged as it would be after an order is a copy
            yield place, other


def _holders(battle: Battle, unit: Unit) -> dict[Spot, tuple[int, str]]:
    """Return the spots the other units' models hold, each with the first such unit's place and name."""
    held: dict[Spot, tuple[int, str]] = {}
    for place, other in _others(battle, unit):
        for spot in other.spots():
            held.setdefault(spot, (place, other.name))
    return held


def _enemies(battle: Battle, unit: Unit) -> _Enemies:
    """Return the squares within the standoff of an enemy model, each with the first such enemy's place, and each
    enemy unit's lines of troops with the box its models span."""
    span, s = int(battle.const("enemy_line_gap")), square_size(battle)
    offsets = offsets_closer_than(int(battle.const("standoff")), s)
    close: dict[Cell, int] = {}
    groups: list[tuple[Box, tuple[Line, ...]]] = []
    for place, other in _others(battle, unit):
        if not battle.enemies(unit, other):
            continue
        cells = tuple(p.cell for p in other.spots())
        for c in cells:
            for dx, dy in offsets:
                close.setdefault(Cell(c.x + dx, c.y + dy), place)
        box = (min(c.x for c in cells), min(c.y for c in cells), max(c.x for c in cells), max(c.y for c in cells))
        lines: list[Line] = []
        for i, a in enumerate(cells):
            for b in cells[i + 1:]:
                if gap_within(a, b, span, s):
                    lines.append((a, b, min(a.x, b.x), min(a.y, b.y), max(a.x, b.x), max(a.y, b.y)))
        groups.append((box, tuple(lines)))
    return close, tuple(groups)


def _enemy_line_crossed(around: Surroundings, leader: Cell, target: Cell) -> bool:
    """Return whether the line leader-target crosses a line of enemy troops (A94)."""
    x0, x1 = min(leader.x, target.x), max(leader.x, target.x)
    y0, y1 = min(leader.y, target.y), max(leader.y, target.y)
    # Segments that meet share a point, so their boxes overlap: the box test skips the far lines cheaply.
    return any(segments_meet(leader, target, a, b) for a, b, lx0, ly0, lx1, ly1 in around.lines
               if lx0 <= x1 and x0 <= lx1 and ly0 <= y1 and y0 <= ly1)


def _opening_at(battle: Battle, building: frozenset[Cell], target: Cell) -> Opening | None:
    """Return the unopenable-building opening a spot outside touches, if any (004:L106)."""
    for found in openings(battle, building):
        if target in found.outside and not found.obstacle.openable:
            return found
    return None


def standing_at(battle: Battle, unit: Unit, opening: Opening, taken: set[Spot] | None) -> int:
    """Return how many models stand at an opening now: other units' there, and this unit's placed so far."""
    squares = set(opening.outside)
    mine = sum(1 for p in taken or () if p.cell in squares)
    others = sum(1 for other in battle.iter_units() if other is not unit for p in other.spots() if p.cell in squares)
    return mine + others


def verdict(battle: Battle, unit: Unit, leader: Spot, target: Spot, taken: set[Spot] | None = None,
            around: Surroundings | None = None) -> Verdict:
    """Judge one model's spot against every placement rule, with the leader standing at `leader`.

    `around` is surroundings(battle, unit), passed in when many spots are judged against one board.
    """
    cell, home = target.cell, leader.cell
    if not battle.on_map(cell):
        return _refuse(f"{cell} is off the map")
    if unit.infantry and kind_at(battle, cell).impassable:
        return _refuse("Impassable terrain: infantry may not enter it at all (004:L129)")
    if target.level > top_level(battle, cell):
        return _refuse(f"{cell} has no level {target.level}")
    if target == leader or (taken is not None and target in taken):
        return _refuse(f"{target} already holds a model")
    ld = unit.ld
    if around is None:
        around = surroundings(battle, unit)
    # The first other unit in order that the spot breaks a rule of is the one named.
    held, close = around.holders.get(target), around.close.get(cell)
    if held is not None and (close is None or held[0] <= close):
        return _refuse(f"{target} already holds a model of {held[1]}")
    if close is not None:
        standoff = int(battle.const("standoff"))
        return _refuse(f"the {standoff}\" standoff: no model is placed that close to an enemy model (A93)")
    cr: Inches = int(battle.const("cr_per_ld")) * ld
    half: Inches = int(battle.const("half_cr_per_ld")) * ld
    limit, rule = cr, f"the Command Radius (2 x Ld = {cr:g}\", 004:L40)"
    if _enemy_line_crossed(around, home, cell) and half < limit:
        limit, rule = half, f"a line of enemy troops lies between: 1 x Ld = {half:g}\" (004:L64, A94)"
    building = region(battle, home, "building")
    target_kind, leader_kind = kind_at(battle, cell), kind_at(battle, home)
    if building:
        # The leader is inside: models go anywhere inside (004:L94), on the roof, or outside at an unopenable
        # opening. A square inside next to a window is only inside: the window's width limits the models
        # placed at it from outside, never a model that stands in the room behind it.
        if cell in building:
            return _within(battle, unit, leader, target, limit, rule, cr)
        opening = _opening_at(battle, building, cell)
        if opening is None:
            return _refuse("the leader is inside a building, so no model is placed outside around it (004:L98)")
        room = opening_models(battle, opening.width)
        if room < 1:
            return _refuse(f"the opening is {opening.width:g}\" wide: one model per full 0.5\" of width (004:L104, A95)")
        there = standing_at(battle, unit, opening, taken)
        if there >= room:
            return _refuse(f"the opening {opening.label()} is {opening.width:g}\" wide and takes {room} model(s), one "
                           f"per full 0.5\" of width (004:L104, A95): {there} stand at it already, so it takes no more")
        # At least part of the opening must lie within the limit (A95): the nearest square behind it counts.
        verdicts = [_within(battle, unit, leader, Spot(inside.x, inside.y, target.level), limit, rule, cr)
                    for inside in sorted(opening.inside, key=lambda c: (c.x - home.x) ** 2 + (c.y - home.y) ** 2)]
        return next((v for v in verdicts if v.ok), verdicts[0])  # else the nearest part's distance is said
    if target_kind.building:
        return _refuse("After You Sir!: the leader must be inside a building before any model is placed in it (004:L83)")
    terrain_counts = not (unit.interlinked and battle.const("interlinked_ignores_terrain"))
    if on_road(battle, home) and cell in region(battle, home, "road"):
        road = int(battle.const("road_cr_per_ld")) * ld
        if limit == cr:
            limit, rule = road, f"along the leader's road: 3 x Ld = {road:g}\" (004:L74)"
    tall = int(battle.const("tall_wall"))
    wide = int(battle.const("linear_max_width"))
    blocked_by_wide = False
    for edge in edges_crossed(home, cell) if battle.edges else ():
        obs = battle.edges.get(edge)
        if obs is None or obs.opening > 0:
            continue
        if obs.thickness > wide:
            blocked_by_wide = True
            continue
        if unit.infantry and obs.height > tall:
            return _refuse(f"a wall taller than {tall}\" stands between the model and its leader (004:L59)")
        if terrain_counts and half < limit:
            limit, rule = half, f"beyond a Linear Obstacle: 1 x Ld = {half:g}\" (004:L58)"
    if terrain_counts and not leader_kind.area:
        if target_kind.area and half < limit:
            limit, rule = half, f"into area terrain from outside it: 1 x Ld = {half:g}\" (004:L38)"
        elif not target_kind.area and (blocked_by_wide or any(kind_at(battle, c).area for c in squares_crossed(home, cell))):
            if not battle.const("blocked_line_half_cr"):
                return _refuse("the straight line to the leader crosses area terrain (004:L40, A92)")
            if half < limit:
                limit, rule = half, f"the line to the leader crosses area terrain: 1 x Ld = {half:g}\" (004:L40, A92)"
    return _within(battle, unit, leader, target, limit, rule, cr)


def _within(battle: Battle, unit: Unit, leader: Spot, target: Spot, limit: Inches, rule: str, cr: Inches) -> Verdict:
    """Measure a spot against a limit, floor to floor first where levels differ (A96)."""
    s = square_size(battle)
    rise: Inches = abs(target.level - leader.level) * int(battle.const("floor_height"))
    if rise:
        if rise > cr:
            return _refuse(f"the floors are {rise:g}\" apart, more than the Command Radius {cr:g}\" (004:L96, A96)")
        if battle.const("vertical_then_horizontal"):
            rise = 0
    if fully_within(leader.cell, target.cell, limit, s, rise):
        return Verdict(True, limit, rule)
    far = hypot(reach(leader.cell, target.cell, s), float(rise))  # the rise counts when it was measured with the rest
    return _refuse(f"its base would reach {far:.3g}\" from the leader's, beyond the limit here, {rule}")


def legal_spots(battle: Battle, unit: Unit, leader: Spot, taken: set[Spot] | None = None) -> list[Spot]:
    """Return the spots a model of this unit may stand on now, nearest the leader first."""
    return list(iter_legal_spots(battle, unit, leader, taken))


def iter_legal_spots(battle: Battle, unit: Unit, leader: Spot, taken: set[Spot] | None = None) -> Iterator[Spot]:
    """Yield the spots a model of this unit may stand on now, nearest the leader first, judging each when asked.

    A caller that needs only the first few (the nearest spots for the models, or proof that enough exist)
    stops early, and the spots beyond are never judged.
    """
    around = surroundings(battle, unit, _box(battle, unit, leader))
    for spot in _candidates(battle, unit, leader):
        if verdict(battle, unit, leader, spot, taken, around).ok:
            yield spot


def _box(battle: Battle, unit: Unit, leader: Spot) -> Box:
    """Return the squares around the leader that any spot judged for the unit's models lies in."""
    span = _span(battle, unit, leader)[0]
    return (leader.x - span, leader.y - span, leader.x + span, leader.y + span)


def _span(battle: Battle, unit: Unit, leader: Spot) -> tuple[int, Inches, Inches, frozenset[Cell]]:
    """Return how many squares from the leader a model may stand, the Command Radius, the widest radius, the road."""
    s = square_size(battle)
    cr = battle.const("cr_per_ld") * unit.ld
    road = region(battle, leader.cell, "road") if on_road(battle, leader.cell) else frozenset()
    widest = max(cr, battle.const("road_cr_per_ld") * unit.ld) if road else cr
    return int(widest // s) + 1, cr, widest, road


@lru_cache(maxsize=64)
def _rings(span: int) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """Return the offsets within `span` squares of a square, grouped by squared distance, nearest first, each
    group in row then column order."""
    rings: dict[int, list[tuple[int, int]]] = {}
    for dy in range(-span, span + 1):
        for dx in range(-span, span + 1):
            rings.setdefault(dx * dx + dy * dy, []).append((dx, dy))
    return tuple((d2, tuple(rings[d2])) for d2 in sorted(rings))


def _candidates(battle: Battle, unit: Unit, leader: Spot) -> Iterator[Spot]:
    """Yield the spots no radius rule puts out of reach at once, nearest the leader first.

    The order is the one spots are offered in: by distance, then floors from the leader's, then row, column
    and floor. No rule reaches past the Command Radius (or the road's, on the leader's road).
    """
    s = square_size(battle)
    span, cr, widest, road = _span(battle, unit, leader)
    lx, ly = leader.x, leader.y
    for _d2, ring in _rings(span):
        # Every square of a ring lies at one distance from the leader, so the radius is asked once per ring.
        far = Cell(abs(ring[0][0]), abs(ring[0][1]))
        if not fully_within(ORIGIN, far, widest, s):
            return  # the rings only grow from here
        near = fully_within(ORIGIN, far, cr, s)
        found: list[Spot] = []
        for dx, dy in ring:
            x, y = lx + dx, ly + dy
            if not (0 <= x < battle.width and 0 <= y < battle.height):
                continue
            cell = Cell(x, y)
            if not (near or cell in road):
                continue
            found.extend(Spot(x, y, level) for level in range(0, top_level(battle, cell) + 1))
        if len(found) > 1:
            found.sort(key=lambda p: (abs(p.level - leader.level), p.y, p.x, p.level))
        yield from found


def auto_place(battle: Battle, unit: Unit, leader: Spot) -> list[Spot]:
    """Place every model other than the leader on the nearest legal spots, or explain why they do not fit."""
    wanted = unit.size - 1
    spots: list[Spot] = []
    around = surroundings(battle, unit)
    for spot in iter_legal_spots(battle, unit, leader, set()):
        if len(spots) == wanted:
            break
        # Judged again with the models placed so far: an opening takes only so many (A95).
        if battle.on_map(spot.cell) and verdict(battle, unit, leader, spot, set(spots), around).ok:
            spots.append(spot)
    if len(spots) < wanted:
        raise IllegalOrderError(
            f"Only {len(spots)} of the {wanted} other models of {unit.name} can stand within its Command Radius "
            f"around {leader}; move the leader somewhere more open."
        )
    return spots


def check_placement(battle: Battle, unit: Unit, leader: Spot, spots: list[Spot]) -> None:
    """Refuse a hand placement that breaks a rule, naming the rule and listing the legal spots."""
    if not spots:
        return  # nothing placed by hand: nothing to judge
    taken: set[Spot] = set()
    around = surroundings(battle, unit)
    for spot in spots:
        judged = verdict(battle, unit, leader, spot, taken, around)
        if not judged.ok:
            legal = legal_spots(battle, unit, leader, taken)
            shown = ", ".join(str(p) for p in legal[:MAX_LISTED])
            more = f" and {len(legal) - MAX_LISTED} more" if len(legal) > MAX_LISTED else ""
            raise IllegalOrderError(
                f"A model of {unit.name} cannot stand on {spot}: {judged.rule}. "
                f"Legal squares now: {shown or 'none'}{more}.",
                cells=sorted({str(p.cell) for p in legal}),
            )
        taken.add(spot)
