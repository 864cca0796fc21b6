"""Dice notation, recorded rolls and manual (scripted) results."""

import random

import pytest

from rules.dice import Dice, parse_dice
from rules.errors import InvalidOrderError


def test_roll_records_faces_total_and_purpose() -> None:
    dice = Dice(random.Random(3))
    roll = dice.roll("2d6+3", "damage")
    assert roll.notation == "2d6+3"
    assert len(roll.faces) == 2 and all(1 <= f <= 6 for f in roll.faces)
    assert roll.total == sum(roll.faces) + 3
    assert dice.rolls == [roll]


def test_same_seed_same_rolls() -> None:
    a = [Dice(random.Random(9)).roll("3d10-2").total for _ in range(1)]
    b = [Dice(random.Random(9)).roll("3d10-2").total for _ in range(1)]
    assert a == b


def test_several_terms_and_small_dice() -> None:
    dice = Dice(random.Random(1), scripted=[4, 2, 5])
    roll = dice.roll("d5+d3-1d6")
    assert roll.faces == (4, 2, 5)
    assert roll.total == 4 + 2 - 5
    assert roll.manual


def test_d100_is_percentile() -> None:
    dice = Dice(random.Random(0))
    values = {dice.d100() for _ in range(2000)}
    assert min(values) == 1 and max(values) == 100


@pytest.mark.parametrize(
    ("bad", "fragment"),
    [("1d0", "faces"), ("999d999999", "dice at a time"), ("d", "not dice"), ("x" * 2000, "characters long"),
     ("", "Write the dice"), ("5", "no dice"), ("2d6++3", "not dice"), ("1d1", "faces")],
)
def test_malformed_dice_are_refused(bad: str, fragment: str) -> None:
    with pytest.raises(InvalidOrderError, match=fragment):
        parse_dice(bad)


def test_manual_roll_outside_the_die_is_refused() -> None:
    dice = Dice(random.Random(0), scripted=[11])
    with pytest.raises(InvalidOrderError, match="cannot show 11"):
        dice.d(10)
