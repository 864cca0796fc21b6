"""Fonts: Pillow's bundled default, so images need no system font, plus text helpers."""

from __future__ import annotations

import logging
import threading
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter, ImageFont, features

from render.view import RGB

log = logging.getLogger(__name__)

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

HAS_FREETYPE: bool = bool(features.check("freetype2"))

# A FreeType face is not safe to render from two threads at once, and renders
# run in worker threads, so each thread keeps its own fonts.
_local = threading.local()


def font(size: int) -> Font:
    """Return the bundled font at a pixel size (the fixed bitmap font without FreeType)."""
    cache: dict[int, Font] | None = getattr(_local, "fonts", None)
    if cache is None:
        cache = {}
        _local.fonts = cache
    found = cache.get(size)
    if found is None:
        if HAS_FREETYPE:
            found = ImageFont.load_default(size=size)
        else:
            log.debug("FreeType missing: using the bitmap default font for size %d", size)
            found = ImageFont.load_default_imagefont()
        cache[size] = found
    return found


@lru_cache(maxsize=4096)
def text_bbox(text: str, size: int) -> tuple[int, int, int, int]:
    """Return the ink box of text at a font size, relative to the drawing origin."""
    left, top, right, bottom = font(size).getbbox(text)
    return int(left), int(top), int(right), int(bottom)


def text_width(text: str, size: int) -> int:
    """Return the ink width of text at a font size."""
    left, _, right, _ = text_bbox(text, size)
    return right - left


def text_height(text: str, size: int) -> int:
    """Return the ink height of text at a font size."""
    _, top, _, bottom = text_bbox(text, size)
    return bottom - top


@lru_cache(maxsize=2048)
def fit_size(text: str, max_w: int, max_h: int, largest: int, smallest: int = 6) -> int:
    """Return the largest font size, at most `largest`, at which text fits in max_w x max_h."""
    for size in range(largest, smallest - 1, -1):
        left, top, right, bottom = text_bbox(text, size)
        if right - left <= max_w and bottom - top <= max_h:
            return size
    return smallest


def draw_centred(draw: ImageDraw.ImageDraw, cx: float, cy: float, text: str, size: int, fill: RGB) -> None:
    """Draw text with its ink box centred on (cx, cy)."""
    # Centre on the measured ink box rather than an anchor: the bitmap
    # fallback font ignores anchors.
    left, top, right, bottom = text_bbox(text, size)
    _ink(draw, round(cx - (left + right) / 2), round(cy - (top + bottom) / 2), text, size, fill)


def draw_centred_halo(draw: ImageDraw.ImageDraw, cx: float, cy: float, text: str, size: int, fill: RGB,
                      halo: RGB) -> None:
    """Draw text centred on (cx, cy) inside a one-pixel ring of the halo colour, so it reads over lines drawn across it.

    On a background of the halo's colour (a token's own fill) the ring does not show: the pixels are draw_centred's.
    """
    if not text:
        return
    left, top, right, bottom = text_bbox(text, size)
    x, y = round(cx - (left + right) / 2), round(cy - (top + bottom) / 2)
    draw.bitmap((x + left - 1, y + top - 1), halo_mask(text, size), fill=halo)
    _ink(draw, x, y, text, size, fill)


@lru_cache(maxsize=4096)
def halo_mask(text: str, size: int) -> Image.Image:
    """Return the ink of text grown by one pixel all round (one pixel wider on each side than text_mask)."""
    ink = text_mask(text, size)
    grown = Image.new("L", (ink.width + 2, ink.height + 2), 0)
    grown.paste(ink, (1, 1))
    return grown.filter(ImageFilter.MaxFilter(3))


def draw_left(draw: ImageDraw.ImageDraw, x: float, cy: float, text: str, size: int, fill: RGB) -> None:
    """Draw text starting at x with its ink box centred vertically on cy."""
    left, top, _, bottom = text_bbox(text, size)
    _ink(draw, round(x - left), round(cy - (top + bottom) / 2), text, size, fill)


def draw_right(draw: ImageDraw.ImageDraw, x: float, cy: float, text: str, size: int, fill: RGB) -> None:
    """Draw text ending at x with its ink box centred vertically on cy."""
    _, top, right, bottom = text_bbox(text, size)
    _ink(draw, round(x - right), round(cy - (top + bottom) / 2), text, size, fill)


def _ink(draw: ImageDraw.ImageDraw, x: int, y: int, text: str, size: int, fill: RGB) -> None:
    """Paint text whose drawing origin is (x, y), from its rasterised mask: the pixels draw.text would give."""
    # draw.text rasterises the string and then blends the ink through that mask; the mask depends only
    # on the string and the size, so it is rasterised once (text_mask) and blended here the same way.
    if not text:
        return
    left, top, _, _ = text_bbox(text, size)
    draw.bitmap((x + left, y + top), text_mask(text, size), fill=fill)


@lru_cache(maxsize=8192)
def text_mask(text: str, size: int) -> Image.Image:
    """Return the rasterised ink of text as an L mask cropped to its ink box; treat it as read-only."""
    # Rasterising is the costly part of drawing text, and a battle's key and labels repeat
    # from one render to the next, so each (text, size) is rasterised once.
    left, top, right, bottom = text_bbox(text, size)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=font(size), fill=255)
    return mask


def paste_left(image: Image.Image, x: float, cy: float, text: str, size: int, fill: RGB) -> None:
    """Paint text starting at x with its ink box centred vertically on cy, from the rasterised-text cache."""
    if not text:
        return
    mask = text_mask(text, size)
    image.paste(fill, (round(x), round(cy - mask.height / 2)), mask)


def ellipsize(text: str, size: int, max_w: int) -> str:
    """Shorten text with an ellipsis until it fits max_w pixels."""
    if text_width(text, size) <= max_w:
        return text
    # The bitmap font (no FreeType) has no ellipsis character: three dots there.
    dots = "\u2026" if HAS_FREETYPE else "..."
    # Binary search on the kept prefix: a handful of measurements however long the text.
    lo, hi = 0, len(text) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid].rstrip() + dots, size) <= max_w:
            lo = mid
        else:
            hi = mid - 1
    cut = text[:lo].rstrip()
    return cut + dots if cut else ""
