"""Generated maps: a style and a seed give the same map every time, ready as a battlepost map file.

Styles speak of roles (open ground, woods, water, high ground, town, bridge) that each ruleset fills
with its own terrain, so one style works on the E-Scale and the P-Scale map alike.
"""

from __future__ import annotations

import logging
import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from bot.mapimport.grid import Grid, map_text
from bot.mapimport.limits import MapImportError
from rules.coords import MAX_SIDE, Cell
from rules.ruleset import Ruleset

log = logging.getLogger(__name__)

# Each role names the terrain keys that can play it, best first; a ruleset uses the first it has.
ROLES: dict[str, tuple[str, ...]] = {
    "open": (),  # the ruleset's default terrain
    "woods": ("forest",),
    "water": ("water",),
    "shallows": ("shallows", "water"),
    "high": ("mountain", "rough"),
    "rough": ("rough", "mountain"),
    "town": ("urban",),
    "bridge": ("bridge",),
}


@dataclass(frozen=True)
class Palette:
    """The terrain keys of one ruleset for each role (None when the ruleset has nothing to play it)."""

    roles: dict[str, str | None]

    def __call__(self, role: str) -> str | None:
        """Return the terrain key of a role."""
        return self.roles[role]


def palette_for(ruleset: Ruleset) -> Palette:
    """Return which of the ruleset's terrains plays each role."""
    roles: dict[str, str | None] = {"open": ruleset.default_terrain}
    for role, keys in ROLES.items():
        if role != "open":
            roles[role] = next((k for k in keys if k in ruleset.terrain), None)
    return Palette(roles)


class Canvas:
    """A grid being generated: terrain by role, deep-water marks, and the random source."""

    def __init__(self, width: int, height: int, rng: random.Random, palette: Palette) -> None:
        self.width, self.height, self.rng, self.palette = width, height, rng, palette
        self.cells: list[str] = [palette("open") or ""] * (width * height)
        self.deep: set[tuple[int, int]] = set()

    def inside(self, x: int, y: int) -> bool:
        """Return whether a square is on the map."""
        return 0 <= x < self.width and 0 <= y < self.height

    def paint(self, x: int, y: int, role: str) -> None:
        """Give a square the terrain of a role, when the ruleset has one and the square is on the map."""
        key = self.palette(role)
        if key is not None and self.inside(x, y):
            self.cells[y * self.width + x] = key

    def role_at(self, x: int, y: int, role: str) -> bool:
        """Return whether a square holds a role's terrain."""
        key = self.palette(role)
        return key is not None and self.cells[y * self.width + x] == key

    def noise(self, scale: float, octaves: int = 3) -> list[float]:
        """Return smooth value noise in 0..1, one value per square, row by row."""
        total = [0.0] * (self.width * self.height)
        amplitude, weight = 1.0, 0.0
        for octave in range(octaves):
            step = max(1.0, scale / (2**octave))
            gw, gh = int(self.width / step) + 2, int(self.height / step) + 2
            lattice = [self.rng.random() for _ in range(gw * gh)]
            for y in range(self.height):
                fy = y / step
                y0, ty = int(fy), _smooth(fy - int(fy))
                for x in range(self.width):
                    fx = x / step
                    x0, tx = int(fx), _smooth(fx - int(fx))
                    a, b = lattice[y0 * gw + x0], lattice[y0 * gw + x0 + 1]
                    c, d = lattice[(y0 + 1) * gw + x0], lattice[(y0 + 1) * gw + x0 + 1]
                    top, bottom = a + (b - a) * tx, c + (d - c) * tx
                    total[y * self.width + x] += amplitude * (top + (bottom - top) * ty)
            weight += amplitude
            amplitude /= 2
        return [v / weight for v in total]


def _smooth(t: float) -> float:
    return t * t * (3 - 2 * t)


def _blobs(canvas: Canvas, role: str, scale: float, share: float, avoid: tuple[str, ...] = ()) -> None:
    """Paint the highest `share` of a noise field with a role's terrain, sparing squares of `avoid` roles."""
    field = canvas.noise(scale)
    cut = sorted(field, reverse=True)[max(0, min(len(field) - 1, int(len(field) * share)))]
    for i, value in enumerate(field):
        x, y = i % canvas.width, i // canvas.width
        if value > cut and not any(canvas.role_at(x, y, r) for r in avoid):
            canvas.paint(x, y, role)


