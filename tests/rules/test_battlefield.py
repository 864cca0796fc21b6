"""The living battlefield: rounds, storms, forest fires, smoke, ice, bridges and traps, all with fixed dice."""

from __future__ import annotations

from typing import Any

import pytest

from rules.battle import Battle
from rules.coords import Cell
from rules.errors import GameError, IllegalOrderError, NotFoundError
from rules.modifiers import Modifier
from rules.orders import End, Order, SetRule
from rules.outcome import Mark, Outcome
from rules.systems.strategic.actions.battlefield import DetectTraps, Extinguish, NextRound, TriggerTrap
from rules.systems.strategic.actions.combat import Attack
from rules.systems.strategic.battlefield import on_hit_square
from rules.systems.strategic.combat import skill_breakdown
from tests.rules.conftest import add, dice, start

C = Cell.parse


def _battle(ruleset: str = "strategic-p", size: int = 10) -> Battle:
    b = Battle.new(ruleset, size, size)
    add(b, "Watcher", "Grey", "J10" if size == 10 else "A1")
    return b


def _forest(b: Battle, *cells: str) -> None:
    for c in cells:
        b.set_terrain(C(c), "forest")


def _refused(b: Battle, order: Order, error: type[GameError], match: str) -> None:
    before = b.to_dict()
    with pytest.raises(error, match=match):
        b.apply(order, dice(1, 1, 1, 1, 1))
    assert b.to_dict() == before


def _state(b: Battle, cell: str) -> dict[str, Any]:
    return b.square_state(C(cell))


BLOCK = ("B2", "C2", "D2", "B3", "C3", "D3", "B4", "C4", "D4")


# --- rounds -----------------------------------------------------------------------


def test_next_round_advances_the_round() -> None:
    """A06: "They resolve once, at the start of each round, before any unit acts." """
    b = _battle()
    start(b)
    out = b.apply(NextRound(), dice())
    assert b.round == 2 and out.turn.round == 2


def test_next_round_waits_for_an_active_battle() -> None:
    """A06: round effects belong to a running battle; in setup or after the end nothing changes."""
    b = _battle()
    _refused(b, NextRound(), IllegalOrderError, "setup")
    start(b)
    b.apply(End(), dice())
    _refused(b, NextRound(), IllegalOrderError, "ended")


# --- storms (E) -------------------------------------------------------------------


def test_storms_move_together_by_one_d8_and_one_d5() -> None:
    """001:L62 "roll a scatter die, then roll a 1d5. Every storm on the map moves in the scatter die's direction" (A52: d8, 3 = E)."""
    b = _battle("strategic-e", 20)
    for c in ("E5", "F5"):
        b.square(C(c))["storm"] = True
    start(b)
    out = b.apply(NextRound(), dice(3, 2))
    assert sorted(k for k, s in b.cells.items() if s.get("storm")) == ["G5", "H5"]
    moved = next(e for e in out.effects if e.kind == "storms_moved")
    assert (moved.direction, moved.distance, moved.dropped) == ("E", 2, 0)
    assert [(r.notation, r.total) for r in out.rolls] == [("1d8", 3), ("1d5", 2)]


def test_storm_squares_pushed_off_the_map_are_dropped() -> None:
    """A52: "Squares that leave the map are deleted." """
    b = _battle("strategic-e", 20)
    for c in ("R5", "S5", "T5"):
        b.square(C(c))["storm"] = True
    start(b)
    out = b.apply(NextRound(), dice(3, 2))
    assert [k for k, s in b.cells.items() if s.get("storm")] == ["T5"]
    assert next(e for e in out.effects if e.kind == "storms_moved").dropped == 2


def test_a_storm_moving_over_a_fire_leaves_it_burning() -> None:
    """A36 (revised): "A Storm square can burn"; a storm moving onto a burning Forest leaves the fire there."""
    b = _battle("strategic-e", 20)
    _forest(b, "F5")
    b.square(C("E5"))["storm"] = True
    b.square(C("F5"))["fire"] = 3
    start(b)
    out = b.apply(NextRound(), dice(3, 1))
    assert _state(b, "F5") == {"storm": True, "fire": 2}
    assert not [e for e in out.effects if e.kind == "fire_out"]


