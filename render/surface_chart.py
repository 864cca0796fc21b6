"""The result of a Surface Combat engagement as a chart: each side's losses round by round, and what became
of its units (fought on, rallied, disintegrated, destroyed, escaped...)."""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from rules.systems.surface.details import SurfaceReport

WIDTH, HEIGHT = 720, 440
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP = 48, 16, 40
PLOT_BOTTOM = 270  # the loss bars stand on this line; the units' fates are drawn below
FATES_TOP = 318
FATE_BAR_LEFT, FATE_BAR_HEIGHT, FATE_ROW = 150, 22, 34
BACKGROUND = (250, 248, 242)
AXIS = (60, 60, 60)
SIDE_COLOURS = ((200, 40, 40), (40, 80, 200))  # first side red, second blue, as on the map tokens
# The fates a report records, in the order a side's bar shows them, with their colours and legend words.
FATES: tuple[tuple[str, tuple[int, int, int], str], ...] = (
    ("fought on", (120, 170, 110), "fought on"),
    ("rallies", (230, 180, 60), "routed, rallied"),
    ("escapes", (120, 180, 220), "escaped"),
    ("disintegrates", (150, 90, 40), "routed, disintegrated"),
    ("destroyed", (40, 40, 40), "destroyed"),
    ("lost", (110, 60, 110), "lost fleeing"),
    ("disappears", (170, 170, 170), "vanished"),
)
LABEL_GAP = 26  # fewest pixels between two round labels


def loss_columns(report: SurfaceReport) -> list[tuple[str, Mapping[str, int]]]:
    """Return the chart's columns as (label, losses by side): each round fought, then `After` the battle when
    the rally changed them (a routed unit that disintegrates counts at full capacity), so the last column is
    the losses the report's summary gives."""
    columns: list[tuple[str, Mapping[str, int]]] = [(f"R{r.round}", r.losses) for r in report.rounds]
    final = report.lost_points
    before = columns[-1][1] if columns else {}
    if final and any(final.get(s, 0) != before.get(s, 0) for s in report.sides):
        columns.append(("After", final))
    return columns


def bar_boxes(report: SurfaceReport) -> list[tuple[str, int, tuple[int, int, int, int]]]:
    """Return each bar as (side, column, box): the side's damage points lost by the end of that round (or after
    the battle, in the column past the last round)."""
    sides: Sequence[str] = report.sides
    columns = loss_columns(report)
    top = max([report.capacity[s] for s in sides] + [1])
    plot_w = WIDTH - MARGIN_LEFT - MARGIN_RIGHT
    plot_h = PLOT_BOTTOM - MARGIN_TOP
    slot = plot_w // max(1, len(columns))
    bar = max(2, slot // (len(sides) + 1))
    out: list[tuple[str, int, tuple[int, int, int, int]]] = []
    for i, (_, losses) in enumerate(columns):
        for j, side in enumerate(sides):
            lost = losses.get(side, 0)
            height = round(plot_h * lost / top)
            x0 = MARGIN_LEFT + i * slot + j * bar + bar // 2
            out.append((side, i + 1, (x0, PLOT_BOTTOM - height, x0 + bar - 1, PLOT_BOTTOM)))
    return out


def fate_boxes(report: SurfaceReport) -> list[tuple[str, str, int, tuple[int, int, int, int]]]:
    """Return each side's units by fate as (side, fate, count, box): one bar per side, widths by count."""
    width = WIDTH - MARGIN_RIGHT - FATE_BAR_LEFT
    out: list[tuple[str, str, int, tuple[int, int, int, int]]] = []
    for row, side in enumerate(report.sides):
        counts = Counter(u.fate for u in report.units.values() if u.side == side)
        total = sum(counts.values())
        if not total:
            continue
        y0 = FATES_TOP + row * FATE_ROW
        x = FATE_BAR_LEFT
        done = 0
        for fate, _, _ in FATES:
            if not counts[fate]:
                continue
            done += counts[fate]
            right = FATE_BAR_LEFT + round(width * done / total)
            out.append((side, fate, counts[fate], (x, y0, right - 1, y0 + FATE_BAR_HEIGHT - 1)))
            x = right
    return out


def _round_labels(draw: ImageDraw.ImageDraw, report: SurfaceReport, first: str) -> None:
    """Write R1, R2... (and After) under the bars, skipping labels that would overlap when rounds are many."""
    last = -LABEL_GAP
    labels = [label for label, _ in loss_columns(report)]
    for side, number, box in bar_boxes(report):
        if side == first and box[0] - last >= LABEL_GAP:
            draw.text((box[0], PLOT_BOTTOM + 6), labels[number - 1], fill=AXIS)
            last = box[0]


def render_surface_chart(report: SurfaceReport,
                         colours: Mapping[str, tuple[int, int, int]] | None = None) -> bytes:
    """Draw the losses per side per round as grouped bars and each side's units by fate; return PNG bytes.

    `colours` are the sides' colours on the battle's other views (rules.colours); without them, red then blue.
    """
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    sides: Sequence[str] = report.sides
    colour = {s: (colours or {}).get(s) or SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, s in enumerate(sides)}
    draw.line([(MARGIN_LEFT, MARGIN_TOP), (MARGIN_LEFT, PLOT_BOTTOM), (WIDTH - MARGIN_RIGHT, PLOT_BOTTOM)],
              fill=AXIS, width=2)
    draw.text((MARGIN_LEFT, 8), "Damage points lost by the end of each round", fill=AXIS)
    for side, _, box in bar_boxes(report):
        if box[3] > box[1]:
            draw.rectangle(box, fill=colour[side])
    if sides:
        _round_labels(draw, report, sides[0])
    for i, side in enumerate(sides):
        x = WIDTH - MARGIN_RIGHT - 230
        y = 8 + i * 14
        draw.rectangle((x, y, x + 10, y + 10), fill=colour[side])
        level = report.verdict.levels[side]
        draw.text((x + 14, y - 1), f"{side[:18]}: {level}", fill=AXIS)
    draw.text((MARGIN_LEFT, FATES_TOP - 22), "What became of each side's units", fill=AXIS)
    fill = {fate: rgb for fate, rgb, _ in FATES}
    for _side, fate, count, box in fate_boxes(report):
        draw.rectangle(box, fill=fill[fate])
        label = str(count)
        if box[2] - box[0] > 8 * len(label) + 4:
            draw.text((box[0] + 4, box[1] + 5), label, fill=BACKGROUND if sum(fill[fate]) < 400 else AXIS)
    for row, side in enumerate(sides):
        draw.text((MARGIN_LEFT, FATES_TOP + row * FATE_ROW + 5), side[:16], fill=colour[side])
    shown = {fate for _, fate, _, _ in fate_boxes(report)}
    x = MARGIN_LEFT
    for fate, rgb, words in FATES:
        if fate not in shown:
            continue
        draw.rectangle((x, HEIGHT - 20, x + 10, HEIGHT - 10), fill=rgb)
        draw.text((x + 14, HEIGHT - 21), words, fill=AXIS)
        x += 14 + 7 * len(words) + 16
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()
