"""Build the renderer's read-only view of a battle, and the overlays of an outcome, a reach or a weapon."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType

from bot.clock import whose_turn
from render.view import (
    AREA_KINDS,
    AreaOfEffect,
    CellEffect,
    EdgeMark,
    FeatureMark,
    LineOfFire,
    MapView,
    Marker,
    MissLanding,
    MovePath,
    Overlay,
    RangeBand,
    RangeBands,
    Reachable,
    SideStyle,
    SquareChoices,
    TargetSquare,
    TerrainStyle,
    UnitToken,
)
from rules import turns
from rules.battle import Battle
from rules.colours import side_colours
from rules.coords import Cell
from rules.details import Details
from rules.outcome import Highlight
from rules.system import Structures
from rules.systems.strategic.details import AttackDetails
from rules.systems.strategic.ranges import bands, weapon_range
from rules.systems.strategic.units import Weapon
from rules.units import Unit
from rules.visibility import PUBLIC, Viewer, seen_units, sees, visible_highlight

PATH_COLOUR = (250, 250, 250)
REACH_COLOURS = {"half": (60, 200, 90), "full": (240, 220, 60), "charge": (250, 150, 40), "run": (230, 70, 60)}
# Other systems' modes (M42's actions), nearest first: the same ramp from green to red.
OTHER_REACH_COLOURS = ((60, 200, 90), (120, 210, 200), (240, 220, 60), (250, 150, 40), (230, 70, 60), (160, 90, 200))
FEATURE_COLOUR = (60, 40, 20)
AREA_NAMES = {"blast": "Blast", "cone": "Cone", "line": "Line", "at_field": "AT-field"}
LABEL_CACHE = 256  # rosters whose labels are kept: one per battle drawn lately
MAX_ACTING_NAMES = 4  # the title names this many units due to act, then counts the rest

OwnerNames = Callable[[int], str | None]


def short_labels(names: Iterable[str]) -> dict[str, str]:
    """Return a distinct label of at most four characters for each unit name."""
    return dict(_labels(tuple(names)))


@functools.lru_cache(maxsize=LABEL_CACHE)
def _labels(names: tuple[str, ...]) -> Mapping[str, str]:
    """Work a battle's labels out once for its roster: every map drawn of it until a unit is added or renamed
    reuses them (a read-only mapping, shared)."""
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
            # The number takes the room it needs: past 9 collisions `ABC9` goes on as `AB10`, never repeating.
            number = str(n)
            label = f"{base[: max(0, 4 - len(number))]}{number}"
            n += 1
        used.add(label)
        out[name] = label
    return MappingProxyType(out)


def status_words(unit: Unit) -> tuple[str, ...]:
    """Return a unit's statuses as a player reads them: `Pinned (2 rounds)`, `On fire`."""
    words = []
    timers: dict[str, int] = getattr(unit, "status_rounds", {})
    for status in unit.statuses:
        word = status.replace("_", " ").capitalize()
        rounds = timers.get(status)
        if rounds:
            word += f" ({rounds} round{'s' if rounds != 1 else ''})"
        words.append(word)
    return tuple(words)


def health_text(unit: Unit) -> str:
    """Return a unit's health as the key shows it: its system's words (`Wounds 32/40`), else a percentage."""
    return unit.health_text() or f"Health {round(unit.health() * 100)}%"


def status_line(battle: Battle, viewer: Viewer = PUBLIC) -> str:
    """Return the title's second line: the round, the phase or turn, and who may act now (as a viewer sees them)."""
    line = whose_turn(battle, viewer)
    if battle.status != "active":
        return line
    due = turns.next_due(battle)
    if not due:
        return f"{line} \u00b7 everyone has acted"
    seen = [uid for uid in due if (unit := battle.units.get(uid)) is None or sees(viewer, unit)]
    unseen = len(due) - len(seen)
    names = [turns.name_of(battle, uid) for uid in seen[:MAX_ACTING_NAMES]]
    rest = len(seen) - len(names)
    if rest:
        names.append(f"{rest} more")
    if unseen:
        names.append(f"{unseen} out of sight")
    shown = ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 and (rest or unseen) else ", ".join(names)
    return f"{line} \u00b7 to act: {shown}"


