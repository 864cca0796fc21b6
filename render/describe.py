"""The map as text, for screen readers: what just happened, every unit and what is around it, terrain.

It reads the same view and overlays the image is drawn from, so the words and the picture agree.
Pure and deterministic; no Pillow.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from render.geometry import Crop, normalise_crop
from render.view import (
    XY,
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
    UnitToken,
)
from rules.coords import column_label

log = logging.getLogger(__name__)

ALT_LIMIT = 1024  # Discord's limit on an attachment's description
MAX_REGIONS = 60  # the full text lists this many terrain areas, then counts the rest
EFFECT_WORDS = {"fire": "Fire", "smoke": "Smoke", "storm": "Storm", "burnt": "Burnt ground", "deep": "Deep water"}
AREA_WORDS = {"blast": "A blast", "cone": "A cone", "line": "A line attack", "at_field": "An AT-field attack"}


MAX_MODELS_NAMED = 12
MAX_SIDES_NAMED = 12


def square(xy: XY) -> str:
    """Return a square's A1 name."""
    return f"{column_label(xy[0])}{xy[1] + 1}"


def direction(a: XY, b: XY) -> str:
    """Return the compass direction from square a to square b (rows grow southward)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    if dx == 0 and dy == 0:
        return "here"
    # Eight sectors: a step is diagonal when the smaller offset is at least half the larger.
    ax, ay = abs(dx), abs(dy)
    if 2 * min(ax, ay) < max(ax, ay):
        if ax > ay:
            return "east" if dx > 0 else "west"
        return "south" if dy > 0 else "north"
    ns = "south" if dy > 0 else "north"
    ew = "east" if dx > 0 else "west"
    return f"{ns}-{ew}"


def distance(a: XY, b: XY) -> int:
    """Return the distance in squares (Chebyshev)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def plural(n: int, word: str) -> str:
    """Return `1 square` or `3 squares`."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def unit_name(unit: UnitToken) -> str:
    """Return how the text names a unit: its name and, in brackets, its label on the map."""
    return f"{unit.shown_name} ({unit.label})"


@dataclass(frozen=True)
class MapText:
    """Hold the map as text, section by section, in reading order."""

    heading: str
    happened: tuple[str, ...]
    units: tuple[str, ...]
    terrain: tuple[str, ...]
    marks: tuple[str, ...]
    outside: int = 0

    def lines(self) -> list[str]:
        """Return every line of the full text, headed by section."""
        out = [self.heading]
        if self.happened:
            out += ["", "What just happened:", *self.happened]
        out += ["", f"Units ({len(self.units)}):" if self.units else "No units on the map.", *self.units]
        if self.marks:
            out += ["", "Features and effects:", *self.marks]
        out += ["", "Terrain:", *self.terrain]
        return out

    def full(self) -> str:
        """Return the whole text."""
        return "\n".join(self.lines())


def describe(view: MapView, overlays: Sequence[Overlay] = (), crop: Crop | None = None) -> MapText:
    """Describe a map: heading, what the overlays show happened, units, features and effects, terrain.

    With a crop, only what lies inside it is described, and `outside` counts the units left out.
    """
    window = normalise_crop(view.width, view.height, crop)
    inside = [u for u in view.units if _within(window, (u.x, u.y))]
    heading = _heading(view, window)
    return MapText(
        heading=heading,
        happened=tuple(_happened(view, overlays)),
        units=tuple(_unit_lines(view, inside)),
        terrain=tuple(_terrain_lines(view, window)),
        marks=tuple(_mark_lines(view, window)),
        outside=len(view.units) - len(inside),
    )


def _within(window: Crop, xy: XY) -> bool:
    return window[0] <= xy[0] <= window[2] and window[1] <= xy[1] <= window[3]


def _heading(view: MapView, window: Crop) -> str:
    whole = window == (0, 0, view.width - 1, view.height - 1)
    shown = (f"the whole map, {view.width} by {view.height} squares, A1 to {square((view.width - 1, view.height - 1))}"
             if whole else f"squares {square(window[:2])} to {square(window[2:])} of a {view.width} by "
                           f"{view.height} map")
    status = f" {view.status}." if view.status else ""
    return f"Map of {view.title}.{status} Shown: {shown}."


def _unit_at_end(view: MapView, xy: XY) -> UnitToken | None:
    return next((u for u in view.units if (u.x, u.y) == xy), None)


def _happened(view: MapView, overlays: Sequence[Overlay]) -> list[str]:
    """Return a sentence per overlay, in the order they were given."""
    out: list[str] = []
    for o in overlays:
        if isinstance(o, MovePath) and len(o.cells) > 1:
            mover = _unit_at_end(view, o.cells[-1])
            name = unit_name(mover) if mover else "A unit"
            steps = len(o.cells) - 1
            via = f" by {', '.join(square(c) for c in o.cells[1:-1])}" if 1 < len(o.cells) - 1 <= 8 else ""
            out.append(f"{name} moved from {square(o.cells[0])} to {square(o.cells[-1])}{via} "
                       f"({plural(steps, 'step')}).")
        elif isinstance(o, LineOfFire):
            shooter, target = _unit_at_end(view, o.src), _unit_at_end(view, o.dst)
            firer = unit_name(shooter) if shooter else f"A unit on {square(o.src)}"
            at = f"{unit_name(target)} on {square(o.dst)}" if target else square(o.dst)
            result = {True: "hit", False: "missed", None: "would fire"}[o.hit]
            verb = "attacked" if o.hit is not None else "aims at"  # a blow in melee as well as a shot
            out.append(f"{firer} {verb} {at}, {distance(o.src, o.dst)} squares {direction(o.src, o.dst)}: {result}.")
        elif isinstance(o, AreaOfEffect):
            where = ", ".join(square(c) for c in o.cells[:12])
            more = f" and {len(o.cells) - 12} more" if len(o.cells) > 12 else ""
            label = f" ({o.label})" if o.label else ""
            out.append(f"{AREA_WORDS.get(o.kind, 'An area attack')} covered {where}{more}{label}.")
        elif isinstance(o, MissLanding):
            out.append(f"The missed shot aimed at {square(o.aim)} came down on {square(o.landed)}, "
                       f"{plural(distance(o.aim, o.landed), 'square')} {direction(o.aim, o.landed)} of it.")
        elif isinstance(o, TargetSquare):
            out.append(f"Target square: {square((o.x, o.y))}.")
        elif isinstance(o, Marker):
            out.append(f"{o.text} on {square((o.x, o.y))}.")
        elif isinstance(o, SquareChoices):
            names = ", ".join(square(c) for c in o.cells[:25])
            more = f" and {len(o.cells) - 25} more" if len(o.cells) > 25 else ""
            out.append(f"{o.label}, outlined and named: {names}{more}.")
        elif isinstance(o, Reachable):
            out.append(f"{o.label or 'Reach'}: {plural(len(o.cells), 'square')} within reach (tinted).")
        elif isinstance(o, RangeBands):
            bands = "; ".join(
                f"{b.name} {b.low} to {b.high}" if b.high is not None else f"{b.name} {b.low} and beyond"
                for b in o.bands
            )
            label = o.label or "Range bands"
            out.append(f"{label} from {square(o.src)}, in squares: {bands}.")
    return out


def _unit_lines(view: MapView, units: Sequence[UnitToken]) -> list[str]:
    """Return one line per unit: by side, then north to south and west to east."""
    rank = {s.name: i for i, s in enumerate(view.sides)}
    ordered = sorted(units, key=lambda u: (rank.get(u.side, len(rank)), u.y, u.x, u.shown_name))
    features = {(f.x, f.y): f for f in view.features}
    effects: dict[XY, list[str]] = {}
    for e in view.effects:
        effects.setdefault((e.x, e.y), []).append(EFFECT_WORDS.get(e.kind, e.kind))
    by_square: dict[XY, list[UnitToken]] = {}
    for u in view.units:
        by_square.setdefault((u.x, u.y), []).append(u)
    # Enemies of each side, for the nearest-enemy note: a few hundred units at most, so a scan will do.
    sides = {u.side for u in view.units}
    enemies = {side: [u for u in view.units if u.side != side] for side in sides}
    lines = []
    for u in ordered:
        here = (u.x, u.y)
        who = f"{unit_name(u)}, {u.side}" + (f", commanded by {u.owner}" if u.owner else "")
        state = [s for s in (u.health_text, ", ".join(u.statuses)) if s]
        floor = f" (floor {u.level})" if u.level else ""
        head = f"{who}: on {square(here)}{floor}, {_terrain_name(view, here)}"
        notes = []
        if u.models:
            shown = ", ".join(square((x, y)) + (f" (floor {z})" if z else "") for x, y, z in u.models[:MAX_MODELS_NAMED])
            more = f" and {len(u.models) - MAX_MODELS_NAMED} more" if len(u.models) > MAX_MODELS_NAMED else ""
            notes.append(f"its other models on {shown}{more}")
        feature = features.get(here)
        if feature is not None:
            notes.append(f"in a {feature.name or feature.label}")
        if here in effects:
            notes.append(", ".join(effects[here]).lower())
        mates = [m for m in by_square[here] if m is not u]
        if mates:
            mate_words = ", ".join(f"{unit_name(m)}{' (enemy)' if m.side != u.side else ''}" for m in mates[:6])
            more = f" and {len(mates) - 6} more" if len(mates) > 6 else ""
            notes.append(f"shares the square with {mate_words}{more}")
        # Enemies on the same square are named above; the nearest one elsewhere says where the fight is.
        foes = [f for f in enemies.get(u.side, []) if (f.x, f.y) != here]
        if foes:
            near = min(foes, key=lambda f: (distance(here, (f.x, f.y)), f.y, f.x))
            d = distance(here, (near.x, near.y))
            notes.append(f"nearest enemy {unit_name(near)} {plural(d, 'square')} {direction(here, (near.x, near.y))}"
                         f" on {square((near.x, near.y))}")
        text = head
        if state:
            text += f"; {'; '.join(state)}"
        if notes:
            text += f"; {'; '.join(notes)}"
        lines.append(text + ".")
    return lines


def _terrain_name(view: MapView, xy: XY) -> str:
    key = view.terrain_at(*xy)
    style = view.styles.get(key)
    return style.name if style is not None else key


def _mark_lines(view: MapView, window: Crop) -> list[str]:
    """Return a line per feature kind and per effect kind, with the squares they are on."""
    out = []
    features: dict[str, list[str]] = {}
    for f in sorted(view.features, key=lambda f: (f.y, f.x)):
        if _within(window, (f.x, f.y)):
            name = (f.name or f.label) + (" (hidden from the other side)" if f.hidden else "")
            features.setdefault(name, []).append(square((f.x, f.y)))
    for name, squares in features.items():
        out.append(f"{name}: {', '.join(squares)}.")
    effects: dict[str, list[str]] = {}
    for e in sorted(view.effects, key=lambda e: (e.y, e.x)):
        if _within(window, (e.x, e.y)):
            effects.setdefault(EFFECT_WORDS.get(e.kind, e.kind), []).append(square((e.x, e.y)))
    for name, squares in effects.items():
        out.append(f"{name}: {', '.join(squares)}.")
    return out + _structure_lines(view, window)


def _structure_lines(view: MapView, window: Crop) -> list[str]:
    """Return a line per kind of obstacle on the sides between squares, the roads and the floor counts."""
    out = []
    sides: dict[str, list[str]] = {}
    for e in view.edges:
        if not (_within(window, e.a) or _within(window, e.b)):
            continue
        name = e.kind.replace("lava", "lava channel").capitalize() + (" too tall to cross" if e.tall else "")
        if e.opening:
            name += f" with an opening {e.opening:g}\" wide" + ("" if e.openable else " (models stand outside)")
        sides.setdefault(name, []).append(f"{square(e.a)}|{square(e.b)}")
    for name, where in sides.items():
        shown = ", ".join(where[:MAX_SIDES_NAMED]) + (f" and {len(where) - MAX_SIDES_NAMED} more"
                                                      if len(where) > MAX_SIDES_NAMED else "")
        out.append(f"{name}: {plural(len(where), 'side')}, {shown}.")
    roads = sorted((xy for xy in view.roads if _within(window, xy)), key=lambda xy: (xy[1], xy[0]))
    if roads:
        out.append(f"Road: {plural(len(roads), 'square')} from {square(roads[0])} to {square(roads[-1])}.")
    floors: dict[int, list[XY]] = {}
    for x, y, n in view.floors:
        if _within(window, (x, y)):
            floors.setdefault(n, []).append((x, y))
    for n, squares in sorted(floors.items()):
        out.append(f"{plural(len(squares), 'square')} of {n} floors, from {square(min(squares, key=lambda q: (q[1], q[0])))}"
                   f" to {square(max(squares, key=lambda q: (q[1], q[0])))}.")
    return out


def _terrain_lines(view: MapView, window: Crop) -> list[str]:
    """Name the commonest terrain, then each connected area of the others, largest first."""
    x0, y0, x1, y1 = window
    counts = Counter(view.terrain_at(x, y) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1))
    background, bg_count = counts.most_common(1)[0]
    total = sum(counts.values())
    bg_name = view.styles[background].name if background in view.styles else background
    lines = [f"Mostly {bg_name} ({plural(bg_count, 'square')} of {total})."]
    regions = _regions(view, window, background)
    regions.sort(key=lambda r: (-r[1], r[2][1], r[2][0]))
    for key, size, (rx0, ry0, rx1, ry1) in regions[:MAX_REGIONS]:
        name = view.styles[key].name if key in view.styles else key
        span = (rx1 - rx0 + 1) * (ry1 - ry0 + 1)
        if size == 1:
            lines.append(f"{name}: the single square {square((rx0, ry0))}.")
            continue
        shape = "a block" if span == size else "an area"
        lines.append(f"{name}: {shape} of {plural(size, 'square')} from {square((rx0, ry0))} to "
                     f"{square((rx1, ry1))}.")
    if len(regions) > MAX_REGIONS:
        rest = regions[MAX_REGIONS:]
        lines.append(f"And {len(rest)} smaller areas of {sum(r[1] for r in rest)} squares in all.")
    return lines


def _regions(view: MapView, window: Crop, background: str) -> list[tuple[str, int, Crop]]:
    """Return each connected area (side by side, not corner to corner) of a terrain other than the background."""
    x0, y0, x1, y1 = window
    seen: set[XY] = set()
    out: list[tuple[str, int, Crop]] = []
    for y in range(y0, y1 + 1):
        for x in range(x0, x1 + 1):
            key = view.terrain_at(x, y)
            if key == background or (x, y) in seen:
                continue
            stack = [(x, y)]
            seen.add((x, y))
            size, bx0, by0, bx1, by1 = 0, x, y, x, y
            while stack:
                cx, cy = stack.pop()
                size += 1
                bx0, by0, bx1, by1 = min(bx0, cx), min(by0, cy), max(bx1, cx), max(by1, cy)
                for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                    if x0 <= nx <= x1 and y0 <= ny <= y1 and (nx, ny) not in seen and view.terrain_at(nx, ny) == key:
                        seen.add((nx, ny))
                        stack.append((nx, ny))
            out.append((key, size, (bx0, by0, bx1, by1)))
    return out


def alt_text(text: MapText, limit: int = ALT_LIMIT) -> str:
    """Return a short description for an image's alt text: heading, what happened, units, then terrain."""
    tail = " More: /map text reads the whole map."
    parts = [text.heading, *text.happened]
    if text.units:
        parts.append(f"Units shown: {len(text.units)}.")
        parts += list(text.units)
    if text.outside:
        parts.append(f"{plural(text.outside, 'unit')} outside this view.")
    parts += list(text.marks)
    parts += list(text.terrain)
    out = ""
    for part in parts:
        if len(out) + len(part) + 1 + len(tail) > limit:
            room = limit - len(tail) - len(out) - 2
            if room > 40:
                out += " " + part[: room - 1].rstrip() + "\u2026"
            return (out + tail).strip()[:limit]
        out += " " + part
    return out.strip()
