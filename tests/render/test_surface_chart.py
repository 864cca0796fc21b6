"""The Surface Combat chart: bars of each side's losses by round, and each side's units by fate, probed by pixel."""

from __future__ import annotations

import io

from PIL import Image

from render.surface_chart import (
    BACKGROUND,
    FATES,
    HEIGHT,
    SIDE_COLOURS,
    WIDTH,
    bar_boxes,
    fate_boxes,
    render_surface_chart,
)
from rules.systems.surface.details import Fate, SurfaceReport, Verdict
from rules.systems.surface.rounds import Round


def unit(side: str, fate: str, routed: bool = False) -> Fate:
    return Fate(name="x", side=side, fate=fate, routed=routed)


def rnd(number: int, losses: dict[str, int]) -> Round:
    return Round(round=number, initiative=(), tpv={}, actions=(), collateral=0, losses=losses)


def report(log: list[Round], capacity: dict[str, int], units: dict[str, Fate]) -> SurfaceReport:
    """Return an engagement's report with the rounds, capacities and fates the chart draws."""
    last = log[-1].losses if log else {}
    return SurfaceReport(
        sides=("Marines", "Rebels"), plans={}, fallback={}, defaulted=(), rounds_planned=len(log),
        rounds_fought=len(log), log=log, rally=(), broken={}, losses={}, lost_points=last, units=units,
        capacity=capacity, verdict=Verdict(levels={"Marines": "decisive victory", "Rebels": "decisive defeat"},
                                           reason="losses", ratio=None),
        retreat={}, escape=(), recovery=(), collateral_count=0, collateral={}, draw=False, turn=1)


REPORT = report(
    [rnd(1, {"Marines": 0, "Rebels": 5}), rnd(2, {"Marines": 2, "Rebels": 10})],
    {"Marines": 10, "Rebels": 10},
    {"u1": unit("Marines", "fought on"), "u2": unit("Marines", "fought on"),
     "u3": unit("Marines", "rallies", True), "u4": unit("Rebels", "destroyed"),
     "u5": unit("Rebels", "disintegrates", True), "u6": unit("Rebels", "destroyed"),
     "u7": unit("Rebels", "destroyed")},
)
COLOUR = {fate: rgb for fate, rgb, _ in FATES}


def image_of(found: SurfaceReport) -> Image.Image:
    return Image.open(io.BytesIO(render_surface_chart(found))).convert("RGB")


def centre(box: tuple[int, int, int, int]) -> tuple[int, int]:
    return (box[0] + box[2]) // 2, (box[1] + box[3]) // 2


def test_bars_are_drawn_in_side_colours_with_heights_in_proportion() -> None:
    image = image_of(REPORT)
    assert image.size == (WIDTH, HEIGHT)
    boxes = {(side, rnd): box for side, rnd, box in bar_boxes(REPORT)}
    full = boxes[("Rebels", 2)]
    half = boxes[("Rebels", 1)]
    assert (full[3] - full[1]) == 2 * (half[3] - half[1])
    assert image.getpixel(centre(full)) == SIDE_COLOURS[1]
    marines = boxes[("Marines", 2)]
    assert image.getpixel(((marines[0] + marines[2]) // 2, marines[3] - 2)) == SIDE_COLOURS[0]
    empty = boxes[("Marines", 1)]
    assert image.getpixel(((empty[0] + empty[2]) // 2, empty[3] - 20)) == BACKGROUND


def test_units_by_fate_in_their_colours_with_widths_by_count() -> None:
    """The image shows units routed, destroyed and rallied, not only the losses (the report's picture)."""
    image = image_of(REPORT)
    boxes = {(side, fate): (count, box) for side, fate, count, box in fate_boxes(REPORT)}
    assert set(boxes) == {("Marines", "fought on"), ("Marines", "rallies"), ("Rebels", "destroyed"),
                          ("Rebels", "disintegrates")}
    count, destroyed = boxes[("Rebels", "destroyed")]
    _, routed = boxes[("Rebels", "disintegrates")]
    assert count == 3
    assert abs((destroyed[2] - destroyed[0] + 1) - 3 * (routed[2] - routed[0] + 1)) <= 2
    for (_, fate), (_, box) in boxes.items():
        # Probe the right end of the bar, clear of the count written at its left.
        assert image.getpixel((box[2] - 3, box[3] - 3)) == COLOUR[fate], fate
    marines_row = boxes[("Marines", "fought on")][1][1]
    assert boxes[("Rebels", "destroyed")][1][1] > marines_row


def test_many_rounds_fit_the_width() -> None:
    """Forty rounds (the most the plans allow) still give every round a bar inside the image."""
    rounds = [rnd(n, {"Marines": n // 4, "Rebels": n // 2}) for n in range(1, 41)]
    many = report(rounds, {"Marines": 10, "Rebels": 20}, dict(REPORT.units))
    boxes = bar_boxes(many)
    assert len(boxes) == 80 and all(0 <= b[0] <= b[2] < WIDTH for _, _, b in boxes)
    image = image_of(many)
    last = next(b for side, rnd, b in boxes if side == "Rebels" and rnd == 40)
    assert image.getpixel(centre(last)) == SIDE_COLOURS[1]


def test_same_report_same_bytes() -> None:
    assert render_surface_chart(REPORT) == render_surface_chart(REPORT)
