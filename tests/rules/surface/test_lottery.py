"""The target lottery (002 step 2B, A61)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rules.dice import Dice
from rules.systems.surface.lottery import draw_target, priorities, target_priority
from tests.rules.surface.helpers import add, battle, give


def tpv(b, unit, dropped=False):  # type: ignore[no-untyped-def]
    return target_priority(b, unit, dropped).tpv


def test_space_marine_with_powered_armor_has_four() -> None:
    """Seed: "a Space Marine Grunt with Powered Armor would have a Target Priority Value of 4 (2 for being a Grunt
    +1 for being a Space Marine, and +1 for having Powered Armor)" (002 step 2B; A61: they stack)."""
    b = battle()
    u = add(b, "SM", "Red", "space-marines", flags=["powered_armor"])
    assert tpv(b, u) == 4


def test_battleoid_dropped_in_first_round_has_eighteen() -> None:
    """Seed: "if a Battleoid equipped Grunt dropped into battle during this, the first Round of combat that turn,
    it would have 18 ping-pong balls ... (2 for being a Grunt +4 for being a Battleoid, x3 for dropping"."""
    b = battle()
    u = add(b, "B", "Red", "battleoids")
    assert tpv(b, u, dropped=True) == 18
    assert tpv(b, u) == 6


def test_base_values_of_the_types() -> None:
    """Seed: "Most Grunts have a Target Priority Value of 2. Rebels, Partisans, and most Special Forces ... 1"."""
    b = battle()
    expected = {"grunts": 2, "rebels": 1, "partisans": 1, "special-forces": 1, "armor": 4, "mobile-infantry": 3}
    for kind, value in expected.items():
        assert tpv(b, add(b, kind, "Red", kind)) == value, kind


def test_additive_modifier_applies_to_special_forces_in_powered_armor() -> None:
    """A61: "Special Forces in Powered Armor: 1+1 = 2"."""
    b = battle()
    assert tpv(b, add(b, "SF", "Red", "special-forces", flags=["powered_armor"])) == 2


@pytest.mark.constant("tpv_drop_multiplier", "tpv_battleoid", "tpv_multipliers", "tpv_space_marine")
def test_overrides_change_the_priority() -> None:
    """Each modifier is a constant: a GM override changes the balls."""
    b = battle()
    u = add(b, "B", "Red", "battleoids")
    give(b, "set-rule key:tpv_drop_multiplier value:2")
    give(b, "set-rule key:tpv_battleoid value:1")
    assert tpv(b, u, dropped=True) == 6
    give(b, "set-rule key:tpv_multipliers value:battleoid:5")
    assert tpv(b, u) == 15
    sm = add(b, "SM", "Red", "space-marines")
    give(b, "set-rule key:tpv_space_marine value:3")
    assert tpv(b, sm) == 5


def test_lottery_picks_in_proportion_to_balls() -> None:
    """P(unit) = TPV / sum of TPV over the eligible enemies (RULES.md 3.2 item 4)."""
    b = battle()
    shooter = add(b, "S", "Red")
    rebel = add(b, "R", "Blue", "rebels")
    bat = add(b, "B", "Blue", "battleoids")
    dice = Dice(random.Random(7))
    table = priorities(b, [rebel, bat], set())
    picks = Counter(draw_target(shooter, [rebel, bat], table, dice)[0].name for _ in range(7000))
    assert abs(picks["B"] / 7000 - 6 / 7) < 0.02


def test_lottery_roll_is_recorded_with_its_purpose() -> None:
    """Every roll goes through the dice with a purpose."""
    b = battle()
    shooter = add(b, "S", "Red")
    a, c = add(b, "A", "Blue"), add(b, "C", "Blue")
    dice = Dice(random.Random(0), scripted=[3])
    target, data = draw_target(shooter, [a, c], priorities(b, [a, c], set()), dice)
    assert target is c and data.balls == 4 and data.roll == 3
    assert dice.rolls[0].purpose == "target lottery for S"
