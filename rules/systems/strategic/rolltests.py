"""The tests the strategic rules record beyond a plain d100 test: the terrain tests, which say where."""

from __future__ import annotations

from dataclasses import dataclass

from rules.effects import table
from rules.rolltests import D100Test, rolltest


@dataclass(frozen=True, slots=True)
class SquareTest(D100Test):
    """A d100 test a unit made because of the square it entered, its kind stored after the d100 terms."""

    TAG = "test"
    TAG_AT = 6  # as when the kind was added to a finished test

    unit: str = ""
    cell: str = ""


@rolltest("deep_water")
@dataclass(frozen=True, slots=True)
class DeepWaterTest(SquareTest):
    """A unit's test against sinking in deep water (A35), with the skill it used."""

    skill: str = ""


@rolltest("difficult_terrain")
@dataclass(frozen=True, slots=True)
class DifficultTerrainTest(SquareTest):
    """A unit's Agility test on entering Difficult Terrain (A38), with the square's DTV."""

    dtv: int = 0


@rolltest("minefield")
@dataclass(frozen=True, slots=True)
class MinefieldTest(SquareTest):
    """A unit's test to dodge the mines of a minefield, with the skill it used."""

    skill: str = ""


ROLLTESTS = table(DeepWaterTest, DifficultTerrainTest, MinefieldTest)
