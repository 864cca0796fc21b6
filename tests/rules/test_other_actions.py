"""Aim, Hide, Maneuver, Defend and GM-adjudicated tests."""

from __future__ import annotations

from typing import Any

import pytest

from rules import turns
from rules.battle import Battle
from rules.coords import Cell
from rules.errors import GameError, IllegalOrderError, InvalidOrderError
from rules.orders import Order, SetRule
from rules.systems.strategic import SYSTEM
from rules.systems.strategic.actions.combat import Attack
from rules.systems.strategic.actions.other import Act, Aim, Defend, Hide, Maneuver
from tests.rules.conftest import add, dice, start

C = Cell.parse
RIFLE = {"name": "Rifle", "range": 30, "damage": "1d10", "type": "I"}


def _battle(ruleset: str = "strategic-p") -> Battle:
    return Battle.new(ruleset, 10, 10)


def _refused(b: Battle, order: Order, error: type[GameError], match: str) -> None:
    before = b.to_dict()
    with pytest.raises(error, match=match):
        b.apply(order, dice(1, 1, 1))
    assert b.to_dict() == before


# --- aim ------------------------------------------------------------------------------


@pytest.mark.parametrize(("mode", "bonus"), [("half", 10), ("full", 20)])
def test_aim_stores_its_bonus(mode: str, bonus: int) -> None:
    """Brief: "half or full aim: +10/+20 on the next attack, stored in unit.aim" (parent Aim action)."""
    b = _battle()
    add(b, "Rei", "NERV", "A1")
    start(b)
    b.apply(Aim(unit="Rei", mode=mode), dice())
    rei = b.unit("Rei")
    assert rei.aim == bonus and "aiming" in rei.statuses


def test_aim_needs_a_known_mode() -> None:
    """Brief: an aim is half or full; anything else is refused and changes nothing."""
    b = _battle()
    add(b, "Rei", "NERV", "A1")
    start(b)
    _refused(b, Aim(unit="Rei", mode="long"), InvalidOrderError, "half")


# --- hide -----------------------------------------------------------------------------


@pytest.mark.parametrize(("ruleset", "terrain", "bonus"), [
    ("strategic-p", "forest", 0), ("strategic-p", "rough", 10), ("strategic-p", "water", 20),
    ("strategic-p", "urban", 0), ("strategic-e", "mountain", 0),
])
def test_hide_with_the_terrains_stealth_bonus(ruleset: str, terrain: str, bonus: int) -> None:
    """000:L52 "what bonus they receive to Stealth tests"; 001:L54 Natural Cover "is valid terrain for use of the Stealth skill"."""
    b = _battle(ruleset)
    b.set_terrain(C("C3"), terrain)
    add(b, "Rei", "NERV", "C3", skills={"stealth": 40})
    start(b)
    out = b.apply(Hide(unit="Rei"), dice(1))
    assert out.tests[0].target == 40 + bonus and "hidden" in b.unit("Rei").statuses


def test_untrained_stealth_tests_at_half_agility() -> None:
    """A01 parent vocabulary: a skill the unit lacks is tested at half its characteristic (Stealth: Agility)."""
    b = _battle()
    b.set_terrain(C("C3"), "forest")
    add(b, "Rei", "NERV", "C3", ag=44)
    start(b)
    out = b.apply(Hide(unit="Rei"), dice(23))
    assert out.tests[0].target == 22 and "hidden" not in b.unit("Rei").statuses


@pytest.mark.parametrize(("ruleset", "terrain"), [("strategic-p", "plain"), ("strategic-p", "ice"),
                                                   ("strategic-p", "bridge"), ("strategic-e", "plain")])
def test_hiding_is_refused_where_the_terrain_has_no_stealth(ruleset: str, terrain: str) -> None:
    """000:L53 "If the terrain cannot be hidden in, then this entry will be blank." (A41: "-" = hiding not allowed)."""
    b = _battle(ruleset)
    b.set_terrain(C("C3"), terrain)
    add(b, "Rei", "NERV", "C3")
    start(b)
    _refused(b, Hide(unit="Rei"), IllegalOrderError, "cannot be hidden in")


def test_smoke_can_be_hidden_in() -> None:
    """A37: a Smoke square "also allows Stealth at +0"."""
    b = _battle()
    add(b, "Rei", "NERV", "C3", skills={"stealth": 40})
    b.square(C("C3"))["smoke"] = 1
    start(b)
    assert b.apply(Hide(unit="Rei"), dice(40)).tests[0].target == 40


def test_a_flyer_cannot_hide_in_the_ground() -> None:
    """A43: flying units "ignore ground terrain AP, DTV, Hit Bonus, Elevation and Stealth"."""
    b = _battle()
    b.set_terrain(C("C3"), "forest")
    add(b, "Bird", "NERV", "C3", flyer=5, altitude=1)
    start(b)
    _refused(b, Hide(unit="Bird"), IllegalOrderError, "flying")


