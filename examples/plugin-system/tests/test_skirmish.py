"""Pit Skirmish's rules, played through battlepost's rules library as any system is.

Each test quotes the line of `skirmish/data/skirmish.toml` whose rule it checks.
"""

from __future__ import annotations

import random

import pytest
from rules import Battle, Cell, Dice
from rules.errors import IllegalOrderError, InvalidOrderError
from rules.orders import AddUnit, Move, Paint, Start
from rules.plugins import installed
from rules.systems import install

from skirmish.orders import Strike
from skirmish.units import Fighter


@pytest.fixture(autouse=True)
def _systems() -> None:
    install()


def pit() -> Battle:
    """Return a started 6x6 pit with rock on C3-D3, Brand (Reds, 2 HP) on B2 and Orla (Blues) on C1."""
    battle = Battle.new("skirmish", 6, 6, "Pit")
    dice = Dice.seeded(0)
    battle.apply(Paint(terrain="rock", frm=Cell.parse("C3"), to=Cell.parse("D3")), dice)
    battle.apply(AddUnit(name="Brand", side="Reds", at=Cell.parse("B2"), stats={"hp": 2}), dice)
    battle.apply(AddUnit(name="Orla", side="Blues", at=Cell.parse("C1")), dice)
    battle.apply(Start(), dice)
    return battle


def test_the_system_is_found_through_its_entry_point() -> None:
    found = {done.plugin.system.id: done for done in installed()}
    assert found["skirmish"].distribution == "battlepost-skirmish"
    assert found["skirmish"].plugin.front_end == "skirmish_discord"


def test_a_fighter_enters_with_the_tables_hit_points_unless_its_stats_say() -> None:
    # fighter_hp: "Hit points a fighter enters the pit with, unless its stats say `hp`."
    battle = pit()
    assert battle.unit("Orla").hp == battle.const("fighter_hp") == 3
    assert battle.unit("Brand").hp == 2


def test_a_fighter_has_one_stat() -> None:
    battle = Battle.new("skirmish", 6, 6, "Pit")
    with pytest.raises(InvalidOrderError, match="one stat, `hp`"):
        battle.apply(AddUnit(name="Odd", side="Reds", at=Cell.parse("A1"), stats={"ws": 40}), Dice.seeded(0))
    assert not battle.units


def test_a_step_reaches_step_squares_and_never_rock() -> None:
    # step_squares: "Squares a fighter may step in one action (diagonals count one)."
    # rock: "No fighter steps onto rock."
    battle = pit()
    assert battle.is_legal(Move(unit="Brand", to=Cell.parse("D4"), mode="step"))
    assert not battle.is_legal(Move(unit="Brand", to=Cell.parse("E2"), mode="step"))  # three squares
    assert not battle.is_legal(Move(unit="Brand", to=Cell.parse("C3"), mode="step"))  # rock
    assert not battle.is_legal(Move(unit="Brand", to=Cell.parse("C1"), mode="step"))  # Orla stands there
    with pytest.raises(IllegalOrderError, match="at most 2 squares"):
        battle.apply(Move(unit="Brand", to=Cell.parse("E2"), mode="step"), Dice.seeded(0))
    assert battle.unit("Brand").cell == Cell.parse("B2")


def test_legal_orders_are_exactly_the_orders_that_apply() -> None:
    battle = pit()
    brand = battle.unit("Brand")
    legal = battle.legal_orders(brand)
    steps = {o.to for o in legal if isinstance(o, Move)}
    every = {Cell(x, y) for x in range(6) for y in range(6)}
    assert Cell.parse("C3") not in steps and Cell.parse("C1") not in steps
    assert steps == {c for c in every if battle.is_legal(Move(unit="Brand", to=c, mode="step"))}
    assert [o for o in legal if isinstance(o, Strike)] == [Strike(unit="Brand", target="Orla")]
    for order in legal:
        trial = Battle.from_dict(battle.to_dict())
        trial.apply(order, Dice.seeded(1))  # each generated order applies


def test_a_strike_hits_on_hit_on_or_more_and_takes_strike_damage() -> None:
    # hit_on: "A strike hits on a d6 roll of this or more (7: never)."
    # strike_damage: "Hit points a strike that hits takes away."
    seen: set[bool] = set()
    for seed in range(12):
        battle = pit()
        outcome = battle.apply(Strike(unit="Brand", target="Orla"), Dice(random.Random(seed)))
        roll = outcome.rolls[0].total
        assert outcome.rolls[0].notation == "1d6"
        expected = 3 - 1 if roll >= 4 else 3
        assert battle.unit("Orla").hp == expected
        seen.add(roll >= 4)
    assert seen == {True, False}  # both a hit and a miss were rolled


def test_a_strike_needs_an_enemy_next_door_and_changes_nothing_when_refused() -> None:
    battle = pit()
    battle.apply(Move(unit="Brand", to=Cell.parse("A4"), mode="step"), Dice.seeded(0))
    before = battle.to_dict()
    assert not battle.is_legal(Strike(unit="Brand", target="Orla"))
    with pytest.raises(IllegalOrderError, match="not next to"):
        battle.apply(Strike(unit="Brand", target="Orla"), Dice.seeded(0))
    assert battle.to_dict() == before


def test_a_fighter_at_zero_hit_points_is_down() -> None:
    battle = pit()
    battle.apply(AddUnit(name="Tam", side="Reds", at=Cell.parse("F6"), stats={"hp": 1}), Dice.seeded(0))
    tam = battle.unit("Tam")
    assert isinstance(tam, Fighter)
    tam.hp = 0
    assert not tam.alive and tam.health() == 0.0
    assert battle.legal_orders(tam) == []
    assert not battle.is_legal(Strike(unit="Brand", target="Tam"))  # a friend, and down
