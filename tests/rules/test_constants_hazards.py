"""GM-overridable constants of what entering a square does: footing, falls, sinking, minefields, feature DTV."""

from __future__ import annotations

import pytest

from rules.battle import Battle
from rules.coords import Cell
from rules.orders import Move, SetRule
from rules.outcome import Outcome
from rules.systems.strategic.actions.combat import Attack
from rules.systems.strategic.actions.features import PlaceFeature
from rules.systems.strategic.featuretable import FeatureType, features_of
from rules.systems.strategic.terrain import effective_dtv
from tests.rules.conftest import add, dice, start

C = Cell.parse
B1 = C("B1")


def _set(b: Battle, key: str, value: object) -> None:
    b.apply(SetRule(key=key, value=str(value).lower()), dice())


def _board(ruleset: str, terrain: str = "plain", **rules: object) -> Battle:
    b = Battle.new(ruleset, 6, 3)
    b.set_terrain(B1, terrain)
    for key, value in rules.items():
        _set(b, key, value)
    return b


def _move(b: Battle, unit: str, *faces: int) -> Outcome:
    return b.apply(Move(unit=unit, to=B1, mode="full"), dice(*faces))


def _lost(out: Outcome) -> int:
    return sum(e.wounds_lost for e in out.effects if e.kind == "damage")


@pytest.mark.constant("dt_test_on_entry")
@pytest.mark.parametrize(("on", "tests"), [(True, ["difficult_terrain"]), (False, [])])
def test_dt_test_on_entry(on: bool, tests: list[str]) -> None:
    """A38: "Characters test Agility, with the DTV penalty, on entering a difficult square"."""
    b = _board("strategic-p", "forest", dt_test_on_entry=on)
    add(b, "Scout", "Red", "A1", ag=40)
    start(b)
    assert [t.kind for t in _move(b, "Scout", 1).tests] == tests


# --- falls: 000:L68 Rough (3+ DoF: prone and 1d5) and 001:L60 Mountain (any failure: 1d5) -----------


@pytest.mark.constant("mountain_fall_dof")
@pytest.mark.parametrize(("dof", "falls"), [(2, False), (1, True)])
def test_mountain_fall_dof(dof: int, falls: bool) -> None:
    """A54: Degrees of Failure on a Mountain test that cause damage; a 31 against 20 fails by 1."""
    b = _board("strategic-e", "mountain", mountain_fall_dof=dof)
    add(b, "Eva", "NERV", "A1", ag=40, wounds=30)
    start(b)
    assert (_lost(_move(b, "Eva", 31, 50, 5)) > 0) is falls


@pytest.mark.constant("mountain_fall_damage", "mountain_fall_prone")
@pytest.mark.parametrize(("notation", "prone", "lost"), [("1d10", True, 7), ("2d5", False, 6)])
def test_mountain_fall_damage_and_prone(notation: str, prone: bool, lost: int) -> None:
    """001:L60 "Units failing a Difficult Terrain test when moving through a Mountain take 1d5 damage which ignores
    AP/TB"; A54: prone only if the GM says so."""
    b = _board("strategic-e", "mountain", mountain_fall_damage=notation, mountain_fall_prone=prone)
    add(b, "Eva", "NERV", "A1", ag=40, wounds=30, ap=5, t=40)
    start(b)
    out = _move(b, "Eva", 21, 50, 7 if notation == "1d10" else 2, 4)
    assert _lost(out) == lost and ("prone" in b.unit("Eva").statuses) is prone


@pytest.mark.constant("rough_fall_damage", "rough_fall_prone")
@pytest.mark.parametrize(("notation", "prone", "lost"), [("1d10", False, 9), ("1d3", True, 2)])
def test_rough_fall_damage_and_prone(notation: str, prone: bool, lost: int) -> None:
    """000:L68 "Units that fail a Difficult Terrain test in Roughs by 3 or more DoF instantly fall prone and take 1d5
    damage to a random location, ignoring AP/TB"."""
    b = _board("strategic-p", "rough", rough_fall_damage=notation, rough_fall_prone=prone)
    add(b, "Scout", "Red", "A1", ag=40, wounds=10, ap=8, t=50)
    start(b)
    out = _move(b, "Scout", 50, 37, 9 if notation == "1d10" else 2)
    assert _lost(out) == lost and ("prone" in b.unit("Scout").statuses) is prone


# --- deep water: 000:L74 "Units in or ... Evas test Athletics, Superheavies Pilot" (A35) ------------


@pytest.mark.constant("deep_water_test_mod")
@pytest.mark.parametrize(("mod", "target"), [(-10, 30), (15, 55)])
def test_deep_water_test_mod(mod: int, target: int) -> None:
    """A35: "Modifier to the Athletics (Eva) or Pilot (Superheavy) test against sinking on entering deep water"."""
    b = _board("strategic-e", "water", deep_water_test_mod=mod)
    b.square(B1)["deep"] = True
    add(b, "Eva", "NERV", "A1", ag=99, skills={"athletics": 40}, **{"class": "eva"})
    start(b)
    assert _move(b, "Eva", 1, 99).tests[-1].target == target


@pytest.mark.constant("eva_sink_skill", "superheavy_sink_skill")
@pytest.mark.parametrize(("unit_class", "key", "skill", "target"),
                         [("eva", "eva_sink_skill", "pilot", 60), ("superheavy", "superheavy_sink_skill", "athletics", 30)])
