"""The result of a Surface Combat engagement as a chart: damage points each side lost, round by round."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

WIDTH, HEIGHT = 640, 360
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 48, 16, 40, 48
BACKGROUND = (250, 248, 242)
AXIS = (60, 60, 60)
SIDE_COLOURS = ((200, 40, 40), (40, 80, 200))  # first side red, second blue, as on the map tokens


def bar_boxes(report: Mapping[str, Any]) -> list[tuple[str, int, tuple[int, int, int, int]]]:
    """Return each bar as (side, round, box): the side's damage points lost by the end of that round."""
    sides: Sequence[str] = report["sides"]
    rounds: Sequence[Mapping[str, Any]] = report["log"]
    top = max([int(report["capacity"][s]) for s in sides] + [1])
    plot_w = WIDTH - MARGIN_LEFT - MARGIN_RIGHT
    plot_h = HEIGHT - MARGIN_TOP - MARGIN_BOTTOM
    slot = plot_w // max(1, len(rounds))
    bar = max(2, slot // (len(sides) + 1))
    out: list[tuple[str, int, tuple[int, int, int, int]]] = []
    for i, rnd in enumerate(rounds):
        for j, side in enumerate(sides):
            lost = int(rnd["losses"][side])
            height = round(plot_h * lost / top)
            x0 = MARGIN_LEFT + i * slot + j * bar + bar // 2
            y1 = HEIGHT - MARGIN_BOTTOM
            out.append((side, int(rnd["round"]), (x0, y1 - height, x0 + bar - 1, y1)))
    return out


def render_surface_chart(report: Mapping[str, Any]) -> bytes:
    """Draw the losses per side per round as grouped bars, with a legend, and return PNG bytes."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    sides: Sequence[str] = report["sides"]
    colour = {s: SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, s in enumerate(sides)}
    base = HEIGHT - MARGIN_BOTTOM
    draw.line([(MARGIN_LEFT, MARGIN_TOP), (MARGIN_LEFT, base), (WIDTH - MARGIN_RIGHT, base)], fill=AXIS, width=2)
    draw.text((MARGIN_LEFT, 8), "Damage points lost by the end of each round", fill=AXIS)
    for side, number, box in bar_boxes(report):
        if box[3] > box[1]:
            draw.rectangle(box, fill=colour[side])
        if side == sides[0]:
            draw.text((box[0], base + 6), f"R{number}", fill=AXIS)
    for i, side in enumerate(sides):
        x = WIDTH - MARGIN_RIGHT - 200
        y = 8 + i * 14
        draw.rectangle((x, y, x + 10, y + 10), fill=colour[side])
        level = str(report["verdict"]["levels"][side])
        draw.text((x + 14, y - 1), f"{side[:18]}: {level}", fill=AXIS)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()
