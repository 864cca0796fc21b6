"""A battle's map repainted in place where it changed is, byte for byte, the map drawn afresh.

The renderer keeps each battle's last picture; the next one repaints only the squares whose drawings changed
(tokens, labels, paths, callouts, areas...), then the legend, key and title if theirs did. These tests play
random orders of every rule system with a map, add random overlays, effects and features, draw each map
whole, in a fixed window at small squares (where tokens and arrows spill over their squares), and cropped
around the action, and compare every map with the one drawn with nothing kept.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from PIL import Image, ImageChops

from bot.maps import action_crop
from bot.mapview import action_cells, build_view, overlays_for
from render import (
    AreaOfEffect,
    CellEffect,
    FeatureMark,
    LineOfFire,
    MapView,
    Marker,
    MissLanding,
    MovePath,
    Overlay,
    RangeBand,
    RangeBands,
    Reachable,
    SquareChoices,
    TargetSquare,
    UnitToken,
    render_image,
    render_map,
)
from render.api import REPAINTS
from render.geometry import Geometry
from render.layers.base import BASE_CACHE
from render.scene import grid_squares
from rules.battle import Battle
from rules.coords import Cell
from rules.dice import Dice
from rules.errors import GameError
from rules.orders import AddUnit, Start
from rules.systems import builtin
from rules.turnorders import SetTurnMode
from rules.visibility import PUBLIC, Viewer
from tests.bot.test_kept_frames import random_order
from tests.render.render_samples import open_png, rgb_at, small_view

STATS: dict[str, dict[str, Any]] = {
    "strategic-e": {"ag": 45, "bs": 50, "wounds": 30,
                    "weapons": [{"name": "Rifle", "range": 60, "damage": "1d10+4", "type": "I", "pen": 2}]},
    "combat-action": {"kind": "infantry", "ss": 4, "pf": 0, "mv": 10,
                      "weapons": [{"name": "Rifle", "class": "rifle", "pen": 2},
                                  {"name": "Frag", "class": "grenades", "pen": 3}]},
}
STATS["strategic-p"] = STATS["strategic-e"]
MAPPED = [r for system in builtin() if system.has_map for r in system.ruleset_ids]


def test_every_shipped_system_with_a_map_is_played_here() -> None:
    # Surface Combat fights without a map (its battles post a chart): the others all draw one.
    assert sorted(MAPPED) == ["combat-action", "m42", "strategic-e", "strategic-p"]
    assert [s.id for s in builtin() if not s.has_map] == ["surface"]


def setup(ruleset: str, size: int, rng: random.Random, units: int = 10) -> Battle:
    """Return an active battle of a system with units of three sides placed at random, some sharing squares."""
    dice = Dice(random.Random(1))
    battle = Battle.new(ruleset, size, size, "Repaint")
    cells = rng.sample([(x, y) for x in range(size) for y in range(size)], units)
    for i in range(units):
        stats = STATS.get(ruleset, {"ld": 3, "models": 1 + i % 3, "traits": []})
        # A few units join a friend's square where the rules allow it; any refused place is swapped for another.
        tries = [cells[i - 3]] if i >= 6 and i % 3 == 0 else []
        tries += [cells[i], *rng.sample(cells, 5)]
        for x, y in tries:
            try:
                battle.apply(AddUnit(name=f"Unit {i + 1}", side=("Red", "Blue", "Green")[i % 3], at=Cell(x, y),
                                     stats=dict(stats)), dice)
                break
            except GameError:
                continue
    battle.apply(SetTurnMode(mode="free"), dice)
    battle.apply(Start(), Dice(random.Random(2), scripted=[3] * 60))
    return battle


def cell(rng: random.Random, size: int) -> tuple[int, int]:
    """Return a random square of a size x size map."""
    return (rng.randrange(size), rng.randrange(size))


def extra_overlays(rng: random.Random, size: int) -> list[Overlay]:
    """Return a few random overlays of every kind, so paths, callouts and areas move between maps."""
    out: list[Overlay] = []
    a = cell(rng, size)
    near = [(min(size - 1, max(0, a[0] + rng.randint(-3, 3))), min(size - 1, max(0, a[1] + rng.randint(-3, 3))))
            for _ in range(4)]
    kinds = rng.sample(range(10), rng.randint(0, 3))
    for kind in kinds:
        if kind == 0:
            out.append(MovePath((a, *near[:rng.randint(0, 3)])))
        elif kind == 1:
            out.append(Marker(*near[0], rng.choice(["Spotted", "Pinned down here", "!"])))
        elif kind == 2:
            out.append(TargetSquare(*near[1]))
        elif kind == 3:
            out.append(LineOfFire(a, near[2], hit=rng.choice([True, False, None])))
        elif kind == 4:
            out.append(AreaOfEffect(rng.choice(["blast", "cone", "line", "at_field"]), tuple(near[:3]), src=a,
                                    label=rng.choice(["", "Blast"])))
        elif kind == 5:
            out.append(MissLanding(a, near[3]))
        elif kind == 6:
            out.append(Reachable(frozenset((x, y) for x in range(a[0] - 2, a[0] + 3) for y in range(a[1] - 2, a[1] + 2)
                                           if 0 <= x < size and 0 <= y < size), "Walk"))
        elif kind == 7:
            out.append(SquareChoices(tuple(near)))
        elif kind == 8 and rng.random() < 0.3:
            out.append(RangeBands(a, (RangeBand("Short", 0, 2), RangeBand("Long", 3, 5)), "Rifle"))
        elif kind == 9:
            out.append(Marker(*a, "Here"))
    return out


@dataclasses.dataclass
class Dressing:
    """Effects and features laid over a battle's view, shifted a little now and then, as fires spread and die."""

    effects: list[CellEffect] = dataclasses.field(default_factory=list)
    features: list[FeatureMark] = dataclasses.field(default_factory=list)

    def on(self, view: MapView, rng: random.Random) -> MapView:
        """Return the view with the dressing, after a random change to it; now and then a unit faces somewhere."""
        size = view.width
        if rng.random() < 0.4:
            self.effects = [e for e in self.effects if rng.random() < 0.7]
            self.effects.append(CellEffect(*cell(rng, size), rng.choice(["fire", "smoke"])))
        if rng.random() < 0.2:
            self.features = [f for f in self.features if rng.random() < 0.5]
            self.features.append(FeatureMark(*cell(rng, size), rng.choice(["TR", "BW"]), (120, 84, 40),
                                             hidden=rng.random() < 0.3))
        units = tuple(dataclasses.replace(u, facing=rng.choice([0, 45, 135, 270])) if rng.random() < 0.1 else u
                      for u in view.units)
        return dataclasses.replace(view, effects=view.effects + tuple(self.effects),
                                   features=view.features + tuple(self.features), units=units)