def test_sink_skill(unit_class: str, key: str, skill: str, target: int) -> None:
    """A35: an Eva tests Athletics, a Superheavy Pilot, against sinking; the GM may name another skill."""
    b = _board("strategic-e", "water", **{key: skill})
    b.square(B1)["deep"] = True
    add(b, "Mech", "NERV", "A1", ag=99, skills={"athletics": 30, "pilot": 60}, **{"class": unit_class})
    start(b)
    test = _move(b, "Mech", 1, 99).tests[-1]
    assert (test.skill, test.target) == (skill, target)


@pytest.mark.constant("eva_sink_skill", "deep_water_test_mod")
def test_a_unit_dropped_into_deep_water_tests_the_same_skill() -> None:
    """A31: when a bridge falls "every non-flying unit on it plunges"; an Eva plunging into deep water tests the
    same skill, with the same modifier, as one walking in (A35)."""
    b = _board("strategic-p", "water", eva_sink_skill="pilot", deep_water_test_mod=-10)
    b.square(B1).update(feature="temporary_bridge", feature_side="Red", deep=True)
    add(b, "Gunner", "Red", "A3", bs=60, weapons=[{"name": "Cannon", "range": 30, "damage": "1d10+20", "type": "I"}])
    add(b, "Eva", "Blue", "B1", skills={"athletics": 30, "pilot": 60}, **{"class": "eva"})
    start(b)
    out = b.apply(Attack(unit="Gunner", weapon="Cannon", target="bridge", at=B1), dice(5, 10, 99))
    assert out.details.bridge.hit.destroyed
    assert (out.tests[-1].skill, out.tests[-1].target) == ("pilot", 50)
    assert "sunk" in b.unit("Eva").statuses


# --- minefields: 000:L110 "1d10+6X damage which counts as Tearing and Blast (4)" ------------------


def _mined(**rules: object) -> Battle:
    b = _board("strategic-p", **rules)
    b.ensure_side("Red").fp_override = 10
    b.apply(PlaceFeature(feature="minefield", side="Red", at=B1), dice())
    return b


@pytest.mark.constant("minefield_damage", "minefield_tearing")
@pytest.mark.parametrize(("notation", "tearing", "faces", "damage"),
                         [("1d5", False, (3,), 3), ("1d10", True, (3, 8), 8), ("1d10", False, (3, 8), 3)])
def test_minefield_damage(notation: str, tearing: bool, faces: tuple[int, ...], damage: int) -> None:
    """000:L110: the damage and its Tearing (parent Tearing: roll one more die, keep the best) are constants."""
    b = _mined(minefield_damage=notation, minefield_tearing=tearing)
    add(b, "Foe", "Blue", "A1", ag=40, wounds=30)
    start(b)
    out = _move(b, "Foe", 90, 50, *faces)
    assert next(e for e in out.effects if e.kind == "damage").damage == damage


@pytest.mark.constant("minefield_pen")
@pytest.mark.parametrize(("pen", "lost"), [(0, 5), (3, 8), (9, 10)])
def test_minefield_pen(pen: int, lost: int) -> None:
    """A01: armour is max(0, AP - Pen); a mine's 1d10+6 showing 4 (10) against AP 5 and TB 0."""
    b = _mined(minefield_pen=pen, minefield_tearing=False)
    add(b, "Foe", "Blue", "A1", ag=40, wounds=30, ap=5, t=0)
    start(b)
    assert _lost(_move(b, "Foe", 90, 50, 4)) == lost


@pytest.mark.constant("minefield_blast")
@pytest.mark.parametrize(("blast", "hits"), [(2, 3), (0, 1)])
def test_minefield_blast(blast: int, hits: int) -> None:
    """A30.2: "Blast(4) matters only for (a) parent Horde extra-hit rules": 000:L25 "equal to the Blast Size+1"
    slots, every one the Horde's (A15.3); no Blast, one hit."""
    b = _mined(minefield_blast=blast)
    add(b, "Mob", "Blue", "A1", kind="horde", magnitude=30, ag=30)
    start(b)
    assert sum(1 for e in _move(b, "Mob").effects if e.kind == "damage") == hits


@pytest.mark.constant("minefield_ignores_flying")
@pytest.mark.parametrize(("on", "triggered"), [(True, False), (False, True)])
def test_minefield_ignores_flying(on: bool, triggered: bool) -> None:
    """A43: "Units flying above the ground do not set off Minefields" unless the GM says they do."""
    b = _mined(minefield_ignores_flying=on)
    add(b, "Jet", "Blue", "A1", ag=40, flyer=4, altitude=1, wounds=30)
    start(b)
    out = _move(b, "Jet", 90, 50, 1)
    assert any(e.kind == "mine_triggered" for e in out.effects) is triggered


@pytest.mark.constant("dtv_combine_bonus")
@pytest.mark.parametrize(("bonus", "dtv"), [(0, 4), (3, 7)])
def test_dtv_combine_bonus(bonus: int, dtv: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A23: "A feature's DTV over terrain with DTV: the higher of the two plus" the bonus; DTV 2 over Rough (4)."""
    b = _board("strategic-p", "rough", dtv_combine_bonus=bonus)
    rubble = FeatureType(key="rubble", name="Rubble", label="RB", cost=1, terrain=("rough",), dtv=2)
    monkeypatch.setitem(features_of(b.ruleset), "rubble", rubble)  # a homebrew feature with DTV, as a GM imports
    b.square(B1)["feature"] = "rubble"
    assert effective_dtv(b, None, B1) == dtv
