"""The legend beside the map: terrains shown, sides, unit symbols, effects and overlays present."""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.fonts import draw_centred, draw_left, ellipsize, fit_size, text_width
from render.geometry import Geometry
from render.layers.areas import area_colour, band_cells, band_colour
from render.layers.base import style_of
from render.layers.effects import EFFECT_NAMES, effect_tile
from render.layers.overlays import casing_for, reach_dashed
from render.layers.structures import structure_swatches
from render.layers.units import TokenSize, contested, draw_contested, pie_sprite, piled, stack_slots, stacks
from render.palette import (
    AREA_STYLES,
    CHOICE,
    HEALTH_GOOD,
    HEALTH_TROUGH,
    LABEL_INK,
    LANDED,
    LEGEND_PAPER,
    MARK_STYLES,
    OTHER_MARK,
    OUTLINE,
    PAPER,
    SHOT_HIT,
    SHOT_MISS,
    SHOT_PENDING,
    TARGET,
    TEXT_INK,
    WHITE,
    Palette,
    rgba,
)
from render.patterns import pattern_tile
from render.shapes import (
    arrowhead,
    badge,
    burst,
    cased_line,
    cross,
    dash_border,
    dot,
    paste_smooth,
    smooth_box,
)
from render.view import (
    AreaOfEffect,
    LineOfFire,
    MapView,
    MissLanding,
    MovePath,
    Overlay,
    RangeBands,
    Reachable,
    SquareChoices,
    TargetSquare,
)

log = logging.getLogger(__name__)

SWATCH = 18
ROW = 24
TEXT_PX = 13
HEADER_PX = 11
PAD = 10
GAP = 8
COLUMN_GAP = 14
MAX_TEXT_W = 220  # a long homebrew name is cut rather than widening the whole image

# A swatch painter gets the canvas, a draw handle on it and the swatch box.
Swatch = Callable[[Image.Image, ImageDraw.ImageDraw, tuple[int, int, int, int]], None]


@dataclass(frozen=True)
class Line:
    """Hold one legend line: a section header (no swatch) or an entry."""

    text: str
    swatch: Swatch | None = None


@dataclass(frozen=True)
class Legend:
    """Lay out legend lines in as many columns as the height allows."""

    columns: tuple[tuple[Line, ...], ...]
    column_widths: tuple[int, ...]
    height: int

    @property
    def width(self) -> int:
        """Return the legend's pixel width (zero when empty)."""
        if not self.columns:
            return 0
        return 2 * PAD + sum(self.column_widths) + COLUMN_GAP * (len(self.columns) - 1)

    def draw(self, canvas: Image.Image, left: int, top: int, bottom: int, palette: Palette) -> None:
        """Paint the legend into the canvas with its top-left at (left, top), filling down to bottom."""
        if not self.columns:
            return
        draw = ImageDraw.Draw(canvas)
        draw.rectangle((left, top, left + self.width - 1, bottom), fill=palette(LEGEND_PAPER))
        draw.line((left, top, left, bottom), fill=palette((200, 194, 182)))
        x = left + PAD
        for column, col_w in zip(self.columns, self.column_widths, strict=True):
            y = top + PAD
            for line in column:
                cy = y + ROW / 2
                if line.swatch is None:
                    draw_left(draw, x, cy + 3, line.text.upper(), HEADER_PX, palette(LABEL_INK))
                else:
                    sy = round(cy - SWATCH / 2)
                    line.swatch(canvas, draw, (x, sy, x + SWATCH - 1, sy + SWATCH - 1))
                    draw_left(draw, x + SWATCH + GAP, cy, line.text, TEXT_PX, palette(TEXT_INK))
                y += ROW
            x += col_w + COLUMN_GAP


def build_legend(
    view: MapView,
    geometry: Geometry,
    palette: Palette,
    terrain_keys: Sequence[str],
    overlays: Sequence[Overlay],
    max_height: int,
) -> Legend:
    """Collect the legend lines for what this image shows and flow them into columns."""
    lines: list[Line] = []
    lines.extend(_terrain_lines(view, palette, terrain_keys))
    lines.extend(_structure_lines(view, geometry, palette))
    lines.extend(_side_lines(view, palette))
    lines.extend(_unit_lines(view, geometry, palette))
    lines.extend(_feature_lines(view, geometry, palette))
    lines.extend(_effect_lines(view, geometry, palette))
    lines.extend(_overlay_lines(palette, [o for o in overlays if _shown(o, geometry)]))
    return _flow(lines, max_height)