def test_attacking_gives_a_hidden_unit_away() -> None:
    """Parent Stealth: a hidden unit that attacks reveals where it is."""
    b = _battle()
    b.set_terrain(C("A1"), "forest")
    add(b, "Rei", "NERV", "A1", skills={"stealth": 40}, weapons=[RIFLE])
    add(b, "Angel", "SEELE", "A5")
    start(b)
    b.apply(Hide(unit="Rei"), dice(1))
    b.apply(Attack(unit="Rei", weapon="Rifle", target="Angel"), dice(100))
    assert "hidden" not in b.unit("Rei").statuses


# --- maneuver ---------------------------------------------------------------------------


def _melee_pair(ruleset: str = "strategic-p", mine: str = "A1", theirs: str = "B1", **stats: Any) -> Battle:
    b = _battle(ruleset)
    add(b, "Rei", "NERV", mine, ws=50)
    add(b, "Angel", "SEELE", theirs, ws=30, **stats)
    start(b)
    return b


def test_a_won_maneuver_pushes_the_target_away() -> None:
    """000:L7 "actions such as Maneuver shift an enemy 1dm"; A58: leaving the square ends the engagement."""
    b = _melee_pair()
    b.unit("Rei").engaged.append(b.unit("Angel").id)
    b.unit("Angel").engaged.append(b.unit("Rei").id)
    out = b.apply(Maneuver(unit="Rei", target="Angel"), dice(10, 90))
    assert b.unit("Angel").cell == C("C1") and out.details.won is True
    assert [t.purpose for t in out.tests] == ["Rei maneuvers", "Angel holds its ground"]
    assert turns.names_of(b, b.unit("Rei").engaged) == [] and turns.names_of(b, b.unit("Angel").engaged) == []
    assert out.highlight.path == ["B1", "C1"]


@pytest.mark.parametrize(("mine", "theirs"), [(60, 90), (45, 1), (50, 30)])
def test_a_lost_or_drawn_maneuver_moves_nobody(mine: int, theirs: int) -> None:
    """Parent opposed test: the attacker must succeed with more degrees than the defender."""
    b = _melee_pair()
    out = b.apply(Maneuver(unit="Rei", target="Angel"), dice(mine, theirs))
    assert b.unit("Angel").cell == C("B1") and out.details.won is False


def test_a_maneuver_pushes_diagonally_away() -> None:
    """000:L7: the target is shifted directly away from the attacker."""
    b = _melee_pair(theirs="B2")
    b.apply(Maneuver(unit="Rei", target="Angel"), dice(10, 90))
    assert b.unit("Angel").cell == C("C3")


def test_no_push_off_the_map_or_into_a_blocked_square() -> None:
    """Brief: the push is "refused into blocked/off-map squares"; A13: "ICs block enemy ICs"."""
    b = _melee_pair(mine="B1", theirs="A1")
    _refused(b, Maneuver(unit="Rei", target="Angel"), IllegalOrderError, "off the map")
    b = _melee_pair()
    b.apply(Order.parse("add-unit name:Asuka side:NERV at:C1"), dice())
    _refused(b, Maneuver(unit="Rei", target="Angel"), IllegalOrderError, "cannot be pushed onto C1")


def test_maneuver_needs_melee_reach() -> None:
    """000:L16: a maneuver is a melee action, so the target must be in melee reach."""
    b = _melee_pair(theirs="C1")
    _refused(b, Maneuver(unit="Rei", target="Angel"), IllegalOrderError, "not in melee reach")


def test_e_scale_maneuver_on_a_shared_square_names_the_square() -> None:
    """001:L11 "actions such as Maneuver shift an enemy 1km"; on a shared square the attacker says where to."""
    b = _melee_pair("strategic-e", mine="C3", theirs="C3")
    _refused(b, Maneuver(unit="Rei", target="Angel"), InvalidOrderError, "say where to push")
    _refused(b, Maneuver(unit="Rei", target="Angel", to=C("E3")), IllegalOrderError, "not 1 square")
    b.apply(Maneuver(unit="Rei", target="Angel", to=C("D4")), dice(10, 90))
    assert b.unit("Angel").cell == C("D4")


def test_e_scale_maneuver_of_an_adjacent_horde() -> None:
    """001:L24 a Horde may be fought from the adjacent square, and pushed away from it."""
    b = _melee_pair("strategic-e", mine="C3", theirs="D3", kind="horde", magnitude=10)
    b.apply(Maneuver(unit="Rei", target="Angel"), dice(10, 90))
    assert b.unit("Angel").cell == C("E3")


