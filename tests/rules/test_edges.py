"""Edges between squares and the board's edge layer (walls, hedges, fences, creeks, lava channels)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.battle import Battle
from rules.coords import Cell, Edge
from rules.edges import Obstacle
from rules.errors import IllegalOrderError, InvalidOrderError


def test_edge_is_canonical_whichever_way_it_is_written() -> None:
    assert Edge.parse("C4|C3") == Edge.parse("c3|c4") == Edge.parse("C3:s") == Edge.parse("C4:north")
    assert str(Edge.parse("C4|C3")) == "C3|C4"
    assert Edge.parse("D3:w") == Edge.between(Cell(3, 2), Cell(2, 2))
    assert str(Edge.parse("D3:w")) == "C3|D3"


@given(st.integers(0, 98), st.integers(0, 98), st.booleans())
def test_edge_text_round_trips(x: int, y: int, down: bool) -> None:
    edge = Edge.between(Cell(x, y), Cell(x, y + 1) if down else Cell(x + 1, y))
    assert Edge.parse(str(edge)) == edge
    assert edge.horizontal is down


@pytest.mark.parametrize(("text", "words"), [
    ("C3|D4", "do not share a side"),
    ("C3|C3", "do not share a side"),
    ("C3", "is not an edge"),
    ("C3:up", "not a side of a square"),
    ("A1:n", "edge of the map"),
    ("A4:w", "edge of the map"),
    ("C0|C1", "rows start at 1"),
])
def test_bad_edges_are_explained(text: str, words: str) -> None:
    with pytest.raises(InvalidOrderError, match=words):
        Edge.parse(text)


def test_edge_segment_lies_on_the_grid_line_between_its_squares() -> None:
    assert Edge.parse("C3|C4").segment() == ((2, 3), (3, 3))
    assert Edge.parse("C3|D3").segment() == ((3, 2), (3, 3))


def test_edge_layer_round_trips_through_the_document() -> None:
    battle = Battle.new("strategic-e", 5, 5)
    wall = Obstacle("wall", height=2.5, thickness=1.0, opening=1.5, openable=False)
    battle.edges[Edge.parse("B2|B3")] = wall
    battle.edges[Edge.parse("A1|B1")] = Obstacle("hedge", height=1.0)
    doc = battle.to_dict()
    assert doc["edges"][0] == {"edge": "A1|B1", "kind": "hedge", "height": 1.0, "thickness": 0.0,
                               "opening": 0.0, "openable": True}
    again = Battle.from_dict(doc)
    assert again.edges == battle.edges
    assert again.edge_at(Cell(1, 2), Cell(1, 1)) == wall


def test_older_documents_without_edges_load_with_none() -> None:
    doc = Battle.new("strategic-e", 3, 3).to_dict()
    assert "edges" not in doc
    assert Battle.from_dict(doc).edges == {}


def test_a_saved_edge_on_a_square_that_does_not_exist_is_refused() -> None:
    doc = Battle.new("strategic-e", 3, 3).to_dict()
    doc["edges"] = [{"edge": "C3|D3", "kind": "wall", "height": 1}]
    with pytest.raises(IllegalOrderError, match="D3, which is off the map"):
        Battle.from_dict(doc)


@pytest.mark.parametrize(("row", "words"), [
    ({"edge": "A1|A2", "kind": "moat"}, "not an obstacle kind"),
    ({"edge": "A1|A2", "kind": "wall", "height": "tall"}, "number of inches"),
    ({"edge": "A1|A2", "kind": "wall", "height": -1}, "0 to 100"),
])
def test_bad_obstacles_are_explained(row: dict[str, object], words: str) -> None:
    doc = Battle.new("strategic-e", 3, 3).to_dict()
    doc["edges"] = [row]
    with pytest.raises(InvalidOrderError, match=words):
        Battle.from_dict(doc)


def test_undo_restores_the_edge_layer() -> None:
    from rules.dice import Dice
    from rules.orders import Paint

    battle = Battle.new("strategic-e", 3, 3)
    battle.edges[Edge.parse("A1|A2")] = Obstacle("fence", height=1)
    battle.apply(Paint(terrain="plain", frm=Cell(0, 0)), Dice.seeded(1))
    battle.edges.clear()
    battle.undo()
    assert battle.edges == {Edge.parse("A1|A2"): Obstacle("fence", height=1.0)}


def test_a_run_of_sides_names_the_same_side_of_each_square_along_a_line() -> None:
    """A GM paints a wall along a column at once: `L1-L4:e` is the east side of L1, L2, L3 and L4."""
    from rules.edgeorders import parse_edges

    b = Battle.new("m42", 20, 10)
    assert parse_edges(b, "L1-L4:e") == [Edge.parse(f"L{n}|M{n}") for n in range(1, 5)]
    assert parse_edges(b, "E3-C3:s, C3:s") == [Edge.parse("E3|E4"), Edge.parse("D3|D4"), Edge.parse("C3|C4")]
    with pytest.raises(InvalidOrderError, match="one row or one column"):
        parse_edges(b, "C3-E5:s")
    with pytest.raises(IllegalOrderError, match=r"T1\|U1 touches U1, which is off the map"):
        parse_edges(b, "S1-T1:e")