def test_no_storms_no_rolls_and_p_storm_flags_stay_put() -> None:
    """A29: "raining or storming" is a scenario flag in P-mode; only E-Scale storms move (A52)."""
    b = _battle()
    b.square(C("C3"))["storm"] = True
    start(b)
    out = b.apply(NextRound(), dice())
    assert out.rolls == [] and _state(b, "C3") == {"storm": True}


# --- fire -------------------------------------------------------------------------


def test_fire_spreads_to_adjacent_unburnt_forest() -> None:
    """000:L62 "spread out at a rate of 1 square per turn"; A36: "ignites all 8-adjacent Forest squares that are neither burning nor burnt-out"."""
    b = _battle()
    _forest(b, *BLOCK)
    b.set_terrain(C("D4"), "plain")
    b.square(C("B2"))["burnt"] = True
    b.square(C("C3"))["fire"] = 2
    start(b)
    out = b.apply(NextRound(), dice(1, 2, 3, 1, 2, 3))
    burning = {k: s["fire"] for k, s in b.cells.items() if s.get("fire")}
    assert burning == {"C2": 1, "D2": 2, "B3": 3, "D3": 1, "B4": 2, "C4": 3, "C3": 1}
    assert {m.cell for m in out.highlight.marks or []} == {"C2", "D2", "B3", "D3", "B4", "C4"}


def test_a_fire_on_the_map_edge_spreads_only_onto_the_map() -> None:
    """A36: fire spreads "to adjacent Forest squares"; beyond the map edge there are none."""
    b = _battle()
    _forest(b, "A1", "B1")
    b.square(C("A1"))["fire"] = 2
    start(b)
    b.apply(NextRound(), dice(2))
    assert {k: s.fire for k, s in b.cells.items() if s.fire} == {"A1": 1, "B1": 2}


def test_fire_burns_out_after_its_rounds() -> None:
    """A36: "Each square burns for 1d3 rounds ... Afterwards it is burnt-out Forest ... and cannot re-ignite." """
    b = _battle()
    _forest(b, "C3")
    b.square(C("C3"))["fire"] = 1
    start(b)
    out = b.apply(NextRound(), dice())
    assert _state(b, "C3") == {"burnt": True} and b.terrain_at(C("C3")).key == "forest"
    assert {"type": "burnt_out", "cell": "C3"} in [e.to_dict() for e in out.effects]


def test_fire_never_spreads_into_rain_but_spreads_into_a_storm() -> None:
    """A36 (revised): "Fire never ignites or spreads into a square with a rain flag. A Storm square can burn: fire
    spreads into Storm-covered Forest like any other Forest"."""
    b = _battle()
    _forest(b, "C3", "C4", "D3")
    b.square(C("C3"))["fire"] = 2
    b.square(C("C4"))["rain"] = True
    b.square(C("D3"))["storm"] = True
    start(b)
    b.apply(NextRound(), dice(2))
    assert not _state(b, "C4").get("fire") and _state(b, "D3") == {"storm": True, "fire": 2}


# Agility 30 + Storm 30, less the Forest's DTV at -5 a point (000:L39, 001:L42): 2 in P, 2 + 1 under a Storm in E.
@pytest.mark.parametrize(("ruleset", "target"), [("strategic-e", 45), ("strategic-p", 50)])
@pytest.mark.parametrize("over", [0, 1])
def test_a_unit_in_a_storm_resists_spreading_fire_at_plus_30(ruleset: str, target: int, over: int) -> None:
    """001:L62 "Units in a Storm square take a +30 to tests to resist fires"; A36 (revised): "a unit there tests to
    resist catching fire with the Storm's +30 (Agility +0 +30 for spreading fire)"."""
    b = _battle(ruleset)
    if ruleset == "strategic-e":
        b.apply(SetRule("storm_moves", "false"), dice())  # the storm stays on D3 this round
    _forest(b, "C3", "D3")
    b.square(C("C3"))["fire"] = 2
    b.square(C("D3"))["storm"] = True
    add(b, "Rei", "NERV", "D3", ag=30)
    start(b)
    out = b.apply(NextRound(), dice(2, target + over))
    [test] = out.tests
    assert test.target == target and ("Storm", 30) in [(m.label, m.value) for m in test.breakdown.modifiers]
    assert ("on_fire" in b.unit("Rei").statuses) is bool(over)


