"""The whole map as SVG, drawn on the server from the view a viewer may see: sharp at every zoom.

Every text that came from a person (unit, side, terrain and feature names) is escaped here; the page's
script only moves the picture, it never builds markup of its own.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from rules.coords import Cell, column_label
from rules.outcome import Highlight

CELL = 32  # SVG units per square
MARGIN = 18  # room for the column letters and row numbers
UNKNOWN = (200, 80, 200)


def colour(rgb: Sequence[int]) -> str:
    """Return an RGB triple as a CSS hex colour."""
    return "#{:02x}{:02x}{:02x}".format(*(max(0, min(255, int(c))) for c in rgb[:3]))


def ink_on(rgb: Sequence[int]) -> str:
    """Return black or white, whichever reads better on a fill (WCAG relative luminance)."""
    def lin(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(int(c)) for c in rgb[:3])
    lum = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "#000000" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "#ffffff"


def unit_id(index: int) -> str:
    """Return the element id of the n-th unit token (cards are named after it)."""
    return f"u{index}"


@dataclass(frozen=True)
class Placed:
    """A unit token where it stands inside its square (several on a square share it)."""

    index: int
    token: Any
    cx: float
    cy: float
    r: float


def place_tokens(units: Iterable[Any]) -> list[Placed]:
    """Return each token's centre and radius, a crowded square's tokens side by side."""
    by_square: dict[tuple[int, int], list[tuple[int, Any]]] = defaultdict(list)
    for index, token in enumerate(units):
        by_square[(token.x, token.y)].append((index, token))
    placed: list[Placed] = []
    for (x, y), group in by_square.items():
        n = len(group)
        per_row = 1 if n == 1 else 2 if n <= 4 else 3
        size = CELL / per_row
        for i, (index, token) in enumerate(group[: per_row * per_row]):
            row, col = divmod(i, per_row)
            placed.append(Placed(index, token, MARGIN + x * CELL + (col + 0.5) * size,
                                 MARGIN + y * CELL + (row + 0.5) * size, size * 0.42))
    placed.sort(key=lambda p: p.index)
    return placed


def map_svg(view: Any, *, highlight: Highlight | None = None, title: str = "") -> str:
    """Return the SVG of a map view (`bot.service.TableService.view_of`), the highlight's action drawn over it."""
    w, h = view.width, view.height
    parts = [
        f'<svg id="map-svg" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w * CELL + MARGIN} {h * CELL + MARGIN}" '
        f'data-width="{w}" data-height="{h}" data-cell="{CELL}" data-margin="{MARGIN}" role="img" '
        f'aria-labelledby="map-title">',
        f'<title id="map-title">{escape(title or "Map")}</title>',
        _terrain(view), _grid(w, h), _labels(w, h), _edges(view), _features(view),
    ]
    if highlight is not None:
        parts.append(_action(highlight))
    parts.append(_units(view))
    parts.append("</svg>")
    return "".join(parts)


def _terrain(view: Any) -> str:
    out = ['<g class="terrain">']
    styles = view.styles
    w = view.width
    for y in range(view.height):
        x = 0
        while x < w:
            key = view.terrain[y * w + x]
            end = x + 1
            while end < w and view.terrain[y * w + end] == key:
                end += 1
            style = styles.get(key)
            fill = colour(style.color if style is not None else UNKNOWN)
            name = style.name if style is not None else key
            out.append(f'<rect x="{MARGIN + x * CELL}" y="{MARGIN + y * CELL}" width="{(end - x) * CELL}" '
                       f'height="{CELL}" fill="{fill}"><title>{escape(name)}</title></rect>')
            x = end
    out.append("</g>")
    return "".join(out)


def _grid(w: int, h: int) -> str:
    d = [f"M{MARGIN + x * CELL} {MARGIN}v{h * CELL}" for x in range(w + 1)]
    d += [f"M{MARGIN} {MARGIN + y * CELL}h{w * CELL}" for y in range(h + 1)]
    return f'<path class="grid" d="{"".join(d)}" fill="none" stroke="#1a1a1e" stroke-opacity="0.35" stroke-width="0.6"/>'


def _labels(w: int, h: int) -> str:
    out = ['<g class="labels" font-size="10" fill="#302c26" text-anchor="middle" aria-hidden="true">']
    out += [f'<text x="{MARGIN + x * CELL + CELL / 2}" y="{MARGIN - 5}">{column_label(x)}</text>' for x in range(w)]
    out += [f'<text x="{MARGIN / 2}" y="{MARGIN + y * CELL + CELL / 2 + 3.5}">{y + 1}</text>' for y in range(h)]
    out.append("</g>")
    return "".join(out)


EDGE_COLOURS = {"wall": "#4a4036", "hedge": "#2f6b2a", "fence": "#8a6a40", "creek": "#2f7fc0", "lava": "#e0501a"}


def _edges(view: Any) -> str:
    out = ['<g class="edges" stroke-linecap="round">']
    for edge in view.edges:
        (ax, ay), (bx, by) = edge.a, edge.b
        if ax == bx:  # one above the other: the side between them is horizontal
            y = MARGIN + max(ay, by) * CELL
            x1, y1, x2, y2 = MARGIN + ax * CELL, y, MARGIN + (ax + 1) * CELL, y
        else:
            x = MARGIN + max(ax, bx) * CELL
            x1, y1, x2, y2 = x, MARGIN + ay * CELL, x, MARGIN + (ay + 1) * CELL
        stroke = EDGE_COLOURS.get(edge.kind, "#4a4036")
        out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{stroke}" stroke-width="4">'
                   f'<title>{escape(edge.kind)}</title></line>')
    out.append("</g>")
    return "".join(out)


