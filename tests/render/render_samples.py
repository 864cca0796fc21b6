"""Sample map views for the renderer tests: a small battlefield with every layer in use."""

from __future__ import annotations

import io

from PIL import Image, ImageChops, ImageDraw

from render import (
    CellEffect,
    FeatureMark,
    LineOfFire,
    MapView,
    Marker,
    MovePath,
    Overlay,
    Reachable,
    SideStyle,
    TargetSquare,
    TerrainStyle,
    UnitToken,
)
from render.fonts import draw_left
from render.legend import TEXT_PX
from render.palette import LEGEND_PAPER, TEXT_INK

STYLES: dict[str, TerrainStyle] = {
    s.key: s
    for s in (
        TerrainStyle("plain", "Plain", (203, 210, 160), "none"),
        TerrainStyle("forest", "Forest", (88, 134, 78), "trees"),
        TerrainStyle("rough", "Rough", (184, 160, 118), "stipple"),
        TerrainStyle("water", "Water", (80, 134, 192), "waves"),
        TerrainStyle("shallows", "Shallows", (150, 192, 212), "dots"),
        TerrainStyle("urban", "Urban", (170, 164, 158), "bricks"),
        TerrainStyle("ice", "Ice", (226, 236, 242), "grid"),
        TerrainStyle("mountain", "Mountain", (142, 124, 108), "triangles"),
        TerrainStyle("bridge", "Bridge", (156, 118, 80), "horizontal"),
        TerrainStyle("storm", "Storm", (124, 132, 156), "hatch"),
    )
}

SIDES = (SideStyle("NERV", (46, 98, 204)), SideStyle("Angels", (204, 52, 44)))

PLAIN_CELL = (2, 17)  # stays plain, empty and free of overlays in the sample
FOREST_CELL = (3, 3)
WATER_CELL = (15, 4)
STACK_CELL = (8, 9)
SINGLE_CELL = (5, 12)
HORDE_CELL = (22, 12)


def sample_terrain(width: int = 30, height: int = 20) -> tuple[str, ...]:
    """Return a row-major terrain layout with a river, a bridge, woods, hills, a town, ice and a storm."""
    cells: list[str] = []
    for y in range(height):
        for x in range(width):
            key = "plain"
            river = 15 + (1 if y > 10 else 0)
            if x == river or x == river + 1:
                key = "water"
            elif x in (river - 1, river + 2):
                key = "shallows"
            if y == 8 and river - 1 <= x <= river + 2:
                key = "bridge"
            if 1 <= x <= 6 and 1 <= y <= 5:
                key = "forest"
            if 20 <= x <= 26 and 2 <= y <= 4 and (x + y) % 3:
                key = "mountain"
            if 21 <= x <= 25 and 14 <= y <= 17:
                key = "urban"
            if 1 <= x <= 4 and 9 <= y <= 11:
                key = "rough"
            if 26 <= x <= 29 and 9 <= y <= 12:
                key = "ice"
            if 8 <= x <= 11 and 15 <= y <= 18:
                key = "storm"
            cells.append(key)
    return tuple(cells)


def sample_view(map_version: str = "sample-1", terrain: tuple[str, ...] | None = None) -> MapView:
    """Return a 30x20 battle with two sides, a stack of three, a Horde, a feature, fire and smoke."""
    units = (
        UnitToken("eva01", "E01", "NERV", *STACK_CELL, health=0.9, marks=("P",)),
        UnitToken("eva00", "E00", "NERV", *STACK_CELL, health=0.5),
        UnitToken("eva02", "E02", "NERV", *STACK_CELL, health=1.0),
        UnitToken("tank", "TK1", "NERV", *SINGLE_CELL, health=0.25, marks=("S", "F")),
        UnitToken("inf", "INF", "NERV", 12, 7, health=None),
        UnitToken("sachiel", "SAC", "Angels", 19, 9, health=0.7),
        UnitToken("horde", "HRD", "Angels", *HORDE_CELL, health=0.6, is_horde=True),
        UnitToken("scout", "SC", "Angels", 24, 6, health=1.0, marks=("H",)),
    )
    return MapView(
        title="Battle of Tokyo-3 · turn 4",
        width=30,
        height=20,
        map_version=map_version,
        terrain=terrain if terrain is not None else sample_terrain(),
        styles=STYLES,
        sides=SIDES,
        units=units,
        features=(
            FeatureMark(13, 9, "TR", (120, 84, 40)),
            FeatureMark(13, 10, "BW", (90, 90, 96)),
            FeatureMark(20, 7, "MF", (170, 40, 120), hidden=True),
        ),
        effects=(
            CellEffect(18, 9, "fire"),
            CellEffect(18, 10, "fire"),
            CellEffect(17, 11, "smoke"),
            CellEffect(18, 11, "smoke"),
        ),
    )


