"""Text a player or a file can send is read in time linear in its length: no pattern tries every split of it.

Each input here is shaped to make a pattern with overlapping repeats (spaces that could belong to a name or
to the gap after it, digits that could end one number or start the next) try every way of splitting it;
each must be answered, with the value or a refusal, after reading it once.
"""

from __future__ import annotations

import pytest

from rules.errors import InvalidOrderError
from rules.systems.strategic.damage import devastating
from rules.systems.strategic.statblock import parse_weapon
from rules.systems.strategic.statblock_file import parse_statblock_file

SPACES = " " * 100_000


def test_a_quality_of_many_spaces_is_refused_by_its_length() -> None:
    with pytest.raises(InvalidOrderError, match="is not a quality"):
        parse_weapon({"name": "Rifle", "range": 30, "damage": "1d10", "qualities": ["a" + SPACES + "("]})
    assert parse_weapon({"name": "Rifle", "range": 30, "damage": "1d10", "qualities": ["Blast ( 3 )"]}).blast == 3


def test_a_damage_of_many_spaces_before_its_type() -> None:
    """Spaces between the dice and the type letter are a gap; before any other letter the damage is refused."""
    wide = parse_weapon({"name": "Rifle", "range": 30, "damage": "1d10" + SPACES + "X"})
    assert (wide.damage, wide.dtype) == ("1d10", "X")
    with pytest.raises(InvalidOrderError, match="characters long"):
        parse_weapon({"name": "Rifle", "range": 30, "damage": "1d10" + SPACES + "Q"})
    assert parse_weapon({"name": "Rifle", "range": 30, "damage": "1d10+6 X"}).damage == "1d10+6"


def test_devastating_after_many_spaces() -> None:
    assert devastating(["Devastating" + SPACES + "x"]) == 0
    assert devastating(["Devastating ( 2 )"]) == 2


def test_a_long_table_header_line_in_a_stat_block_file() -> None:
    """A header line of 19,000 spaces (valid TOML) is located once, then refused as not a unit table; longer
    names are refused by the bounded reader before any line is searched."""
    text = '["' + " " * 19_000 + '\t"]\n'
    with pytest.raises(InvalidOrderError, match="not part of a stat-block file"):
        parse_statblock_file(text)
    with pytest.raises(InvalidOrderError, match="Line 1, at the top level: the file holds a name of 190,001 characters"):
        parse_statblock_file('["' + " " * 190_000 + '\t"]\n')


def test_squares_edges_and_runs_of_any_length_are_refused_with_a_short_quote() -> None:
    from rules.battle import Battle
    from rules.coords import Cell, Edge
    from rules.edgeorders import parse_edges

    for text in ("A" * 100_000 + "1", "A1" * 50_000, "1" * 100_000):
        with pytest.raises(InvalidOrderError, match="is not a cell") as cell:
            Cell.parse(text)
        assert len(cell.value.message) < 200
    with pytest.raises(InvalidOrderError, match="is not a side of a square") as side:
        Edge.parse("C3:" + "n" * 100_000)
    assert len(side.value.message) < 300
    battle = Battle.new("m42", 20, 15, "Edges")
    with pytest.raises(InvalidOrderError, match="at most") as many:
        parse_edges(battle, "C3|C4," * 20_000)
    assert len(many.value.message) < 200
    with pytest.raises(InvalidOrderError, match="is not a cell"):
        parse_edges(battle, "C3-" + "H" * 100_000 + "3:s")


def test_typed_stats_and_console_lines_of_any_length() -> None:
    from bot.console import split_command
    from cogs.unit.stats_text import parse_stats

    with pytest.raises(InvalidOrderError, match="is not a stat") as stat:
        parse_stats("ag " * 3_000)
    assert len(stat.value.message) < 400
    with pytest.raises(InvalidOrderError, match="levels deep"):
        parse_stats('{"weapons": ' + "[" * 2_000 + "]" * 2_000 + "}")
    with pytest.raises(InvalidOrderError, match="may be at most 24,000 bytes"):
        parse_stats('{"notes": "' + "x" * 30_000 + '"}')
    words, options = split_command("/move unit:" + "x" * 100_000 + " to:C4")
    assert words == ["move"] and options["to"] == "C4" and len(options["unit"]) == 100_000


def test_a_file_of_escaped_quotes_in_one_unclosed_string_is_read_once() -> None:
    """`"\\"\\"\\"...` never closes: the reader skips it once instead of retrying at every quote inside it."""
    import json

    from rules.filelimits import Limits, load_json, load_toml

    limits = Limits("a test file", max_bytes=8 * 1024 * 1024, max_depth=20, max_containers=1000, max_values=1000)
    with pytest.raises(json.JSONDecodeError):
        load_json(b'["' + b'\\"' * 200_000, limits)
    with pytest.raises(json.JSONDecodeError):
        load_json(b'["' + b'\\"' * 200_000 + b"\\", limits)
    import tomllib

    with pytest.raises(tomllib.TOMLDecodeError):
        load_toml('a = "' + '\\"' * 200_000, limits)
    assert load_json(b'{"a": "x\\"]]]"}', limits) == {"a": 'x"]]]'}
    assert load_toml("a = \"x\\\"]]]\" # ]]]\nb = 'y'\n", limits) == {"a": 'x"]]]', "b": "y"}