def build_view(battle: Battle, *, viewer: Viewer = PUBLIC, owner_names: OwnerNames | None = None) -> MapView:
    """Return the renderer's view of a battle as a viewer may see it (rules.visibility).

    Hidden units and hidden features show only to their side and the GM; the public sees neither.
    """
    ruleset = battle.ruleset
    styles = {
        t.key: TerrainStyle(key=t.key, name=t.name, color=t.color, pattern=t.pattern)
        for t in ruleset.terrain.values()
    }
    # The sides with a unit on the map; each keeps the colour it got when it was created, so a side
    # leaving the field (its last unit removed) changes no other side's colour.
    shown = [u for u in seen_units(battle, viewer) if u.on_map]
    present = {u.side.lower() for u in shown}
    colours = side_colours(battle)  # its GM's colour, else its name's, else the palette's (rules.colours)
    sides = tuple(SideStyle(name=s.name, color=colours[s.name], slot=s.color)
                  for s in battle.sides if s.name.lower() in present)
    labels = _labels(tuple(u.name for u in battle.iter_units()))
    names = owner_names or (lambda _uid: None)
    units = tuple(
        UnitToken(
            key=u.name, label=labels[u.name], side=u.side, x=u.x, y=u.y,
            health=u.health() if u.HEALTH_BAR else None,
            marks=u.badges(), is_horde=u.massed, facing=u.heading(),
            name=u.name, owner=(names(u.owner) or "") if u.owner is not None else "",
            health_text=health_text(u), statuses=(*u.key_words(), *status_words(u)),
            level=u.token_level, models=u.other_models(),
        )
        for u in shown
    )
    found = structures_of(battle, viewer)
    edges, roads, floors = structure_marks(found)
    features = tuple(FeatureMark(x=s.cell.x, y=s.cell.y, label=s.label, color=FEATURE_COLOUR, hidden=s.hidden,
                                 name=s.name) for s in found.signs)
    effects = tuple(CellEffect(x=cell.x, y=cell.y, kind=kind) for cell, kind in found.effects)
    return MapView(
        title=f"{battle.name} \u00b7 {ruleset.name}",
        width=battle.width, height=battle.height,
        # The base layer is cached by this key, and it draws the structures too: they are in the key.
        map_version=(f"{battle.ruleset_id}:{battle.map_version}:{battle.width}x{battle.height}:"
                     f"{hash(tuple(battle.terrain))}:{hash((edges, roads, floors))}"),
        terrain=tuple(battle.terrain), styles=styles, sides=sides, units=units,
        features=features, effects=effects, status=status_line(battle, viewer),
        edges=edges, roads=roads, floors=floors,
    )


def structures_of(battle: Battle, viewer: Viewer = PUBLIC) -> Structures:
    """Return what the battle's system shows on its map besides terrain and units, as a viewer may see it."""
    hook = battle.system.structures
    if hook is not None:
        return hook(battle, viewer.sides, viewer.gm)
    return Structures(edges=tuple((e, o, False) for e, o in sorted(battle.edges.items())))


def structure_marks(found: Structures) -> tuple[tuple[EdgeMark, ...], frozenset[tuple[int, int]],
                                                tuple[tuple[int, int, int], ...]]:
    """Return the obstacles on sides, the road squares and the raised squares' storeys, as the renderer draws them."""
    edges = tuple(
        EdgeMark(a=(e.a.x, e.a.y), b=(e.b.x, e.b.y), kind=o.kind, height=o.height, opening=o.opening,
                 openable=o.openable, tall=tall)
        for e, o, tall in found.edges
    )
    return edges, frozenset((c.x, c.y) for c in found.roads), tuple((c.x, c.y, n) for c, n in found.levels)


def _xy(label: str) -> tuple[int, int]:
    cell = Cell.parse(label)
    return cell.x, cell.y


def overlays_for(highlight: Highlight, details: Details | None = None) -> list[Overlay]:
    """Return the overlays that mark an outcome on the map: path, line of fire, target, area, landing, marks.

    A highlight may also offer `choices`: the squares a player picks among, outlined and named.

    `details` are the outcome's: an area attack's shape and how many it hit come from there.
    """
    out: list[Overlay] = []
    attack = details if isinstance(details, AttackDetails) else None
    path = highlight.path
    if path and len(path) > 1:
        out.append(MovePath(cells=tuple(_xy(c) for c in path), color=PATH_COLOUR))
    kind = attack.form or "" if attack is not None else ""
    line = highlight.line
    target = highlight.target
    if attack is not None and kind in AREA_KINDS and line:
        out.append(_area(kind, highlight, attack))
    if line:
        out.append(LineOfFire(src=_xy(line[0]), dst=_xy(line[1]), hit=highlight.hit))
    landed = highlight.landed
    if landed and target:
        out.append(MissLanding(aim=_xy(target), landed=_xy(landed)))
    if target and not path and kind not in AREA_KINDS:
        x, y = _xy(target)
        out.append(TargetSquare(x=x, y=y))
    for mark in highlight.marks or []:
        x, y = _xy(mark.cell)
        out.append(Marker(x=x, y=y, text=mark.text))
    if highlight.choices:
        out.append(SquareChoices(cells=tuple(_xy(c) for c in highlight.choices)))
    return out