def test_a_storming_fire_trap_burns_without_going_off() -> None:
    """000:L109 "Fire Traps cannot be triggered if the square is raining or storming"; A36 (revised): "only the
    Fire Trap cannot be triggered while its square is storming": fire spreading onto it burns the square alone."""
    b = _trapped("fire_trap", "forest")
    b.square(C("C3"))["storm"] = True
    b.square(C("C2"))["fire"] = 2
    start(b)
    out = b.apply(NextRound(), dice(*[1] * 9))
    assert _state(b, "C3")["fire"] == 1 and _state(b, "C3")["feature"] == "fire_trap"
    assert not [e for e in out.effects if e.kind == "trap_sprung"]


def test_a_unit_in_a_square_that_ignites_tests_agility_or_catches_fire() -> None:
    """A36: "A unit in a square when it ignites tests Agility +0 or catches fire"."""
    b = _battle()
    _forest(b, "C3", "C4")
    b.square(C("C3"))["fire"] = 2
    add(b, "Rei", "NERV", "C4", ag=30)
    start(b)
    out = b.apply(NextRound(), dice(2, 31))
    assert "on_fire" in b.unit("Rei").statuses
    test = out.tests[0]
    assert test.target == 20 and test.success is False  # Agility 30, DTV 2 in Forest (-10)


def test_smoke_expires() -> None:
    """000:L70 "a cloud of smoke for one round"; A06: smoke expiry is the third start-of-round step."""
    b = _battle()
    b.square(C("C3"))["smoke"] = 1
    b.square(C("D3"))["smoke"] = 2
    start(b)
    b.apply(NextRound(), dice())
    assert "C3" not in b.cells and _state(b, "D3") == {"smoke": 1}


def test_timed_statuses_run_down_but_bakelite_waits_for_a_strength_test() -> None:
    """000:L64 "Stunned for a round"; 000:L107 Bakelite lasts "until they pass a Free Action Strength Test"."""
    b = _battle()
    add(b, "Rei", "NERV", "C3")
    start(b)
    rei = b.unit("Rei")
    rei.statuses += ["stunned", "bakelite", "defending"]
    rei.status_rounds.update(stunned=1, bakelite=12, defending=0)
    b.apply(NextRound(), dice())
    assert rei.statuses == ["stunned", "bakelite"] and rei.status_rounds == {"stunned": 0, "bakelite": 12}
    b.apply(NextRound(), dice())
    assert rei.statuses == ["bakelite"] and rei.status_rounds == {"bakelite": 12}


def test_burning_units_take_damage_that_ignores_armour() -> None:
    """A36: "Catching fire follows the parent On Fire rules" (1d10 Energy each round, armour ignored)."""
    b = _battle()
    add(b, "Rei", "NERV", "C3", ap=10, t=20, statuses=["on_fire"])
    start(b)
    b.apply(NextRound(), dice(6))
    assert b.unit("Rei").wounds == 6  # 6 - TB 2, armour ignored


# --- what a hit does to its square -------------------------------------------------


def _outcome() -> Outcome:
    return Outcome(order="test", kind="test")


@pytest.mark.parametrize(("ruleset", "dtype", "rolls_fire"), [
    ("strategic-p", "E", True), ("strategic-p", "X", True), ("strategic-p", "I", False),
    ("strategic-e", "E", True), ("strategic-e", "X", False),
])
def test_which_hits_can_set_a_forest_ablaze(ruleset: str, dtype: str, rolls_fire: bool) -> None:
    """000:L62 "Energy or Explosive attacks ... 20% chance" (P); A55: "E-mode triggers only on Energy"."""
    b = _battle(ruleset)
    _forest(b, "C3")
    d = dice(20, 3)
    on_hit_square(b, C("C3"), dtype, d, _outcome())
    assert bool(_state(b, "C3").get("fire")) is rolls_fire
    assert len(d.rolls) == (2 if rolls_fire else 0)


