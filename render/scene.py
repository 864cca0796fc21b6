"""What a map's grid shows square by square: the drawings that may paint on each square, in the order they are painted.

Two pictures of one battle drawn at the same window and size have the same pixels on a square when the same
drawings touch it in the same order: the grid's ground is the same (the base layer), and every drawing paints
the same pixels wherever it is drawn again. So a kept frame needs repainting only on the squares whose lists
differ (render.api). A drawing's squares are those it may paint on, never fewer: a token that spills over its
square's sides, a label, a path or a callout lists every square it reaches.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass

from render.geometry import XY, Geometry
from render.layers.models import MODEL_REACH, model_squares
from render.layers.overlays import marker_box
from render.layers.units import stack_reach, stacks
from render.view import (
    AreaOfEffect,
    LineOfFire,
    MapView,
    Marker,
    MissLanding,
    MovePath,
    Overlay,
    RangeBands,
    Reachable,
    SquareChoices,
    TargetSquare,
)

LINE_REACH = 2  # squares around a step along a line that its width and marks may reach
MARKER_PAD = 2  # pixels around a callout's box: its outline and the pointer's soft end


@dataclass(frozen=True)
class Squares:
    """Hold what is painted on each square: every distinct drawing numbered, and each square's numbers in order.

    Numbers, not the drawings themselves, are kept per square: a kept picture then holds a few hundred tuples of
    ints, which the garbage collector leaves alone, rather than as many lists it would walk through again and again.
    """

    drawings: dict[object, int]
    at: dict[XY, tuple[int, ...]]


def grid_squares(view: MapView, geometry: Geometry, overlays: Sequence[Overlay]) -> Squares:
    """Return, for each square of the window, what is painted on it, in the order render_image paints it."""
    numbers: dict[object, int] = {}
    out: dict[XY, list[int]] = {}

    def add(what: object, squares: Iterable[XY]) -> None:
        try:
            number = numbers.setdefault(what, len(numbers))
        except TypeError:  # a drawing that cannot be hashed is never taken for another: its squares are repainted
            number = numbers.setdefault(("unmatched", len(numbers), object()), len(numbers))
        for square in squares:
            found = out.get(square)
            if found is None:
                out[square] = [number]
            else:
                found.append(number)

    for feature in view.features:
        if geometry.contains(feature.x, feature.y):
            # A tag whose text cannot shrink to fit a small square runs past its side.
            add(("feature", feature), geometry.near(feature.x, feature.y, 1))
    for effect in view.effects:
        if geometry.contains(effect.x, effect.y):
            add(("effect", effect), [(effect.x, effect.y)])
    _reachable(add, geometry, overlays)
    for o in overlays:
        if isinstance(o, RangeBands):
            add(("bands", o), geometry.near(geometry.crop[0], geometry.crop[1], max(geometry.cols, geometry.rows)))
    for o in overlays:
        if isinstance(o, AreaOfEffect):
            add(("area tint", o), _span(geometry, [*o.cells, *([o.src] if o.src is not None else [])], 1))
    groups = stacks(view, geometry)
    occupied = frozenset(groups)
    tokens = frozenset((u.x, u.y) for u in view.units)
    models = [u for u in view.units if u.models]
    label_items: list[tuple[object, list[XY]]] = []
    for beside in (False, True):
        if beside:
            for xy, group in groups.items():
                what: object = ("stack", xy, tuple(group))
                squares = geometry.near(*xy, stack_reach(geometry, group))
                add(what, squares)
                label_items.append((what, squares))
        for unit in models:
            for (x, y), (count, top) in sorted(model_squares(unit).items()):
                shared = (x, y) in tokens
                if shared != beside or not geometry.contains(x, y):
                    continue
                what = ("model", unit.label, unit.side, "H" in unit.marks, x, y, count, top, shared)
                squares = geometry.near(x, y, MODEL_REACH)
                add(what, squares)
                label_items.append((what, squares))
    # label_items is in render.layers.units' order of labels: models alone, tokens, then models beside tokens.
    for o in overlays:
        if isinstance(o, AreaOfEffect):
            add(("area outline", o), _span(geometry, [*o.cells, *([o.src] if o.src is not None else [])], 1))
        elif isinstance(o, MissLanding):
            add(("landing", o), _along(geometry, o.aim, o.landed))
    for o in overlays:
        if isinstance(o, AreaOfEffect) and o.label and o.cells:
            x, y = o.cells[-1]
            add(("area tag", o), _marker(geometry, Marker(x, y, o.label), frozenset()))
    _overlays(add, geometry, overlays, occupied)
    for drawing, reached in label_items:
        add(("label", drawing), reached)
    return Squares(numbers, {xy: tuple(found) for xy, found in out.items()})


def _reachable(add: Callable[[object, Iterable[XY]], None], geometry: Geometry, overlays: Sequence[Overlay]) -> None:
    """List the reachable areas' squares, largest area first, as render.layers.overlays paints them."""
    listed = [o for o in overlays if isinstance(o, Reachable)]
    for i in sorted(range(len(listed)), key=lambda i: -len(listed[i].cells)):
        area = listed[i]
        add(("reach", i, area), (c for c in area.cells if geometry.contains(*c)))


