"""A side's colour: its GM's, else its name's, else the palette's, never a colour a named side wears."""

from __future__ import annotations

import random

import pytest

from rules.battle import Battle
from rules.colours import NAMED, PALETTE, colour_named_by, parse_colour, side_colours
from rules.coords import Cell
from rules.dice import Dice
from rules.errors import InvalidOrderError
from rules.orders import AddUnit, SetSideColour


def _battle(*sides: str) -> Battle:
    battle = Battle.new("strategic-e", 10, 10, "Colours")
    for i, side in enumerate(sides):
        battle.apply(AddUnit(name=f"U{i}", side=side, at=Cell(i, 0)), Dice(random.Random(1)))
    return battle


def test_a_colour_is_read_from_a_whole_word_of_the_name_in_any_case() -> None:
    assert colour_named_by("Red Army") == NAMED["red"]
    assert colour_named_by("the GREEN berets") == NAMED["green"]
    assert colour_named_by("Grey-Wardens") == NAMED["grey"] == colour_named_by("gray")
    assert colour_named_by("Redwood") is None and colour_named_by("Bluebirds") is None
    assert colour_named_by("NERV") is None


def test_named_sides_wear_their_names_and_the_others_never_a_named_colour() -> None:
    colours = side_colours(_battle("Red", "Blue", "NERV", "Angels"))
    assert colours["Red"] == NAMED["red"] and colours["Blue"] == NAMED["blue"]
    others = [colours["NERV"], colours["Angels"]]
    assert others[0] != others[1] and set(others) <= set(PALETTE)
    # The palette's blue and vermilion read as the named blue and red: they are left to the named sides.
    assert PALETTE[0] not in others and PALETTE[1] not in others


def test_without_named_sides_the_palette_goes_in_order_of_creation() -> None:
    assert list(side_colours(_battle("NERV", "Angels", "Seele")).values()) == list(PALETTE[:3])


def test_the_gm_colour_wins_over_the_name_and_is_kept_as_hex() -> None:
    battle = _battle("Red", "Angels")
    battle.apply(SetSideColour(side="red", colour="teal"), Dice(random.Random(1)))
    assert battle.side("Red") is not None and battle.side("Red").paint == "#148c8c"  # type: ignore[union-attr]
    battle.apply(SetSideColour(side="Angels", colour="#C82828"), Dice(random.Random(1)))
    assert side_colours(battle) == {"Red": NAMED["teal"], "Angels": (200, 40, 40)}
    again = Battle.from_dict(battle.to_dict())
    assert side_colours(again) == side_colours(battle), "the GM's colour is kept with the battle"


def test_a_wrong_colour_or_side_is_refused_and_changes_nothing() -> None:
    battle = _battle("Red", "Angels")
    with pytest.raises(InvalidOrderError, match="is not a colour: give `#rrggbb`"):
        battle.apply(SetSideColour(side="Red", colour="reddish"), Dice(random.Random(1)))
    with pytest.raises(InvalidOrderError, match="There is no side `Seele`"):
        battle.apply(SetSideColour(side="Seele", colour="red"), Dice(random.Random(1)))
    with pytest.raises(InvalidOrderError):
        parse_colour("#12345")
    assert all(s.paint is None for s in battle.sides)