def test_fire_chance_is_twenty_percent() -> None:
    """A07: "the event happens on roll <= percentage" (21 does not start a fire)."""
    b = _battle()
    _forest(b, "C3")
    out = _outcome()
    on_hit_square(b, C("C3"), "E", dice(21), out)
    assert "C3" not in b.cells
    assert [e.to_dict() for e in out.effects] == [{"type": "chance", "what": "forest fire on C3", "cell": "C3", "chance": 20, "roll": 21,
                            "happened": False}]


def test_an_energy_shot_sets_the_targets_forest_ablaze() -> None:
    """000:L62 "The fire will originate on the hit square"; the map marks what burned."""
    b = _battle()
    _forest(b, "C5")
    add(b, "Rei", "NERV", "C1", bs=50, weapons=[{"name": "Laser", "range": 30, "type": "E", "damage": "1d10"}])
    add(b, "Angel", "SEELE", "C5", ag=10)
    start(b)
    out = b.apply(Attack(unit="Rei", weapon="Laser", target="Angel"), dice(5, 1, 20, 3, 99))
    assert _state(b, "C5")["fire"] == 3 and "on_fire" in b.unit("Angel").statuses
    assert Mark("C5", "fire") in (out.highlight.marks or [])


def test_ice_melts_and_the_horde_on_it_plunges() -> None:
    """000:L64 "50% chance of melting it ... if this is a Horde then it takes 1d5 magdam per Squad and must roll Toughness or be Stunned"."""
    b = _battle()
    b.set_terrain(C("C3"), "ice")
    add(b, "Mob", "NERV", "C3", kind="horde", magnitude=20, squads=2, t=30)
    add(b, "Rei", "NERV", "C3", statuses=["immobilised"])
    add(b, "Bird", "NERV", "C3", flyer=5, altitude=2)
    version = b.map_version
    out = _outcome()
    on_hit_square(b, C("C3"), "X", dice(50, 3, 4, 90), out)
    assert b.terrain_at(C("C3")).key == "water" and b.map_version == version + 1
    mob = b.unit("Mob")
    assert mob.magnitude == 13 and "stunned" in mob.statuses and mob.status_rounds["stunned"] == 1
    assert b.unit("Rei").statuses == []  # A34: the ice that held it is gone
    assert [e.unit for e in out.effects if e.kind == "plunged"] == ["Mob", "Rei"]


def test_ice_melts_into_what_lies_under_it() -> None:
    """A33: "each Ice square has an `underlying` map field, default Water"."""
    b = _battle()
    b.set_terrain(C("C3"), "ice")
    b.square(C("C3"))["underlying"] = "shallows"
    on_hit_square(b, C("C3"), "E", dice(1), _outcome())
    assert b.terrain_at(C("C3")).key == "shallows" and "C3" not in b.cells


def test_ice_holds_on_a_failed_melt_roll() -> None:
    """A07 with 000:L64's 50%: a 51 leaves the ice."""
    b = _battle()
    b.set_terrain(C("C3"), "ice")
    on_hit_square(b, C("C3"), "E", dice(51), _outcome())
    assert b.terrain_at(C("C3")).key == "ice"


@pytest.mark.parametrize("terrain", ["water", "shallows"])
def test_hits_on_water_raise_smoke_for_a_round(terrain: str) -> None:
    """000:L70 "Energy or Explosive attacks that land on Shallows have a 20% chance of creating a cloud of smoke for one round"."""
    b = _battle()
    b.set_terrain(C("C3"), terrain)
    on_hit_square(b, C("C3"), "E", dice(20), _outcome())
    assert _state(b, "C3") == {"smoke": 1}


