"""After the last round: rally (A66), damage reset, victory (A67, A71), retreat (A68), escape (A69), collateral (A70)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from rules.dice import Dice
from rules.outcome import Outcome
from rules.systems.surface.aftermath import collateral, escape, rally_or_disintegrate, reset_damage
from rules.systems.surface.victory import judge, retreat_steps
from tests.rules.surface.helpers import add, battle, give


def scripted(*faces: int) -> Dice:
    return Dice(random.Random(0), scripted=list(faces))


def test_disrupted_recover_and_routed_rally_or_disintegrate() -> None:
    """Step 4: "all Disrupted units automatically recover"; A66: "1d10 <= Rally -> rallies; otherwise destroyed"."""
    b = battle()
    d = add(b, "D", "Red")
    r1 = add(b, "R1", "Red", rally=5)
    r2 = add(b, "R2", "Red", rally=5)
    d.state, r1.state, r2.state = "disrupted", "routed", "routed"
    rally_or_disintegrate(b, scripted(5, 6), Outcome("", ""))
    assert (d.state, r1.state, r2.state) == ("active", "active", "destroyed")


@pytest.mark.constant("rally_die")
def test_rally_die_override() -> None:
    """A66's die is a constant: on a d4, Rally 5 always rallies."""
    b = battle()
    give(b, "set-rule key:rally_die value:4")
    units = [add(b, f"R{i}", "Red", rally=5) for i in range(30)]
    for u in units:
        u.state = "routed"
    rally_or_disintegrate(b, Dice(random.Random(1)), Outcome("", ""))
    assert all(u.state == "active" for u in units)


@pytest.mark.constant("besieged_recovery")
def test_damage_reset_and_besieged_exception() -> None:
    """Step 4: "recover from all their damage ... Exception: Ground forces that are besieged recover only one"."""
    b = battle()
    free = add(b, "F", "Red", capacity=5)
    held = add(b, "H", "Blue", capacity=5)
    give(b, "start")
    give(b, "surface-plan side:Blue besieged:true")
    free.damage, held.damage = 3, 3
    reset_damage(b)
    assert (free.damage, held.damage) == (0, 2)
    give(b, "set-rule key:besieged_recovery value:2")
    reset_damage(b)
    assert held.damage == 0


def test_victory_levels_from_relative_losses() -> None:
    """A67: ratio = enemyRelLoss / ownRelLoss; >=3.0 Decisive, >=1.5 Marginal, inverse for defeats, else Draw."""
    b = battle()
    none = {"A": False, "B": False}
    cases = [((Fraction(1, 10), Fraction(3, 10)), "decisive victory"),
             ((Fraction(2, 10), Fraction(3, 10)), "marginal victory"),
             ((Fraction(3, 10), Fraction(4, 10)), "draw"),
             ((Fraction(3, 10), Fraction(2, 10)), "marginal defeat"),
             ((Fraction(3, 10), Fraction(1, 10)), "decisive defeat"),
             ((Fraction(0), Fraction(1, 10)), "decisive victory"),
             ((Fraction(0), Fraction(0)), "draw")]
    for (a, c), level in cases:
        assert judge(b, ("A", "B"), {"A": a, "B": c}, none).levels["A"] == level, (a, c)


@pytest.mark.constant("marginal_ratio_pct", "leader_shift_pct")
def test_victory_threshold_overrides_and_leader_shift() -> None:
    """A67 thresholds are constants; Leader Ability shifts them (hook default 0)."""
    b = battle()
    none = {"A": False, "B": False}
    losses = {"A": Fraction(2, 10), "B": Fraction(3, 10)}
    give(b, "set-rule key:marginal_ratio_pct value:200")
    assert judge(b, ("A", "B"), losses, none).levels["A"] == "draw"
    add(b, "a", "A")
    give(b, "surface-side side:A leader:Kell ability:3")
    give(b, "set-rule key:leader_shift_pct value:20")
    assert judge(b, ("A", "B"), losses, none).levels["A"] == "marginal victory"


def test_all_routed_or_eliminated_loses_big_and_both_is_a_draw() -> None:
    """Step 5: "If one side has all its units either routed or eliminated, it loses ... (big time)"; A71: both -> Draw."""
    b = battle()
    losses = {"A": Fraction(0), "B": Fraction(0)}
    assert judge(b, ("A", "B"), losses, {"A": True, "B": False}).levels == {
        "A": "decisive defeat", "B": "decisive victory"}
    assert judge(b, ("A", "B"), losses, {"A": True, "B": True}).levels["A"] == "draw"


@pytest.mark.constant("retreat_decisive")
def test_retreat_steps() -> None:
    """A68: "The loser cedes one territory step per victory level (Marginal 1, Decisive 2)"."""
    b = battle()
    assert [retreat_steps(b, lv) for lv in ("marginal defeat", "decisive defeat", "draw", "decisive victory")] == [
        1, 2, 0, 0]
    give(b, "set-rule key:retreat_decisive value:3")
    assert retreat_steps(b, "decisive defeat") == 3


@pytest.mark.constant("escape_pct")
def test_escape_irregulars_vanish_regulars_roll_halved_under_blockade() -> None:
    """A69: "base survival chance 50% per regular unit, halved to 25% under blockade. Irregular units disappear"."""
    b = battle()
    g = add(b, "G", "Red")
    g2 = add(b, "G2", "Red")
    reb = add(b, "Reb", "Red", "rebels")
    rows = escape(b, [g, g2, reb], scripted(50, 51), Outcome("", ""))
    assert (g.state, g2.state, reb.state) == ("escaped", "destroyed", "destroyed")
    assert rows[0].needed == 50
    give(b, "surface-side side:Red blockaded:true")
    g3 = add(b, "G3", "Red")
    assert escape(b, [g3], scripted(26), Outcome("", ""))[0].needed == 25 and g3.state == "destroyed"
    give(b, "set-rule key:escape_pct value:80")
    g4 = add(b, "G4", "Red")
    assert escape(b, [g4], scripted(40), Outcome("", ""))[0].needed == 40 and g4.state == "escaped"


@pytest.mark.constant("collateral_categories")
def test_collateral_lottery_over_five_categories() -> None:
    """A70: "Five categories ... equal weights (1 each) ... One lottery draw per point"."""
    b = battle()
    dice = Dice(random.Random(2))
    tally = collateral(b, 5000, dice)
    assert set(tally) == {"Population", "Industry", "Infrastructure", "Agriculture", "Defenses"}
    assert sum(tally.values()) == 5000 and min(tally.values()) > 900
    give(b, "set-rule key:collateral_categories value:Cities:3,Farms:1")
    tally = collateral(b, 4000, dice)
    assert abs(tally["Cities"] / 4000 - 0.75) < 0.03
