"""Close combat, Strike Back, jammed hatches (A83), and models riding in a vehicle's hold."""

from __future__ import annotations

import pytest

from rules.errors import IllegalOrderError, NotYourTurnError
from tests.rules.combat_action.helpers import SWORD, battle, effects, infantry, play, vehicle


def test_close_combat_needs_base_contact() -> None:
    """003:L47 "Close Combat (CC) | 0 cm": a blow needs base contact; 2 squares away it is refused."""
    b = battle([("A", "Red", "C3", infantry(weapons=[SWORD])), ("B", "Blue", "C5", infantry())])
    before = b.to_dict()
    with pytest.raises(IllegalOrderError, match="needs base contact"):
        play(b, "close-combat unit:A target:B weapon:Sword")
    assert b.to_dict() == before


def test_close_combat_weapon_bonus_and_strike_back() -> None:
    """003:L66 Close Combat +1 in CC; a defender that is not routing strikes back once (003:L178)."""
    b = battle([("A", "Red", "C3", infantry(weapons=[SWORD])), ("B", "Blue", "C3", infantry(weapons=[SWORD]))])
    # A: die 3 + 1 (Close Combat at CC) = 4 >= SS 4, hits; damage die 6 + PF 0 - Pen 2 = 4: OoA.
    out = play(b, "close-combat unit:A target:B weapon:Sword", 3, 6)
    blow = out.tests[0]
    assert blow.band == "CC" and [(m.label, m.value) for m in blow.modifiers] == [
        ("Close Combat at Close Combat", 1)]
    assert blow.hit and b.unit("B").state == "ooa"
    assert len([t for t in out.tests if t.kind == "to_hit"]) == 1, "a fallen defender does not strike back"
    b = battle([("A", "Red", "C3", infantry(weapons=[SWORD])), ("B", "Blue", "C3", infantry(weapons=[SWORD]))])
    out = play(b, "close-combat unit:A target:B weapon:Sword", 1, 3, 6)  # A misses; B strikes back and hits
    back = [t for t in out.tests if t.kind == "to_hit"][1]
    assert back.strike_back and back.unit == "B" and back.weapon == "Sword"
    assert b.unit("A").state == "ooa"


@pytest.mark.constant("strike_back")
def test_strike_back_constant_off() -> None:
    """The strike_back constant (003:L178): on, the missed defender answers and fells A; off, it never answers."""
    for on, blows, state in (("true", 2, "ooa"), ("false", 1, "ok")):
        b = battle([("A", "Red", "C3", infantry(weapons=[SWORD])), ("B", "Blue", "C3", infantry(weapons=[SWORD]))],
                   {"strike_back": on})
        out = play(b, "close-combat unit:A target:B weapon:Sword", 1, 3, 6)
        assert len([t for t in out.tests if t.kind == "to_hit"]) == blows and b.unit("A").state == state


def test_routing_model_cannot_strike_back() -> None:
    """4.11.3: "When attacked in CC it cannot *Strike Back*"."""
    b = battle([("A", "Red", "C3", infantry(weapons=[SWORD])),
                ("B", "Blue", "C3", infantry(weapons=[SWORD], statuses=["routing"]))])
    out = play(b, "close-combat unit:A target:B weapon:Sword", 1)
    assert len([t for t in out.tests if t.kind == "to_hit"]) == 1


def test_ranged_weapon_cannot_strike() -> None:
    """A rifle is no close combat weapon; bare hands (Pen from bare_hands_pen) are."""
    b = battle([("A", "Red", "C3", infantry()), ("B", "Blue", "C3", infantry())], {"strike_back": "false"})
    with pytest.raises(IllegalOrderError, match="strike with a Close Combat"):
        play(b, "close-combat unit:A target:B weapon:Rifle")
    out = play(b, "close-combat unit:A target:B", 4, 6)  # 4 >= SS 4; 6 + 0 - Pen 0 = 6: Wounded
    assert out.tests[0].weapon == "bare hands" and b.unit("B").state == "wounded"


def test_close_combat_costs_two_ap() -> None:
    """003:L33 "Attack in close combat | 2": after a walk (1 AP) there is no room for a blow."""
    b = battle([("A", "Red", "C2", infantry(weapons=[SWORD])), ("B", "Blue", "C3", infantry())])
    play(b, "move unit:A to:C3 mode:walk")
    with pytest.raises(NotYourTurnError, match="1 action left"):
        play(b, "close-combat unit:A target:B weapon:Sword")


def test_hatches_open_close_and_jam() -> None:
    """003:L37 "Open a door | 1"; a Hold hit jams the hatches (003:L189), and the hatch order is then refused."""
    b = battle([("APC", "Red", "E5", vehicle()), ("B", "Blue", "E9", infantry())], {"ap_per_model": "4"})
    play(b, "hatch unit:APC action:open")
    assert b.unit("APC").hatch == "open"
    with pytest.raises(IllegalOrderError, match="already open"):
        play(b, "hatch unit:APC action:open")
    play(b, "hatch unit:APC action:close")
    b.unit("APC").statuses.append("hatch_jammed")
    with pytest.raises(IllegalOrderError, match="jammed"):
        play(b, "hatch unit:APC action:open")