def _flow(lines: Sequence[Line], max_height: int) -> Legend:
    """Split lines into columns no taller than max_height, keeping a section whole when it fits a column."""
    per_column = max(3, (max_height - 2 * PAD) // ROW)
    sections: list[list[Line]] = []
    for line in (_fitted(line) for line in lines):
        if line.swatch is None or not sections:
            sections.append([])
        sections[-1].append(line)
    columns: list[list[Line]] = []
    current: list[Line] = []
    for section in sections:
        if current and len(current) + len(section) > per_column and len(section) <= per_column:
            columns.append(current)
            current = []
        for line in section:
            header_at_foot = line.swatch is None and len(current) == per_column - 1
            if current and (len(current) >= per_column or header_at_foot):
                columns.append(current)
                current = []
            current.append(line)
    if current:
        columns.append(current)
    widths = tuple(max(_line_width(line) for line in column) for column in columns)
    tallest = max((len(c) for c in columns), default=0)
    height = 2 * PAD + tallest * ROW if columns else 0
    return Legend(columns=tuple(tuple(c) for c in columns), column_widths=widths, height=height)


def _fitted(line: Line) -> Line:
    """Return the line with its text shortened to the legend's maximum width."""
    if line.swatch is None:
        return line
    return Line(ellipsize(line.text, TEXT_PX, MAX_TEXT_W), line.swatch)


def _line_width(line: Line) -> int:
    """Return the pixel width a legend line needs."""
    if line.swatch is None:
        return text_width(line.text.upper(), HEADER_PX)
    return SWATCH + GAP + text_width(line.text, TEXT_PX)


def _terrain_lines(view: MapView, palette: Palette, keys: Sequence[str]) -> list[Line]:
    """Return a swatch for each terrain shown, in the ruleset's order."""
    if not keys:
        return []
    out = [Line("Terrain")]
    for key in keys:
        style = style_of(view, key)
        colour, pattern = palette(style.color), style.pattern

        def paint(
            canvas: Image.Image,
            draw: ImageDraw.ImageDraw,
            box: tuple[int, int, int, int],
            colour: tuple[int, int, int] = colour,
            pattern: str = pattern,
        ) -> None:
            canvas.paste(pattern_tile(pattern, colour, SWATCH), (box[0], box[1]))
            draw.rectangle(box, outline=palette((120, 114, 104)))

        out.append(Line(style.name, paint))
    return out


def _structure_lines(view: MapView, geometry: Geometry, palette: Palette) -> list[Line]:
    """Return a swatch for each kind of road, obstacle, opening and floor tag shown."""
    found = structure_swatches(view, geometry, palette)
    return [Line("Structures"), *(Line(text, swatch) for text, swatch in found)] if found else []


def _side_lines(view: MapView, palette: Palette) -> list[Line]:
    """Return a token swatch for each side."""
    if not view.sides:
        return []
    out = [Line("Sides")]
    for i, side in enumerate(view.sides):
        colour = palette.side(i if side.slot is None else side.slot, side.color)

        def paint(
            canvas: Image.Image,
            draw: ImageDraw.ImageDraw,
            box: tuple[int, int, int, int],
            colour: tuple[int, int, int] = colour,
        ) -> None:
            paste_smooth(
                canvas, smooth_box(SWATCH, SWATCH, SWATCH / 2, colour, palette(OUTLINE), 2), box[0], box[1]
            )

        out.append(Line(side.name, paint))
    return out


def _unit_lines(view: MapView, geometry: Geometry, palette: Palette) -> list[Line]:
    """Return the unit symbols that appear: Horde, stack count, health bar, status marks."""
    groups = list(stacks(view, geometry).values())
    units = [u for g in groups for u in g]
    details = TokenSize.for_cell(geometry.cell_px).details
    out: list[Line] = []
    neutral = palette((170, 170, 170))
    if any(u.models for u in view.units):

        def model(canvas: Image.Image, draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
            sprite = smooth_box(SWATCH - 6, SWATCH - 6, (SWATCH - 6) / 2, neutral, palette(OUTLINE), 1)
            paste_smooth(canvas, sprite, box[0] + 3, box[1] + 3)

        out.append(Line("Model (the big token is its leader)", model))
    if any(u.is_horde for u in units):

        def horde(canvas: Image.Image, draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
            sprite = smooth_box(SWATCH, SWATCH, 4, neutral, palette(OUTLINE), 2, palette(OUTLINE))
            paste_smooth(canvas, sprite, box[0], box[1])

        out.append(Line("Horde", horde))
    if any(contested(g) for g in groups):

        def shared(canvas: Image.Image, draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
            draw.rectangle(box, fill=palette(PAPER))
            draw_contested(draw, box, SWATCH, palette)

        out.append(Line("Enemies share the square", shared))
    if any(piled(len(g), geometry.cell_px) for g in groups):

        def pile(canvas: Image.Image, draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
            paste_smooth(canvas, pie_sprite(SWATCH // 2, [neutral], 1, palette(OUTLINE)), box[0] - 1, box[1] - 1)
            draw_centred(draw, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, "2", 10, palette(WHITE))

        out.append(Line("Units sharing a square", pile))
    if any(not piled(len(g), geometry.cell_px) and len(g) > len(stack_slots(len(g), geometry.cell_px))
           for g in groups):

        def more(canvas: Image.Image, draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
            badge(canvas, draw, box[0], box[1] + 2, SWATCH - 4, "+3", palette(WHITE), palette(OUTLINE),
                  palette(OUTLINE))

        out.append(Line("More units (see the key)", more))
    if details and any(u.health is not None for u in units):

        def bar(canvas: Image.Image, draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
            y = (box[1] + box[3]) // 2
            draw.rectangle(
                (box[0], y - 3, box[2], y + 3), fill=palette(HEALTH_TROUGH), outline=palette(WHITE)
            )
            fill = palette(WHITE) if palette.grey else HEALTH_GOOD
            draw.rectangle((box[0] + 1, y - 2, box[0] + 11, y + 2), fill=fill)

        out.append(Line("Health", bar))
    if any(u.facing is not None for u in units):

        def facing(canvas: Image.Image, draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + 2
            arrowhead(draw, (cx, cy + SWATCH), (cx, box[1] + 1.0), SWATCH * 0.7, palette(OUTLINE), palette(WHITE))

        out.append(Line("Facing", facing))
    seen: list[str] = []
    for u in units if details else ():
        seen.extend(m for m in u.marks if m and m not in seen)
    for mark in seen:
        name, colour = MARK_STYLES.get(mark, (mark, OTHER_MARK))

        def paint(
            canvas: Image.Image,
            draw: ImageDraw.ImageDraw,
            box: tuple[int, int, int, int],
            mark: str = mark,
            colour: tuple[int, int, int] = colour,
        ) -> None:
            fill = palette(OUTLINE) if palette.grey else colour
            badge(
                canvas,
                draw,
                box[0] + 2,
                box[1] + 2,
                SWATCH - 4,
                mark[:2],
                fill,
                palette(WHITE),
                palette(WHITE),
            )

        out.append(Line(name if name != mark else f"Status {mark}", paint))
    return [Line("Units"), *out] if out else []


def _feature_lines(view: MapView, geometry: Geometry, palette: Palette) -> list[Line]:
    """Return a tag swatch per kind of feature shown (hidden ones with their dashed frame)."""
    seen: dict[tuple[str, str, bool], tuple[int, int, int]] = {}
    for f in view.features:
        if geometry.contains(f.x, f.y):
            seen.setdefault((f.label[:3], f.name, f.hidden), f.color)
    if not seen:
        return []
    out = [Line("Features")]
    for (label, name, hidden), colour in sorted(seen.items(), key=lambda item: (item[0][1] or item[0][0], item[0][2])):

        def paint(
            canvas: Image.Image,
            draw: ImageDraw.ImageDraw,
            box: tuple[int, int, int, int],
            label: str = label,
            colour: tuple[int, int, int] = palette(colour),
            hidden: bool = hidden,
        ) -> None:
            draw.rectangle(box, fill=palette(WHITE) if hidden else colour, outline=colour)
            size = fit_size(label or "?", SWATCH - 2, SWATCH - 4, 11)
            ink = colour if hidden else palette(WHITE if sum(colour) < 400 else OUTLINE)
            draw_centred(draw, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, label or "?", size, ink)

        text = name or label
        out.append(Line(f"{text} (hidden: only you see it)" if hidden else text, paint))
    return out


def _effect_lines(view: MapView, geometry: Geometry, palette: Palette) -> list[Line]:
    """Return a swatch per effect kind shown."""
    kinds: list[str] = []
    for e in view.effects:
        if geometry.contains(e.x, e.y) and e.kind not in kinds:
            kinds.append(e.kind)
    if not kinds:
        return []
    out = [Line("Effects")]
    for kind in kinds:

        def paint(
            canvas: Image.Image, draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], kind: str = kind
        ) -> None:
            draw.rectangle(box, fill=palette(PAPER))
            tile = effect_tile(kind, SWATCH + 1, palette)
            canvas.paste(tile, (box[0], box[1]), tile)
            draw.rectangle(box, outline=palette((120, 114, 104)))

        out.append(Line(EFFECT_NAMES.get(kind, kind.capitalize()), paint))
    return out


def _overlay_lines(palette: Palette, overlays: Sequence[Overlay]) -> list[Line]:
    """Return a line for each kind of overlay present, and one per reachable area."""
    out: list[Line] = []
    paths = [o for o in overlays if isinstance(o, MovePath)]
    if paths:
        colour = palette(paths[0].color)
        casing = palette(casing_for(paths[0].color))

        def path(canvas: Image.Image, draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
            y = (box[1] + box[3]) / 2
            cased_line(draw, [(box[0] + 1, y), (box[2] - 6, y)], colour, 3, casing)
            arrowhead(draw, (box[0], y), (box[2], y), 8, colour, casing)

        out.append(Line("Move", path))
    shots = {o.hit for o in overlays if isinstance(o, LineOfFire)}
    # "Attack", not "Shot": the line marks a knife's strike as well as a rifle's.
    for hit, name in ((True, "Attack: hit"), (False, "Attack: miss"), (None, "Line of fire")):
        if hit in shots:
            out.append(Line(name, _shot_swatch(palette, hit)))
    if any(isinstance(o, TargetSquare) for o in overlays):

        def target(canvas: Image.Image, draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
            draw.rectangle(box, outline=palette(WHITE), width=4)
            draw.rectangle((box[0] + 1, box[1] + 1, box[2] - 1, box[3] - 1), outline=palette(TARGET), width=2)

        out.append(Line("Target", target))
    for index, area in enumerate(o for o in overlays if isinstance(o, Reachable)):
        colour = palette(area.color)

        def reach(
            canvas: Image.Image,
            draw: ImageDraw.ImageDraw,
            box: tuple[int, int, int, int],
            colour: tuple[int, int, int] = colour,
            dashed: bool = reach_dashed(palette, index),
        ) -> None:
            layer = ImageDraw.Draw(canvas, "RGBA")
            layer.rectangle(box, fill=palette(PAPER))
            layer.rectangle(box, fill=rgba(colour, 90))
            if dashed:
                for p, q in dash_border(box, 4):
                    layer.line((p, q), fill=colour, width=2)
            else:
                layer.rectangle(box, outline=colour, width=2)

        out.append(Line(area.label or "Reachable", reach))
    for choices in (o for o in overlays if isinstance(o, SquareChoices)):

        def choice(canvas: Image.Image, draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
            draw.rectangle(box, fill=palette(WHITE), outline=palette(CHOICE), width=2)

        out.append(Line(choices.label, choice))
    out.extend(_area_lines(palette, overlays))
    # Markers carry their own text, so they need no legend line.
    return [Line("Overlays"), *out] if out else []


def _shot_swatch(palette: Palette, hit: bool | None) -> Swatch:
    """Return a painter for one kind of shot, styled as on the map."""

    def paint(canvas: Image.Image, draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
        y = (box[1] + box[3]) / 2
        a, b = (box[0] + 1, y), (box[2] - 3, y)
        if hit is True:
            cased_line(draw, [a, b], palette(SHOT_HIT), 2, palette(WHITE))
            burst(draw, b, 5, palette(SHOT_HIT), palette(WHITE))
        elif hit is False:
            cased_line(draw, [a, b], palette(SHOT_MISS), 2, palette(OUTLINE), dash=4)
            cross(draw, b, 3, palette(SHOT_MISS), palette(OUTLINE), 2)
        else:
            cased_line(draw, [a, (b[0] - 4, y)], palette(SHOT_PENDING), 2, palette(OUTLINE), dash=2)
            arrowhead(draw, a, (box[2], y), 7, palette(SHOT_PENDING), palette(OUTLINE))

    return paint


def _shown(overlay: Overlay, geometry: Geometry) -> bool:
    """Return whether an area, landing or range band overlay shows in the window (others always count)."""
    if isinstance(overlay, AreaOfEffect):
        return any(geometry.contains(*c) for c in overlay.cells)
    if isinstance(overlay, MissLanding):
        return geometry.contains(*overlay.landed)
    if isinstance(overlay, RangeBands):
        return any(band_cells(geometry, overlay.src, b.low, b.high) for b in overlay.bands)
    return True


def _area_lines(palette: Palette, overlays: Sequence[Overlay]) -> list[Line]:
    """Return a line per area shape, for a missed shot's landing and per range band present."""
    out: list[Line] = []
    kinds: list[str] = []
    for o in overlays:
        if isinstance(o, AreaOfEffect) and o.kind not in kinds:
            kinds.append(o.kind)
    for kind in kinds:

        def area(
            canvas: Image.Image, draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], kind: str = kind
        ) -> None:
            colour = palette(area_colour(kind))
            draw.rectangle(box, fill=palette(PAPER))
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            if kind == "at_field":
                r = SWATCH / 2
                pts = [(cx + r * math.cos(math.pi / 8 + i * math.pi / 4), cy + r * math.sin(math.pi / 8 + i * math.pi / 4))
                       for i in range(8)]
                draw.polygon(pts, outline=colour, width=3)
            elif kind == "cone":
                draw.polygon([(box[0], cy), (box[2], box[1]), (box[2], box[3])], fill=colour, outline=palette(OUTLINE))
            elif kind == "line":
                draw.rectangle(box, fill=colour, outline=palette(OUTLINE))
                for k in range(-SWATCH, SWATCH, 5):
                    draw.line((box[0] + k, box[3], box[0] + k + SWATCH, box[1]), fill=palette(OUTLINE), width=1)
            else:
                burst(draw, (cx, cy), SWATCH / 2, colour, palette(OUTLINE))

        out.append(Line(AREA_STYLES.get(kind, (kind.replace("_", " ").title(), (0, 0, 0)))[0], area))
    if any(isinstance(o, MissLanding) for o in overlays):

        def landed(canvas: Image.Image, draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
            centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
            dot(draw, centre, SWATCH / 2 - 2, None, palette(LANDED), width=3)
            cross(draw, centre, SWATCH / 4, palette(LANDED), palette(WHITE), 2)

        out.append(Line("Missed shot landed", landed))
    for bands in (o for o in overlays if isinstance(o, RangeBands)):
        for i, band in enumerate(bands.bands):

            def ring(
                canvas: Image.Image, draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], i: int = i
            ) -> None:
                layer = ImageDraw.Draw(canvas, "RGBA")
                layer.rectangle(box, fill=palette(PAPER))
                layer.rectangle(box, fill=rgba(palette(band_colour(i)), 150))
                if i % 2:
                    for p, q in dash_border(box, 4):
                        layer.line((p, q), fill=palette(OUTLINE), width=2)
                else:
                    layer.rectangle(box, outline=palette(OUTLINE), width=2)

            reach = f"{band.low}-{band.high}" if band.high is not None else f"{band.low}+"
            prefix = f"{bands.label}: " if bands.label and i == 0 else ""
            out.append(Line(f"{prefix}{band.name} ({reach} sq)", ring))
    return out
