"""Each Combat Action ruling played on a battle at its default, then with the GM's override changing the outcome."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rules.combat_action.helpers import RIFLE, SWORD, battle, effects, infantry, play, vehicle

CANNON = {"name": "Cannon", "class": "very heavy", "pen": 9}


def _shot(rules: dict[str, str], shooter: dict[str, Any], target: dict[str, Any], *faces: int,
          where: tuple[str, str] = ("A1", "A3"), order: str = "fire unit:A weapon:Rifle target:B") -> Any:
    b = battle([("A", "Red", where[0], shooter), ("B", "Blue", where[1], target)], rules)
    return b, play(b, order, *faces)


def test_hit_on_equal() -> None:
    """A73: a total equal to SS hits; `hit_on_equal` false makes it miss."""
    _, out = _shot({}, infantry(), infantry(), 3)  # 3 + 1 (Rifle at Point Blank) = 4 = SS
    assert out.tests[0]["hit"]
    _, out = _shot({"hit_on_equal": "false"}, infantry(), infantry(), 3)
    assert not out.tests[0]["hit"]


def test_flying_high_mod() -> None:
    """A77: -1 to hit a machine at high altitude; the constant sets how much."""
    high = vehicle(flying=True, altitude="high")
    _, out = _shot({}, infantry(), high, 1)
    assert ("High altitude", -1) in [(m["label"], m["value"]) for m in out.tests[0]["modifiers"]]
    _, out = _shot({"flying_high_mod": "-3"}, infantry(), high, 1)
    assert ("High altitude", -3) in [(m["label"], m["value"]) for m in out.tests[0]["modifiers"]]


def test_speed_modifier_on_a_battle() -> None:
    """A76 is optional: off, a target that charged 40 cm is as easy to hit; on, -2 (30 cm: -1, +10 cm: -1)."""
    for on, expected in (("false", None), ("true", -2)):
        b = battle([("A", "Red", "A1", infantry()), ("B", "Blue", "A12", infantry(mv=20))], {"speed_modifier": on})
        play(b, "move unit:B to:A4 mode:charge")
        out = play(b, "fire unit:A weapon:Rifle target:B", 1)
        mods = {m["label"]: m["value"] for m in out.tests[0]["modifiers"]}
        assert mods.get("Target moved 40 cm") == expected


def test_living_damage_uses_pf() -> None:
    """A79 alternative: the raw d6 instead of clamp(d6 + PF - Pen): a 3 on PF 0 with Pen 2 is Killed, raw is OoA."""
    b, _ = _shot({}, infantry(), infantry(), 6, 3)
    assert b.unit("B").state == "killed"
    b, _ = _shot({"living_damage_uses_pf": "false"}, infantry(), infantry(), 6, 3)
    assert b.unit("B").state == "ooa"


def test_next_result_down() -> None:
    """A82: a missing location moves toward Power Plant; the constant turns the search toward Antenna."""
    robot = {"kind": "robot", "pf": 6}  # no hold: -2 moves on
    _, out = _shot({}, infantry(), robot, 6, 2)
    assert out.tests[1]["location"] == "weapon_system"
    _, out = _shot({"next_result_down": "false"}, infantry(), robot, 6, 2)
    assert out.tests[1]["location"] == "antenna"


def test_power_plant_constants() -> None:
    """003:L197 as constants: out of control `power_plant_ooc_turns`, splash within `splash_cm` at `splash_pen`."""
    b = battle([("G", "Blue", "E1", {"kind": "vehicle", "weapons": [CANNON]}), ("T", "Red", "E9", vehicle()),
                ("M", "Red", "E10", infantry())])
    play(b, "fire unit:G weapon:Cannon target:T mode:heavy", 6, 3, 4, 6)  # value 6: Power Plant; splash 4: hit
    assert b.unit("T").ooc_turns == 1 and b.unit("M").state == "ooa"  # 6 + PF 0 - Pen 3 = 3
    b = battle([("G", "Blue", "E1", {"kind": "vehicle", "weapons": [CANNON]}), ("T", "Red", "E9", vehicle()),
                ("M", "Red", "E10", infantry())], {"power_plant_ooc_turns": "3", "splash_cm": "0"})
    out = play(b, "fire unit:G weapon:Cannon target:T mode:heavy", 6, 3)
    assert b.unit("T").ooc_turns == 3 and not [t for t in out.tests if t["test"] == "splash"]


def test_crash_pen() -> None:
    """A84: the crash hit's Pen; at 0 a model's d6 + PF looks up higher on the table."""
    for pen, state in (("3", "ooa"), ("0", "wounded")):
        b = battle([("H", "Red", "J10", vehicle(flying=True)), ("M", "Red", "J10", infantry(inside="H")),
                    ("B", "Blue", "Z30", infantry())], {"crash_pen": pen})
        b.unit("H").ooc_turns = -1
        play(b, "activate unit:H", 1, 6)
        assert b.unit("M").state == state


def test_malfunction_loses_shot() -> None:
    """A86: on a malfunction the shot is lost; the constant lets it go ahead this once."""
    for lose, rolls in (("true", 1), ("false", 2)):
        b = battle([("T", "Red", "A1", {"kind": "vehicle", "weapons": [RIFLE]}), ("B", "Blue", "A3", infantry())],
                   {"malfunction_loses_shot": lose})
        b.unit("T").weapons[0].faulty = True
        out = play(b, "fire unit:T weapon:Rifle target:B", 6, 1)
        assert len(out.rolls) == rolls


@pytest.mark.parametrize(("degrees", "landing"), [("60", "C5"), ("90", "C4")])
def test_deviation_sector_degrees(degrees: str, landing: str) -> None:
    """A80: each face turns `deviation_sector_degrees` clockwise; face 2 at 60 or 90 degrees lands elsewhere
    (a shot fired south, 2 squares beyond the target, turned toward the west)."""
    b = battle([("A", "Red", "E1", infantry()), ("B", "Blue", "E4", infantry())],
               {"deviation_sector_degrees": degrees})
    play(b, "prime unit:A weapon:Frag")
    out = play(b, "fire unit:A weapon:Frag target:B mode:grenade", 1, 2)
    assert effects(out, "deviated")[0]["to"] == landing


def test_grenade_deviation_cm() -> None:
    """003:L110 as a constant: at 6 cm per point missed a grenade flies twice as far."""
    for cm, far in (("3", 9), ("6", 18)):
        b = battle([("A", "Red", "A1", infantry()), ("B", "Blue", "A4", infantry())], {"grenade_deviation_cm": cm})
        play(b, "prime unit:A weapon:Frag")
        out = play(b, "fire unit:A weapon:Frag target:B mode:grenade", 1, 1)
        assert effects(out, "deviated")[0]["cm"] == far


def test_ooc_vehicle_angle() -> None:
    """A80: a vehicle drifting 1-2 turns `ooc_vehicle_angle` left of its front; 90 sends it due west."""
    b = battle([("T", "Red", "J10", vehicle(facing="N")), ("B", "Blue", "Z30", infantry())],
               {"ooc_vehicle_angle": "90"})
    play(b, "move unit:T to:J7 mode:walk")
    b.round += 1
    b.unit("T").ooc_turns = -1
    play(b, "activate unit:T", 1)
    assert str(b.unit("T").cell) == "G7"


def test_aim_bonus() -> None:
    """003:L31: aiming adds `aim_bonus` to the next shot."""
    for bonus in ("1", "2"):
        b = battle([("A", "Red", "A1", infantry()), ("B", "Blue", "A9", infantry())], {"aim_bonus": bonus})
        play(b, "aim unit:A")
        out = play(b, "fire unit:A weapon:Rifle target:B", 1)
        assert ("Aimed", int(bonus)) in [(m["label"], m["value"]) for m in out.tests[0]["modifiers"]]


@pytest.mark.constant("bare_hands_pen")
def test_bare_hands_pen() -> None:
    """A blow without a close combat weapon has Pen `bare_hands_pen`: a damage die of 3 is OoA at Pen 0, Killed at 2."""
    for pen, state in (("0", "ooa"), ("2", "killed")):
        b = battle([("A", "Red", "C3", infantry()), ("B", "Blue", "C3", infantry())],
                   {"bare_hands_pen": pen, "strike_back": "false"})
        play(b, "close-combat unit:A target:B", 4, 3)
        assert b.unit("B").state == state


@pytest.mark.constant("hatch_inside_pf_penalty")
def test_hatch_inside_pf_penalty() -> None:
    """003:L189: from inside the hatch has PF - 2; at a penalty of 0 the same blow fails."""
    axe = {"name": "Axe", "class": "heavy close combat", "pen": 3}
    for penalty, broken in (("2", True), ("0", False)):
        b = battle([("APC", "Red", "E5", vehicle(statuses=["hatch_jammed"])),
                    ("M", "Red", "E5", infantry(weapons=[axe], inside="APC"))], {"hatch_inside_pf_penalty": penalty})
        out = play(b, "close-combat unit:M target:APC weapon:Axe hatch:true", 2)
        assert out.tests[0]["broken"] is broken


@pytest.mark.constant("military_concrete_pf")
def test_military_concrete_pf() -> None:
    """A81: Military Grade Concrete is 13 unless the GM raises it."""
    for value in ("13", "20"):
        b = battle([("A", "Red", "E1", infantry()), ("W", "Blue", "E5", {"kind": "building",
                                                                         "material": "military_concrete"})],
                   {"military_concrete_pf": value})
        out = play(b, "fire unit:A weapon:Rifle target:W", 3, 1)
        assert out.tests[1]["pf"] == int(value)


def test_cover_stacks_on_a_battle() -> None:
    """A78: flat down in a slit gives +3 (the highest); stacked, +4."""
    for stacks, pf in (("false", 3), ("true", 4)):
        b = battle([("A", "Red", "A1", infantry()), ("B", "Blue", "A3", infantry(statuses=["flat_down"]))],
                   {"cover_stacks": stacks})
        play(b, "paint terrain:slit from:A3")
        out = play(b, "fire unit:A weapon:Rifle target:B", 6, 3)
        assert out.tests[1]["pf"] == pf


def test_base_contact_squares_on_a_battle() -> None:
    """A75: base contact is the same square; at 1 an adjacent enemy can be struck."""
    b = battle([("A", "Red", "C3", infantry(weapons=[SWORD])), ("B", "Blue", "C4", infantry())])
    assert not [o for o in b.legal_orders("A") if o.kind == "close-combat"]
    b = battle([("A", "Red", "C3", infantry(weapons=[SWORD])), ("B", "Blue", "C4", infantry())],
               {"base_contact_squares": "1"})
    assert [str(o) for o in b.legal_orders("A") if o.kind == "close-combat"] == [
        "close-combat unit:A target:B weapon:Sword"]