def _features(view: Any) -> str:
    out = ['<g class="features">']
    for mark in view.features:
        x, y = MARGIN + mark.x * CELL, MARGIN + mark.y * CELL
        name = mark.name or mark.label
        dash = ' stroke-dasharray="3 2"' if mark.hidden else ""
        out.append(f'<g class="feature" data-square="{Cell(mark.x, mark.y)}"><title>{escape(name)} on '
                   f'{Cell(mark.x, mark.y)}</title><rect x="{x + 2}" y="{y + 2}" width="{CELL - 4}" height="{CELL - 4}" '
                   f'fill="none" stroke="{colour(mark.color)}" stroke-width="2"{dash}/>'
                   f'<text x="{x + CELL - 4}" y="{y + 11}" font-size="9" text-anchor="end" fill="#3c2814">'
                   f'{escape(mark.label[:3])}</text></g>')
    for effect in view.effects:
        x, y = MARGIN + effect.x * CELL, MARGIN + effect.y * CELL
        fill = {"fire": "#ff6a00", "smoke": "#808080", "storm": "#4060c0", "rain": "#78aae6", "burnt": "#302018", "deep": "#103070"}.get(
            effect.kind, "#808080")
        out.append(f'<rect class="effect" x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" '
                   f'fill-opacity="0.35"><title>{escape(effect.kind)}</title></rect>')
    out.append("</g>")
    return "".join(out)


def _centre(label: str) -> tuple[float, float] | None:
    try:
        cell = Cell.parse(label)
    except Exception:  # a square the log wrote in a shape this version does not read: draw nothing for it
        return None
    return MARGIN + cell.x * CELL + CELL / 2, MARGIN + cell.y * CELL + CELL / 2


def _action(highlight: Highlight) -> str:
    out = ['<g class="action" fill="none" stroke-linecap="round" stroke-linejoin="round">']
    points = [p for p in (_centre(c) for c in highlight.path or []) if p is not None]
    if len(points) > 1:
        d = " ".join(f"{x:g},{y:g}" for x, y in points)
        out.append(f'<polyline class="move-path" points="{d}" stroke="#111" stroke-width="6" stroke-opacity="0.5"/>'
                   f'<polyline points="{d}" stroke="#fff" stroke-width="3" stroke-dasharray="6 4"/>')
        ex, ey = points[-1]
        out.append(f'<circle cx="{ex:g}" cy="{ey:g}" r="5" fill="#fff" stroke="#111"/>')
    line = [p for p in (_centre(c) for c in highlight.line or []) if p is not None]
    if len(line) == 2:
        (x1, y1), (x2, y2) = line
        stroke = "#d01010" if highlight.hit else "#f0f0f0" if highlight.hit is False else "#f0c020"
        out.append(f'<line class="line-of-fire" x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="#111" '
                   f'stroke-width="5" stroke-opacity="0.5"/><line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" '
                   f'stroke="{stroke}" stroke-width="2.5"/>')
    for label in (highlight.target, highlight.landed):
        centre = _centre(label) if label else None
        if centre is not None:
            cx, cy = centre
            out.append(f'<rect x="{cx - CELL / 2 + 1:g}" y="{cy - CELL / 2 + 1:g}" width="{CELL - 2}" height="{CELL - 2}" '
                       f'stroke="#f0c020" stroke-width="2.5"/>')
    out.append("</g>")
    return "".join(out)


def _units(view: Any) -> str:
    colours = {s.name: s.color for s in view.sides}
    out = ['<g class="units">']
    for p in place_tokens(view.units):
        t = p.token
        fill = colours.get(t.side, (90, 90, 90))
        ink = ink_on(fill)
        square = str(Cell(t.x, t.y))
        name = t.shown_name
        label = escape(f"{name}, {t.side}, on {square}")
        font = max(5.0, p.r * 0.8)
        out.append(
            f'<g class="unit" id="{unit_id(p.index)}" data-card="card-{unit_id(p.index)}" data-square="{square}" '
            f'data-name="{escape(name)}" data-cx="{p.cx:g}" data-cy="{p.cy:g}" tabindex="0" role="button" aria-label="{label}" '
            f'aria-describedby="card-{unit_id(p.index)}">'
            + (f'<rect x="{p.cx - p.r:g}" y="{p.cy - p.r:g}" width="{2 * p.r:g}" height="{2 * p.r:g}" '
               f'fill="{colour(fill)}" stroke="#1a1a1e" stroke-width="1.5"/>' if t.is_horde else
               f'<circle cx="{p.cx:g}" cy="{p.cy:g}" r="{p.r:g}" fill="{colour(fill)}" stroke="#1a1a1e" stroke-width="1.5"/>')
            + f'<text x="{p.cx:g}" y="{p.cy + font * 0.35:g}" font-size="{font:.1f}" text-anchor="middle" '
            f'font-weight="bold" fill="{ink}">{escape(t.label)}</text>'
        )
        if t.health is not None:
            width = p.r * 1.6
            left, top = p.cx - width / 2, p.cy + p.r + 1
            share = max(0.0, min(1.0, float(t.health)))
            bar = "#2e9e44" if share > 0.5 else "#e0a000" if share > 0.25 else "#d02020"
            out.append(f'<rect x="{left:g}" y="{top:g}" width="{width:g}" height="2.5" fill="#1a1a1e"/>'
                       f'<rect x="{left:g}" y="{top:g}" width="{width * share:g}" height="2.5" fill="{bar}"/>')
        out.append("</g>")
    out.append("</g>")
    return "".join(out)
