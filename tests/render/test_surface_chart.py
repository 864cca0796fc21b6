"""The Surface Combat chart: bars of each side's losses by round, probed by pixel."""

from __future__ import annotations

import io

from PIL import Image

from render.surface_chart import BACKGROUND, SIDE_COLOURS, bar_boxes, render_surface_chart

REPORT = {
    "sides": ["Marines", "Rebels"],
    "capacity": {"Marines": 10, "Rebels": 10},
    "verdict": {"levels": {"Marines": "decisive victory", "Rebels": "decisive defeat"}},
    "log": [{"round": 1, "losses": {"Marines": 0, "Rebels": 5}},
            {"round": 2, "losses": {"Marines": 2, "Rebels": 10}}],
}


def test_bars_are_drawn_in_side_colours_with_heights_in_proportion() -> None:
    image = Image.open(io.BytesIO(render_surface_chart(REPORT))).convert("RGB")
    boxes = {(side, rnd): box for side, rnd, box in bar_boxes(REPORT)}
    full = boxes[("Rebels", 2)]
    half = boxes[("Rebels", 1)]
    assert (full[3] - full[1]) == 2 * (half[3] - half[1])
    cx = (full[0] + full[2]) // 2
    assert image.getpixel((cx, (full[1] + full[3]) // 2)) == SIDE_COLOURS[1]
    marines = boxes[("Marines", 2)]
    assert image.getpixel(((marines[0] + marines[2]) // 2, marines[3] - 2)) == SIDE_COLOURS[0]
    empty = boxes[("Marines", 1)]
    assert image.getpixel(((empty[0] + empty[2]) // 2, empty[3] - 20)) == BACKGROUND


def test_same_report_same_bytes() -> None:
    assert render_surface_chart(REPORT) == render_surface_chart(REPORT)
