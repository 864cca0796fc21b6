"""Damage: Tearing, penetration, armour by location, terrain and feature cover, Toughness, Magnitude, destruction."""

from __future__ import annotations

from typing import Any

import pytest

from rules import turns
from rules.battle import Battle
from rules.coords import Cell
from rules.outcome import Mark, Outcome
from rules.systems.strategic.damage import apply_damage, apply_magdam, devastating, roll_damage
from rules.systems.strategic.terrain import cover_ap
from tests.rules.conftest import add, dice


def _battle(ruleset: str = "strategic-p", terrain: str = "plain", **stats: Any) -> Battle:
    b = Battle.new(ruleset, 10, 10)
    b.set_terrain(Cell.parse("C3"), terrain)
    stats.setdefault("t", 0)
    if stats.get("kind") != "horde":
        stats.setdefault("wounds", 50)
    add(b, "Target", "Blue", "C3", **stats)
    return b


def _hit(b: Battle, *faces: int, unit: str = "Target", **kw: Any) -> tuple[dict[str, Any], Outcome]:
    outcome = Outcome(order="test", kind="test")
    kw.setdefault("notation", "1d10")
    result = apply_damage(b, b.unit(unit), dice(*faces), outcome, **kw)
    return result, outcome


def test_tearing_rolls_one_more_die_and_drops_the_lowest() -> None:
    """A01: "Tearing = roll one extra damage die and drop the lowest"."""
    rolled = roll_damage(dice(3, 7, 5), "2d10+5", tearing=True)
    assert rolled.to_dict() == {"notation": "3d10+5", "faces": [3, 7, 5], "dropped": 3, "total": 17, "tearing": True}


def test_tearing_works_on_the_first_kind_of_die() -> None:
    """A01 Tearing: the extra die is of the weapon's first dice term; the lowest of those is dropped."""
    rolled = roll_damage(dice(4, 2, 9), "1d5+1d10", tearing=True)
    assert rolled.notation == "2d5+1d10" and rolled.dropped == 2 and rolled.total == 13


def test_without_tearing_nothing_is_dropped() -> None:
    """A01: only Tearing weapons roll the extra die."""
    assert roll_damage(dice(3, 7), "2d10+5").to_dict() == {"notation": "2d10+5", "faces": [3, 7], "dropped": None,
                                                  "total": 15, "tearing": False}


def test_penetration_armour_by_location_and_toughness() -> None:
    """A01: "AP = Armour Points, subtracted from damage after Penetration (max(0, AP - Pen))"; TB subtracted too."""
    b = _battle(t=35, armour={"head": 8, "body": 2})
    result, _ = _hit(b, 10, location="head", pen=3)
    assert (result.hit.personal_ap, result.hit.armour, result.hit.tb, result.hit.wounds_lost) == (8, 5, 3, 2)
    assert b.unit("Target").wounds == 48


def test_penetration_never_makes_armour_negative() -> None:
    """A01: max(0, AP - Pen)."""
    b = _battle(ap=2)
    result, _ = _hit(b, 4, pen=10)
    assert result.hit.armour == 0 and result.hit.wounds_lost == 4


def test_terrain_cover_adds_to_personal_ap() -> None:
    """001:L53 "If you have AP 6, and are in an Urban area (AP 2), you will be treated as having AP 8." """
    b = _battle("strategic-e", "urban", ap=6)
    result, _ = _hit(b, 10, location="body")
    assert (result.hit.cover_used, result.hit.armour, result.hit.wounds_lost) == (2, 8, 2)


def test_melee_ignores_cover() -> None:
    """000:L36 "This AP is ignored by melee attacks"."""
    b = _battle(terrain="urban", ap=1)
    result, _ = _hit(b, 10, melee=True)
    assert result.hit.cover_used == 0 and result.hit.armour == 1 and result.hit.cover_note == "melee ignores cover"


def test_area_attacks_count_cover_at_half_rounded_down() -> None:
    """000:L36 "counts as half value against AoE attacks" (A03: floor)."""
    b = _battle(terrain="urban")
    result, _ = _hit(b, 10, area=True)
    assert result.hit.cover_ap == 3 and result.hit.cover_used == 1


@pytest.mark.parametrize("location", ["head", "r_arm", "l_arm"])
def test_p_head_and_arm_hits_ignore_cover(location: str) -> None:
    """000:L37 "Non-AoE ranged attacks against units in cover ignore cover if the hit result is ... the head or arms." """
    b = _battle(terrain="urban")
    assert _hit(b, 10, location=location)[0].hit.cover_used == 0
    assert _hit(b, 10, location=location, area=True)[0].hit.cover_used == 1  # area hits keep half cover
    assert _hit(b, 10, location="body")[0].hit.cover_used == 3


def test_e_has_no_head_and_arms_bypass() -> None:
    """A57: "natural cover does NOT have a head/arms bypass in 001"."""
    b = _battle("strategic-e", "urban")
    assert _hit(b, 10, location="head")[0].hit.cover_used == 2


def test_a_flyer_gets_no_ground_cover() -> None:
    """A43: "Flying units (altitude > 0) ignore ground terrain AP"."""
    b = _battle(terrain="urban", flyer=5, altitude=1)
    assert _hit(b, 10)[0].hit.cover_used == 0


