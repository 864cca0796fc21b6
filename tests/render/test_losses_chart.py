"""The losses chart: each side's units lost by the end of each round, bars in the sides' colours (pixel probes)."""

from __future__ import annotations

import io

from PIL import Image

from render.losses_chart import (
    BACKGROUND,
    HEIGHT,
    MARGIN_BOTTOM,
    SIDE_COLOURS,
    WIDTH,
    loss_bars,
    render_losses_chart,
)

ROUNDS = [1, 2, 3]
LOSSES = {"NERV": [0, 1, 1], "Angels": [1, 2, 4]}


def centre(box: tuple[int, int, int, int]) -> tuple[int, int]:
    """Return the middle of a box."""
    return (box[0] + box[2]) // 2, (box[1] + box[3]) // 2


def test_bars_stand_in_side_colours_with_heights_in_proportion() -> None:
    image = Image.open(io.BytesIO(render_losses_chart(ROUNDS, LOSSES)))
    assert image.size == (WIDTH, HEIGHT)
    boxes = {(side, i): box for side, i, box in loss_bars(ROUNDS, LOSSES)}
    tallest = boxes[("Angels", 2)]
    half = boxes[("Angels", 1)]
    assert image.getpixel(centre(tallest)) == SIDE_COLOURS[1]
    assert image.getpixel(centre(boxes[("NERV", 1)])) == SIDE_COLOURS[0]
    # Four units lost stand twice as tall as two.
    assert abs((tallest[3] - tallest[1]) - 2 * (half[3] - half[1])) <= 1
    # No loss, no bar: the background shows just above the axis.
    empty = boxes[("NERV", 0)]
    assert image.getpixel(((empty[0] + empty[2]) // 2, HEIGHT - MARGIN_BOTTOM - 5)) == BACKGROUND


def test_the_sides_own_colours_are_used() -> None:
    teal = (0, 128, 128)
    image = Image.open(io.BytesIO(render_losses_chart(ROUNDS, LOSSES, {"NERV": teal})))
    boxes = {(side, i): box for side, i, box in loss_bars(ROUNDS, LOSSES)}
    assert image.getpixel(centre(boxes[("NERV", 2)])) == teal
    assert image.getpixel(centre(boxes[("Angels", 2)])) == SIDE_COLOURS[1]


def test_many_rounds_fit_the_width() -> None:
    rounds = list(range(1, 61))
    losses = {"A": list(range(60)), "B": [1] * 60}
    assert all(box[2] < WIDTH for _, _, box in loss_bars(rounds, losses))
    assert render_losses_chart(rounds, losses).startswith(b"\x89PNG")