def _river(canvas: Canvas, width: int, across: bool) -> list[tuple[int, int]]:
    """Run a meandering river from one edge to the opposite one; return its centre line."""
    rng = canvas.rng
    length = canvas.width if across else canvas.height
    span = canvas.height if across else canvas.width
    pos = rng.uniform(span * 0.35, span * 0.65)
    drift = 0.0
    line = []
    for t in range(length):
        # The drift leans back toward the middle, so the river meanders without hugging an edge.
        pull = (span / 2 - pos) / span * 0.3
        drift = max(-0.8, min(0.8, drift * 0.9 + pull + rng.uniform(-0.3, 0.3)))
        pos = max(span * 0.15, min(span * 0.85 - 1, pos + drift))
        centre = int(pos)
        line.append((t, centre) if across else (centre, t))
        for k in range(-(width // 2), width - width // 2):
            x, y = (t, centre + k) if across else (centre + k, t)
            canvas.paint(x, y, "water")
            if width >= 3 and k == 0:
                canvas.deep.add((x, y))
        for k in (-(width // 2) - 1, width - width // 2):
            x, y = (t, centre + k) if across else (centre + k, t)
            if canvas.inside(x, y) and not canvas.role_at(x, y, "water"):
                canvas.paint(x, y, "shallows")
    return line


def _bridges(canvas: Canvas, line: list[tuple[int, int]], count: int, across: bool) -> None:
    """Lay bridges across a river at evenly spread points (where the ruleset has bridges)."""
    if canvas.palette("bridge") is None or not line:
        return
    for k in range(count):
        x0, y0 = line[(k + 1) * len(line) // (count + 1)]
        for d in range(-3, 4):
            x, y = (x0, y0 + d) if across else (x0 + d, y0)
            if canvas.inside(x, y) and (canvas.role_at(x, y, "water") or canvas.role_at(x, y, "shallows")):
                canvas.paint(x, y, "bridge")
                canvas.deep.discard((x, y))


def _town(canvas: Canvas, cx: int, cy: int, radius: int) -> None:
    """Lay a town of blocks and streets around a square."""
    for y in range(cy - radius, cy + radius + 1):
        for x in range(cx - radius, cx + radius + 1):
            if not canvas.inside(x, y) or canvas.role_at(x, y, "water"):
                continue
            street = (x - cx) % 4 == 0 or (y - cy) % 4 == 0
            if not street and math.hypot(x - cx, y - cy) <= radius + canvas.rng.uniform(-1, 1):
                canvas.paint(x, y, "town")


def river_valley(canvas: Canvas) -> None:
    """Draw a valley: wooded hills on the flanks, a river down the middle with bridges, a village on its bank."""
    across = canvas.width > canvas.height
    _blobs(canvas, "high", scale=max(6, canvas.width / 4), share=0.12)
    _blobs(canvas, "woods", scale=max(4, canvas.width / 6), share=0.2, avoid=("high",))
    line = _river(canvas, 2 if min(canvas.width, canvas.height) < 40 else 3, across)
    _bridges(canvas, line, 2, across)
    x, y = line[len(line) // 3]
    offset = 4 if canvas.rng.random() < 0.5 else -4
    _town(canvas, x + (0 if across else offset), y + (offset if across else 0), max(2, min(canvas.width, canvas.height) // 8))


def city(canvas: Canvas) -> None:
    """Draw a city: blocks in a street grid, a park or two, a canal."""
    size = min(canvas.width, canvas.height)
    block = 3 if size < 40 else 4
    for y in range(canvas.height):
        for x in range(canvas.width):
            if x % (block + 1) and y % (block + 1):
                canvas.paint(x, y, "town")
    for _ in range(max(1, size // 15)):
        px, py = canvas.rng.randrange(canvas.width), canvas.rng.randrange(canvas.height)
        r = canvas.rng.randint(2, max(2, size // 8))
        for y in range(py - r, py + r + 1):
            for x in range(px - r, px + r + 1):
                if canvas.inside(x, y) and abs(x - px) + abs(y - py) <= r + 1:
                    canvas.paint(x, y, "woods")
    if size >= 16:
        across = canvas.rng.random() < 0.5
        line = _river(canvas, 2, across)
        _bridges(canvas, line, max(2, size // 10), across)


def mountains(canvas: Canvas) -> None:
    """Draw high country: ridges of high ground with passes, rough slopes, wooded valleys and a lake."""
    field = canvas.noise(max(5, canvas.width / 3))
    ranked = sorted(field)
    high, rough, woods = (ranked[int(len(ranked) * q)] for q in (0.78, 0.66, 0.25))
    for i, value in enumerate(field):
        x, y = i % canvas.width, i // canvas.width
        if value > high:
            canvas.paint(x, y, "high")
        elif value > rough:
            canvas.paint(x, y, "rough")
        elif value < woods:
            canvas.paint(x, y, "woods")
    low = min(range(len(field)), key=lambda i: field[i])
    lx, ly = low % canvas.width, low // canvas.width
    r = max(1, min(canvas.width, canvas.height) // 10)
    for y in range(ly - r, ly + r + 1):
        for x in range(lx - r, lx + r + 1):
            if canvas.inside(x, y) and math.hypot(x - lx, y - ly) <= r:
                canvas.paint(x, y, "water")


def forest(canvas: Canvas) -> None:
    """Draw deep woods with clearings, a road through them and a stream."""
    _blobs(canvas, "woods", scale=max(4, canvas.width / 5), share=0.65)
    _blobs(canvas, "rough", scale=3, share=0.05, avoid=("woods",))
    road_y = canvas.rng.randrange(canvas.height)
    for x in range(canvas.width):
        road_y = max(0, min(canvas.height - 1, road_y + canvas.rng.choice((-1, 0, 0, 0, 1))))
        canvas.paint(x, road_y, "open")
    if min(canvas.width, canvas.height) >= 12:
        _river(canvas, 1, across=False)


def coast(canvas: Canvas) -> None:
    """Draw a coast: open sea on one side (deep off shore), shallows and a beach, villages and woods inland."""
    side = canvas.rng.choice(("west", "east", "north", "south"))
    field = canvas.noise(max(4, canvas.width / 4), octaves=2)
    depth = max(canvas.width, canvas.height)
    for y in range(canvas.height):
        for x in range(canvas.width):
            along = {"west": x, "east": canvas.width - 1 - x, "north": y, "south": canvas.height - 1 - y}[side]
            reach = (canvas.width if side in ("west", "east") else canvas.height) * (0.25 + 0.2 * field[y * canvas.width + x])
            if along < reach - 3:
                canvas.paint(x, y, "water")
                canvas.deep.add((x, y))
            elif along < reach - 1:
                canvas.paint(x, y, "water")
            elif along < reach:
                canvas.paint(x, y, "shallows")
    _blobs(canvas, "woods", scale=max(4, depth / 6), share=0.15, avoid=("water", "shallows"))
    for _ in range(max(1, depth // 25)):
        x, y = canvas.rng.randrange(canvas.width), canvas.rng.randrange(canvas.height)
        if not canvas.role_at(x, y, "water"):
            _town(canvas, x, y, max(2, depth // 12))


def islands(canvas: Canvas) -> None:
    """Draw islands in open water: shallow rims, wooded hearts, a hill or a hamlet on the biggest."""
    field = canvas.noise(max(5, canvas.width / 4))
    for i, value in enumerate(field):
        x, y = i % canvas.width, i // canvas.width
        if value < 0.42:
            canvas.paint(x, y, "water")
            if value < 0.32:
                canvas.deep.add((x, y))
        elif value < 0.47:
            canvas.paint(x, y, "shallows")
        elif value > 0.7:
            canvas.paint(x, y, "high")
        elif value > 0.6:
            canvas.paint(x, y, "woods")
    top = max(range(len(field)), key=lambda i: field[i])
    _town(canvas, top % canvas.width, top // canvas.width, 1)


STYLES: dict[str, tuple[str, Callable[[Canvas], None]]] = {
    "river-valley": ("River valley", river_valley),
    "city": ("City", city),
    "mountains": ("Mountains", mountains),
    "forest": ("Forest", forest),
    "coast": ("Coast", coast),
    "islands": ("Islands", islands),
}


def generate(ruleset: Ruleset, style: str, seed: int, width: int, height: int) -> str:
    """Return a generated map as a battlepost map file: the same style, seed, size and ruleset give the same map."""
    if style not in STYLES:
        raise MapImportError(f"`{style}` is not a map style; choose one of {', '.join(STYLES)}.")
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise MapImportError(f"A map is 1 to {MAX_SIDE} squares each way, not {width}x{height}.")
    # A string seed is hashed with SHA-512 by random, so it is the same on every machine and run.
    rng = random.Random(f"battlepost:{style}:{seed}:{width}x{height}:{ruleset.id}")
    canvas = Canvas(width, height, rng, palette_for(ruleset))
    STYLES[style][1](canvas)
    grid = Grid(width, height, list(canvas.cells))
    water = canvas.palette("water")
    for x, y in canvas.deep:
        if water is not None and canvas.cells[y * width + x] == water:
            grid.flags[Cell(x, y)] = {"deep"}
    return map_text(ruleset, grid, ruleset.default_terrain)