def compare(view: MapView, overlays: list[Overlay], keep: object, **how: Any) -> None:
    """Draw the map kept under `keep` and afresh, and demand the same bytes."""
    kept = render_map(view, overlays=overlays, keep=keep, **how)  # type: ignore[arg-type]
    fresh = render_map(view, overlays=overlays, **how)
    assert kept == fresh, f"{keep} {how}: the map repainted in place differs from the map drawn afresh"


@pytest.mark.parametrize("ruleset", MAPPED)
def test_maps_repainted_in_place_equal_maps_drawn_afresh(ruleset: str) -> None:
    rng = random.Random(ruleset)
    dice = Dice(random.Random(9))
    REPAINTS.reset()
    applied = drawn = 0
    size = 30
    battle = setup(ruleset, size, rng)
    window = (3, 3, 16, 14)
    dressing = Dressing()
    for step in range(40):
        outcome = random_order(battle, rng, dice)
        applied += outcome is not None
        highlight = outcome.highlight if outcome is not None else None
        viewer = Viewer.of(["Red"]) if step % 6 == 5 else PUBLIC  # the Red side's map shows its hidden units
        view = dressing.on(build_view(battle, viewer=viewer), rng)
        marks = overlays_for(highlight, outcome.details if outcome is not None else None) if highlight else []
        if step % 3 == 0:  # now and then more overlays, which may change the legend's size and so the layout
            marks += extra_overlays(rng, size)
        palette = "grey" if step % 9 == 8 else "colour"
        compare(view, marks, ("whole", ruleset), palette=palette)
        # The windowed maps of two systems in the grey palette, repainted in place as well.
        compare(view, marks, ("window", ruleset), crop=window, cell_px=rng.choice([8, 12, 18]) if step % 10 == 0
                else 12, palette="grey" if ruleset in ("m42", "strategic-p") else "colour")
        crop = action_crop(view, action_cells(highlight), full=False) if highlight else None
        compare(view, marks, ("action", ruleset), crop=crop)
        drawn += 3
    assert applied >= 20, "most turns give an order the rules take"
    # The comparisons are not of maps drawn whole every time: many whole and windowed maps were repainted in place
    # (the others changed their legend's or key's size, or were cropped around a new action).
    assert REPAINTS.repainted >= 25
    assert REPAINTS.squares > 0
    assert REPAINTS.repainted + REPAINTS.whole == drawn


