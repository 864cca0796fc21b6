"""Pixel probes of a machine's facing arrow: it sits on the token's rim, the way the unit faces."""

from __future__ import annotations

import pytest

from render import Geometry, UnitToken, render_map
from render.layers.units import TokenSize
from render.palette import OUTLINE
from tests.render.render_samples import open_png, rgb_at, small_view

CP = 40


def _probe(facing: int | None) -> dict[str, tuple[int, int, int]]:
    view = small_view(units=(UnitToken("t", "T", "NERV", 6, 6, facing=facing),))
    image = open_png(render_map(view, cell_px=CP))
    cx, cy = Geometry.for_view(view, cell_px=CP).cell_centre(6, 6)
    reach = TokenSize.for_cell(CP).radius + 2
    spots = {"N": (cx, cy - reach), "E": (cx + reach, cy), "S": (cx, cy + reach), "W": (cx - reach, cy)}
    return {name: rgb_at(image, xy) for name, xy in spots.items()}


@pytest.mark.parametrize(("facing", "side"), [(0, "N"), (90, "E"), (180, "S"), (270, "W")])
def test_arrow_points_the_way_the_machine_faces(facing: int, side: str) -> None:
    """The arrowhead is drawn just outside the rim on the facing side, and on no other side."""
    found = _probe(facing)
    plain = _probe(None)
    assert found[side] == OUTLINE and plain[side] != OUTLINE
    assert all(found[s] == plain[s] for s in found if s != side)

