"""The renderer's input: a read-only picture of a battle, built by the game layer.

These types hold only what a map image needs, so the renderer never depends on
the rules engine's own classes (only on `rules.coords` for labels).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass

log = logging.getLogger(__name__)

RGB = tuple[int, int, int]
XY = tuple[int, int]
XYZ = tuple[int, int, int]

PATTERNS: frozenset[str] = frozenset(
    {
        "none",
        "dots",
        "hatch",
        "crosshatch",
        "waves",
        "trees",
        "bricks",
        "triangles",
        "grid",
        "vertical",
        "horizontal",
        "stipple",
    }
)
EFFECT_KINDS: frozenset[str] = frozenset({"fire", "smoke", "storm", "burnt", "deep"})


@dataclass(frozen=True)
class TerrainStyle:
    """Describe how one terrain type is painted: fill colour and a greyscale-safe pattern."""

    key: str
    name: str
    color: RGB
    pattern: str = "none"


@dataclass(frozen=True)
class SideStyle:
    """Name a side and the colour of its tokens.

    `slot` is the side's own colour place, kept with the side from its creation; the greyscale
    palette shades by it, so a side keeps its grey however the list of sides changes.
    """

    name: str
    color: RGB
    slot: int | None = None  # None: the side's place in the view's list


@dataclass(frozen=True)
class UnitToken:
    """Place one unit (or Horde) on a square with its label, health and status marks."""

    key: str
    label: str
    side: str
    x: int
    y: int
    health: float | None = None
    marks: tuple[str, ...] = ()
    is_horde: bool = False
    name: str = ""
    owner: str = ""
    health_text: str = ""
    statuses: tuple[str, ...] = ()
    facing: int | None = None  # degrees clockwise from north (row 1 is north): an arrow on the token's rim
    level: int = 0  # the floor the token stands on (0: the ground)
    models: tuple[XYZ, ...] = ()  # the unit's other models, each (x, y, floor); the token is their leader

    @property
    def shown_name(self) -> str:
        """Return the name the unit key gives the unit (its key when it has no name)."""
        return self.name or self.key


@dataclass(frozen=True)
class FeatureMark:
    """Mark a fortification or obstacle (trench, wire, minefield) on a square."""

    x: int
    y: int
    label: str
    color: RGB
    hidden: bool = False
    name: str = ""


@dataclass(frozen=True)
class CellEffect:
    """Mark a lasting effect on a square: fire, smoke, storm, burnt ground or deep water."""

    x: int
    y: int
    kind: str


EDGE_KINDS: frozenset[str] = frozenset({"wall", "hedge", "fence", "creek", "lava"})


@dataclass(frozen=True)
class EdgeMark:
    """Draw an obstacle on the side between two orthogonally adjacent squares, with any opening in it.

    `opening` is the width of a door, window or hole (0: none); `openable` says whether models may
    stand inside behind it; `tall` marks an obstacle infantry cannot cross.
    """

    a: XY
    b: XY
    kind: str
    height: float = 0.0
    opening: float = 0.0
    openable: bool = True
    tall: bool = False

    def __post_init__(self) -> None:
        """Refuse two squares that do not share a side."""
        if abs(self.a[0] - self.b[0]) + abs(self.a[1] - self.b[1]) != 1:
            raise ValueError(f"an edge joins two side-by-side squares, not {self.a} and {self.b}")


@dataclass(frozen=True)
class MapView:
    """Describe everything drawn on one map image.

    `map_version` is the base-layer cache key: two views with the same value
    must have the same size, terrain, terrain styles, edges, roads and floors. `status` is the title's
    second line: the round, the phase and who acts now.
    """

    title: str
    width: int
    height: int
    map_version: str
    terrain: tuple[str, ...]
    styles: Mapping[str, TerrainStyle]
    sides: tuple[SideStyle, ...]
    units: tuple[UnitToken, ...] = ()
    features: tuple[FeatureMark, ...] = ()
    effects: tuple[CellEffect, ...] = ()
    status: str = ""
    edges: tuple[EdgeMark, ...] = ()
    roads: frozenset[XY] = frozenset()
    floors: tuple[XYZ, ...] = ()  # (x, y, floors) of each square with more than one floor

    def __post_init__(self) -> None:
        """Refuse a terrain tuple that does not match the map size."""
        # Fail at the door: a wrong-sized terrain tuple would otherwise paint
        # a shifted map that looks plausible and misleads players.
        if self.width < 1 or self.height < 1:
            raise ValueError(f"map size must be positive, got {self.width}x{self.height}")
        if len(self.terrain) != self.width * self.height:
            raise ValueError(
                f"terrain has {len(self.terrain)} cells, expected {self.width}x{self.height}"
                f" = {self.width * self.height}"
            )

    def terrain_at(self, x: int, y: int) -> str:
        """Return the terrain key of a square."""
        return self.terrain[y * self.width + x]

    def side_index(self, name: str) -> int | None:
        """Return the position of a side by name, or None when unknown."""
        for i, side in enumerate(self.sides):
            if side.name == name:
                return i
        return None


# Overlays: what happened or what may happen, drawn over the units.


@dataclass(frozen=True)
class MovePath:
    """Draw a move as a line from square centre to square centre, ending in an arrow."""

    cells: tuple[XY, ...]
    color: RGB = (255, 214, 10)


@dataclass(frozen=True)
class LineOfFire:
    """Draw a shot from one square to another; `hit` is None for a shot not yet rolled."""

    src: XY
    dst: XY
    hit: bool | None = None


@dataclass(frozen=True)
class TargetSquare:
    """Outline a targeted square (an attack's aim point or a blast square)."""

    x: int
    y: int


@dataclass(frozen=True)
class Reachable:
    """Tint the squares reachable by one move mode; several may nest, each listed in the legend."""

    cells: frozenset[XY]
    label: str
    color: RGB = (80, 160, 255)


@dataclass(frozen=True)
class Marker:
    """Pin a short text callout to a square."""

    x: int
    y: int
    text: str


@dataclass(frozen=True)
class SquareChoices:
    """Outline and name the squares a player may choose among (a move's destinations), and only those."""

    cells: tuple[XY, ...]
    label: str = "Squares to choose"


AREA_KINDS: frozenset[str] = frozenset({"blast", "cone", "line", "at_field"})


@dataclass(frozen=True)
class AreaOfEffect:
    """Draw the squares an area attack covers: a blast, a cone from `src`, a line, or an AT-field."""

    kind: str
    cells: tuple[XY, ...]
    src: XY | None = None
    label: str = ""


@dataclass(frozen=True)
class MissLanding:
    """Draw where a missed shot aimed at `aim` came down."""

    aim: XY
    landed: XY


@dataclass(frozen=True)
class RangeBand:
    """Name one range band and the distances in squares it spans (`high` None: no limit)."""

    name: str
    low: int
    high: int | None


@dataclass(frozen=True)
class RangeBands:
    """Ring the squares around `src` by range band, nearest first."""

    src: XY
    bands: tuple[RangeBand, ...]
    label: str = ""


Overlay = (MovePath | LineOfFire | TargetSquare | Reachable | Marker | AreaOfEffect | MissLanding | RangeBands
           | SquareChoices)
