"""A1 coordinates, Chebyshev distance and the line of fire."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.coords import Cell, column_index, column_label, line_cells
from rules.errors import InvalidOrderError


@pytest.mark.parametrize(("index", "label"), [(0, "A"), (25, "Z"), (26, "AA"), (27, "AB"), (51, "AZ"), (52, "BA"), (99, "CV")])
def test_column_labels(index: int, label: str) -> None:
    assert column_label(index) == label
    assert column_index(label) == index


@given(st.integers(min_value=0, max_value=2000))
def test_column_label_round_trips(index: int) -> None:
    assert column_index(column_label(index)) == index


@pytest.mark.parametrize(("text", "cell"), [("A1", Cell(0, 0)), ("e5", Cell(4, 4)), (" AB12 ", Cell(27, 11)), ("cv100", Cell(99, 99))])
def test_parse_is_case_insensitive(text: str, cell: Cell) -> None:
    assert Cell.parse(text) == cell


@given(st.integers(0, 99), st.integers(0, 99))
def test_cell_text_round_trips(x: int, y: int) -> None:
    assert Cell.parse(str(Cell(x, y))) == Cell(x, y)


@pytest.mark.parametrize("bad", ["Z0", "A-1", "🙂", "", "1A", "A", "12", "A1B", "AAAA1"])
def test_bad_cells_are_refused_with_the_accepted_form(bad: str) -> None:
    with pytest.raises(InvalidOrderError) as err:
        Cell.parse(bad)
    assert "A1" in err.value.message


def test_z0_says_rows_start_at_one() -> None:
    with pytest.raises(InvalidOrderError, match="rows start at 1"):
        Cell.parse("Z0")


def test_chebyshev_distance_counts_diagonals_as_one() -> None:
    # RULES.md A02: d = max(|dx|, |dy|); a diagonal neighbour is adjacent.
    assert Cell(0, 0).distance(Cell(1, 1)) == 1
    assert Cell(0, 0).distance(Cell(3, 7)) == 7
    assert len(Cell(5, 5).neighbours()) == 8
    assert all(Cell(5, 5).distance(n) == 1 for n in Cell(5, 5).neighbours())


@given(st.integers(0, 40), st.integers(0, 40), st.integers(0, 40), st.integers(0, 40))
def test_line_has_one_square_per_step(x0: int, y0: int, x1: int, y1: int) -> None:
    a, b = Cell(x0, y0), Cell(x1, y1)
    line = line_cells(a, b)
    assert line[0] == a and line[-1] == b
    assert len(line) == a.distance(b) + 1
    assert all(p.distance(q) == 1 for p, q in itertools.pairwise(line))
