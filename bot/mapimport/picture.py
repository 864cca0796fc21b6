"""Colour pictures (PNG): each square's colour, looked up in a legend file, gives its terrain.

The legend is TOML (documented in docs/picture-maps.md):

    square = 16                 # pixels per square (or: size = [30, 20], the map in squares)
    tolerance = 24              # how far a colour may stray from the legend's, per channel (default 24)
    [colours]
    "#c8d2a0" = "plain"
    "#3c8d2f" = "forest"
    "#2a5fd0" = "water + deep"

Each square takes the colour most of its pixels have, so grid lines and antialiased edges drawn over a
picture do not change it. Pictures are checked from their header before decoding: too many pixels is
refused before any memory is spent on them.
"""

from __future__ import annotations

import io
import logging
import re
import tomllib
import warnings
from dataclasses import dataclass
from typing import Any

from PIL import Image

from bot.mapimport.grid import Grid, split_value
from bot.mapimport.limits import MAP_FILE_LIMITS, MAX_PIXELS, MapImportError
from rules.coords import MAX_SIDE, Cell
from rules.filelimits import load_toml
from rules.ruleset import Ruleset

log = logging.getLogger(__name__)

DEFAULT_TOLERANCE = 24
_HEX = re.compile(r"^#?([0-9a-fA-F]{6})$")
RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Legend:
    """A picture's legend: the size of a square, the colour tolerance and each colour's terrain and marks."""

    square: int | None
    size: tuple[int, int] | None
    tolerance: int
    colours: dict[RGB, tuple[str | None, frozenset[str]]]


def parse_legend(text: str, name: str, ruleset: Ruleset) -> Legend:
    """Read a legend file, refusing unknown terrains, bad colours and unusable sizes with where they are."""
    try:
        data = load_toml(text, MAP_FILE_LIMITS)
    except tomllib.TOMLDecodeError as exc:
        raise MapImportError(f"`{name}` is not valid TOML: {exc}. See docs/picture-maps.md for an example.") from None
    extra = sorted(set(data) - {"square", "size", "tolerance", "colours", "colors"})
    if extra:
        raise MapImportError(f"`{name}` has `{extra[0]}`, which a legend does not use; it may have `square`, `size`, "
                             "`tolerance` and [colours].")
    square = _positive(data.get("square"), "square", name)
    size = data.get("size")
    if size is not None:
        if not (isinstance(size, list) and len(size) == 2 and all(isinstance(v, int) and v > 0 for v in size)):
            raise MapImportError(f"`{name}`: `size` is the map in squares, like size = [30, 20].")
        size = (size[0], size[1])
    if square is not None and size is not None:
        raise MapImportError(f"`{name}` gives both `square` and `size`; give one (pixels per square, or squares).")
    tolerance = data.get("tolerance", DEFAULT_TOLERANCE)
    if not isinstance(tolerance, int) or not 0 <= tolerance <= 128:
        raise MapImportError(f"`{name}`: `tolerance` is a whole number from 0 to 128.")
    raw = data.get("colours", data.get("colors"))
    if not isinstance(raw, dict) or not raw:
        raise MapImportError(f"`{name}` has no [colours] table: list each colour of the picture with its terrain, "
                             "like \"#3c8d2f\" = \"forest\".")
    colours: dict[RGB, tuple[str | None, frozenset[str]]] = {}
    for key, value in raw.items():
        m = _HEX.match(str(key).strip())
        if m is None:
            raise MapImportError(f"`{name}`: `{key}` is not a colour; write colours as \"#3c8d2f\".")
        if not isinstance(value, str):
            raise MapImportError(f"`{name}`: the colour {key} must be given a terrain in quotes, like \"forest\".")
        hexa = m.group(1)
        rgb = (int(hexa[0:2], 16), int(hexa[2:4], 16), int(hexa[4:6], 16))
        terrain, marks = split_value(ruleset, value, f"`{name}`, colour {key}")
        if terrain is None:
            raise MapImportError(f"`{name}`: the colour {key} needs a terrain (marks like deep go after it: "
                                 "\"water + deep\").")
        colours[rgb] = (terrain, frozenset(marks))
    return Legend(square, size, tolerance, colours)


def _positive(value: Any, key: str, name: str) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise MapImportError(f"`{name}`: `{key}` is a whole number of pixels, 1 or more.")
    return value


