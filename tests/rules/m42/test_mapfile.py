"""M42 map files: roads, floors and the [edges] list, their errors, and importing them over a battle."""

from __future__ import annotations

import dataclasses

import pytest

from rules.coords import Cell, Edge
from rules.edges import Obstacle
from rules.errors import IllegalOrderError, InvalidOrderError, RulesetError
from rules.mapfile import Layer, format_map, map_marks, parse_map
from rules.orders import ImportMap
from rules.ruleset import get_ruleset
from rules.systems.m42 import SYSTEM
from rules.systems.m42.mapfile import LAYERS
from rules.systems.strategic.mapfile import parse_map as parse_strategic
from tests.rules.m42.helpers import DICE, field, unit

M42 = get_ruleset("m42")

FARM = """\
# battlepost map: Farm
# ruleset: m42
..TT..
..TTBB
......
[road]
......
......
xxxxxx
[floors]
......
....2.
......
[edges]
B1|B2 wall height=2
D3:n hedge height=1.5 thickness=0.5
E2|E3 wall height=3 opening=1 openable=no
"""


def parse(text: str) -> object:
    """Parse an M42 map file."""
    return parse_map(text, M42, LAYERS, edges=True)


def test_a_map_file_carries_roads_floors_and_edges() -> None:
    data = parse_map(FARM, M42, LAYERS, edges=True)
    assert (data.width, data.height) == (6, 3)
    assert data.terrain[4:6] == ["open", "open"] and data.terrain[10:12] == ["building", "building"]
    assert {k for k, v in data.flags.items() if v.get("road")} == {f"{c}3" for c in "ABCDEF"}
    assert data.flags["E2"] == {"floors": 2}
    assert data.edges == {
        Edge.parse("B1|B2"): Obstacle("wall", height=2.0),
        Edge.parse("D2|D3"): Obstacle("hedge", height=1.5, thickness=0.5),
        Edge.parse("E2|E3"): Obstacle("wall", height=3.0, opening=1.0, openable=False),
    }


@pytest.mark.parametrize(("text", "fragment"), [
    ("...\n...\n[edges]\nC2|D2 wall\n",
     r"^Line 4: the edge C2\|D2 touches D2, which is not on this 3x2 map \(it runs from A1 to C2\)"),
    ("...\n...\n[edges]\nC2:s wall\n", r"^Line 4: the edge C2\|C3 touches C3, which is not on this 3x2 map"),
    ("...\n[edges]\nA1:n wall\n", r"^Line 3: The n side of A1 is the edge of the map"),
    ("...\n[edges]\nA1|C1 wall\n", r"^Line 3: A1 and C1 do not share a side"),
    ("...\n[edges]\nA1|B1 moat\n", r"^Line 3: `moat` is not an obstacle kind; use one of `wall`"),
    ("...\n[edges]\nA1|B1 wall tall=4\n", r"^Line 3: `tall=4` is not an obstacle field"),
    ("...\n[edges]\nA1|B1 wall height=high\n", r"^Line 3: `height` is a number of inches"),
    ("...\n[edges]\nA1|B1 wall openable=maybe\n", r"^Line 3: `openable` is yes or no"),
    ("...\n[edges]\nA1|B1 wall\nB1:w hedge\n", r"^Line 4: the edge A1\|B1 is listed twice"),
    ("...\n[floors]\n.3.\n", r"^Line 3, column 2: only buildings and ruins have floors, not Open Ground"),
    ("BB\n[floors]\n1.\n", r"^Line 3, column 1: `1` is not a \[floors\] mark. Allowed: `.` \(one\) and `2` to `9`"),
    ("..\n[road]\n.r\n", r"^Line 3, column 2: `r` is not a \[road\] mark"),
    ("..\n[storm]\n..\n", r"^Line 2: `\[storm\]` is not a layer; a map file may have \[road\], \[floors\], \[edges\]"),
    ("..\n[edges]\nA1|B1 wall\n[edges]\n", r"^Line 4: the \[edges\] list appears twice"),
])
def test_bad_m42_map_files_name_the_line(text: str, fragment: str) -> None:
    """A map file with an edge on a square that does not exist gets a specific message naming the line."""
    with pytest.raises(InvalidOrderError, match=fragment):
        parse(text)