def test_hold_hit_jams_and_shuts_open_hatches() -> None:
    """003:L189: d6 + Pen - PF = -2 is the Hold; its hatches malfunction."""
    b = battle([("A", "Red", "E1", infantry()), ("APC", "Blue", "E5", vehicle(hatch="open"))])
    play(b, "fire unit:A weapon:Rifle target:APC", 6, 2)  # 2 + Pen 2 - PF 6 = -2
    apc = b.unit("APC")
    assert apc.damaged == ["hold"] and "hatch_jammed" in apc.statuses and apc.hatch == "closed"


@pytest.mark.parametrize(("inside", "die", "broken"), [
    (False, 3, False),   # outside: hatch PF = vehicle PF 6; 3 + Pen 3 - 6 = 0 < 1
    (False, 4, True),    # 4 + 3 - 6 = 1 >= 1 (A83)
    (True, 2, True),     # inside: PF 6 - 2 = 4; 2 + 3 - 4 = 1
])
def test_breaking_a_jammed_hatch(inside: bool, die: int, broken: bool) -> None:
    """003:L189 + A83: "All close combat attacks hit automatically. A damaging hit breaks the hatch open";
    the hatch has the vehicle's PF from outside and PF - 2 from inside; damaging is d6 + Pen - PF >= 1."""
    axe = {"name": "Axe", "class": "heavy close combat", "pen": 3}
    stats = infantry(weapons=[axe], **({"inside": "APC"} if inside else {}))
    b = battle([("APC", "Red", "E5", vehicle(statuses=["hatch_jammed"])), ("M", "Red", "E5", stats)])
    out = play(b, "close-combat unit:M target:APC weapon:Axe hatch:true", die)
    test = out.tests[0]
    assert (test.kind, test.pf, test.broken) == ("hatch", 4 if inside else 6, broken)
    assert (b.unit("APC").hatch == "broken") == broken


@pytest.mark.constant("hatch_break_margin")
def test_hatch_break_margin_override() -> None:
    """A83 is a constant: a total of 1 (4 + Pen 3 - PF 6) breaks the hatch at margin 1, not at margin 3."""
    axe = {"name": "Axe", "class": "heavy close combat", "pen": 3}
    for margin, broken in (("1", True), ("3", False)):
        b = battle([("APC", "Red", "E5", vehicle(statuses=["hatch_jammed"])),
                    ("M", "Red", "E5", infantry(weapons=[axe]))], {"hatch_break_margin": margin})
        out = play(b, "close-combat unit:M target:APC weapon:Axe hatch:true", 4)
        assert out.tests[0].broken is broken and ("hatch_jammed" in b.unit("APC").statuses) is not broken


def test_embark_ride_and_disembark() -> None:
    """Models climb in through open hatches, move with the vehicle and step out next to it."""
    b = battle([("APC", "Red", "E5", vehicle()), ("M", "Red", "E6", infantry()), ("B", "Blue", "Z30", infantry())],
               {"ap_per_model": "4"})
    with pytest.raises(IllegalOrderError, match="closed; open them first"):
        play(b, "embark unit:M vehicle:APC")
    play(b, "hatch unit:APC action:open")
    play(b, "embark unit:M vehicle:APC")
    assert b.unit("M").inside == b.unit("APC").id
    assert "M" not in [str(o).split("target:")[-1] for o in b.legal_orders("B")], "a carried model is no target"
    play(b, "move unit:APC to:E9 mode:walk")
    assert b.unit("M").cell == b.unit("APC").cell
    with pytest.raises(IllegalOrderError, match="not next to APC"):
        play(b, "disembark unit:M to:E5")
    play(b, "disembark unit:M to:F9")
    assert not b.unit("M").inside and str(b.unit("M").cell) == "F9"


def test_hold_capacity() -> None:
    """A hold carries `capacity` models."""
    b = battle([("APC", "Red", "E5", vehicle(capacity=1, hatch="open")), ("M", "Red", "E5", infantry(inside="APC")),
                ("N", "Red", "E6", infantry())])
    with pytest.raises(IllegalOrderError, match="hold is full"):
        play(b, "embark unit:N vehicle:APC")


def test_power_plant_hits_every_passenger() -> None:
    """003:L197: "All transported models take an automatic Pen 3 hit"; survivors may disembark (hatch broken)."""
    cannon = {"name": "Cannon", "class": "very heavy", "pen": 9}
    b = battle([("G", "Blue", "E1", {"kind": "vehicle", "weapons": [cannon]}),
                ("APC", "Red", "E9", vehicle()), ("M", "Red", "E9", infantry(inside="APC"))])
    # to hit: 6; damage 3 + Pen 9 - PF 6 = 6: Power Plant; M's hit: 6 + PF 0 - Pen 3 = 3: OoA.
    out = play(b, "fire unit:G weapon:Cannon target:APC mode:heavy", 6, 3, 6)
    assert effects(out, "transported_hit")[0]["models"] == ["M"] and effects(out, "transported_hit")[0]["pen"] == 3
    assert b.unit("M").state == "ooa" and b.unit("APC").hatch == "broken"