def test_e_water_makes_no_smoke() -> None:
    """A57: the P-Scale water smoke rule is not ported to E-Scale (001:L61 has none)."""
    b = _battle("strategic-e")
    b.set_terrain(C("C3"), "water")
    d = dice()
    on_hit_square(b, C("C3"), "E", d, _outcome())
    assert d.rolls == [] and "C3" not in b.cells


# --- bridges -------------------------------------------------------------------------


CANNON = {"name": "Cannon", "range": 30, "damage": "1d10+20", "type": "I"}


def test_a_bridge_takes_damage_and_falls_into_the_water() -> None:
    """000:L60 "count as being TB4, AP10 with 20 Wounds"; A31: "the square reverts ... Every non-flying ... unit on it plunges"."""
    b = _battle()
    b.set_terrain(C("C3"), "bridge")
    b.square(C("C3"))["underlying"] = "shallows"
    add(b, "Gunner", "Red", "C1", bs=60, weapons=[CANNON])
    add(b, "Mob", "Blue", "C3", kind="horde", magnitude=10, t=30)
    start(b)
    order = Attack(unit="Gunner", weapon="Cannon", target="bridge", at=C("C3"))
    out = b.apply(order, dice(5, 10))
    assert out.details.bridge.hit.wounds_lost == 16 and _state(b, "C3")["bridge_wounds"] == 16
    out = b.apply(order, dice(5, 10, 2, 5))
    assert out.details.bridge.hit.destroyed is True
    assert b.terrain_at(C("C3")).key == "shallows" and "C3" not in b.cells
    assert b.unit("Mob").magnitude == 8
    assert Mark("C3", "bridge down") in (out.highlight.marks or [])


def test_a_temporary_bridge_is_weaker_and_leaves_its_water() -> None:
    """000:L111 "Temporary Bridges can be destroyed and count as being TB2, AP4 with 10 Wounds"."""
    b = _battle()
    b.set_terrain(C("C3"), "water")
    b.square(C("C3")).update(feature="temporary_bridge", feature_side="Red")
    add(b, "Gunner", "Red", "C1", bs=60, weapons=[CANNON])
    start(b)
    out = b.apply(Attack(unit="Gunner", weapon="Cannon", target="bridge", at=C("C3")), dice(5, 1))
    assert out.details.bridge.hit.wounds_lost == 15 and out.details.bridge.hit.destroyed is True
    assert b.terrain_at(C("C3")).key == "water" and "C3" not in b.cells


def test_no_bridge_no_bridge_attack() -> None:
    """A32: only a Bridge or Temporary Bridge is an object target; the refusal changes nothing."""
    b = _battle()
    add(b, "Gunner", "Red", "C1", bs=60, weapons=[CANNON])
    start(b)
    _refused(b, Attack(unit="Gunner", weapon="Cannon", target="bridge", at=C("C3")), IllegalOrderError, "no bridge")


# --- traps -------------------------------------------------------------------------


def _trapped(feature: str, terrain: str) -> Battle:
    b = _battle()
    if terrain == "forest":
        _forest(b, *BLOCK)
    else:
        b.set_terrain(C("C3"), terrain)
    b.square(C("C3")).update(feature=feature, feature_side="Red")
    add(b, "General", "Red", "H8", supreme_commander=True)
    return b


def test_bakelite_trap() -> None:
    """000:L107 "Any units within must make a Dodge test (Hordes are automatically affected); on a failure they take a 3d10 reduction to WS and Agility"."""
    b = _trapped("bakelite_trap", "urban")
    add(b, "Pilot", "Blue", "C3", skills={"dodge": 30})
    add(b, "Mob", "Blue", "C3", kind="horde", magnitude=10)
    start(b)
    out = b.apply(TriggerTrap(side="Red", at=C("C3")), dice(90, 5, 5, 5, 1, 2, 3))
    assert b.unit("Pilot").status_rounds["bakelite"] == 15 and b.unit("Mob").status_rounds["bakelite"] == 6
    assert [t.purpose for t in out.tests] == ["Pilot dodges the Bakelite"]
    assert "C3" not in b.cells  # single use
    act = b.apply(Order.parse("act unit:Pilot stat:ws"), dice(1))
    assert [m for m in act.tests[0].breakdown.modifiers if m.label == "Bakelite Trap"] == [
        Modifier("Bakelite Trap", -15, "000:L107")]
    dodge = skill_breakdown(b, b.unit("Pilot"), "dodge")  # Dodge is an Agility skill
    assert [(m.label, m.value) for m in dodge.modifiers] == [("Bakelite Trap", -15)]


