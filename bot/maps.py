"""Maps to post: the PNG with its alt text, the crop around the action, the text map, range and zoom views."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from render import Crop, MapView, Overlay, crop_around, render_map
from render.describe import ALT_LIMIT, MapText, alt_text, describe
from render.surface_chart import loss_columns
from rules.systems.surface.details import SurfaceReport

log = logging.getLogger(__name__)

CROP_ABOVE = 24  # maps wider or taller than this are posted cropped around the action
MAX_RADIUS = 50


@dataclass(frozen=True)
class MapImage:
    """A map ready to post: the PNG, its alt text for screen readers, and whether it is a crop."""

    png: bytes
    alt: str
    battle_id: int | None = None
    cropped: bool = False
    palette: str = "colour"


def is_big(view: MapView) -> bool:
    """Return whether a map is posted as a crop around the action rather than whole."""
    return view.width > CROP_ABOVE or view.height > CROP_ABOVE


def action_crop(view: MapView, cells: Sequence[tuple[int, int]], *, full: bool, margin: int = 4) -> Crop | None:
    """Return the window to post: around the action on a big map, else the whole map (None)."""
    if full or not is_big(view) or not cells:
        return None
    return crop_around(view, cells, margin=margin)


STICKY_INSET = 2  # squares the action keeps from the edge of the window it is shown in again


def steady_crop(last: Crop | None, new: Crop | None, cells: Sequence[tuple[int, int]]) -> Crop | None:
    """Return the window a battle's next map is posted in: the last one while the action still sits well inside
    it and it is not much wider than the action's own, else the action's own.

    A window that stays put reads better from one reply to the next (the eye finds the units where they were),
    and the renderer repaints only the squares that changed in a picture of the same window.
    """
    if last is None or new is None or not cells:
        return new
    x0, y0, x1, y1 = last
    inside = all(x0 + STICKY_INSET <= x <= x1 - STICKY_INSET and y0 + STICKY_INSET <= y <= y1 - STICKY_INSET
                 for x, y in cells)
    area = (x1 - x0 + 1) * (y1 - y0 + 1)
    own = (new[2] - new[0] + 1) * (new[3] - new[1] + 1)
    return last if inside and area <= 2 * own else new


def zoom_crop(view: MapView, centre: tuple[int, int], radius: int) -> Crop:
    """Return the window of `radius` squares around a square, inside the map."""
    r = max(1, min(MAX_RADIUS, radius))
    x, y = centre
    return (max(0, x - r), max(0, y - r), min(view.width - 1, x + r), min(view.height - 1, y + r))


def draw(view: MapView, overlays: Sequence[Overlay], crop: Crop | None, *, battle_id: int | None = None,
         palette: str = "colour") -> MapImage:
    """Render the map and describe it in words (pure; run it in a worker thread)."""
    whole = crop is None or crop == (0, 0, view.width - 1, view.height - 1)
    # A battle's map is drawn again after each order: its last frame, whole or cropped, is kept to reuse the
    # rows that did not change.
    keep = None if battle_id is None else ("battle", battle_id, palette, whole)
    png = render_map(view, overlays=overlays, crop=crop, palette=palette, keep=keep)
    text = describe(view, overlays, crop)
    return MapImage(png=png, alt=alt_text(text), battle_id=battle_id, cropped=not whole, palette=palette)


def map_text(view: MapView, overlays: Sequence[Overlay] = ()) -> MapText:
    """Return the whole map as text."""
    return describe(view, overlays)


def chart_alt(report: SurfaceReport) -> str:
    """Return the alt text of a Surface Combat chart: each side's damage points lost, round by round."""
    columns = loss_columns(report)
    parts = ["Chart of damage points lost by the end of each round."]
    for side in report.sides:
        lost = ", ".join(f"{'after the battle' if label == 'After' else 'round ' + label[1:]}: {losses.get(side, 0)}"
                         for label, losses in columns)
        level = report.verdict.levels.get(side)
        parts.append(f"{side}: {lost or 'no rounds'}" + (f" ({level})." if level else "."))
    text = " ".join(parts)
    return text if len(text) <= ALT_LIMIT else text[: ALT_LIMIT - 1] + "\u2026"