def open_picture(data: bytes, name: str) -> Image.Image:
    """Open a PNG, checking its pixel count from the header before decoding a single pixel."""
    try:
        with warnings.catch_warnings():
            # Pillow warns on big images; our own limit below is the one that decides.
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
    except Image.DecompressionBombError:
        raise MapImportError(f"`{name}` declares far more pixels than a map picture needs; it was refused.") from None
    except (OSError, SyntaxError, ValueError):
        raise MapImportError(f"`{name}` is not a picture battlepost can read; attach a PNG.") from None
    if image.format != "PNG":
        raise MapImportError(f"`{name}` is a {image.format or 'different'} picture; save it as PNG (no lossy "
                             "compression blurring the colours).")
    width, height = image.size
    if width * height > MAX_PIXELS:
        raise MapImportError(f"`{name}` is {width}x{height} pixels; a map picture may have at most {MAX_PIXELS:,} "
                             "pixels. Scale it down so a square is a few pixels.")
    try:
        image.load()
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as exc:
        raise MapImportError(f"`{name}` is damaged and cannot be decoded ({exc}).") from None
    return image.convert("RGB")


def read_picture(data: bytes, name: str, legend: Legend, ruleset: Ruleset) -> Grid:
    """Read a PNG into a grid: the commonest colour of each square, looked up in the legend."""
    image = open_picture(data, name)
    width_px, height_px = image.size
    if legend.size is not None:
        cols, rows = legend.size
        if width_px % cols or height_px % rows:
            raise MapImportError(f"`{name}` is {width_px}x{height_px} pixels, which does not split into {cols}x{rows} "
                                 "equal squares; crop or scale the picture, or give `square` instead.")
        step_x, step_y = width_px // cols, height_px // rows
    else:
        step = legend.square or 1
        if width_px % step or height_px % step:
            raise MapImportError(f"`{name}` is {width_px}x{height_px} pixels, not a whole number of {step}-pixel "
                                 "squares; crop the picture or change `square`.")
        step_x = step_y = step
        cols, rows = width_px // step, height_px // step
    if cols > MAX_SIDE or rows > MAX_SIDE:
        raise MapImportError(f"`{name}` makes a {cols}x{rows} map; a map is at most {MAX_SIDE} squares each way. "
                             "Set `square` to the pixels of one square.")
    grid = Grid.sized(cols, rows, f"`{name}`")
    cache: dict[RGB, tuple[str | None, frozenset[str]] | None] = {}
    for row in range(rows):
        for col in range(cols):
            colour = _commonest(image, col * step_x, row * step_y, step_x, step_y)
            if colour not in cache:
                cache[colour] = _match(colour, legend)
            found = cache[colour]
            cell = Cell(col, row)
            if found is None:
                shown = "#{:02x}{:02x}{:02x}".format(*colour)
                raise MapImportError(f"{cell} of `{name}` is {shown}, which is not in the legend (nor within "
                                     f"{legend.tolerance} of a colour in it); add \"{shown}\" = \"<terrain>\" to "
                                     "[colours].")
            terrain, marks = found
            grid.terrain[row * cols + col] = terrain
            if marks:
                grid.flags[cell] = set(marks)
    return grid


def _commonest(image: Image.Image, left: int, top: int, w: int, h: int) -> RGB:
    """Return the colour most pixels of a square have."""
    if w == 1 and h == 1:
        value = image.getpixel((left, top))
        assert isinstance(value, tuple)
        return (value[0], value[1], value[2])
    region = image.crop((left, top, left + w, top + h))
    counts = region.getcolors(w * h) or []
    # Highest count first; a tie goes to the lower colour, so the answer never depends on pixel order.
    _, colour = min(counts, key=lambda nc: (-nc[0], nc[1]))
    assert isinstance(colour, tuple)
    return (colour[0], colour[1], colour[2])


def _match(colour: RGB, legend: Legend) -> tuple[str | None, frozenset[str]] | None:
    """Return the legend entry nearest a colour, if within the tolerance."""
    exact = legend.colours.get(colour)
    if exact is not None:
        return exact
    best: tuple[int, RGB] | None = None
    for rgb in legend.colours:
        spread = max(abs(a - b) for a, b in zip(rgb, colour, strict=True))
        if spread <= legend.tolerance and (best is None or spread < best[0]):
            best = (spread, rgb)
    return legend.colours[best[1]] if best else None
