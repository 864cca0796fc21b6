"""Colours: the fixed interface colours, colour arithmetic, and the colour/greyscale palettes."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from render.view import RGB

log = logging.getLogger(__name__)

RGBA = tuple[int, int, int, int]

# Interface colours, chosen to stay quiet next to the terrain.
PAPER: RGB = (236, 232, 222)
LEGEND_PAPER: RGB = (246, 243, 236)
LABEL_INK: RGB = (72, 66, 58)
TEXT_INK: RGB = (36, 34, 32)
TITLE_BG: RGB = (44, 52, 64)
TITLE_INK: RGB = (246, 246, 246)
TITLE_SUBTLE: RGB = (176, 186, 200)
OUTLINE: RGB = (26, 26, 30)
WHITE: RGB = (255, 255, 255)
MAP_EDGE: RGB = (52, 48, 44)
UNKNOWN_TERRAIN: RGB = (200, 80, 200)

HEALTH_GOOD: RGB = (76, 175, 80)
HEALTH_FAIR: RGB = (236, 176, 40)
HEALTH_POOR: RGB = (214, 52, 40)
HEALTH_TROUGH: RGB = (40, 40, 44)

SHOT_HIT: RGB = (222, 38, 30)
SHOT_MISS: RGB = (240, 240, 240)
SHOT_PENDING: RGB = (255, 150, 20)
TARGET: RGB = (230, 30, 30)
CONTESTED: RGB = (255, 204, 0)  # hazard yellow, dashed over black: enemies share a square

# Area attacks: one colour per shape, each also drawn in its own way so shape, not hue, tells them apart.
AREA_STYLES: dict[str, tuple[str, RGB]] = {
    "blast": ("Blast", (255, 120, 0)),
    "cone": ("Cone", (230, 60, 150)),
    "line": ("Line", (150, 60, 230)),
    "at_field": ("AT-field", (255, 150, 20)),
}
CHOICE: RGB = (20, 110, 220)  # squares a player may pick: an outline and a name tag
LANDED: RGB = (120, 72, 30)  # where a missed shot came down
# Range bands, nearest first: light to dark so the order reads in greyscale too.
BAND_COLOURS: tuple[RGB, ...] = (
    (120, 220, 120),
    (90, 170, 240),
    (250, 210, 70),
    (240, 130, 60),
    (200, 60, 60),
    (140, 80, 160),
)

# Status marks: letter -> (legend name, badge colour). Unknown letters get a neutral badge.
MARK_STYLES: dict[str, tuple[str, RGB]] = {
    "P": ("Pinned", (226, 124, 28)),
    "S": ("Stunned", (138, 78, 200)),
    "F": ("On fire", (214, 44, 28)),
    "H": ("Hidden", (96, 100, 110)),
    "p": ("Prone", (120, 96, 60)),
    "I": ("Immobilised", (60, 110, 160)),
    "R": ("Routing", (200, 40, 120)),
    "~": ("Sunk", (30, 80, 170)),
    "FD": ("Flat down", (120, 96, 60)),
    "A": ("Aimed", (40, 120, 60)),
    "OC": ("Out of control", (200, 30, 30)),
    "DL": ("Damaged locations", (150, 60, 20)),
    "HJ": ("Hatches jammed", (90, 90, 40)),
}
OTHER_MARK: RGB = (70, 74, 82)

# Obstacles on the sides between squares: kind -> (legend name, colour); dark or saturated so they stand
# out from the terrain, and drawn thick so they read without colour too.
EDGE_STYLES: dict[str, tuple[str, RGB]] = {
    "wall": ("Wall", (96, 92, 100)),
    "hedge": ("Hedge", (28, 92, 36)),
    "fence": ("Fence", (150, 100, 50)),
    "creek": ("Creek", (40, 120, 220)),
    "lava": ("Lava channel", (240, 80, 10)),
}
ROAD: RGB = (226, 214, 186)
ROAD_EDGE: RGB = (120, 108, 90)

# Greys for side tokens in greyscale: far apart so two sides never look alike.
_SIDE_GREYS = (34, 248, 150, 200, 92, 226)


def luminance(c: RGB) -> float:
    """Return the perceived brightness of a colour, 0..255 (Rec. 601 weights)."""
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """Blend colour a toward b by fraction t."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def ink_on(c: RGB) -> RGB:
    """Return near-black or white, whichever reads better on colour c."""
    return (20, 20, 22) if luminance(c) > 150 else WHITE


def pattern_ink(c: RGB, strength: float = 0.38) -> RGB:
    """Return the colour a pattern is drawn in on fill c: darker on light fills, lighter on dark ones."""
    if luminance(c) > 96:
        return mix(c, (0, 0, 0), strength)
    return mix(c, WHITE, strength + 0.1)


def rgba(c: RGB, alpha: int) -> RGBA:
    """Return colour c with an alpha channel."""
    return (c[0], c[1], c[2], alpha)


def health_colour(health: float) -> RGB:
    """Return the fill of a health bar: green, amber or red."""
    if health > 0.6:
        return HEALTH_GOOD
    if health > 0.3:
        return HEALTH_FAIR
    return HEALTH_POOR


@dataclass(frozen=True)
class Palette:
    """Map every colour the renderer uses, so one switch turns the whole image greyscale."""

    grey: bool = False

    @property
    def name(self) -> str:
        """Return the palette's name as used in cache keys."""
        return "grey" if self.grey else "colour"

    def __call__(self, c: RGB) -> RGB:
        """Return colour c as this palette shows it."""
        if not self.grey:
            return c
        g = round(luminance(c))
        return (g, g, g)

    def side(self, index: int | None, c: RGB) -> RGB:
        """Return the token colour of a side; in greyscale, sides get well-separated greys."""
        if not self.grey:
            return c
        if index is None:
            return self(c)
        g = _SIDE_GREYS[index % len(_SIDE_GREYS)]
        return (g, g, g)


def palette_named(name: str) -> Palette:
    """Return the palette for "colour" or "grey" (American spellings accepted)."""
    key = name.strip().lower()
    if key in ("colour", "color"):
        return Palette(grey=False)
    if key in ("grey", "gray", "greyscale", "grayscale"):
        return Palette(grey=True)
    raise ValueError(f"unknown palette {name!r}: use 'colour' or 'grey'")
