"""An M42 reach at half an inch a square reads in half inches: the reach, its legend line on the PNG, My options."""

from __future__ import annotations

import io

from PIL import Image

from bot.mapview import build_view, reach_measure, reach_overlays
from cogs.turn.options import move_lines
from render import Reachable, render_map
from rules.battle import Battle
from tests.render.render_samples import shows_text
from tests.rules.m42.helpers import paint, rule, start, unit


def half_inch_woods() -> Battle:
    """Return an M42 battle at 0.5" a square, all woods, an Advance of 9" (a GM's), unit A on J10."""
    battle = Battle.new("m42", 40, 20, "Woods", (("inches_per_square", "0.5"),))  # the scale sizes the map
    rule(battle, "inches_per_square", "0.5")
    paint(battle, "woods", "A1", "AN20")
    rule(battle, "advance_inches", "9")
    unit(battle, "A", "J10")
    start(battle)
    return battle


def test_the_reach_keeps_half_inches() -> None:
    """A89 at 0.5" a square: 9 squares along a row are 4.5", not 4; the reach reports each square's inches."""
    battle = half_inch_woods()
    advance = battle.system.reach_of(battle, "A")["advance"]
    assert advance["S10"] == 4.5  # 9 squares of 0.5" (9" halved in the woods, 004:L29)
    assert advance["N10"] == 2.0
    assert "T10" not in advance  # 5" is beyond the halved 4.5"
    assert max(advance.values()) == 4.5


def test_the_reach_map_legend_says_the_half_inch() -> None:
    """The reach map's legend reads `Advance: up to 4.5"` on the PNG, and never the whole-inch `4"`."""
    battle = half_inch_woods()
    overlays = reach_overlays(battle.system.reach_of(battle, "A"), reach_measure(battle))
    labels = [o.label for o in overlays if isinstance(o, Reachable)]
    assert 'Advance: up to 4.5"' in labels
    image = Image.open(io.BytesIO(render_map(build_view(battle), overlays=overlays, cell_px=24))).convert("RGB")
    assert shows_text(image, 'Advance: up to 4.5"')
    assert not shows_text(image, 'Advance: up to 4"')


def test_my_options_say_the_half_inch() -> None:
    """My options read `up to 4.5" away` for an Advance halved to 4.5"."""
    battle = half_inch_woods()
    lines = move_lines(battle, battle.unit("A"), battle.system.reach_of(battle, "A"), None)
    assert any(line.startswith("**Advance**") and 'up to 4.5" away' in line for line in lines), lines


def test_strategic_reach_still_counts_squares() -> None:
    """A strategic reach counts squares, with no measure on its legend."""
    battle = Battle.new("strategic-p", 10, 10)
    assert reach_measure(battle) is None
    assert [o.label for o in reach_overlays({"half": {"B2": 1}, "full": {"C3": 2}}) if isinstance(o, Reachable)] \
        == ["Full", "Half"]