def test_feature_cover_combines_with_terrain_and_decays() -> None:
    """000:L84 "take the highest value between them and increase it by +1"; A22: a ranged hit beating it wears the feature."""
    b = _battle(terrain="forest")
    b.square(Cell.parse("C3")).update(feature="barrier_walls", feature_side="Blue", feature_ap=16)
    assert cover_ap(b, Cell.parse("C3")) == (2, 16, 17)
    result, outcome = _hit(b, 10, notation="1d10+10")
    assert result.hit.damage == 20 and result.hit.cover_used == 17 and result.hit.feature_ap_left == 15
    assert {"type": "cover_decayed", "cell": "C3", "feature": "barrier_walls", "before": 16, "after": 15} in [e.to_dict() for e in outcome.effects]
    assert cover_ap(b, Cell.parse("C3"))[2] == 16


def test_cover_does_not_decay_on_weak_hits_or_melee() -> None:
    """A22: "when a ranged hit's damage exceeds the effective cover AP" only; melee ignores cover (000:L36)."""
    b = _battle()
    b.square(Cell.parse("C3")).update(feature="barrier_walls", feature_side="Blue", feature_ap=16)
    _hit(b, 6, notation="1d10+10")
    _hit(b, 10, notation="1d10+20", melee=True)
    assert b.square_state(Cell.parse("C3"))["feature_ap"] == 16


def test_worn_out_feature_leaves_only_terrain_cover() -> None:
    """A22: "once the feature is worn away only the terrain value remains"; terrain AP never decays (000:L35)."""
    b = _battle(terrain="forest")
    b.square(Cell.parse("C3")).update(feature="barrier_walls", feature_ap=0)
    assert cover_ap(b, Cell.parse("C3")) == (2, 0, 2)


def test_ignore_armour_and_toughness_for_falls_and_mines() -> None:
    """000:L68 "take 1d5 damage to a random location, ignoring AP/TB"."""
    b = _battle(terrain="urban", ap=5, t=40)
    result, _ = _hit(b, 4, notation="1d5", ignore_armour=True, ignore_tb=True)
    assert (result.hit.armour, result.hit.tb, result.hit.wounds_lost) == (0, 0, 4)


def test_a_horde_loses_one_magnitude_per_damaging_hit() -> None:
    """A01: "each hit that does >=1 damage after AP/TB removes 1 Magnitude"."""
    b = _battle(kind="horde", magnitude=20, t=30)
    assert _hit(b, 4)[0].hit.magnitude_lost == 1
    assert _hit(b, 3)[0].hit.magnitude_lost == 0
    assert b.unit("Target").magnitude == 19


def test_explosive_and_devastating_take_more_magnitude() -> None:
    """A01: "Blast/Explosive/etc. add extra Magnitude loss" (Explosive +1; Devastating (N) +N)."""
    b = _battle(kind="horde", magnitude=20)
    assert _hit(b, 5, dtype="X")[0].hit.magnitude_lost == 2
    assert _hit(b, 5, qualities=("Devastating (2)",))[0].hit.magnitude_lost == 3
    assert devastating(["Tearing", "devastating(4)"]) == 4 and devastating(["Tearing"]) == 0


def test_magdam_ignores_armour_and_toughness() -> None:
    """A01: "magdam = Magnitude damage applied directly, with no AP/TB"."""
    b = _battle(kind="horde", magnitude=5, ap=10, t=60)
    outcome = Outcome(order="test", kind="test")
    assert apply_magdam(b, b.unit("Target"), 3, outcome)["magnitude_left"] == 2


def test_destroyed_units_leave_the_map_and_the_log_keeps_them() -> None:
    """Brief: destroyed units leave the map, with an effect holding their last state; A58 engagement ends."""
    b = _battle(wounds=3)
    add(b, "Rei", "Red", "C4")
    b.unit("Target").engaged.append(b.unit("Rei").id)
    b.unit("Rei").engaged.append(b.unit("Target").id)
    result, outcome = _hit(b, 9)
    assert result.destroyed is True and b.find_unit("target") is None
    gone = next(e for e in outcome.effects if e.kind == "destroyed")
    assert gone.last["name"] == "Target" and gone.last["wounds"] == 0 and list(gone.engaged_with) == ["Rei"]
    assert turns.names_of(b, b.unit("Rei").engaged) == []
    assert outcome.highlight.marks == [Mark("C3", "Target destroyed")]


def test_a_horde_at_zero_magnitude_is_destroyed() -> None:
    """A01: a Horde has Magnitude instead of Wounds; at 0 it is gone."""
    b = _battle(kind="horde", magnitude=1)
    assert _hit(b, 9)[0].destroyed is True and not b.units


def test_gm_cover_combine_bonus_reaches_the_damage() -> None:
    """000:L84 "take the highest value between them and increase it by +1" (A22): a GM who sets the bonus to 3
    sees the same cover on the square and in the damage, Barrier Walls 16 over Forest 2 giving 19, not 17."""
    b = _battle(terrain="forest")
    b.square(Cell.parse("C3")).update(feature="barrier_walls", feature_side="Blue", feature_ap=16)
    b.constants["cover_combine_bonus"] = 3
    result, _ = _hit(b, 10, notation="1d10+30")
    assert result.hit.cover_ap == 19 and result.hit.cover_used == 19