@pytest.mark.parametrize("stat", ["ag", "ws", "dodge"])
def test_a_test_counts_the_bakelite_once(stat: str) -> None:
    """000:L107 "on a failure they take a 3d10 reduction to WS and Agility": 3d10 = 13 takes 13 off a test made with
    /act, once."""
    b = _trapped("bakelite_trap", "urban")
    add(b, "Pilot", "Blue", "C3", ws=40, ag=40, skills={"dodge": 30})
    add(b, "Foe", "Red", "D3")
    start(b)
    b.apply(TriggerTrap(side="Red", at=C("C3")), dice(90, 4, 4, 5))
    act = b.apply(Order.parse(f"act unit:Pilot stat:{stat}"), dice(1))
    lines = [(m.label, m.value) for m in act.tests[0].breakdown.modifiers]
    assert lines == [("Bakelite Trap", -13)]
    assert act.tests[0].target == (30 if stat == "dodge" else 40) - 13


def test_breaking_free_of_bakelite() -> None:
    """000:L107 "until they pass a Free Action Strength Test on their turn"."""
    b = _battle()
    add(b, "Pilot", "Blue", "C3", s=40)
    start(b)
    pilot = b.unit("Pilot")
    pilot.statuses.append("bakelite")
    pilot.status_rounds["bakelite"] = 12
    b.apply(Order.parse("break-free unit:Pilot"), dice(41))
    assert "bakelite" in pilot.statuses
    b.apply(Order.parse("break-free unit:Pilot"), dice(40))
    assert "bakelite" not in pilot.statuses and pilot.status_rounds == {}


def test_fire_trap() -> None:
    """000:L109 "The square and any forest squares adjacent to it all immediately catch flame. Units caught within the Trap must make an Agility-20 test"."""
    b = _trapped("fire_trap", "forest")
    b.set_terrain(C("D4"), "plain")
    add(b, "Pilot", "Blue", "C3", ag=50)
    start(b)
    out = b.apply(TriggerTrap(side="Red", at=C("C3")), dice(1, 31, 1, 1, 1, 1, 1, 1, 1))
    assert "on_fire" in b.unit("Pilot").statuses
    mods = out.tests[0].breakdown.modifiers
    assert Modifier("Catching fire", -20, "order") in mods
    assert sorted(k for k, s in b.cells.items() if s.get("fire")) == sorted(c for c in BLOCK if c != "D4")
    assert "feature" not in _state(b, "C3")


def test_a_burning_fire_trap_goes_off_by_itself() -> None:
    """000:L109 "If the square hosting the Fire Trap catches on fire, then the Fire Trap is prematurely triggered." """
    b = _trapped("fire_trap", "forest")
    on_hit_square(b, C("C3"), "E", dice(1, *[1] * 9), _outcome())
    assert all(_state(b, c).get("fire") for c in BLOCK) and "feature" not in _state(b, "C3")


@pytest.mark.parametrize("flag", ["rain", "storm"])
def test_fire_traps_cannot_be_triggered_in_rain_or_storm(flag: str) -> None:
    """000:L109 "Fire Traps cannot be triggered if the square is raining or storming." """
    b = _trapped("fire_trap", "forest")
    b.square(C("C3"))[flag] = True
    start(b)
    _refused(b, TriggerTrap(side="Red", at=C("C3")), IllegalOrderError, "rains or storms")


