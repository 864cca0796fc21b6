"""A battle's copy shares nothing an order changes: the table service resolves each order on a copy of the
battle it keeps in memory, and the battle readers were handed must stay exactly as it was."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

import rules.systems
from rules.battle import Battle
from rules.dice import Dice
from rules.duplicate import duplicate
from rules.errors import GameError
from rules.system import system_of
from tests.rules.saved_fixtures import RECIPES

ORDERS_AFTER_SETUP = 60


def _step(battle: Battle, order_text: str, dice: Dice) -> Battle:
    """Apply an order to a copy; check the copy began equal and the original did not move; return the copy."""
    before = battle.to_dict()
    work = battle.copy()
    assert work.to_dict() == before
    try:
        work.apply(work.parse_order(order_text), dice, undoable=False)
    except GameError:
        assert battle.to_dict() == before
        return battle
    assert battle.to_dict() == before, f"`{order_text}` changed the battle it was copied from"
    return work


def _due_orders(battle: Battle, rng: random.Random) -> list[str]:
    units = [u for u in battle.iter_units() if u.alive]
    rng.shuffle(units)
    for unit in units:
        try:
            found = battle.legal_orders(unit)
        except GameError:
            continue
        if found:
            return [str(o) for o in found]
    return []


@pytest.mark.parametrize("name", sorted(RECIPES))
def test_orders_applied_to_a_copy_leave_the_battle_it_came_from_untouched(name: str) -> None:
    rules.systems.install()
    recipe = RECIPES[name]
    battle: Battle = Battle.new(recipe.ruleset, recipe.width, recipe.height, f"Copied {name}")
    dice = Dice(random.Random(7))
    for text in recipe.orders:  # setup: maps, units, sides, the start, a first order or two
        battle = _step(battle, text, dice)
    rng = random.Random(11)
    played = 0
    for _ in range(ORDERS_AFTER_SETUP):
        choices = _due_orders(battle, rng)
        if not choices:
            break
        battle = _step(battle, rng.choice(choices), dice)
        played += 1
    if system_of(recipe.ruleset).has_map:
        assert played > 10  # the battle really went on
    again = Battle.from_dict(battle.to_dict())
    assert again.copy().to_dict() == battle.to_dict()


def test_a_copy_keeps_no_undo_snapshots_and_shares_the_homebrew_tables() -> None:
    rules.systems.install()
    recipe = RECIPES["strategic-e"]
    battle = Battle.new(recipe.ruleset, recipe.width, recipe.height)
    for text in recipe.orders:
        battle.apply(battle.parse_order(text), Dice(random.Random(1)))
    assert battle._history  # applied undoably above
    other = battle.copy()
    assert other._history == [] and other.homebrew is battle.homebrew
    assert other.units is not battle.units and other.terrain is not battle.terrain
    assert all(a is not b for a, b in zip(other.units.values(), battle.units.values(), strict=True))


@dataclass(frozen=True)
class _Fixed:
    name: str
    parts: tuple[str, ...]


@dataclass
class _Open:
    marks: list[str] = field(default_factory=list)
    inner: dict[str, list[int]] = field(default_factory=dict)
    fixed: _Fixed = field(default_factory=lambda: _Fixed("a", ("b",)))


def test_duplicate_copies_what_can_change_and_shares_what_cannot() -> None:
    value = {"a": [_Open(["x"], {"k": [1, 2]})], "s": {3}, "t": (1, [2])}
    copied = duplicate(value)
    assert copied == value
    opened = copied["a"][0]
    assert opened is not value["a"][0]
    opened.marks.append("y")
    opened.inner["k"].append(3)
    copied["s"].add(4)
    copied["t"][1].append(5)
    assert value == {"a": [_Open(["x"], {"k": [1, 2]})], "s": {3}, "t": (1, [2])}
    assert opened.fixed is value["a"][0].fixed  # frozen: shared