def test_a_strategic_map_has_no_edges() -> None:
    with pytest.raises(InvalidOrderError, match=r"`\[edges\]` is not a layer; a map file may have \[storm\], \[rain\], \[deep\]"):
        parse_strategic("..\n[edges]\nA1|B1 wall\n", get_ruleset("strategic-e"))


def test_export_reads_back_to_the_same_map() -> None:
    b = field(8, 5)
    b.apply(ImportMap(text=FARM), DICE)
    b.edges[Edge.parse("F2|F3")] = Obstacle("lava", height=0.5, thickness=1.0)
    text = format_map(b)
    assert "[edges]\nB1|B2 wall height=2 thickness=0 opening=0 openable=yes" in text
    data = parse_map(text, M42, LAYERS, edges=True)
    assert data.terrain == b.terrain and data.edges == b.edges
    assert data.flags == map_marks(b, LAYERS)


def test_import_replaces_terrain_roads_floors_and_edges() -> None:
    b = field(10, 10)
    b.edges[Edge.parse("H8|H9")] = Obstacle("fence")
    b.square(Cell(8, 8))["road"] = True
    out = b.apply(ImportMap(text=FARM), DICE)
    assert (b.width, b.height) == (6, 3)
    assert len(b.edges) == 3 and Edge.parse("H8|H9") not in b.edges
    assert b.square_state(Cell(4, 1)) == {"floors": 2}
    assert out.details.to_dict() == {"width": 6, "height": 3, "edges": 3, "road": 6, "floors": 1}


def test_import_refuses_to_leave_a_model_off_the_map_and_changes_nothing() -> None:
    b = field(10, 10)
    unit(b, "Alpha", "B2", models=5)
    b.unit("Alpha").models[0] = type(b.unit("Alpha").models[0])(8, 8)
    before = b.to_dict()
    with pytest.raises(IllegalOrderError, match="A model of Alpha stands on I9, outside the new 6x3 map"):
        b.apply(ImportMap(text=FARM), DICE)
    assert b.to_dict() == before


def test_a_bad_edge_in_a_file_changes_nothing() -> None:
    b = field(6, 3)
    before = b.to_dict()
    with pytest.raises(InvalidOrderError, match=r"Line 3: the edge F1\|G1 touches G1"):
        b.apply(ImportMap(text="......\n[edges]\nF1|G1 wall\n"), DICE)
    assert b.to_dict() == before


def test_roads_and_floors_are_typed_square_fields_saved_as_before() -> None:
    """A road and a floor count are read as fields and saved as the same small document."""
    b = field(8, 5)
    b.apply(ImportMap(text=FARM), DICE)
    assert b.square_state(Cell(0, 2)).road is True and b.square_state(Cell(0, 0)).road is False
    assert b.square_state(Cell(4, 1)).floors == 2 and b.square_state(Cell(5, 1)).floors is None
    saved = b.to_dict()["cells"]
    assert saved["A3"] == {"road": True} and saved["E2"] == {"floors": 2}
    assert type(b).from_dict(b.to_dict()).square_state(Cell(4, 1)).floors == 2


def test_a_saved_floor_count_that_is_not_a_number_names_the_square() -> None:
    b = field(8, 5)
    doc = b.to_dict()
    doc["cells"] = {"E2": {"floors": "two"}}
    with pytest.raises(RulesetError, match="square E2: `floors` must be a whole number"):
        type(b).from_dict(doc)


def test_a_map_layer_must_name_a_field_of_the_systems_squares() -> None:
    """A mark is kept on the square it names: a system whose layer names none of its squares' fields is refused."""
    with pytest.raises(RulesetError, match=r"\[roof\] of `m42` names no square field; use one of road, floors"):
        dataclasses.replace(SYSTEM, map_layers=(*SYSTEM.map_layers, Layer("roof", "a roof")))
