"""Machines out of control acting by their tables (A85), flyers landing and crashing (A84), crews and buildings."""

from __future__ import annotations

import pytest

from rules.errors import GameError, IllegalOrderError
from tests.rules.combat_action.helpers import RIFLE, battle, effects, infantry, play, vehicle

LASER = {"name": "Laser", "class": "starcraft", "pen": 4}


def test_out_of_control_machine_obeys_no_order() -> None:
    """A85: the machine "rolls on its OOC table at the start of each of its activations"; the order given is not
    carried out and its activation is over."""
    b = battle([("R", "Red", "E5", {"kind": "robot", "weapons": [LASER]}),
                ("B", "Blue", "E9", infantry())])
    b.unit("R").ooc_turns = -1
    out = play(b, "move unit:R to:E6 mode:walk", 2)  # 1-3: grinds to a halt
    assert effects(out, "out_of_control")[0]["action"] == "halt" and effects(out, "order_not_obeyed")
    assert str(b.unit("R").cell) == "E5"
    with pytest.raises(IllegalOrderError):
        play(b, "move unit:R to:E6 mode:walk")


def test_autonomous_robot_shoots_nearest_enemy() -> None:
    """003:L140 "4 | Shoots at the nearest enemy"."""
    b = battle([("R", "Red", "E5", {"kind": "robot", "weapons": [LASER]}), ("Near", "Blue", "E8", infantry()),
                ("Far", "Blue", "E20", infantry()), ("Friend", "Red", "E6", infantry())])
    b.unit("R").ooc_turns = -1
    out = play(b, "activate unit:R", 4, 6, 1)
    shot = next(t for t in out.tests if t.kind == "to_hit")
    assert shot.target == "Near" and b.unit("Near").state == "killed"


def test_autonomous_robot_six_shoots_friend_or_foe() -> None:
    """003:L142 "6 | Shoots at the nearest target, friend or foe"."""
    b = battle([("R", "Red", "E5", {"kind": "robot", "weapons": [LASER]}), ("Near", "Blue", "E8", infantry()),
                ("Friend", "Red", "E6", infantry())])
    b.unit("R").ooc_turns = -1
    out = play(b, "activate unit:R", 6, 1)
    assert next(t for t in out.tests if t.kind == "to_hit").target == "Friend"


def test_autonomous_robot_five_moves_half_mv() -> None:
    """003:L141 "5 | Moves half its MV in a random direction" (the vehicle template: 3-4 straight ahead)."""
    b = battle([("R", "Red", "E10", {"kind": "robot", "mv": 20, "facing": "N"}), ("B", "Blue", "Z30", infantry())])
    b.unit("R").ooc_turns = -1
    out = play(b, "activate unit:R", 5, 3)
    assert str(b.unit("R").cell) == "E8" and effects(out, "drifted")[0]["cm"] == 10


def test_slave_robot_repeats_its_last_action() -> None:
    """003:L133 "4 - 6 | Repeats same action as previous turn": the same move again."""
    b = battle([("R", "Red", "E10", {"kind": "robot", "control": "slave", "mv": 20}), ("B", "Blue", "Z30", infantry())])
    play(b, "move unit:R to:F9 mode:walk")
    b.round += 1  # its next activation
    b.unit("R").ooc_turns = -1
    play(b, "activate unit:R", 5)
    assert str(b.unit("R").cell) == "G8"


def test_ground_vehicle_drifts_as_far_as_it_moved() -> None:
    """003:L146: it "move[s] again the same distance they moved the previous turn"; A80 1-2 is 45 degrees left."""
    b = battle([("T", "Red", "J10", vehicle(facing="N")), ("B", "Blue", "Z30", infantry())])
    play(b, "move unit:T to:J7 mode:walk")  # 15 cm north
    b.round += 1
    b.unit("T").ooc_turns = -1
    out = play(b, "activate unit:T", 1)  # 3 squares at 45 degrees left of north
    assert effects(out, "drifted")[0]["cm"] == 15 and str(b.unit("T").cell) == "G4"


def test_a_drift_goes_as_far_as_its_move_measures() -> None:
    """003:L146 "move again the same distance they moved the previous turn": 15 cm is 3 squares at 5 cm, and a
    drift 45 degrees off its front goes 3 diagonal squares, so the move and the drift both say 15 cm."""
    b = battle([("T", "Red", "J10", vehicle(facing="N")), ("B", "Blue", "Z30", infantry())])
    play(b, "move unit:T to:J7 mode:walk")  # 3 squares north: 15 cm
    b.round += 1
    b.unit("T").ooc_turns = -1
    out = play(b, "activate unit:T", 5)  # 5-6: 45 degrees right of its front: north-east
    assert effects(out, "moved")[0]["cm"] == effects(out, "drifted")[0]["cm"] == 15
    assert str(b.unit("T").cell) == "M4"


def test_ground_vehicle_that_stood_still_stays() -> None:
    """003:L146: "stay still if they did not move the previous turn"."""
    b = battle([("T", "Red", "J10", vehicle()), ("B", "Blue", "Z30", infantry())])
    b.unit("T").ooc_turns = -1
    out = play(b, "activate unit:T")
    assert str(b.unit("T").cell) == "J10" and not out.rolls