def test_only_the_owner_with_a_living_commander_triggers() -> None:
    """A29: "The Supreme Commander may trigger a trap ... if the commander is alive." """
    b = _trapped("bakelite_trap", "urban")
    add(b, "Blue Boss", "Blue", "A8", supreme_commander=True)
    start(b)
    _refused(b, TriggerTrap(side="Blue", at=C("C3")), IllegalOrderError, "Blue has no trap on C3")
    _refused(b, TriggerTrap(side="Green", at=C("C3")), NotFoundError, "no side `Green`")
    _refused(b, TriggerTrap(side="Red", at=C("D3")), IllegalOrderError, "no trap on D3")
    b.apply(Order.parse("remove-unit unit:General"), dice())
    _refused(b, TriggerTrap(side="Red", at=C("C3")), IllegalOrderError, "no living Supreme Commander")


def test_detecting_traps_reveals_them_to_the_side() -> None:
    """000:L107 "Enemy units may make an Awareness-20 test to detect the trap"; A29: "Success reveals the trap to that side"."""
    b = _trapped("bakelite_trap", "urban")
    b.square(C("J2")).update(feature="fire_trap", feature_side="Red")
    add(b, "Scout", "Blue", "B3", skills={"awareness": 60})
    add(b, "Red Scout", "Red", "B2", skills={"awareness": 60})
    start(b)
    out = b.apply(DetectTraps(unit="Scout"), dice(41))
    assert out.tests[0].target == 40 and "revealed" not in _state(b, "C3")
    out = b.apply(DetectTraps(unit="Scout"), dice(40))
    assert _state(b, "C3")["revealed"] == ["Blue"] and list(out.details.revealed) == ["C3"]
    assert "revealed" not in _state(b, "J2")  # too far away
    out = b.apply(DetectTraps(unit="Red Scout"), dice(1))
    assert list(out.details.revealed) == []  # its own side's trap is no secret


def test_e_scale_has_no_traps() -> None:
    """A57: features (and their traps) are P-Scale only."""
    b = _battle("strategic-e")
    start(b)
    _refused(b, DetectTraps(unit="Watcher"), IllegalOrderError, "no artificial features")


# --- putting out fires -----------------------------------------------------------------


def test_water_nearby_puts_a_fire_out_at_once() -> None:
    """000:L74 "Units in or next to a water square may put out any fires that they suffer from." """
    b = _battle()
    b.set_terrain(C("D3"), "water")
    add(b, "Rei", "NERV", "C3", statuses=["on_fire"])
    start(b)
    out = b.apply(Extinguish(unit="Rei"), dice())
    assert "on_fire" not in b.unit("Rei").statuses and out.rolls == []


def test_a_storm_puts_a_fire_out_at_once() -> None:
    """001:L62 "Units in a Storm square ... may put out any fires that they suffer from." """
    b = _battle("strategic-e")
    add(b, "Rei", "NERV", "C3", statuses=["on_fire"])
    b.square(C("C3"))["storm"] = True
    start(b)
    b.apply(Extinguish(unit="Rei"), dice())
    assert "on_fire" not in b.unit("Rei").statuses


def test_away_from_water_it_takes_an_agility_test() -> None:
    """1.8.8: "using the parent extinguishing action" (Agility -20)."""
    b = _battle()
    add(b, "Rei", "NERV", "C3", ag=40, statuses=["on_fire"])
    start(b)
    out = b.apply(Extinguish(unit="Rei"), dice(21))
    assert out.tests[0].target == 20 and "on_fire" in b.unit("Rei").statuses
    b.apply(Extinguish(unit="Rei"), dice(20))
    assert "on_fire" not in b.unit("Rei").statuses


def test_a_unit_not_on_fire_has_nothing_to_put_out() -> None:
    """1.8.8: the action is for fires a unit suffers from; the refusal changes nothing."""
    b = _battle()
    add(b, "Rei", "NERV", "C3")
    start(b)
    _refused(b, Extinguish(unit="Rei"), IllegalOrderError, "not on fire")


def test_battlefield_orders_round_trip() -> None:
    """DESIGN §3: `Order.parse(str(order)) == order`."""
    for order in (NextRound(), Extinguish(unit="Rei"), TriggerTrap(side="Red Army", at=C("C3")),
                  DetectTraps(unit="Scout"), Order.parse("break-free unit:Pilot")):
        assert Order.parse(str(order)) == order
