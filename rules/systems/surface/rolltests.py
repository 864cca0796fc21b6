"""The rolls a surface engagement records: morale of a Disrupted unit, rally of a Routed one, escape off-world."""

from __future__ import annotations

from dataclasses import dataclass

from rules.effects import table
from rules.rolltests import RollTest, rolltest


@rolltest("morale")
@dataclass(frozen=True, slots=True)
class MoraleTest(RollTest):
    """1dN against Morale: at or under recovers, within the stay band stays Disrupted, else routs (A60)."""

    unit: str  # the unit's id
    die: int
    roll: int
    morale: int
    stay_band: int
    result: str


@rolltest("rally")
@dataclass(frozen=True, slots=True)
class RallyTest(RollTest):
    """1dN against Rally after the engagement: at or under rallies, else the unit disintegrates (A66)."""

    unit: str  # the unit's id
    die: int
    roll: int
    rally: int
    result: str


@rolltest("escape")
@dataclass(frozen=True, slots=True)
class EscapeTest(RollTest):
    """d100 within the escape chance (halved when blockaded) for a regular unit fleeing off-world."""

    unit: str  # the unit's id
    roll: int
    needed: int
    result: str


ROLLTESTS = table(MoraleTest, RallyTest, EscapeTest)