def _area(kind: str, highlight: Highlight, attack: AttackDetails) -> AreaOfEffect:
    """Return the area an attack covered: the squares of a line, else its aimed square."""
    line = highlight.line or []
    cells = tuple(_xy(c) for c in highlight.cells or []) if kind == "line" else ()
    if not cells:
        cells = (_xy(highlight.target or line[1]),)
    name = AREA_NAMES[kind]
    if highlight.hit is False:
        label = f"{name}: missed"
    else:
        hits = len(attack.hits or ())
        label = f"{name}: {hits} hit{'s' if hits != 1 else ''}" if attack.hits is not None else name
    return AreaOfEffect(kind=kind, cells=cells, src=_xy(line[0]), label=label)


def last_action(battle: Battle, viewer: Viewer = PUBLIC) -> Highlight:
    """Return the highlight of the battle's last move or shot as the viewer may see it (a hidden unit's path
    is left out for those who cannot see it)."""
    last = battle.last
    if last is None:
        return Highlight()
    return visible_highlight(Highlight(path=None if last.path is None else list(last.path),
                                       line=None if last.line is None else list(last.line), hit=last.hit),
                             battle, viewer)


def reach_measure(battle: Battle) -> Callable[[float], str] | None:
    """Return how a unit's reach reads in its system's own measure (`4.5"` in M42), or None when it counts squares."""
    if battle.ruleset.square_unit != "in":
        return None  # the strategic and Combat Action reaches count squares or movement points, not a measure
    return lambda value: f'{round(value, 2):g}"'


def reach_overlays(reach: Mapping[str, Mapping[str, float]],
                   measure: Callable[[float], str] | None = None) -> list[Overlay]:
    """Return one tinted overlay per move mode, widest first so the nearer ones stay visible.

    With a measure, each mode's legend line says how far it goes at most (`Advance: up to 4.5"`).
    """
    out: list[Overlay] = []
    for index, mode in reversed(list(enumerate(reach))):
        cells = frozenset(_xy(c) for c in reach[mode])
        colour = REACH_COLOURS.get(mode, OTHER_REACH_COLOURS[index % len(OTHER_REACH_COLOURS)])
        label = mode.replace("-", " ").title()
        if measure is not None and reach[mode]:
            label += f": up to {measure(max(reach[mode].values()))}"
        out.append(Reachable(cells=cells, label=label, color=colour))
    return out


def range_overlay(battle: Battle, unit: Unit, weapon: Weapon) -> RangeBands:
    """Return the range bands of a unit's weapon around it, as far as the weapon may fire."""
    listed = tuple(
        RangeBand(name=b.name, low=b.low, high=b.high)
        for b in bands(battle, weapon_range(battle, weapon))
        if b.low is not None and b.high is not None
    )
    return RangeBands(src=(unit.x, unit.y), bands=listed, label=f"{unit.name}'s {weapon.name}")


SQUARES_COLOUR = (80, 200, 120)


def squares_overlay(cells: Iterable[str], label: str) -> Reachable:
    """Return a tint over some squares (the legal ones of a refusal, a Command Radius), named in the legend."""
    return Reachable(cells=frozenset(_xy(c) for c in cells), label=label, color=SQUARES_COLOUR)


def action_cells(highlight: Highlight, cap: int | None = 50) -> list[tuple[int, int]]:
    """Return the squares an outcome touched, to crop the map around them."""
    cells: list[str] = []
    cells += highlight.path or []
    cells += highlight.line or []
    cells += [c for c in (highlight.actor, highlight.target, highlight.landed) if c]
    cells += (highlight.cells or [])[:cap]
    cells += highlight.choices or []
    return [_xy(c) for c in cells]