def _overlays(add: Callable[[object, Iterable[XY]], None], geometry: Geometry, overlays: Sequence[Overlay],
              occupied: Collection[XY]) -> None:
    """List the squares of paths, targets, shots, markers and square choices, in render.layers.overlays' order."""
    for o in overlays:
        if isinstance(o, MovePath) and o.cells:
            cells: list[XY] = [(c[0], c[1]) for c in o.cells]
            steps = list(itertools.pairwise(cells)) or [(cells[0], cells[0])]
            squares = {s for a, b in steps for s in _along(geometry, a, b)}
            add(("path", o, cells[-1] in occupied), squares)
    for o in overlays:
        if isinstance(o, TargetSquare):
            add(("target", o), geometry.near(o.x, o.y, 1) if geometry.contains(o.x, o.y) else ())
    for o in overlays:
        if isinstance(o, LineOfFire):
            add(("shot", o, tuple(o.src) in occupied, tuple(o.dst) in occupied), _along(geometry, o.src, o.dst))
    for o in overlays:
        if isinstance(o, Marker):
            near = ((o.x, o.y - 1) in occupied, (o.x, o.y + 1) in occupied)
            add(("marker", o, near), _marker(geometry, o, occupied))
    for o in overlays:
        if isinstance(o, SquareChoices):
            # A square's name tag may be a pixel or two wider than the square.
            add(("choices", o), {s for c in o.cells if geometry.contains(*c) for s in geometry.near(*c, 1)})


def _span(geometry: Geometry, cells: Sequence[XY], reach: int) -> list[XY]:
    """Return the window's squares in the rectangle around cells, widened by `reach` squares."""
    if not cells:
        return []
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    x0, y0, x1, y1 = geometry.crop
    return [(x, y) for y in range(max(y0, min(ys) - reach), min(y1, max(ys) + reach) + 1)
            for x in range(max(x0, min(xs) - reach), min(x1, max(xs) + reach) + 1)]


def _along(geometry: Geometry, a: XY, b: XY) -> set[XY]:
    """Return the window's squares a line from square a's centre to square b's, with its marks, may paint on.

    The line is followed in steps of half a square; a line's width, an arrowhead, a burst or a cross reaches less
    than a square from it, so every square within two of a step's square is listed.
    """
    steps = max(1, 2 * max(abs(b[0] - a[0]), abs(b[1] - a[1])))
    found: set[XY] = set()
    for i in range(steps + 1):
        x = a[0] + 0.5 + (b[0] - a[0]) * i / steps
        y = a[1] + 0.5 + (b[1] - a[1]) * i / steps
        found.update(geometry.near(math.floor(x), math.floor(y), LINE_REACH))
    return found


def _marker(geometry: Geometry, marker: Marker, occupied: Collection[XY]) -> list[XY]:
    """Return the squares a marker's callout and pointer may paint on."""
    box = marker_box(geometry, marker, occupied)
    if box is None:
        return []
    left, top, right, bottom = box
    padded = (left - MARKER_PAD, top - MARKER_PAD, math.ceil(right) + MARKER_PAD, math.ceil(bottom) + MARKER_PAD)
    return [*geometry.under(padded), *geometry.near(marker.x, marker.y, 0)]


def changed_squares(old: Squares, new: Squares) -> set[XY]:
    """Return the squares whose drawings differ between two pictures of the same window."""
    # The new picture's drawings numbered as the old one numbered them; one the old picture lacks gets a number
    # of its own, below zero, that no old square holds.
    same = [0] * len(new.drawings)
    for what, number in new.drawings.items():
        same[number] = old.drawings.get(what, -1 - number)
    changed = {xy for xy, found in new.at.items() if tuple([same[n] for n in found]) != old.at.get(xy)}
    changed.update(old.at.keys() - new.at.keys())
    return changed
