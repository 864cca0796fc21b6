"""Text painted from its memoised mask gives exactly the pixels Pillow's draw.text gives."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from PIL import Image, ImageDraw

from render.fonts import RGB, draw_centred, draw_left, draw_right, font, text_bbox, text_mask

Painter = Callable[[ImageDraw.ImageDraw, float, float, str, int, RGB], None]
WORDS = ("A1", "AB40", "Eva-01", "UNIT KEY", "3rd Rifle Company", "Sachiel \u2602", "jy Wg", "\u2026", "  ", "Round 2, NERV phase")


def origin(painter: Painter, x: float, y: float, text: str, size: int) -> tuple[int, int]:
    """Return where draw.text would be asked to start the text, as each helper documents it."""
    left, top, right, bottom = text_bbox(text, size)
    middle = round(y - (top + bottom) / 2)
    if painter is draw_centred:
        return round(x - (left + right) / 2), middle
    if painter is draw_left:
        return round(x - left), middle
    return round(x - right), middle


@pytest.mark.parametrize("painter", [draw_centred, draw_left, draw_right])
@pytest.mark.parametrize("mode", ["RGB", "L"])
def test_painted_text_matches_draw_text_pixel_for_pixel(painter: Painter, mode: str) -> None:
    rng = random.Random(f"{painter.__name__}-{mode}")
    for size in range(6, 25, 3):
        for text in WORDS:
            colour: tuple[int, ...] = tuple(rng.randrange(256) for _ in range(3))
            ink: tuple[int, ...] = tuple(rng.randrange(256) for _ in range(3))
            background = colour if mode == "RGB" else colour[0]
            fill = ink if mode == "RGB" else ink[0]
            painted = Image.new(mode, (140, 40), background)
            reference = painted.copy()
            # Partly off the image too: clipping must agree as well.
            x, y = rng.uniform(-10, 150), rng.uniform(-8, 48)
            blend = "RGBA" if mode == "RGB" and rng.random() < 0.5 else None
            painter(ImageDraw.Draw(painted, blend), x, y, text, size, fill)  # type: ignore[arg-type]
            ImageDraw.Draw(reference).text(origin(painter, x, y, text, size), text, font=font(size), fill=fill)
            assert painted.tobytes() == reference.tobytes(), (text, size, x, y)


def test_a_mask_is_rasterised_once_per_string_and_size() -> None:
    text_mask.cache_clear()
    canvas = ImageDraw.Draw(Image.new("RGB", (80, 30)))
    for _ in range(5):
        draw_left(canvas, 2, 15, "Eva-01", 12, (255, 255, 255))
        draw_centred(canvas, 40, 15, "Eva-01", 12, (0, 0, 0))
    draw_left(canvas, 2, 15, "Eva-01", 13, (255, 255, 255))
    info = text_mask.cache_info()
    assert (info.misses, info.hits) == (2, 9)
