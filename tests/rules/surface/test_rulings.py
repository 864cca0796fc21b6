"""Rulings not covered elsewhere, each with its default and an override: A62's and A63's dice, A65's limits,
A69's blockade divisor, A70's count per shot, A61's additions; A71's mid-round status; the report's losses."""

from __future__ import annotations

import random

import pytest

from rules.dice import Dice
from rules.errors import GameError
from rules.outcome import Outcome
from rules.systems.surface.combat_round import combat_round
from rules.systems.surface.details import SurfaceReport
from rules.systems.surface.fire import count_hits, deflections
from rules.systems.surface.lottery import target_priority
from rules.systems.surface.rounds import Action
from rules.systems.surface.state import state
from tests.rules.surface.helpers import add, battle, give


def scripted(*faces: int) -> Dice:
    return Dice(random.Random(0), scripted=list(faces))


def test_extra_hit_die_default_and_override() -> None:
    """A62: "plus 1 more hit with probability q - floor(q), rolled as d100 <= 100*frac"; the die is a constant."""
    b = battle()
    s, t = add(b, "S", "Red", accuracy=5), add(b, "T", "Blue", evade=4)
    dice = scripted(25)
    assert count_hits(b, s, t, dice).hits == 2 and dice.rolls[0].notation == "1d100"
    give(b, "set-rule key:hit_fraction_die value:4")
    dice = scripted(2)
    row = count_hits(b, s, t, dice)
    assert row.extra.needed == 1 and row.hits == 1 and dice.rolls[0].notation == "1d4"


def test_deflection_die_default_and_override() -> None:
    """A63: each hit gets through with probability AS/(AS+AV), rolled on the `deflect_die`."""
    b = battle()
    s, t = add(b, "S", "Red", attack_strength=1), add(b, "T", "Blue", armor=1)
    [row] = deflections(b, s, t, 1, scripted(50))
    assert (row.die, row.needed, row.success) == (100, 50, True)
    give(b, "set-rule key:deflect_die value:10")
    [row] = deflections(b, s, t, 1, scripted(6))
    assert (row.die, row.needed, row.success) == (10, 5, False)


def test_plan_limits_default_and_override() -> None:
    """A65: Intensity 0-2 and Daring 0-1 by default; a GM may allow more."""
    b = battle()
    add(b, "R", "Red")
    add(b, "B", "Blue")
    give(b, "start")
    with pytest.raises(GameError, match="Daring is 0 to 1"):
        give(b, "surface-plan side:Red daring:2")
    give(b, "set-rule key:daring_max value:3")
    give(b, "set-rule key:intensity_max value:5")
    give(b, "surface-plan side:Red intensity:5 daring:3")
    give(b, "surface-plan side:Blue")
    plan = state(b).plan("Red")
    assert plan is not None and plan.intensity == 5


def test_blockade_divisor_override() -> None:
    """A69: "halved to 25% under blockade"; with a divisor of 5 the chance is 10%."""
    from rules.systems.surface.aftermath import escape

    b = battle()
    give(b, "surface-side side:Red blockaded:true")
    g = add(b, "G", "Red")
    assert escape(b, [g], scripted(99), Outcome("", ""))[0].needed == 25
    give(b, "set-rule key:escape_blockade_divisor value:5")
    g2 = add(b, "G2", "Red")
    assert escape(b, [g2], scripted(99), Outcome("", ""))[0].needed == 10


def test_collateral_per_shot_override() -> None:
    """A70: "+1 Collateral Damage per firing action"; at 3, two shots make 6."""
    b = battle()
    add(b, "R", "Red", accuracy=1, evade=4, attack_strength=0, armor=5)
    add(b, "B", "Blue", accuracy=1, evade=4, attack_strength=0, armor=5)
    assert combat_round(b, 1, set(), Dice(random.Random(1)), Outcome("", "")).collateral == 2
    give(b, "set-rule key:collateral_per_shot value:3")
    assert combat_round(b, 1, set(), Dice(random.Random(1)), Outcome("", "")).collateral == 6


def test_additive_priorities_defaults_and_overrides() -> None:
    """Seed 2B: "+1 if it is a Space Marine or Mobile Infantry Grunt (or has Powered Armor), +2 for Armor"."""
    b = battle()
    mi = add(b, "MI", "Red", "mobile-infantry")
    arm = add(b, "A", "Red", "armor")
    pa = add(b, "PA", "Red", "powered-armor")
    assert [target_priority(b, u, False).tpv for u in (mi, arm, pa)] == [3, 4, 3]
    give(b, "set-rule key:tpv_mobile_infantry value:2")
    give(b, "set-rule key:tpv_armor value:5")
    give(b, "set-rule key:tpv_powered_armor value:0")
    assert [target_priority(b, u, False).tpv for u in (mi, arm, pa)] == [4, 7, 2]


def test_a_unit_hit_before_its_turn_checks_morale_and_a_destroyed_one_loses_its_turn() -> None:
    """A71: "A unit hit before its turn acts on its current status when its turn comes, so it may have to make
    a Morale Check. A destroyed unit loses its pending turn."."""
    b = battle()
    fast = add(b, "Fast", "Red", iv=20, accuracy=20, evade=1, attack_strength=20, armor=0, capacity=5)
    slow = add(b, "Slow", "Blue", iv=0, accuracy=1, evade=10, attack_strength=1, armor=0, capacity=9, morale=0)
    # Initiative: Fast 21, Slow 1. Fast: 20/10 = 2 hits, both through (AV 0): Slow takes 2, Disrupted.
    # Slow's turn: morale d10 = 10 > 0+3, it routs and does not fire.
    log = combat_round(b, 1, set(), scripted(1, 1, 10), Outcome("", ""))
    fast_act, slow_act = log.actions
    assert fast_act.result is not None and fast_act.result.after == "disrupted" and slow.damage == 2
    assert slow_act.morale is not None and slow_act.morale.result == "routs" and slow_act.target is None and slow.state == "routed"
    b2 = battle()
    add(b2, "Killer", "Red", iv=20, accuracy=20, evade=1, attack_strength=20, armor=0)
    add(b2, "Victim", "Blue", iv=0, accuracy=1, evade=10, attack_strength=1, armor=0, capacity=2)
    log = combat_round(b2, 1, set(), scripted(1, 1), Outcome("", ""))
    assert log.actions[1] == Action(unit=b2.unit("Victim").id, skipped="destroyed")
    assert fast.state == "active"


def test_reported_losses_are_counted_before_recovery_and_fates_are_kept() -> None:
    """A67: "damage points lost (destroyed or disintegrated units count at full capacity)"; recovery after the
    battle does not erase what the report says a side lost."""
    b = battle()
    # Soft fires first (IV 30): 2/1 = 2 hits, AS 9 against AV 0 always through. Tough (Morale 10 on a d10)
    # recovers at once and fires 8 certain hits: Soft is destroyed.
    add(b, "Tough", "Red", iv=0, accuracy=8, evade=1, attack_strength=9, armor=0, capacity=9, morale=10)
    add(b, "Soft", "Blue", iv=30, accuracy=2, evade=1, attack_strength=9, armor=0, capacity=2, morale=9)
    give(b, "start")
    report = give(b, "surface-resolve force:true", seed=4).details
    assert isinstance(report, SurfaceReport)
    assert b.unit("Tough").damage == 0, "survivors recover after the battle"
    assert report.lost_points == {"Red": 2, "Blue": 2}
    fates = {u.name: u.fate for u in report.units.values()}
    assert fates == {"Tough": "fought on", "Soft": "destroyed"}
