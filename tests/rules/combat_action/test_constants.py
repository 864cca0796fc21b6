"""Combat Action constants not shown elsewhere: each set with set-rule changes the outcome where it applies."""

from __future__ import annotations

from typing import Any

import pytest

from rules.battle import Battle
from rules.orders import EditUnit
from rules.outcome import Outcome
from rules.systems.combat_action.actions.fire import Fire
from rules.systems.combat_action.actions.play import Aim, FlatDown
from rules.systems.combat_action.actions.weapons import Prime
from rules.systems.combat_action.activation import activate
from rules.systems.combat_action.shooting import band_to
from tests.rules.combat_action.helpers import RIFLE, battle, dice, infantry


def _duel(rules: dict[str, str], target: dict[str, Any] | None = None, at: str = "A3") -> Battle[Any]:
    return battle([("A", "Red", "A1", infantry()), ("B", "Blue", at, target or infantry())], rules)


def _mods(out: Outcome) -> dict[str, int]:
    return {m.label: m.value for m in out.tests[0].modifiers}


@pytest.mark.constant("cm_per_square")
@pytest.mark.parametrize(("cm", "band"), [(5, "PB"), (12, "S"), (20, "L")])
def test_cm_per_square(cm: int, band: str) -> None:
    """003:L57-68 bands Point Blank 10 cm, Short 30 cm, Long 70 cm: two squares at the GM's scale."""
    b = _duel({"cm_per_square": str(cm)})
    assert b.apply(Fire(unit="A", weapon="Rifle", target="B"), dice(1, 1)).tests[0].band == band


@pytest.mark.constant("base_contact_squares")
@pytest.mark.parametrize(("squares", "band"), [(1, "CC"), (0, "PB")])
def test_base_contact_squares(squares: int, band: str) -> None:
    """A75: "Squares apart that count as base contact, the Close Combat range (0 cm)": a neighbour one square off."""
    b = _duel({"base_contact_squares": str(squares)}, at="A2")
    assert band_to(b, b.unit("A"), b.unit("B")).key == band


@pytest.mark.constant("hit_on_equal")
@pytest.mark.parametrize(("on", "hit"), [(True, True), (False, False)])
def test_hit_on_equal(on: bool, hit: bool) -> None:
    """A73: "hit if the total >= SS"; the override needs it to beat SS: a 3 with the Rifle's Point Blank +1 is 4."""
    b = _duel({"hit_on_equal": str(on).lower()})
    assert b.apply(Fire(unit="A", weapon="Rifle", target="B"), dice(3, 6)).tests[0].hit is hit


@pytest.mark.constant("flying_high_mod")
@pytest.mark.parametrize("mod", [-2, -4])
def test_flying_high_mod(mod: int) -> None:
    """003:L79 "All shots to / from / at high altitude: -1" (A77: once per shot)."""
    flyer = {"kind": "vehicle", "pf": 9, "flying": True, "altitude": "high"}
    b = _duel({"flying_high_mod": str(mod)}, flyer)
    assert _mods(b.apply(Fire(unit="A", weapon="Rifle", target="B"), dice(1)))["High altitude"] == mod


@pytest.mark.constant("speed_modifier", "speed_threshold_cm", "speed_step_cm")
@pytest.mark.parametrize(("on", "threshold", "step", "mod"), [(True, 20, 5, -3), (True, 10, 4, -6), (False, 10, 4, None)])
def test_speed_modifier(on: bool, threshold: int, step: int, mod: int | None) -> None:
    """003:L83-84 "Moved 30cm or more: -1; Every additional 10cm moved after 30cm: -1" (A76: full steps, target's
    own movement): the target moved 32 cm."""
    b = _duel({"speed_modifier": str(on).lower(), "speed_threshold_cm": str(threshold), "speed_step_cm": str(step)})
    b.unit("B").moved_cm = 32
    mods = _mods(b.apply(Fire(unit="A", weapon="Rifle", target="B"), dice(1)))
    assert mods.get("Target moved 32 cm") == mod


@pytest.mark.constant("aim_bonus")
@pytest.mark.parametrize("bonus", [2, 3])
def test_aim_bonus(bonus: int) -> None:
    """003:L31: aiming with a targeting device adds to the next shot (1 AP)."""
    b = _duel({"aim_bonus": str(bonus)})
    b.apply(Aim(unit="A"), dice())
    assert _mods(b.apply(Fire(unit="A", weapon="Rifle", target="B"), dice(1)))["Aimed"] == bonus


@pytest.mark.constant("cover_stacks")
@pytest.mark.parametrize(("on", "pf"), [(True, 4), (False, 3)])
def test_cover_stacks(on: bool, pf: int) -> None:
    """A78: "take only the highest applicable bonus; they do not stack": Slit +3 and Flat down +1."""
    b = _duel({"cover_stacks": str(on).lower()})
    b.apply(FlatDown(unit="B"), dice())
    b.apply(b.parse_order("paint terrain:slit from:A3"), dice())
    out = b.apply(Fire(unit="A", weapon="Rifle", target="B"), dice(6, 6))
    assert next(t for t in out.tests if t.kind == "damage").pf == pf


