"""Rain as a map file lays it (A29, A36): kept on its squares, drawn on the map and named in the legend."""

from __future__ import annotations

import io
import random

from PIL import Image

from bot.mapview import build_view
from render import CellEffect, Geometry, render_map
from render.layers.effects import EFFECT_NAMES
from rules.battle import Battle
from rules.dice import Dice
from rules.orders import ImportMap

WET = """# battlepost map: wet woods
# ruleset: strategic-p
# legend: . plain, F forest
..FF..
......
[rain]
...x..
......
"""
DROP = (40, 90, 190)


def test_rain_is_laid_by_the_map_drawn_on_its_square_and_named_in_the_legend() -> None:
    battle = Battle.new("strategic-p", 6, 2)
    out = battle.apply(ImportMap(text=WET), Dice(random.Random(0)))
    assert battle.cells == {"D1": {"rain": True}} and out.details.to_dict()["rain"] == 1
    view = build_view(battle)
    assert CellEffect(x=3, y=0, kind="rain") in view.effects
    image = Image.open(io.BytesIO(render_map(view, cell_px=40))).convert("RGB")
    geometry = Geometry.for_view(view, cell_px=40)

    def drops(x: int, y: int) -> int:
        region = image.crop(geometry.cell_box(x, y))
        return sum(n for n, c in region.getcolors(40 * 40) if max(abs(a - b) for a, b in zip(c, DROP, strict=True)) < 30)

    assert drops(3, 0) >= 10 and drops(2, 0) == 0, "drops on the rain square only"
    assert EFFECT_NAMES["rain"] == "Rain"
