"""A deviating area shot is drawn on the map: a dotted drift from the aimed square to a crater where it landed."""

from __future__ import annotations

import io
import random

from PIL import Image

from bot.mapview import action_cells, build_view, overlays_for
from render import Geometry, render_map
from render.palette import LANDED
from rules.battle import Battle
from rules.coords import Cell
from rules.dice import Dice
from rules.orders import AddUnit, Start
from rules.systems import install

install()
CP = 32


def test_the_landing_crater_is_drawn_where_the_grenade_came_down() -> None:
    """A grenade thrown at A4 that misses by 3 lands 9 cm on (2 squares) at A6: the crater is drawn there."""
    b = Battle.new("combat-action", 10, 10)
    dice = Dice(random.Random(0))
    b.apply(AddUnit("A", "Red", Cell.parse("A1"), stats={"kind": "infantry", "weapons": [
        {"name": "Frag", "class": "grenades", "pen": 3}]}), dice)
    b.apply(AddUnit("B", "Blue", Cell.parse("A4"), stats={"kind": "infantry"}), dice)
    b.turn.mode = "free"
    b.apply(Start(), dice)
    b.apply(b.parse_order("prime unit:A weapon:Frag"), dice)
    out = b.apply(b.parse_order("fire unit:A weapon:Frag target:B mode:grenade"),
                  Dice(random.Random(0), scripted=[1, 1]))
    assert (out.highlight.target, out.highlight.landed) == ("A4", "A6")
    assert (0, 5) in action_cells(out.highlight), "the landing is kept inside a cropped map"
    view = build_view(b)
    image = Image.open(io.BytesIO(render_map(view, overlays=overlays_for(out.highlight), cell_px=CP))).convert("RGB")
    geometry = Geometry.for_view(view, cell_px=CP)
    cx, cy = geometry.cell_centre(0, 5)
    ring = round(max(5.0, CP * 0.3))
    assert image.getpixel((cx + ring, cy)) == LANDED or image.getpixel((cx - ring, cy)) == LANDED
    plain = Image.open(io.BytesIO(render_map(view, cell_px=CP))).convert("RGB")
    assert plain.getpixel((cx + ring, cy)) != LANDED