@pytest.mark.constant("living_damage_uses_pf")
@pytest.mark.parametrize(("on", "state"), [(True, "ooa"), (False, "killed")])
def test_living_damage_uses_pf(on: bool, state: str) -> None:
    """A79: "clamp(d6 + PF - Pen, 1, 6)", alternative the raw d6: a 2 in a slit (+3) against Pen 2 looks up 3 or 2."""
    b = _duel({"living_damage_uses_pf": str(on).lower()})
    b.apply(b.parse_order("paint terrain:slit from:A3"), dice())
    b.apply(Fire(unit="A", weapon="Rifle", target="B"), dice(6, 2))
    assert b.unit("B").state == state


@pytest.mark.constant("next_result_down")
@pytest.mark.parametrize(("down", "location"), [(True, "power_grid"), (False, "weapon_system")])
def test_next_result_down(down: bool, location: str) -> None:
    """A82: "down" is toward Power Plant; the override searches toward Antenna: Locomotion (0) already damaged."""
    b = _duel({"next_result_down": str(down).lower()}, {"kind": "vehicle", "pf": 5, "weapons": [RIFLE]})
    b.unit("B").damaged.append("locomotion")
    out = b.apply(Fire(unit="A", weapon="Rifle", target="B"), dice(6, 3))
    assert out.tests[1].location == location


@pytest.mark.constant("malfunction_loses_shot")
@pytest.mark.parametrize(("lost", "tests"), [(True, ["malfunction"]), (False, ["malfunction", "to_hit"])])
def test_malfunction_loses_shot(lost: bool, tests: list[str]) -> None:
    """A86: "on 4-6 the shot is not fired, and the weapon is permanently disabled"; the GM may let it fire once."""
    b = battle([("T", "Red", "A1", {"kind": "vehicle", "weapons": [RIFLE]}), ("B", "Blue", "A3", infantry())],
               {"malfunction_loses_shot": str(lost).lower()})
    b.unit("T").weapons[0].faulty = True
    out = b.apply(Fire(unit="T", weapon="Rifle", target="B"), dice(5, 1))
    assert [t.kind for t in out.tests] == tests


@pytest.mark.constant("discipline_removes_pinned")
@pytest.mark.parametrize(("on", "pinned"), [(True, False), (False, True)])
def test_discipline_removes_pinned(on: bool, pinned: bool) -> None:
    """A87: "The Discipline Phase test is a configurable hook (default: d6 >= the unit's Discipline value to remove
    Pinned)": a 6 against Discipline 4, or no test at all."""
    b = battle([("A", "Red", "A1", infantry(discipline=4)), ("B", "Blue", "A9", infantry())],
               {"discipline_removes_pinned": str(on).lower()})
    b.unit("A").statuses.append("pinned")
    b.apply(FlatDown(unit="A"), dice(6))
    assert ("pinned" in b.unit("A").statuses) is pinned


@pytest.mark.constant("grenade_deviation_cm", "other_deviation_cm")
@pytest.mark.parametrize(("area", "key", "cm"), [("grenade", "grenade_deviation_cm", 5), ("other", "other_deviation_cm", 2)])
def test_deviation_cm(area: str, key: str, cm: int) -> None:
    """003:L109-111: "miss = SS - to hit die roll"; "Grenades = miss * 3cm"; "Other Weapons = miss * 4cm": miss 3."""
    weapon = {"name": "Lobber", "class": "grenades" if area == "grenade" else "heavy", "pen": 3, "area": area}
    b = battle([("A", "Red", "A1", infantry(weapons=[weapon])), ("B", "Blue", "A4", infantry())], {key: str(cm)})
    mode = "grenade" if area == "grenade" else "heavy"
    b.unit("A").weapons[0].primed = True  # 003:L34-35: a grenade is primed (1 AP) before it is thrown
    out = b.apply(Fire(unit="A", weapon="Lobber", target="B", mode=mode), dice(1, 1))
    assert next(e for e in out.effects if e.kind == "deviated").cm == 3 * cm


@pytest.mark.constant("deviation_sector_degrees")
@pytest.mark.parametrize(("degrees", "lands"), [(180, "A2"), (1, "A6")])
def test_deviation_sector_degrees(degrees: int, lands: str) -> None:
    """A80: "Each deviation die face turns this many degrees clockwise from the line of fire (1 = straight on)": a 2
    turns 180 (back toward the shooter) or 1 degree; miss 3 x 3 cm is 2 squares."""
    b = battle([("A", "Red", "A1", infantry()), ("B", "Blue", "A4", infantry())],
               {"deviation_sector_degrees": str(degrees)})
    b.apply(Prime(unit="A", weapon="Frag"), dice())
    out = b.apply(Fire(unit="A", weapon="Frag", target="B", mode="grenade"), dice(1, 2))
    assert next(e for e in out.effects if e.kind == "deviated").to == lands


