"""GM-overridable constants of the living battlefield: fire, smoke, ice, storms, bridges, traps and features."""

from __future__ import annotations

from typing import Any

import pytest

from rules.battle import Battle
from rules.coords import Cell
from rules.errors import GameError
from rules.orders import SetRule
from rules.outcome import Outcome
from rules.systems.strategic.actions.battlefield import DetectTraps, Extinguish, NextRound, TriggerTrap
from rules.systems.strategic.actions.combat import Attack
from rules.systems.strategic.actions.features import PlaceFeature
from rules.systems.strategic.battlefield import on_hit_square
from rules.systems.strategic.features import fp_pool
from rules.systems.strategic.terrain import is_smoky, stealth
from tests.rules.conftest import add, dice, start

C = Cell.parse
C3 = C("C3")
CANNON = {"name": "Cannon", "range": 30, "damage": "1d10+20", "type": "I"}


def _set(b: Battle, key: str, value: object) -> None:
    b.apply(SetRule(key=key, value=str(value).lower()), dice())


def _out() -> Outcome:
    return Outcome(order="test", kind="test")


def _board(ruleset: str = "strategic-p", terrain: str = "plain", **rules: object) -> Battle:
    b = Battle.new(ruleset, 10, 10)
    b.set_terrain(C3, terrain)
    for key, value in rules.items():
        _set(b, key, value)
    return b


def _line(out: Outcome, label: str) -> int:
    return next(m.value for m in out.tests[0].breakdown.modifiers if m.label == label)


# --- what a hit does to its square -------------------------------------------------------


@pytest.mark.constant("fire_chance")
@pytest.mark.parametrize(("chance", "burns"), [(50, True), (30, False)])
def test_fire_chance(chance: int, burns: bool) -> None:
    """000:L62 "Energy or Explosive attacks ... 20% chance" (A07: on d100 <= chance): a 40 on a Forest."""
    b = _board(terrain="forest", fire_chance=chance)
    on_hit_square(b, C3, "E", dice(40, 1), _out())
    assert bool(b.square_state(C3).get("fire")) is burns


@pytest.mark.constant("fire_on_explosive")
@pytest.mark.parametrize(("ruleset", "on", "burns"), [("strategic-e", True, True), ("strategic-p", False, False)])
def test_fire_on_explosive(ruleset: str, on: bool, burns: bool) -> None:
    """A55: "E-mode triggers only on Energy"; the constant lets Explosive hits start forest fires (or not)."""
    b = _board(ruleset, "forest", fire_on_explosive=on)
    on_hit_square(b, C3, "X", dice(1, 1), _out())
    assert bool(b.square_state(C3).get("fire")) is burns


@pytest.mark.constant("fire_rounds_die")
@pytest.mark.parametrize(("die", "face"), [(6, 5), (10, 9)])
def test_fire_rounds_die(die: int, face: int) -> None:
    """A36: "Each square burns for 1d3 rounds": the die is the constant's."""
    b = _board(terrain="forest", fire_rounds_die=die)
    d = dice(1, face)
    on_hit_square(b, C3, "E", d, _out())
    assert b.square_state(C3)["fire"] == face and d.rolls[1].notation == f"1d{die}"


@pytest.mark.constant("fire_catch_test_mod")
@pytest.mark.parametrize("mod", [-30, 15])
def test_fire_catch_test_mod(mod: int) -> None:
    """A36: "A unit in a square when it ignites tests Agility +0 or catches fire"; the +0 is the constant."""
    b = _board(terrain="forest", fire_catch_test_mod=mod)
    add(b, "Rei", "NERV", "C3", ag=40)
    out = _out()
    on_hit_square(b, C3, "E", dice(1, 2, 99), out)
    assert _line(out, "Catching fire") == mod


@pytest.mark.constant("burning_makes_smoke")
@pytest.mark.parametrize(("on", "smoky"), [(True, True), (False, False)])
def test_burning_makes_smoke(on: bool, smoky: bool) -> None:
    """000:L62 burning forests are Smoke squares (A55: in E-Scale too); the GM may turn that off."""
    b = _board(terrain="forest", burning_makes_smoke=on)
    b.square(C3)["fire"] = 2
    assert is_smoky(b, C3) is smoky


@pytest.mark.constant("ice_melt_chance")
@pytest.mark.parametrize(("chance", "melts"), [(80, True), (60, False)])
def test_ice_melt_chance(chance: int, melts: bool) -> None:
    """000:L64 "Energy or Explosive attacks that land on Ice have a 50% chance of melting it": a 70 rolled."""
    b = _board(terrain="ice", ice_melt_chance=chance)
    on_hit_square(b, C3, "E", dice(70), _out())
    assert (b.terrain_at(C3).key == "water") is melts