def sample_overlays() -> tuple[Overlay, ...]:
    """Return a move path, a line of fire, a target square, two nested reachable areas and a marker."""
    walk = frozenset((x, y) for x in range(10, 15) for y in range(5, 10) if max(abs(x - 12), abs(y - 7)) <= 2)
    run = frozenset((x, y) for x in range(8, 17) for y in range(3, 12) if max(abs(x - 12), abs(y - 7)) <= 4)
    return (
        Reachable(run, "Run", (250, 160, 40)),
        Reachable(walk, "Walk", (60, 170, 250)),
        MovePath(((5, 14), (6, 13), (7, 12), (8, 11), (8, 10), STACK_CELL)),
        LineOfFire(STACK_CELL, (19, 9), hit=True),
        LineOfFire(SINGLE_CELL, HORDE_CELL, hit=False),
        TargetSquare(19, 9),
        Marker(24, 6, "Spotted"),
    )


def small_view(
    *,
    width: int = 14,
    height: int = 14,
    units: tuple[UnitToken, ...] = (),
    terrain: tuple[str, ...] | None = None,
    features: tuple[FeatureMark, ...] = (),
    effects: tuple[CellEffect, ...] = (),
    map_version: str = "small-1",
) -> MapView:
    """Return a plain map (forest in the top-left 3x3) with whatever units, features and effects are given."""
    if terrain is None:
        terrain = tuple("forest" if x < 3 and y < 3 else "plain" for y in range(height) for x in range(width))
    return MapView(
        title="Probe",
        width=width,
        height=height,
        map_version=map_version,
        terrain=terrain,
        styles=STYLES,
        sides=SIDES,
        units=units,
        features=features,
        effects=effects,
    )


def open_png(data: bytes) -> Image.Image:
    """Decode PNG bytes into a loaded RGB image."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def dominant(image: Image.Image, box: tuple[int, int, int, int]) -> tuple[int, int, int]:
    """Return the most common colour inside the interior of a cell box (grid line excluded)."""
    left, top, right, bottom = box
    region = image.crop((left + 1, top + 1, right, bottom))
    _, colour = max(colour_counts(region))
    return colour


def colour_counts(image: Image.Image) -> list[tuple[int, tuple[int, int, int]]]:
    """Return (count, colour) for every colour of an RGB image."""
    found = image.convert("RGB").getcolors(image.width * image.height)
    assert found is not None
    return [(n, (c[0], c[1], c[2])) for n, c in found if isinstance(c, tuple)]


def rgb_at(image: Image.Image, xy: tuple[int, int]) -> tuple[int, int, int]:
    """Return the RGB colour of one pixel."""
    c = image.convert("RGB").getpixel(xy) if image.mode != "RGB" else image.getpixel(xy)
    assert isinstance(c, tuple)
    return (c[0], c[1], c[2])


def shows_text(image: Image.Image, text: str) -> bool:
    """Return whether a legend line's text is painted somewhere in the image, pixel for pixel, on the legend's paper."""
    ink = Image.new("RGB", (12 * len(text) + 20, 3 * TEXT_PX), LEGEND_PAPER)
    draw_left(ImageDraw.Draw(ink), 4, 1.5 * TEXT_PX, text, TEXT_PX, TEXT_INK)
    box = ImageChops.difference(ink, Image.new("RGB", ink.size, LEGEND_PAPER)).getbbox()
    assert box is not None
    pattern = ink.crop(box)
    rows = [pattern.crop((0, y, pattern.width, y + 1)).tobytes() for y in range(pattern.height)]
    lines = [image.crop((0, y, image.width, y + 1)).tobytes() for y in range(image.height)]
    for y in range(image.height - pattern.height + 1):
        at = lines[y].find(rows[0])
        while at != -1:
            if at % 3 == 0 and all(lines[y + k][at:at + len(rows[k])] == rows[k] for k in range(1, len(rows))):
                return True
            at = lines[y].find(rows[0], at + 1)
    return False