@pytest.mark.constant("ooc_vehicle_angle")
def test_ooc_vehicle_angle() -> None:
    """A80: "1-2 = 45 degrees left, 3-4 = straight ahead, 5-6 = 45 degrees right of the vehicle's front"; at 0
    degrees every face drifts straight ahead, at 90 a 1 and a 5 drift to opposite sides."""
    def drift(angle: int, face: int) -> str:
        b = battle([("V", "Red", "J10", {"kind": "vehicle", "pf": 9, "mv": 20, "facing": "N"}), ("B", "Blue", "A1", infantry())],
                   {"ooc_vehicle_angle": str(angle)})
        v = b.unit("V")
        v.ooc_turns, v.moved_cm, v.activated = -1, 20, 0
        out = Outcome("", "")
        activate(b, v, dice(face), out)  # a vehicle has no table: only its direction die (003:L146-151)
        return str(v.cell)

    assert drift(0, 1) == drift(0, 3) == drift(0, 5) == "J6"
    assert len({drift(90, 1), drift(90, 3), drift(90, 5)}) == 3


@pytest.mark.constant("crash_pen", "power_plant_ooc_turns", "splash_cm", "splash_min_roll", "splash_pen")
@pytest.mark.parametrize(("rules", "crash", "turns", "near"), [
    ({"crash_pen": "5", "power_plant_ooc_turns": "2", "splash_cm": "5", "splash_min_roll": "3", "splash_pen": "5"},
     5, 2, "killed"),
    ({"crash_pen": "0", "power_plant_ooc_turns": "0", "splash_cm": "5", "splash_min_roll": "4", "splash_pen": "5"},
     0, 0, "ok"),
    ({"crash_pen": "1", "power_plant_ooc_turns": "1", "splash_cm": "5", "splash_min_roll": "3", "splash_pen": "0"},
     1, 1, "wounded"),
    ({"crash_pen": "1", "power_plant_ooc_turns": "1", "splash_cm": "4", "splash_min_roll": "1", "splash_pen": "5"},
     1, 1, "ok"),
])
def test_power_plant_explosion(rules: dict[str, str], crash: int, turns: int, near: str) -> None:
    """003:L197 Power Plant: out of control one turn then halt (A85), "automatic Pen 3 hit" on everyone carried
    (A84), and "models within 5cm are hit on a 4+" by a Pen 3 hit: a neighbour 5 cm off, splash 3, damage 6."""
    b = battle([("A", "Red", "A1", infantry()), ("T", "Blue", "A3", {"kind": "vehicle", "pf": 0, "capacity": 2}),
                ("P", "Blue", "A3", infantry(inside="T")), ("N", "Blue", "A4", infantry())], rules)
    out = b.apply(Fire(unit="A", weapon="Rifle", target="T"), dice(6, 6, 1, 3, 6))  # P's damage die is the 1
    assert next(e for e in out.effects if e.kind == "transported_hit").pen == crash
    assert b.unit("T").ooc_turns == turns
    assert b.unit("N").state == near


@pytest.mark.constant("pinned_clears_ready")
@pytest.mark.parametrize(("on", "aimed"), [(True, None), (False, 1)])
def test_pinned_clears_ready(on: bool, aimed: int | None) -> None:
    """003:L169 "All models in a pinned unit lose their ready-to-fire status immediately" (A100: ready to fire is
    the Aim paid for and not yet used): a model in partial cover aims, is pinned, and fires; with the constant
    off it keeps its aim."""
    b = _duel({"pinned_clears_ready": str(on).lower()})
    b.apply(b.parse_order("paint terrain:partial from:A1"), dice())
    b.apply(Aim(unit="A"), dice())
    pinned = b.apply(EditUnit(unit="A", stats={"statuses": ["aimed", "pinned"]}), dice())
    assert [e.kind for e in pinned.effects].count("ready_lost") == (1 if on else 0)
    assert ("aimed" in b.unit("A").statuses) is (not on)
    assert _mods(b.apply(Fire(unit="A", weapon="Rifle", target="B"), dice(1))).get("Aimed") == aimed


def test_a_pinned_model_aims_again_for_its_next_shot() -> None:
    """A100: "the next shot gets no aim bonus, and the model must pay for the Aim again"; once pinned, a new
    Aim (1 AP) counts, as the unit was already pinned when it paid."""
    b = _duel({"ap_per_model": "3"})
    b.apply(b.parse_order("paint terrain:partial from:A1"), dice())
    b.apply(Aim(unit="A"), dice())
    b.apply(EditUnit(unit="A", stats={"statuses": ["aimed", "pinned"]}), dice())
    b.apply(Aim(unit="A"), dice())
    b.apply(EditUnit(unit="A", stats={"pf": 0}), dice())  # an edit that does not pin again keeps the aim
    assert _mods(b.apply(Fire(unit="A", weapon="Rifle", target="B"), dice(1)))["Aimed"] == 1
