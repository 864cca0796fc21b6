"""How much table a square stands for: a multiple of the system's finest step, and the largest map it allows."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from rules.battle import Battle
from rules.coords import Cell
from rules.dice import Dice
from rules.errors import GameError, InvalidOrderError
from rules.orders import ImportMap, SetRule
from rules.ruleset import get_ruleset
from rules.scale import as_number, largest_map, square_size
from rules.systems.m42.geometry import closer_than, fully_within, gap_within

DICE = Dice.seeded(3)


@pytest.mark.parametrize(("ruleset", "size", "largest"), [
    ("m42", "1", (100, 100)),  # a 72" x 48" table is 72 x 48 squares: the usual 100 a side is larger
    ("m42", "0.75", (100, 100)),  # 96 x 64 squares
    ("m42", "0.5", (144, 96)),  # a 6'x4' table at half an inch
    ("m42", "0.25", (144, 96)),  # 288 x 192 squares of table, but never more than 144 x 96
    ("combat-action", "5", (100, 100)),
    ("combat-action", "1.5", (121, 80)),  # 182 cm / 1.5 and 121 cm / 1.5, whole squares
    ("combat-action", "0.5", (144, 96)),
    ("strategic-e", "1", (100, 100)),  # a system whose scale is fixed keeps 100 a side
])
def test_the_largest_map_grows_with_a_finer_scale(ruleset: str, size: str, largest: tuple[int, int]) -> None:
    assert largest_map(get_ruleset(ruleset), Fraction(size)) == largest


@pytest.mark.parametrize(("ruleset", "key", "value", "stored"), [
    ("m42", "inches_per_square", "0.25", 0.25), ("m42", "inches_per_square", "1.75", 1.75),
    ("m42", "inches_per_square", "3", 3), ("combat-action", "cm_per_square", "0.5", 0.5),
    ("combat-action", "cm_per_square", "83.5", 83.5),
])
def test_a_scale_on_the_step_is_kept_exactly(ruleset: str, key: str, value: str, stored: float) -> None:
    battle = Battle.new(ruleset, 10, 10)
    battle.apply(SetRule(key, value), DICE)
    assert battle.const(key) == stored and square_size(battle) == Fraction(value)


@pytest.mark.parametrize(("ruleset", "key", "value"), [
    ("m42", "inches_per_square", "0.3"), ("m42", "inches_per_square", "0"), ("m42", "inches_per_square", "-0.5"),
    ("m42", "inches_per_square", "12.25"), ("m42", "inches_per_square", "half"),
    ("m42", "inches_per_square", "1" * 40), ("combat-action", "cm_per_square", "0.25"),
    ("combat-action", "cm_per_square", "1/3"),
])
def test_a_scale_off_the_step_is_refused_and_changes_nothing(ruleset: str, key: str, value: str) -> None:
    battle = Battle.new(ruleset, 10, 10)
    before = battle.to_dict()
    with pytest.raises(GameError, match="a map is at most 144x96 squares"):
        battle.apply(SetRule(key, value), DICE)
    assert battle.to_dict() == before


def test_a_new_map_too_large_for_its_scale_is_refused_with_the_largest() -> None:
    with pytest.raises(InvalidOrderError, match=re.escape('at 0.75" a square a map is at most 100 squares a side')):
        Battle.new("m42", 101, 50, rules=(("inches_per_square", "0.75"),))
    with pytest.raises(InvalidOrderError, match="at most 144x96 squares"):
        Battle.new("m42", 145, 50, rules=(("inches_per_square", "0.5"),))
    assert Battle.new("m42", 96, 144, rules=(("inches_per_square", "0.5"),)).height == 144  # either way round


def test_an_imported_map_is_held_to_the_battles_scale() -> None:
    text = "\n".join(["." * 120] * 10) + "\n"
    coarse = Battle.new("m42", 10, 10)
    with pytest.raises(GameError, match=re.escape('A 120x10 map is too large: at 1" a square')):
        coarse.apply(ImportMap(text=text), DICE)
    fine = Battle.new("m42", 10, 10)
    fine.apply(SetRule("inches_per_square", "0.5"), DICE)
    fine.apply(ImportMap(text=text), DICE)
    assert (fine.width, fine.height) == (120, 10)


def test_limits_are_met_exactly_on_a_fine_grid() -> None:
    """A89 "fully within": 3-4-5 squares of 0.5" are exactly 2.5", so within 2.5" and not closer than it."""
    a, b = Cell(0, 0), Cell(3, 4)
    half = Fraction(1, 2)
    assert fully_within(a, b, Fraction(5, 2), half) and not fully_within(a, b, Fraction(12, 5), half)
    # Base to base, 4 and 5 squares apart leave a gap of 3 and 4 squares: 2.5" at 0.5" a square.
    assert gap_within(a, Cell(4, 5), Fraction(5, 2), half) and not closer_than(a, Cell(4, 5), Fraction(5, 2), half)
    assert closer_than(a, Cell(4, 4), Fraction(5, 2), half)


def test_a_distance_is_stored_whole_or_in_halves() -> None:
    assert as_number(Fraction(21, 2)) == 10.5 and isinstance(as_number(Fraction(10)), int)
