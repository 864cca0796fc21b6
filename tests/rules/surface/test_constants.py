"""Surface constants not shown elsewhere: each set by the GM's set-rule changes the outcome where it applies."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from rules.dice import Dice
from rules.errors import GameError
from rules.outcome import Outcome
from rules.systems.surface.aftermath import escape
from rules.systems.surface.combat_round import RECOVERS, morale_check
from rules.systems.surface.fire import count_hits, deflections
from rules.systems.surface.lottery import target_priority
from rules.systems.surface.rounds import PriorityLine
from rules.systems.surface.victory import judge, retreat_steps
from tests.rules.surface.helpers import add, battle, give


def _rule(b, key: str, value: object) -> None:  # type: ignore[no-untyped-def]
    give(b, f"set-rule key:{key} value:{value}")


def _harmless_forces():  # type: ignore[no-untyped-def]
    """Two sides of two units that cannot hurt each other, so every planned round is fought."""
    b = battle()
    for side in ("Red", "Blue"):
        for i in range(2):
            add(b, f"{side}{i}", side, accuracy=1, evade=4, attack_strength=0, armor=5)
    return b


@pytest.mark.constant("morale_die")
def test_morale_die() -> None:
    """A60: "roll 1d10 ... roll <= M -> recovers"; on the GM's d4 a Morale of 5 always recovers."""
    b = battle()
    _rule(b, "morale_die", 4)
    dice = Dice(random.Random(3))
    for i in range(30):
        u = add(b, f"U{i}", "Red", morale=5)
        u.state = "disrupted"
        assert morale_check(b, u, dice, Outcome("", "")).result == RECOVERS
    assert {r.notation for r in dice.rolls} == {"1d4"}


@pytest.mark.constant("tpv_mobile_infantry", "tpv_powered_armor", "tpv_armor")
@pytest.mark.parametrize(("flag", "key"), [("mobile_infantry", "tpv_mobile_infantry"),
                                           ("powered_armor", "tpv_powered_armor"), ("armor", "tpv_armor")])
def test_additive_target_priority(flag: str, key: str) -> None:
    """A61: "Target Priority added for" each flag; the GM's 7 is what the lottery adds."""
    b = battle()
    unit = add(b, "U", "Red", flags=[flag])
    _rule(b, key, 7)
    assert PriorityLine(source=flag, add=7) in target_priority(b, unit, False).lines


@pytest.mark.constant("hit_fraction_die")
@pytest.mark.parametrize(("die", "needed"), [(10, 5), (4, 2)])
def test_hit_fraction_die(die: int, needed: int) -> None:
    """A62: "plus one if d100 <= 100 * frac": Accuracy 3 over Evade 2 is 1 hit plus a half chance on 1dN."""
    b = battle()
    s, t = add(b, "S", "Red", accuracy=3), add(b, "T", "Blue", evade=2)
    _rule(b, "hit_fraction_die", die)
    extra = count_hits(b, s, t, Dice(random.Random(0))).extra
    assert (extra.die, extra.needed) == (die, needed)


@pytest.mark.constant("deflect_die")
@pytest.mark.parametrize(("die", "needed"), [(20, 15), (8, 6)])
def test_deflect_die(die: int, needed: int) -> None:
    """A63: "each hit gets through with probability AS / (AS + AV)": 3 / (3 + 1) of the die's faces."""
    b = battle()
    s, t = add(b, "S", "Red", attack_strength=3), add(b, "T", "Blue", armor=1)
    _rule(b, "deflect_die", die)
    dice = Dice(random.Random(0))
    rolls = deflections(b, s, t, 3, dice)
    assert {(r.die, r.needed) for r in rolls} == {(die, needed)}
    assert {r.notation for r in dice.rolls} == {f"1d{die}"}


@pytest.mark.constant("intensity_max", "daring_max")
@pytest.mark.parametrize(("key", "field"), [("intensity_max", "intensity"), ("daring_max", "daring")])
def test_plan_maximums(key: str, field: str) -> None:
    """A65: "Intensity(0-2) + Daring(0-1)": the GM's highest value is accepted, one more refused."""
    b = battle()
    add(b, "R", "Red")
    add(b, "B", "Blue")
    _rule(b, key, 4)
    give(b, "start")
    give(b, f"surface-plan side:Red {field}:4")
    with pytest.raises(GameError, match="0 to 4, not 5"):
        give(b, f"surface-plan side:Red {field}:5")
    _rule(b, key, 0)
    with pytest.raises(GameError, match="0 to 0, not 1"):
        give(b, f"surface-plan side:Red {field}:1")


@pytest.mark.constant("default_intensity")
@pytest.mark.parametrize("intensity", [0, 3])
def test_default_intensity(intensity: int) -> None:
    """A65: a side with no plan fights at the default Intensity: rounds = base 3 + that, the larger plan wins."""
    b = _harmless_forces()
    _rule(b, "rounds_base", 3)
    _rule(b, "default_intensity", intensity)
    give(b, "start")
    give(b, "surface-plan side:Red intensity:0")
    assert give(b, "surface-resolve force:true").details.rounds_planned == 3 + intensity


@pytest.mark.constant("decisive_ratio_pct")
@pytest.mark.parametrize(("pct", "level"), [(400, "marginal victory"), (250, "decisive victory")])
def test_decisive_ratio(pct: int, level: str) -> None:
    """A67: "ratio = enemyRelLoss / ownRelLoss; >=3.0 Decisive": a ratio of 3 against the GM's threshold."""
    b = battle()
    _rule(b, "decisive_ratio_pct", pct)
    losses = {"A": Fraction(1, 10), "B": Fraction(3, 10)}
    assert judge(b, ("A", "B"), losses, {"A": False, "B": False}).levels["A"] == level


@pytest.mark.constant("retreat_marginal")
@pytest.mark.parametrize("steps", [0, 3])
def test_retreat_marginal(steps: int) -> None:
    """A68: "The loser cedes one territory step per victory level (Marginal 1, Decisive 2)"."""
    b = battle()
    _rule(b, "retreat_marginal", steps)
    assert retreat_steps(b, "marginal defeat") == steps


@pytest.mark.constant("escape_blockade_divisor")
@pytest.mark.parametrize(("divisor", "needed"), [(3, 20), (1, 60)])
def test_escape_blockade_divisor(divisor: int, needed: int) -> None:
    """A69: "base survival chance 50% per regular unit, halved to 25% under blockade": 60% over the divisor."""
    b = battle()
    g = add(b, "G", "Red")
    give(b, "surface-side side:Red blockaded:true")
    _rule(b, "escape_pct", 60)
    _rule(b, "escape_blockade_divisor", divisor)
    assert escape(b, [g], Dice(random.Random(0)), Outcome("", ""))[0].needed == needed


@pytest.mark.constant("collateral_per_shot")
@pytest.mark.parametrize("per_shot", [0, 3])
def test_collateral_per_shot(per_shot: int) -> None:
    """A70: "Collateral Damage Count added by every firing action, hit or miss": 4 units fire each round."""
    b = _harmless_forces()
    _rule(b, "rounds_base", 1)
    _rule(b, "collateral_per_shot", per_shot)
    give(b, "start")
    give(b, "surface-plan side:Red intensity:0")
    give(b, "surface-plan side:Blue intensity:0")
    assert give(b, "surface-resolve").details.collateral_count == 4 * per_shot
