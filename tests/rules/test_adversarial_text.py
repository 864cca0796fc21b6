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
    """A header line of 190,000 spaces (valid TOML) is located once, then refused as not a unit table."""
    text = '["' + " " * 190_000 + '\t"]\n'
    with pytest.raises(InvalidOrderError, match="not part of a stat-block file"):
        parse_statblock_file(text)
