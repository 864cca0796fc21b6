"""A battle's losses as a chart: each side's units lost by the end of each round, as grouped bars."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

WIDTH, HEIGHT = 720, 340
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 48, 16, 48, 40
BACKGROUND = (250, 248, 242)
AXIS = (60, 60, 60)
SIDE_COLOURS = ((200, 40, 40), (40, 80, 200), (40, 150, 70), (160, 90, 20))
LABEL_GAP = 26  # fewest pixels between two round labels


def loss_bars(rounds: Sequence[int], losses: Mapping[str, Sequence[int]]) -> list[tuple[str, int,
                                                                                        tuple[int, int, int, int]]]:
    """Return each bar as (side, round index, box): the units the side had lost by the end of that round."""
    sides = list(losses)
    top = max([n for counts in losses.values() for n in counts] + [1])
    plot_w = WIDTH - MARGIN_LEFT - MARGIN_RIGHT
    plot_h = HEIGHT - MARGIN_TOP - MARGIN_BOTTOM
    bottom = HEIGHT - MARGIN_BOTTOM
    slot = plot_w // max(1, len(rounds))
    bar = max(2, slot // (len(sides) + 1))
    out: list[tuple[str, int, tuple[int, int, int, int]]] = []
    for i in range(len(rounds)):
        for j, side in enumerate(sides):
            counts = losses[side]
            lost = counts[i] if i < len(counts) else 0
            left = MARGIN_LEFT + i * slot + j * bar + bar // 2
            height = round(plot_h * lost / top)
            out.append((side, i, (left, bottom - height, left + bar - 1, bottom)))
    return out


def render_losses_chart(rounds: Sequence[int], losses: Mapping[str, Sequence[int]],
                        colours: Mapping[str, tuple[int, int, int]] | None = None) -> bytes:
    """Draw each side's units lost by the end of each round as grouped bars; return PNG bytes.

    `colours` are the sides' colours on the battle's other views (rules.colours); without them, a fixed palette.
    """
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    sides = list(losses)
    colour = {s: (colours or {}).get(s) or SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, s in enumerate(sides)}
    bottom = HEIGHT - MARGIN_BOTTOM
    draw.line([(MARGIN_LEFT, MARGIN_TOP), (MARGIN_LEFT, bottom), (WIDTH - MARGIN_RIGHT, bottom)], fill=AXIS, width=2)
    draw.text((MARGIN_LEFT, 8), "Units lost by the end of each round", fill=AXIS)
    top = max([n for counts in losses.values() for n in counts] + [1])
    draw.text((8, MARGIN_TOP - 6), str(top), fill=AXIS)
    draw.text((8, bottom - 10), "0", fill=AXIS)
    for side, _, box in loss_bars(rounds, losses):
        if box[3] > box[1]:
            draw.rectangle(box, fill=colour[side])
    slot = (WIDTH - MARGIN_LEFT - MARGIN_RIGHT) // max(1, len(rounds))
    step = max(1, -(-LABEL_GAP // max(1, slot)))  # label every round that leaves room
    for i, number in enumerate(rounds):
        if i % step == 0:
            draw.text((MARGIN_LEFT + i * slot + 4, bottom + 6), f"R{number}", fill=AXIS)
    for i, side in enumerate(sides):
        x = WIDTH - MARGIN_RIGHT - 200
        y = 8 + i * 14
        draw.rectangle((x, y, x + 10, y + 10), fill=colour[side])
        draw.text((x + 14, y - 1), side[:24], fill=AXIS)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