@pytest.mark.constant("water_smoke_chance", "water_smoke_rounds")
@pytest.mark.parametrize(("chance", "rounds", "smoke"), [(80, 3, 3), (60, 3, 0), (80, 2, 2)])
def test_water_smoke(chance: int, rounds: int, smoke: int) -> None:
    """000:L74 "a 20% chance of creating a cloud of smoke for one round": a 70 rolled on Water."""
    b = _board(terrain="water", water_smoke_chance=chance, water_smoke_rounds=rounds)
    on_hit_square(b, C3, "E", dice(70), _out())
    assert b.square_state(C3).get("smoke", 0) == smoke


@pytest.mark.constant("plunge_magdam_die", "plunge_stun_rounds")
@pytest.mark.parametrize(("die", "stun"), [(10, 3), (2, 0)])
def test_plunging_horde(die: int, stun: int) -> None:
    """000:L64 "it takes 1d5 magdam per Squad and must roll Toughness or be Stunned for a round"."""
    b = _board(terrain="ice", plunge_magdam_die=die, plunge_stun_rounds=stun)
    add(b, "Mob", "NERV", "C3", kind="horde", magnitude=20, squads=1, t=30)
    d = dice(1, 2, 99)
    on_hit_square(b, C3, "E", d, _out())
    mob = b.unit("Mob")
    assert d.rolls[1].notation == f"1d{die}" and mob.magnitude == 18
    assert mob.status_rounds["stunned"] == stun


# --- the start of a round -----------------------------------------------------------------


@pytest.mark.constant("on_fire_damage")
@pytest.mark.parametrize(("notation", "faces", "lost"), [("1d5", (4,), 2), ("2d10", (4, 9), 11)])
def test_on_fire_damage(notation: str, faces: tuple[int, ...], lost: int) -> None:
    """A36: the parent On Fire damage each round ignores armour (TB 2 still counts)."""
    b = _board(on_fire_damage=notation)
    add(b, "Rei", "NERV", "C3", ap=10, t=20, wounds=20, statuses=["on_fire"])
    start(b)
    out = b.apply(NextRound(), dice(*faces))
    assert out.rolls[0].notation == notation and b.unit("Rei").wounds == 20 - lost


@pytest.mark.constant("storm_moves")
@pytest.mark.parametrize(("on", "storms"), [(True, ["G5"]), (False, ["E5"])])
def test_storm_moves(on: bool, storms: list[str]) -> None:
    """A52: "Storms move at the start of each round": a d8 of 3 (East) and 1d5 of 2."""
    b = _board("strategic-e", storm_moves=on)
    b.square(C("E5"))["storm"] = True
    add(b, "Watcher", "Grey", "A1")
    start(b)
    b.apply(NextRound(), dice(3, 2))
    assert [k for k, s in b.cells.items() if s.get("storm")] == storms


@pytest.mark.constant("storm_allows_stealth")
@pytest.mark.parametrize(("on", "bonus"), [(True, 0), (False, None)])
def test_storm_allows_stealth(on: bool, bonus: int | None) -> None:
    """A41: "A Storm is Natural Cover, so units may use Stealth in it (at +0)"; a Plain square has no Stealth."""
    b = _board("strategic-e", storm_allows_stealth=on)
    assert b.terrain_at(C3).stealth is None
    b.square(C3)["storm"] = True
    assert stealth(b, C3) == bonus


# --- putting out fires, traps ---------------------------------------------------------------


@pytest.mark.constant("extinguish_test_mod")
@pytest.mark.parametrize(("mod", "target"), [(-10, 30), (0, 40)])
def test_extinguish_test_mod(mod: int, target: int) -> None:
    """1.8.8: "using the parent extinguishing action" (an Agility test with the constant's modifier)."""
    b = _board(extinguish_test_mod=mod)
    add(b, "Rei", "NERV", "C3", ag=40, statuses=["on_fire"])
    start(b)
    assert b.apply(Extinguish(unit="Rei"), dice(99)).tests[0].target == target


def _trapped(feature: str, terrain: str, **rules: object) -> Battle:
    b = _board(terrain=terrain, **rules)
    b.square(C3).update(feature=feature, feature_side="Red")
    add(b, "General", "Red", "H8", supreme_commander=True)
    return b


@pytest.mark.constant("trap_detect_mod")
@pytest.mark.parametrize(("mod", "target"), [(-10, 50), (0, 60)])
def test_trap_detect_mod(mod: int, target: int) -> None:
    """000:L107 "Enemy units may make an Awareness-20 test to detect the trap"."""
    b = _trapped("bakelite_trap", "urban", trap_detect_mod=mod)
    add(b, "Scout", "Blue", "B3", skills={"awareness": 60})
    start(b)
    assert b.apply(DetectTraps(unit="Scout"), dice(99)).tests[0].target == target


