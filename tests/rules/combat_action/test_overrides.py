"""Each Combat Action ruling played on a battle at its default, then with the GM's override changing the outcome."""

from __future__ import annotations

import pytest

from tests.rules.combat_action.helpers import SWORD, battle, infantry, play, vehicle

CANNON = {"name": "Cannon", "class": "very heavy", "pen": 9}


def test_speed_modifier_on_a_battle() -> None:
    """A76 is optional: off, a target that charged 40 cm is as easy to hit; on, -2 (30 cm: -1, +10 cm: -1)."""
    for on, expected in (("false", None), ("true", -2)):
        b = battle([("A", "Red", "A1", infantry()), ("B", "Blue", "A12", infantry(mv=20))], {"speed_modifier": on})
        play(b, "move unit:B to:A4 mode:charge")
        out = play(b, "fire unit:A weapon:Rifle target:B", 1)
        mods = {m.label: m.value for m in out.tests[0].modifiers}
        assert mods.get("Target moved 40 cm") == expected


def test_power_plant_constants() -> None:
    """003:L197 as constants: out of control `power_plant_ooc_turns`, splash within `splash_cm` at `splash_pen`."""
    b = battle([("G", "Blue", "E1", {"kind": "vehicle", "weapons": [CANNON]}), ("T", "Red", "E9", vehicle()),
                ("M", "Red", "E10", infantry())])
    play(b, "fire unit:G weapon:Cannon target:T mode:heavy", 6, 3, 4, 6)  # value 6: Power Plant; splash 4: hit
    assert b.unit("T").ooc_turns == 1 and b.unit("M").state == "ooa"  # 6 + PF 0 - Pen 3 = 3
    b = battle([("G", "Blue", "E1", {"kind": "vehicle", "weapons": [CANNON]}), ("T", "Red", "E9", vehicle()),
                ("M", "Red", "E10", infantry())], {"power_plant_ooc_turns": "3", "splash_cm": "0"})
    out = play(b, "fire unit:G weapon:Cannon target:T mode:heavy", 6, 3)
    assert b.unit("T").ooc_turns == 3 and not [t for t in out.tests if t.kind == "splash"]


def test_crash_pen() -> None:
    """A84: the crash hit's Pen; at 0 a model's d6 + PF looks up higher on the table."""
    for pen, state in (("3", "ooa"), ("0", "wounded")):
        b = battle([("H", "Red", "J10", vehicle(flying=True)), ("M", "Red", "J10", infantry(inside="H")),
                    ("B", "Blue", "Z30", infantry())], {"crash_pen": pen})
        b.unit("H").ooc_turns = -1
        play(b, "activate unit:H", 1, 6)
        assert b.unit("M").state == state


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
        assert out.tests[0].broken is broken


@pytest.mark.constant("military_concrete_pf")
def test_military_concrete_pf() -> None:
    """A81: Military Grade Concrete is 13 unless the GM raises it."""
    for value in ("13", "20"):
        b = battle([("A", "Red", "E1", infantry()), ("W", "Blue", "E5", {"kind": "building",
                                                                         "material": "military_concrete"})],
                   {"military_concrete_pf": value})
        out = play(b, "fire unit:A weapon:Rifle target:W", 3, 1)
        assert out.tests[1].pf == int(value)


def test_base_contact_squares_on_a_battle() -> None:
    """A75: base contact is the same square; at 1 an adjacent enemy can be struck."""
    b = battle([("A", "Red", "C3", infantry(weapons=[SWORD])), ("B", "Blue", "C4", infantry())])
    assert not [o for o in b.legal_orders("A") if o.kind == "close-combat"]
    b = battle([("A", "Red", "C3", infantry(weapons=[SWORD])), ("B", "Blue", "C4", infantry())],
               {"base_contact_squares": "1"})
    assert [str(o) for o in b.legal_orders("A") if o.kind == "close-combat"] == [
        "close-combat unit:A target:B weapon:Sword"]