def test_flyer_at_low_crashes_when_it_loses_a_level() -> None:
    """003:L157: "If flying at low altitude then the vehicle crashes"; A84 its passengers take a Pen 3 hit."""
    b = battle([("H", "Red", "J10", vehicle(flying=True)), ("M", "Red", "J10", infantry(inside="H")),
                ("B", "Blue", "Z30", infantry())])
    b.unit("H").ooc_turns = -1
    out = play(b, "activate unit:H", 1, 6)  # stands (never moved), altitude die 1: one level lower; M: 6-3=3
    assert effects(out, "crashed") and b.unit("H").state == "destroyed" and b.unit("M").state == "ooa"


def test_flyer_climbs_to_high() -> None:
    """003:L159 "5 - 6 | 1 Level Higher"."""
    b = battle([("H", "Red", "J10", vehicle(flying=True)), ("B", "Blue", "Z30", infantry())])
    b.unit("H").ooc_turns = -1
    play(b, "activate unit:H", 6)
    assert b.unit("H").altitude == "high"


def test_engine_hit_flyer_lands_one_level_a_turn() -> None:
    """A84: "the machine descends one level per turn with no further damage and lands at Low"."""
    b = battle([("H", "Red", "J10", vehicle(flying=True, altitude="high", statuses=["emergency_landing"])),
                ("B", "Blue", "Z30", infantry())])
    play(b, "activate unit:H")
    assert b.unit("H").altitude == "low" and b.unit("H").flying
    b.round += 1
    play(b, "activate unit:H")
    assert not b.unit("H").flying and "halted" in b.unit("H").statuses


@pytest.mark.constant("emergency_landing_levels")
def test_emergency_landing_levels_override() -> None:
    """The A84 constant: one level a turn leaves it flying Low; two bring it down from High at once."""
    for levels, flying in (("1", True), ("2", False)):
        b = battle([("H", "Red", "J10", vehicle(flying=True, altitude="high", statuses=["emergency_landing"])),
                    ("B", "Blue", "Z30", infantry())], {"emergency_landing_levels": levels})
        play(b, "activate unit:H")
        assert b.unit("H").flying is flying


def test_pilot_compartment_hits_the_crew() -> None:
    """003:L196: "The pilot and the gunners suffer an automatic hit with the Pen of the weapon"; fallen crew
    leave, and the vehicle goes out of control for good (A85)."""
    gun = {"name": "Gun", "class": "very heavy", "pen": 8}
    b = battle([("G", "Blue", "E1", {"kind": "vehicle", "weapons": [gun]}), ("T", "Red", "E9", vehicle(crew=2))])
    out = play(b, "fire unit:G weapon:Gun target:T mode:heavy", 6, 3, 6, 1)  # 3 + 8 - 6 = 5: pilot compartment
    crew = effects(out, "crew_hit")[0]
    assert [t.kind for t in out.tests].count("damage") == 2  # one automatic hit per crew member
    assert crew["lost"] == 2 and b.unit("T").crew == 0 and b.unit("T").ooc_turns == -1


@pytest.mark.constant("concrete_pf")
def test_building_table_and_concrete_pf() -> None:
    """003:L98 building rows, with the A81 material PF: Concrete 9 unless the GM raises it."""
    b = battle([("A", "Red", "E1", infantry(weapons=[{**RIFLE, "pen": 5}])),
                ("Wall", "Blue", "E5", {"kind": "building", "material": "concrete"})])
    out = play(b, "fire unit:A weapon:Rifle target:Wall", 3, 1)  # 1 + PF 9 - Pen 5 = 5: Section Pierced
    assert out.tests[1].pf == 9 and out.tests[1].result == "section_pierced" and b.unit("Wall").state == "pierced"
    b = battle([("A", "Red", "E1", infantry(weapons=[{**RIFLE, "pen": 5}])),
                ("Wall", "Blue", "E5", {"kind": "building", "material": "concrete"})], {"concrete_pf": "12"})
    out = play(b, "fire unit:A weapon:Rifle target:Wall", 3, 1)
    assert out.tests[1].pf == 12


def test_building_takes_no_turns_and_no_orders() -> None:
    """A building stands on the map: it is never due in the rounds and gives no orders."""
    b = battle([("A", "Red", "E1", infantry()), ("Wall", "Blue", "E5", {"kind": "building"})], mode="initiative")
    assert b.unit("Wall").id not in b.turn.units and b.legal_orders("Wall") == []
    with pytest.raises(GameError, match="takes no turns"):
        play(b, "activate unit:Wall")


def test_second_partial_collapse_destroys() -> None:
    """A building section hit to Partial Collapse twice comes down."""
    b = battle([("A", "Red", "E1", infantry(weapons=[{**RIFLE, "pen": 3}])), ("Hut", "Blue", "E5", {"kind": "building"})],
               {"ap_per_model": "4"})
    play(b, "fire unit:A weapon:Rifle target:Hut", 3, 6)  # 6 + 0 - 3 = 3: Partial Collapse
    play(b, "fire unit:A weapon:Rifle target:Hut", 3, 6)
    assert b.unit("Hut").state == "destroyed" and not b.unit("Hut").alive
