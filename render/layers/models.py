"""A unit's models besides its leader: small discs in the side colour, drawn under the leaders' tokens."""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable

from PIL import Image, ImageDraw

from render.fonts import fit_size
from render.geometry import Geometry
from render.layers.labels import Label
from render.palette import OUTLINE, WHITE, Palette, ink_on, mix
from render.shapes import badge, badge_measure, paste_smooth, smooth_box
from render.view import RGB, XY, MapView, UnitToken

MODEL_SCALE = 0.27  # a model's radius as a share of the square, alone in its square
SHARED_SCALE = 0.18  # the radius when it shares its square with a leader's token
LABEL_MIN_PX = 6
MODEL_REACH = 1  # squares past its own a model's disc or floor badge may paint (the badge rises over the top side)


def model_squares(unit: UnitToken) -> dict[XY, tuple[int, int]]:
    """Return each square holding models of a unit: how many stand there and the highest floor."""
    out: dict[XY, tuple[int, int]] = {}
    for x, y, level in unit.models:
        count, top = out.get((x, y), (0, 0))
        out[(x, y)] = (count + 1, max(top, level))
    return out


def model_centre(geometry: Geometry, x: int, y: int, shared: bool) -> tuple[float, float, int]:
    """Return where a square's model disc sits and its radius: centred, or in the corner beside a token."""
    cp = geometry.cell_px
    left, top, _, _ = geometry.local_box(x, y)
    if shared:
        r = max(3, round(cp * SHARED_SCALE))
        return left + cp - r - 1, top + cp - r - 1, r
    cx, cy = geometry.local_centre(x, y)
    return cx, cy, max(3, round(cp * MODEL_SCALE))


def draw_models(grid: Image.Image, geometry: Geometry, palette: Palette, view: MapView,
                colour_of: dict[str, RGB], *, beside_tokens: bool, only: Collection[XY] | None = None) -> list[Label]:
    """Draw the units' models inside the window: those alone on their squares (drawn before the tokens), or those
    beside a leader's token (after it, in the corner); return their labels, painted once the overlays are drawn.

    With `only`, draw just the models that may paint on those squares (a map repainted in place).
    """
    draw = ImageDraw.Draw(grid)
    tokens = {(u.x, u.y) for u in view.units}
    labels: list[Label] = []
    for unit in view.units:
        labels += _draw_unit_models(grid, draw, geometry, palette, unit, colour_of[unit.key], tokens, beside_tokens,
                                    only)
    return labels


def _draw_unit_models(grid: Image.Image, draw: ImageDraw.ImageDraw, geometry: Geometry, palette: Palette,
                      unit: UnitToken, colour: RGB, tokens: Iterable[XY], beside_tokens: bool,
                      only: Collection[XY] | None) -> list[Label]:
    """Draw one unit's models: a disc per square with its label, a count when several stand on its floors."""
    taken = set(tokens)
    labels: list[Label] = []
    for (x, y), (count, top) in sorted(model_squares(unit).items()):
        if not geometry.contains(x, y) or ((x, y) in taken) != beside_tokens:
            continue
        if only is not None and not geometry.touches(x, y, MODEL_REACH, only):
            continue
        cx, cy, r = model_centre(geometry, x, y, (x, y) in taken)
        hidden = "H" in unit.marks
        fill = mix(colour, palette(WHITE), 0.6) if hidden else colour
        side = 2 * r + 1
        sprite = smooth_box(side, side, side / 2, fill, palette(OUTLINE), 1)
        paste_smooth(grid, sprite, math.floor(cx + 0.5) - r, math.floor(cy + 0.5) - r)
        text = f"x{count}" if count > 1 else unit.label[:4]
        px = fit_size(text, int(r * 1.7), int(r * 1.2), max(6, r))
        if px >= LABEL_MIN_PX:
            labels.append(Label(text, math.floor(cx + 0.5), math.floor(cy + 0.5), px, ink_on(fill), fill))
        if top > 0:
            height = max(7, round(r * 0.9))
            mark = f"^{top}"
            _, width = badge_measure(mark, height)
            badge(grid, draw, round(cx + r - width / 2), round(cy - r - height / 2), height, mark,
                  palette(WHITE), palette(OUTLINE), palette(OUTLINE))
    return labels