@pytest.mark.parametrize("palette", ["colour", "grey"])
def test_one_unit_moved_repaints_only_the_squares_around_it(palette: str) -> None:
    units = tuple(UnitToken(f"u{i}", f"U{i}", ("NERV", "Angels")[i % 2], 1 + i, 2 + (i % 3) * 3) for i in range(10))
    view = small_view(units=units)
    render_map(view, keep="probe", palette=palette)
    moved = dataclasses.replace(view, units=(dataclasses.replace(units[0], x=7, y=11), *units[1:]))
    REPAINTS.reset()
    data = render_map(moved, keep="probe", palette=palette)
    assert data == render_map(moved, palette=palette)
    assert REPAINTS.repainted == 1 and REPAINTS.whole == 0
    # The squares the token left and the squares it came to, each with the squares its token may spill onto.
    assert 2 <= REPAINTS.last_squares <= 2 * 9
    assert render_map(moved, keep="probe", palette=palette) == data
    assert REPAINTS.last_squares == 0, "the same picture again repaints nothing"
    # The token is where it moved to, and the square it left shows its bare ground, as on a map without units.
    image, bare = open_png(data), open_png(render_map(small_view(), palette=palette))
    geometry = Geometry.for_view(moved)
    assert rgb_at(image, geometry.cell_centre(7, 11)) != rgb_at(bare, geometry.cell_centre(7, 11))
    left = geometry.cell_box(1, 2)
    assert image.crop(left).tobytes() == bare.crop(left).tobytes()


def test_a_moved_window_or_a_new_map_is_drawn_afresh() -> None:
    view = small_view(units=(UnitToken("a", "A", "NERV", 4, 4),))
    render_map(view, crop=(0, 0, 11, 11), keep="probe")
    REPAINTS.reset()
    render_map(view, crop=(1, 0, 12, 11), keep="probe")
    other = small_view(units=view.units, map_version="small-2",
                       terrain=tuple("water" if x > 8 else "plain" for y in range(14) for x in range(14)))
    data = render_map(other, crop=(1, 0, 12, 11), keep="probe")
    assert REPAINTS.whole == 2 and REPAINTS.repainted == 0
    assert data == render_map(other, crop=(1, 0, 12, 11))


def painted_squares(before: Image.Image, after: Image.Image, geometry: Geometry) -> set[tuple[int, int]]:
    """Return the squares of the window whose grid pixels differ between two images of the same layout."""
    left, top = geometry.grid_left, geometry.grid_top
    box = (left, top, left + geometry.grid_width, top + geometry.grid_height)
    diff = ImageChops.difference(before.crop(box), after.crop(box)).convert("L").point(lambda v: 255 if v else 0)
    cp = geometry.cell_px
    x0, y0, x1, y1 = geometry.crop
    found: set[tuple[int, int]] = set()
    for y in range(y0, y1 + 1):
        for x in range(x0, x1 + 1):
            lx, ty = (x - x0) * cp, (y - y0) * cp
            rx, by = lx + cp + (1 if x == x1 else 0), ty + cp + (1 if y == y1 else 0)
            if diff.crop((lx, ty, rx, by)).getbbox() is not None:
                found.add((x, y))
    return found


