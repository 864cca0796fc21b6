"""Helpers for rules tests: a small battle and fixed dice."""

from __future__ import annotations

import random

import pytest

from rules.battle import Battle
from rules.coords import Cell
from rules.dice import Dice
from rules.orders import AddUnit, Start
from rules.turnorders import CloseRound, SetTurnMode


def dice(*faces: int) -> Dice:
    """Return dice that show the given faces first, then roll from a fixed seed."""
    return Dice(random.Random(0), scripted=list(faces))


def add(battle: Battle, name: str, side: str, at: str, **stats: object) -> None:
    """Add a unit with stats to a battle."""
    battle.apply(AddUnit(name=name, side=side, at=Cell.parse(at), owner=1, stats=dict(stats) or None), dice())


@pytest.fixture
def battle_e() -> Battle:
    """Return a 20x15 E-scale battle in setup."""
    return Battle.new("strategic-e", 20, 15, "Test E")


@pytest.fixture
def battle_p() -> Battle:
    """Return a 20x15 P-scale battle in setup."""
    return Battle.new("strategic-p", 20, 15, "Test P")


def start(battle: Battle, mode: str = "free") -> None:
    """Start a battle; rules tests default to free turns so any unit may act (turn order has its own tests)."""
    battle.apply(SetTurnMode(mode=mode), dice())
    battle.apply(Start(), dice())


def new_round(battle: Battle) -> None:
    """Close the round so every unit gets its actions back (and start-of-round effects run)."""
    battle.apply(CloseRound(), dice())
