"""The tests the strategic rules record beyond a plain d100 test: the terrain tests, which say where."""

from __future__ import annotations

from dataclasses import dataclass

from rules.rolltests import D100Test, rolltest, tests_table


@rolltest("deep_water")
@dataclass(frozen=True, slots=True)
class DeepWaterTest(D100Test):
    """A unit's test against sinking in deep water (A35), with the skill it used."""

    TAGGED = True
    TAG_AT = 6  # stored after the d100 terms, as when the kind was added to a finished test

    unit: str = ""
    cell: str = ""
    skill: str = ""


@rolltest("difficult_terrain")
@dataclass(frozen=True, slots=True)
class DifficultTerrainTest(D100Test):
    """A unit's Agility test on entering Difficult Terrain (A38), with the square's DTV."""

    TAGGED = True
    TAG_AT = 6  # stored after the d100 terms, as when the kind was added to a finished test

    unit: str = ""
    cell: str = ""
    dtv: int = 0


@rolltest("minefield")
@dataclass(frozen=True, slots=True)
class MinefieldTest(D100Test):
    """A unit's test to dodge the mines of a minefield, with the skill it used."""

    TAGGED = True
    TAG_AT = 6  # stored after the d100 terms, as when the kind was added to a finished test

    unit: str = ""
    cell: str = ""
    skill: str = ""


ROLLTESTS = tests_table(DeepWaterTest, DifficultTerrainTest, MinefieldTest)
