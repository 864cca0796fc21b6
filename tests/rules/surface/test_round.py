"""The combat round: initiative (A59), morale (A60), hits (A62), deflection (A63), damage (002 step 2E)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from rules.dice import Dice
from rules.outcome import Outcome
from rules.systems.surface.combat_round import RECOVERS, ROUTS, STAYS, initiative, morale_check
from rules.systems.surface.fire import count_hits, deflections, take_damage
from tests.rules.surface.helpers import add, battle, give


def scripted(*faces: int) -> Dice:
    return Dice(random.Random(0), scripted=list(faces))


def test_highest_aiv_first_ties_to_higher_iv_then_rolloff() -> None:
    """A59: "roll 1d10 per unit per round, highest AIV first. Ties go to the higher base IV, then a roll-off"."""
    b = battle()
    a = add(b, "A", "Red", iv=5)
    c = add(b, "C", "Red", iv=7)
    d = add(b, "D", "Blue", iv=5)
    e = add(b, "E", "Blue", iv=1)
    # A: 5+4=9, C: 7+2=9, D: 5+4=9, E: 1+10=11; roll-off between A and D: 20 vs 80.
    order = initiative(b, [a, c, d, e], scripted(4, 2, 4, 10, 20, 80))
    assert [r.unit for r in order] == [e.id, c.id, d.id, a.id]
    assert order[0].aiv == 11


@pytest.mark.constant("initiative_die")
def test_initiative_die_is_a_constant() -> None:
    """A59's die is configurable: a d4 cannot show 10."""
    b = battle()
    a = add(b, "A", "Red")
    give(b, "set-rule key:initiative_die value:4")
    dice = Dice(random.Random(3))
    rows = [initiative(b, [a], dice)[0].roll for _ in range(200)]
    assert max(rows) == 4 and dice.rolls[0].notation == "1d4"


def test_morale_three_outcomes() -> None:
    """A60: "roll <= M -> recovers ... M < roll <= M+3 -> stays Disrupted. roll > M+3 -> Routs"."""
    b = battle()
    u = add(b, "A", "Red", morale=6)
    for roll, result, state in ((6, RECOVERS, "active"), (9, STAYS, "disrupted"), (10, ROUTS, "routed")):
        u.state = "disrupted"
        assert morale_check(b, u, scripted(roll), Outcome("", "")).result == result
        assert u.state == state


@pytest.mark.constant("morale_stay_band")
def test_morale_band_override() -> None:
    """A60's width is configurable: with a band of 4, a 10 against Morale 6 stays Disrupted."""
    b = battle()
    u = add(b, "A", "Red", morale=6)
    give(b, "set-rule key:morale_stay_band value:4")
    u.state = "disrupted"
    assert morale_check(b, u, scripted(10), Outcome("", "")).result == STAYS


def test_expected_hits_equal_accuracy_over_evade() -> None:
    """A62: "the expected number of hits is exactly Accuracy/Evade" (7/4 over many seeded shots)."""
    b = battle()
    s = add(b, "S", "Red", accuracy=7)
    t = add(b, "T", "Blue", evade=4)
    dice = Dice(random.Random(11))
    n = 20000
    total = sum(count_hits(b, s, t, dice).hits for _ in range(n))
    assert abs(total / n - 1.75) < 0.02
    assert {count_hits(b, s, t, dice).hits for _ in range(200)} == {1, 2}


def test_whole_quotient_rolls_nothing() -> None:
    """A62: hits = floor(q) plus a chance only for the fraction; 8/4 is exactly 2 hits, no die."""
    b = battle()
    s, t = add(b, "S", "Red", accuracy=8), add(b, "T", "Blue", evade=4)
    dice = Dice(random.Random(0))
    assert count_hits(b, s, t, dice).hits == 2 and dice.rolls == []


@pytest.mark.constant("evade_zero_pct")
def test_evade_zero_counts_as_half_and_is_a_constant() -> None:
    """A62: "Evade 0 is treated as 0.5"; the GM can change that."""
    b = battle()
    s, t = add(b, "S", "Red", accuracy=3), add(b, "T", "Blue", evade=0)
    assert count_hits(b, s, t, Dice(random.Random(0))).hits == 6
    give(b, "set-rule key:evade_zero_pct value:25")
    assert count_hits(b, s, t, Dice(random.Random(0))).hits == 12


def test_deflection_chance_is_as_over_as_plus_av() -> None:
    """A63: "each hit gets through with probability AS / (AS + AV)" (3/(3+1) = 75%)."""
    b = battle()
    s, t = add(b, "S", "Red", attack_strength=3), add(b, "T", "Blue", armor=1)
    rolls = deflections(b, s, t, 20000, Dice(random.Random(5)))
    share = Fraction(sum(r.success for r in rolls), len(rolls))
    assert abs(float(share) - 0.75) < 0.015


def test_deflection_edges() -> None:
    """A63: "If AS = 0 it never gets through. If AV = 0 it always does." (no die rolled)."""
    b = battle()
    weak, strong = add(b, "W", "Red", attack_strength=0), add(b, "St", "Red", attack_strength=2)
    soft, hard = add(b, "So", "Blue", armor=0), add(b, "H", "Blue", armor=5)
    dice = Dice(random.Random(0))
    assert not any(r.success for r in deflections(b, weak, hard, 5, dice))
    assert all(r.success for r in deflections(b, strong, soft, 5, dice))
    assert dice.rolls == []


def test_damage_disrupts_and_destroys() -> None:
    """002 step 2E: "one point of damage ... and it becomes disrupted ... When a unit takes its last point
    of damage, it is destroyed.\""""
    b = battle()
    t = add(b, "T", "Blue", capacity=3)
    assert take_damage(b, t, 1).after == "disrupted" and t.damage == 1
    assert take_damage(b, t, 0).after == "disrupted"
    assert take_damage(b, t, 2).after == "destroyed"


@pytest.mark.constant("damage_per_hit")
def test_damage_per_hit_override() -> None:
    """The damage a hit inflicts is a constant: at 2, one hit destroys a capacity-2 unit."""
    b = battle()
    t = add(b, "T", "Blue", capacity=2)
    give(b, "set-rule key:damage_per_hit value:2")
    assert take_damage(b, t, 1).after == "destroyed"
