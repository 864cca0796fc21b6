"""Build the renderer's read-only view of a battle, and the overlays of an outcome."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from render.view import (
    CellEffect,
    FeatureMark,
    LineOfFire,
    MapView,
    Marker,
    MissLanding,
    MovePath,
    Reachable,
    SideStyle,
    TargetSquare,
    TerrainStyle,
    UnitToken,
)
from rules.battle import Battle
from rules.coords import Cell
from rules.systems.strategic.features import can_see

SIDE_COLOURS: tuple[tuple[int, int, int], ...] = (
    (40, 90, 200), (200, 40, 40), (230, 170, 20), (130, 60, 160),
    (20, 150, 150), (230, 110, 20), (220, 80, 160), (80, 80, 80),
)
PATH_COLOUR = (250, 250, 250)
REACH_COLOURS = {"half": (60, 200, 90), "full": (240, 220, 60), "charge": (250, 150, 40), "run": (230, 70, 60)}
FEATURE_COLOUR = (60, 40, 20)


def short_labels(names: Iterable[str]) -> dict[str, str]:
    """Return a distinct label of at most four characters for each unit name."""
    out: dict[str, str] = {}
    used: set[str] = set()
    for name in names:
        alnum = re.sub(r"[^0-9A-Za-z]", "", name) or "U"
        words = [w for w in re.split(r"[^0-9A-Za-z]+", name) if w]
        digits = re.search(r"(\d+)$", alnum)
        if len(words) > 1 and not (digits and words[-1].isdigit()):
            label = "".join(w[0].upper() for w in words)[:3]
        elif digits and len(alnum) > len(digits.group(1)):
            label = (alnum[0].upper() + digits.group(1))[:4]
        else:
            label = alnum[:3].capitalize()
        base, n = label, 2
        while label in used:
            label = f"{base[:3]}{n}"[:4]
            n += 1
        used.add(label)
        out[name] = label
    return out


def side_colour(index: int) -> tuple[int, int, int]:
    """Return the colour of the n-th side."""
    return SIDE_COLOURS[index % len(SIDE_COLOURS)]


def build_view(battle: Battle, *, viewer_sides: Sequence[str] | None = None, show_hidden: bool = False) -> MapView:
    """Return the renderer's view of a battle; hidden features show only to their side or the GM."""
    ruleset = battle.ruleset
    styles = {
        t.key: TerrainStyle(key=t.key, name=t.name, color=t.color, pattern=t.pattern)
        for t in ruleset.terrain.values()
    }
    sides = tuple(SideStyle(name=s.name, color=side_colour(s.color)) for s in battle.sides)
    labels = short_labels(u.name for u in battle.iter_units())
    units = tuple(
        UnitToken(
            key=u.name, label=labels[u.name], side=u.side, x=u.x, y=u.y, health=u.health(),
            marks=u.badges(), is_horde=u.massed, facing=u.heading(), statuses=u.key_words(),
        )
        for u in battle.iter_units() if u.on_map
    )
    visible = {s.lower() for s in (viewer_sides or ())}
    features: list[FeatureMark] = []
    effects: list[CellEffect] = []
    for key, state in battle.cells.items():
        cell = Cell.parse(key)
        fkey = state.get("feature")
        if fkey and fkey in ruleset.features:
            ftype = ruleset.features[fkey]
            if can_see(battle, cell, visible, show_hidden):
                features.append(FeatureMark(x=cell.x, y=cell.y, label=ftype.label, color=FEATURE_COLOUR,
                                            hidden=ftype.hidden))
        for kind in ("fire", "smoke", "storm", "burnt", "deep"):
            if state.get(kind):
                effects.append(CellEffect(x=cell.x, y=cell.y, kind=kind))
    return MapView(
        title=f"{battle.name} · {ruleset.name} · round {battle.round}" if battle.round else f"{battle.name} · {ruleset.name} · setup",
        width=battle.width, height=battle.height, map_version=f"{battle.ruleset_id}:{battle.map_version}:{battle.width}x{battle.height}:{hash(tuple(battle.terrain))}",
        terrain=tuple(battle.terrain), styles=styles, sides=sides, units=units,
        features=tuple(features), effects=tuple(effects),
    )


def _xy(label: str) -> tuple[int, int]:
    cell = Cell.parse(label)
    return cell.x, cell.y


def overlays_for(highlight: dict[str, Any]) -> list[Any]:
    """Return the overlays that mark an outcome on the map (path, line of fire, target)."""
    out: list[Any] = []
    path = highlight.get("path")
    if path and len(path) > 1:
        out.append(MovePath(cells=tuple(_xy(c) for c in path), color=PATH_COLOUR))
    line = highlight.get("line")
    if line:
        out.append(LineOfFire(src=_xy(line[0]), dst=_xy(line[1]), hit=highlight.get("hit")))
    target = highlight.get("target")
    if target and not path:
        x, y = _xy(target)
        out.append(TargetSquare(x=x, y=y))
    for mark in highlight.get("marks", []):
        x, y = _xy(mark["cell"])
        out.append(Marker(x=x, y=y, text=str(mark["text"])))
    deviation = highlight.get("deviation")
    if deviation:
        out.append(MissLanding(aim=_xy(deviation[0]), landed=_xy(deviation[1])))
    return out


def reach_overlays(reach: dict[str, dict[str, int]]) -> list[Any]:
    """Return one tinted overlay per move mode, widest first so the nearer ones stay visible."""
    out: list[Any] = []
    for mode in reversed(list(reach)):
        cells = frozenset(_xy(c) for c in reach[mode])
        out.append(Reachable(cells=cells, label=mode.title(), color=REACH_COLOURS.get(mode, (200, 200, 200))))
    return out


def action_cells(highlight: dict[str, Any], cap: int | None = 50) -> list[tuple[int, int]]:
    """Return the squares an outcome touched, to crop the map around them."""
    cells: list[str] = []
    cells += highlight.get("path", [])
    cells += highlight.get("line", [])
    cells += highlight.get("deviation", [])
    for key in ("actor", "target"):
        if highlight.get(key):
            cells.append(highlight[key])
    cells += highlight.get("cells", [])[:cap]
    return [_xy(c) for c in cells]