def listed_squares(view: MapView, geometry: Geometry, overlays: list[Overlay]) -> dict[tuple[int, int], list[object]]:
    """Return what each square lists, as the renderer works it out: its drawings, in order."""
    found = grid_squares(view, geometry, overlays)
    drawings = {number: what for what, number in found.drawings.items()}
    return {xy: [drawings[n] for n in numbers] for xy, numbers in found.at.items()}


@pytest.mark.parametrize("cell_px", [8, 12, 18, 28, 40, 52])
def test_a_drawing_paints_only_on_the_squares_it_lists(cell_px: int) -> None:
    """Add one drawing to a map: every square whose pixels change lists something that changed there."""
    rng = random.Random(cell_px)
    base_units = (UnitToken("bg", "BG", "NERV", 12, 12, health=0.5),)
    for trial in range(60):
        a = (rng.randrange(1, 13), rng.randrange(1, 13))
        count = rng.choice([1, 1, 2, 3, 5, 10])
        group = tuple(UnitToken(f"t{i}", rng.choice(["A", "TK1", "HRDS", "W"]), rng.choice(["NERV", "Angels"]), *a,
                                health=rng.choice([None, 0.3, 1.0]), marks=tuple(rng.sample(["P", "S", "H", "F"], 2)),
                                is_horde=rng.random() < 0.3, facing=rng.choice([None, 0, 90, 200, 315]),
                                level=rng.choice([0, 0, 2]),
                                models=tuple((a[0] + dx, a[1] + dy, 0) for dx, dy in ((1, 0), (0, 1), (-1, 1))
                                             if rng.random() < 0.3))
                      for i in range(count))
        extra = extra_overlays(rng, 14)
        view = small_view(units=base_units)
        after_view = small_view(units=base_units + group,
                                effects=(CellEffect(*a, "fire"),) if trial % 5 == 0 else (),
                                features=(FeatureMark(*a, "TR", (120, 84, 40), hidden=trial % 2 == 0),)
                                if trial % 7 == 0 else ())
        geometry = Geometry.for_view(view, None, cell_px)
        before = render_image(view, cell_px=cell_px, show_key=False)
        after = render_image(after_view, overlays=extra, cell_px=cell_px, show_key=False)
        old = listed_squares(view, geometry, [])
        new = listed_squares(after_view, geometry, extra)
        listed = {xy for xy in old.keys() | new.keys() if old.get(xy) != new.get(xy)}
        painted = painted_squares(before, after, geometry)
        assert painted <= listed, (f"{cell_px} px, trial {trial}: {sorted(painted - listed)} changed but list nothing "
                                   f"new ({group}, {extra})")


def test_a_battle_repainted_in_place_keeps_its_own_base_layer() -> None:
    """Many battles taking turns push each other's base layers out of the shared cache; a kept picture keeps its own."""
    view = small_view(units=(UnitToken("a", "A", "NERV", 4, 4),))
    render_map(view, keep="probe")
    BASE_CACHE.clear()  # as if other battles' maps had filled the cache since
    moved = dataclasses.replace(view, units=(UnitToken("a", "A", "NERV", 5, 4),))
    REPAINTS.reset()
    data = render_map(moved, keep="probe")
    assert BASE_CACHE.misses == 0 and len(BASE_CACHE) == 0, "the base layer was not built again"
    assert REPAINTS.repainted == 1
    assert data == render_map(moved)


def test_tokens_that_overlap_and_swap_places_in_the_drawing_order_are_repainted() -> None:
    """At 12 px a token spills over its square: which of two neighbours is on top depends on the order of units."""
    a = UnitToken("a", "A", "NERV", 5, 5, facing=90)
    b = UnitToken("b", "B", "Angels", 6, 5, facing=270)
    view = small_view(units=(a, b))
    render_map(view, cell_px=12, keep="probe")
    swapped = small_view(units=(b, a))
    REPAINTS.reset()
    data = render_map(swapped, cell_px=12, keep="probe")
    assert data == render_map(swapped, cell_px=12)
    assert data != render_map(view, cell_px=12), "the order shows: the tokens overlap"
    assert REPAINTS.repainted == 1 and REPAINTS.last_squares > 0
