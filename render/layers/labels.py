"""Token labels, painted after everything else on the map so no arrow, marker or badge ever covers them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.fonts import draw_centred_halo
from render.view import RGB


@dataclass(frozen=True)
class Label:
    """A token's label: its text, centre, size, ink, and the token colour it is ringed in."""

    text: str
    cx: int
    cy: int
    px: int
    ink: RGB
    halo: RGB


def draw_labels(grid: Image.Image, labels: Sequence[Label]) -> None:
    """Paint the labels of the tokens last, each ringed in its token's colour so it reads over anything."""
    draw = ImageDraw.Draw(grid)
    for label in labels:
        draw_centred_halo(draw, label.cx, label.cy, label.text, label.px, label.ink, label.halo)