@pytest.mark.constant("bakelite_penalty")
@pytest.mark.parametrize(("notation", "faces", "penalty"), [("1d5", (4,), 4), ("2d10", (4, 9), 13)])
def test_bakelite_penalty(notation: str, faces: tuple[int, ...], penalty: int) -> None:
    """000:L107 "on a failure they take a 3d10 reduction to WS and Agility"."""
    b = _trapped("bakelite_trap", "urban", bakelite_penalty=notation)
    add(b, "Pilot", "Blue", "C3", skills={"dodge": 30})
    start(b)
    b.apply(TriggerTrap(side="Red", at=C3), dice(90, *faces))
    assert b.unit("Pilot").status_rounds["bakelite"] == penalty


@pytest.mark.constant("fire_trap_test_mod")
@pytest.mark.parametrize("mod", [-40, 10])
def test_fire_trap_test_mod(mod: int) -> None:
    """000:L109 "Units caught within the Trap must make an Agility-20 test"."""
    b = _trapped("fire_trap", "forest", fire_trap_test_mod=mod)
    add(b, "Pilot", "Blue", "C3", ag=50)
    start(b)
    out = b.apply(TriggerTrap(side="Red", at=C3), dice(1, 99, *[1] * 9))
    assert _line(out, "Catching fire") == mod


# --- bridges ------------------------------------------------------------------------------


def _bridge(temporary: bool, **rules: object) -> Battle:
    b = _board(terrain="water" if temporary else "bridge", **rules)
    if temporary:
        b.square(C3).update(feature="temporary_bridge", feature_side="Red")
    add(b, "Gunner", "Red", "C1", bs=60, weapons=[CANNON])
    start(b)
    return b


def _shell(b: Battle, face: int) -> dict[str, Any]:
    out = b.apply(Attack(unit="Gunner", weapon="Cannon", target="bridge", at=C3), dice(5, face))
    bridge: dict[str, Any] = out.details.bridge.to_dict()  # as the event log stores it
    return bridge


@pytest.mark.constant("bridge_tb", "bridge_ap", "bridge_wounds")
@pytest.mark.parametrize(("tb", "ap", "wounds", "lost", "falls"), [(1, 2, 40, 27, False), (0, 0, 30, 30, True)])
def test_bridge_constants(tb: int, ap: int, wounds: int, lost: int, falls: bool) -> None:
    """000:L60 "They can be destroyed and count as being TB4, AP10 with 20 Wounds": a 1d10+20 showing 10."""
    b = _bridge(False, bridge_tb=tb, bridge_ap=ap, bridge_wounds=wounds)
    hit = _shell(b, 10)
    assert (hit["wounds_lost"], hit["destroyed"]) == (lost, falls)


@pytest.mark.constant("temp_bridge_tb", "temp_bridge_ap", "temp_bridge_wounds")
@pytest.mark.parametrize(("tb", "ap", "wounds", "lost", "falls"), [(3, 5, 13, 13, True), (0, 0, 22, 21, False)])
def test_temporary_bridge_constants(tb: int, ap: int, wounds: int, lost: int, falls: bool) -> None:
    """000:L111 "Temporary Bridges can be destroyed and count as being TB2, AP4 with 10 Wounds": 1d10+20 showing 1."""
    b = _bridge(True, temp_bridge_tb=tb, temp_bridge_ap=ap, temp_bridge_wounds=wounds)
    hit = _shell(b, 1)
    assert (hit["wounds_lost"], hit["destroyed"]) == (lost, falls)


# --- features -----------------------------------------------------------------------------


@pytest.mark.constant("fp_per_ib")
@pytest.mark.parametrize(("per_ib", "pool"), [(3, 12), (0, 0)])
def test_fp_per_ib(per_ib: int, pool: int) -> None:
    """000:L78 "a pool of feature points, which usually equal the Supreme Commander's IB*2": Intelligence 45."""
    b = _board(fp_per_ib=per_ib)
    add(b, "General", "Red", "H8", supreme_commander=True, int=45)
    assert fp_pool(b, b.ensure_side("Red")) == pool


@pytest.mark.constant("max_features_per_square")
def test_max_features_per_square() -> None:
    """000:L80 "No Terrain square may have more than one Feature": the range is 1..1, so the GM may not change it,
    and a second feature on a square is refused."""
    b = _board()
    b.ensure_side("Red").fp_override = 20
    b.apply(PlaceFeature(feature="minefield", side="Red", at=C3), dice())
    for value in (0, 2):
        with pytest.raises(GameError, match="max_features_per_square"):
            _set(b, "max_features_per_square", value)
    before = b.to_dict()
    with pytest.raises(GameError, match="C3"):
        b.apply(PlaceFeature(feature="barrier_walls", side="Red", at=C3), dice())
    assert b.to_dict() == before