# --- defend and act -----------------------------------------------------------------------


def test_defend_sets_a_stance_until_the_next_round() -> None:
    """Brief: "defend (status defending until its next turn)"; the timer of 0 ends at the next round (A06)."""
    b = _battle()
    add(b, "Rei", "NERV", "A1")
    start(b)
    out = b.apply(Defend(unit="Rei"), dice())
    assert "defending" in b.unit("Rei").statuses and b.unit("Rei").status_rounds["defending"] == 0
    assert [e.to_dict() for e in out.effects] == [{"type": "defending", "unit": "Rei", "penalty": -20}]


def test_act_is_a_gm_test_with_dtv_and_reason() -> None:
    """000:L39 "-5 Difficult Terrain penalty to Agility ... tests per point of DTV" also applies to GM tests."""
    b = _battle()
    b.set_terrain(C("A1"), "rough")
    add(b, "Rei", "NERV", "A1", ag=40)
    start(b)
    out = b.apply(Act(unit="Rei", stat="ag", modifier=10, reason="Leap the gap"), dice(31))
    test = out.tests[0]
    assert test.purpose == "Leap the gap" and test.target == 30 and test.success is False
    assert [m.label for m in test.breakdown.modifiers] == ["Difficult terrain (DTV 4)", "Leap the gap"]


def test_act_refuses_an_unknown_stat() -> None:
    """Brief: a test names a characteristic or skill the unit has; the refusal changes nothing."""
    b = _battle()
    add(b, "Rei", "NERV", "A1")
    start(b)
    _refused(b, Act(unit="Rei", stat="luck"), InvalidOrderError, "no characteristic or skill")


def test_a_stunned_unit_cannot_take_these_actions() -> None:
    """A01: "Stunned = the unit loses its actions"."""
    b = _battle()
    add(b, "Rei", "NERV", "A1", statuses=["stunned"])
    start(b)
    for order in (Aim(unit="Rei"), Hide(unit="Rei"), Defend(unit="Rei")):
        _refused(b, order, IllegalOrderError, "stunned")


def test_other_orders_round_trip() -> None:
    """DESIGN §3: `Order.parse(str(order)) == order`."""
    for order in (Aim(unit="Rei", mode="full"), Hide(unit="Rei"), Maneuver(unit="Rei", target="Angel 2", to=C("D4")),
                  Defend(unit="Rei"), Act(unit="Rei", stat="dodge", modifier=-10, reason="Jump clear")):
        assert SYSTEM.parse_order(str(order)) == order


def _hidden_duel() -> Battle:
    """Rei (NERV) hidden in the Forest on C3, Sachiel (Angels) three squares away with a rifle and a knife."""
    b = _battle()
    b.set_terrain(C("C3"), "forest")
    add(b, "Rei", "NERV", "C3", skills={"stealth": 60})
    add(b, "Sachiel", "Angels", "F3", bs=40, weapons=[RIFLE, {"name": "Claw", "melee": True, "damage": "1d10",
                                                            "type": "R"}])
    start(b)
    b.apply(Hide(unit="Rei"), dice(1))
    return b


@pytest.mark.constant("hidden_blocks_targeting")
def test_a_hidden_unit_cannot_be_picked_as_a_target_by_an_enemy() -> None:
    """Hiding ruling (hidden_blocks_targeting): an enemy cannot name a hidden unit as its target, nor find it with
    a single-target shot at its square; it is no legal target; the GM may turn the ruling off."""
    b = _hidden_duel()
    _refused(b, Attack(unit="Sachiel", weapon="Rifle", target="Rei"), IllegalOrderError, "Rei is hidden")
    _refused(b, Attack(unit="Sachiel", weapon="Rifle", at=C("C3")), IllegalOrderError, "nobody on C3")
    assert not [o for o in b.legal_orders("Sachiel") if getattr(o, "target", "") == "Rei"]

    b.apply(SetRule(key="hidden_blocks_targeting", value="false"), dice())
    assert any(isinstance(o, Attack) and o.target == "Rei" for o in b.legal_orders("Sachiel"))
    b.apply(Attack(unit="Sachiel", weapon="Rifle", target="Rei"), dice(1, 1, 1, 1))


def test_a_hidden_unit_shows_again_once_it_attacks() -> None:
    """Hidden effect: "hidden on C3 until it attacks": after its attack an enemy may target it again."""
    b = _hidden_duel()
    b.unit("Rei").weapons.append(b.unit("Sachiel").weapons[0])
    b.apply(Attack(unit="Rei", weapon="Rifle", target="Sachiel"), dice(99, 1, 1))
    assert "hidden" not in b.unit("Rei").statuses
    assert any(isinstance(o, Attack) and o.target == "Rei" for o in b.legal_orders("Sachiel"))
