"""The other rows of the AP table: reload, unjam, prime and throw, hide, obstacles, orders, piloting, control."""

from __future__ import annotations

import pytest

from rules.errors import IllegalOrderError, NotYourTurnError
from rules.systems.combat_action import SYSTEM
from tests.rules.combat_action.helpers import GRENADE, RIFLE, battle, dice, effects, infantry, play, vehicle

ORDERS = [
    "activate unit:A", "close-combat unit:A target:B weapon:Sword", "close-combat unit:A target:T hatch:true",
    "hatch unit:T action:close", "hatch unit:A vehicle:T", "embark unit:A vehicle:T", "disembark unit:A to:C3",
    "reload unit:A weapon:Rifle", "unjam unit:A weapon:Rifle", "prime unit:A weapon:Frag",
    "action unit:A action:hide", "action unit:A action:jump to:B2", "action unit:A action:impart_order target:B",
]


@pytest.mark.parametrize("text", ORDERS)
def test_orders_round_trip(text: str) -> None:
    """Every new order kind has a text form that parses back to itself."""
    order = SYSTEM.parse_order(text)
    assert str(order) == text and SYSTEM.parse_order(str(order)) == order


@pytest.mark.parametrize(("text", "ap"), [
    ("reload unit:A weapon:Rifle", 1), ("unjam unit:A weapon:Rifle", 2), ("prime unit:A weapon:Frag", 1),
    ("close-combat unit:A target:B", 2), ("hatch unit:A", 1), ("action unit:A action:hide", 1),
    ("action unit:A action:impart_order target:B", 1), ("action unit:A action:open_door to:B2", 1),
    ("action unit:A action:jump to:B2", 1), ("action unit:A action:climb to:B2", 2),
    ("action unit:A action:pilot target:B", 2), ("action unit:A action:control_robot target:B", 2),
    ("activate unit:A", 0),
])
def test_costs_are_the_ap_table_rows(text: str, ap: int) -> None:
    """003:L19-41: Reload 1, Unjam 2, Prime 1, close combat 2, Open a door 1, Hide 1, Impart an order 1,
    Jump 1, Climb 2, Pilot a vehicle 2, Control a robot 2; opening the activation is free."""
    from rules import turns

    b = battle([("A", "Red", "A1", infantry()), ("B", "Blue", "A5", infantry())])
    assert turns.order_cost(b, b.parse_order(text)).points == ap


def test_magazine_runs_dry_and_reloads() -> None:
    """A weapon with `ammo` fires that many shots, then needs a reload (1 AP, 003:L40)."""
    gun = {**RIFLE, "ammo": 1}
    b = battle([("A", "Red", "A1", infantry(weapons=[gun])), ("B", "Blue", "A9", infantry())], {"ap_per_model": "4"})
    with pytest.raises(IllegalOrderError, match="fully loaded"):
        play(b, "reload unit:A weapon:Rifle")
    play(b, "fire unit:A weapon:Rifle target:B", 1)
    with pytest.raises(IllegalOrderError, match="reload it first"):
        play(b, "fire unit:A weapon:Rifle target:B", 6, 6)
    play(b, "reload unit:A weapon:Rifle")
    assert b.unit("A").weapons[0].spent == 0
    play(b, "fire unit:A weapon:Rifle target:B", 1)


@pytest.mark.constant("jam_on_roll")
def test_jam_on_roll_and_unjam() -> None:
    """jam_on_roll 0 (default): a 1 never jams; at 1 a to-hit die of 1 jams the weapon until unjammed (2 AP)."""
    b = battle([("A", "Red", "A1", infantry()), ("B", "Blue", "A9", infantry())])
    play(b, "fire unit:A weapon:Rifle target:B", 1)
    assert not b.unit("A").weapons[0].jammed
    b = battle([("A", "Red", "A1", infantry()), ("B", "Blue", "A9", infantry())], {"jam_on_roll": "1"})
    out = play(b, "fire unit:A weapon:Rifle target:B", 1)
    assert effects(out, "weapon_jammed") and b.unit("A").weapons[0].jammed
    with pytest.raises(NotYourTurnError, match="1 action left"):
        play(b, "unjam unit:A weapon:Rifle")
    b.turn.left[b.unit("A").id] = 2  # a fresh activation's budget
    with pytest.raises(IllegalOrderError, match="jammed; unjam it first"):
        play(b, "fire unit:A weapon:Rifle target:B", 6)
    play(b, "unjam unit:A weapon:Rifle")
    assert not b.unit("A").weapons[0].jammed


@pytest.mark.constant("grenade_priming")
def test_grenade_is_primed_then_thrown() -> None:
    """003:L34-35 "Prime a grenade | 1", "Throw a grenade | 1"; grenade_priming false lets a throw go alone."""
    b = battle([("A", "Red", "A1", infantry()), ("B", "Blue", "A3", infantry())])
    with pytest.raises(IllegalOrderError, match="not primed"):
        play(b, "fire unit:A weapon:Frag target:B mode:grenade", 6, 6)
    play(b, "prime unit:A weapon:Frag")
    out = play(b, "fire unit:A weapon:Frag target:B mode:grenade", 6, 6)
    assert out.tests[0].hit and not b.unit("A").weapons[1].primed
    b = battle([("A", "Red", "A1", infantry(weapons=[GRENADE])), ("B", "Blue", "A3", infantry())],
               {"grenade_priming": "false"})
    assert play(b, "fire unit:A weapon:Frag target:B mode:grenade", 6, 6).tests[0].hit


@pytest.mark.constant("hidden_blocks_fire")
def test_hide_needs_cover_and_keeps_out_of_sight() -> None:
    """003:L23 "Hide behind cover | 1": only in cover or next to an obstacle; hidden, no one can shoot it
    (hidden_blocks_fire) until it moves."""
    b = battle([("A", "Red", "C3", infantry()), ("B", "Blue", "C9", infantry())])
    with pytest.raises(IllegalOrderError, match="no cover"):
        play(b, "action unit:B action:hide")
    play(b, "paint terrain:rock from:D9")
    play(b, "action unit:B action:hide")
    assert "hidden" in b.unit("B").statuses
    with pytest.raises(IllegalOrderError, match="hidden behind cover"):
        play(b, "fire unit:A weapon:Rifle target:B", 6, 6)
    b2 = battle([("A", "Red", "C3", infantry()), ("B", "Blue", "C9", infantry(statuses=["hidden"]))],
                {"hidden_blocks_fire": "false"})
    play(b2, "fire unit:A weapon:Rifle target:B", 1)
    play(b, "move unit:B to:C8 mode:walk")
    assert "hidden" not in b.unit("B").statuses


def test_jump_and_climb_move_one_square() -> None:
    """003:L38-39: jumping (1 AP) or climbing (2 AP) over an obstacle moves a model one square."""
    b = battle([("A", "Red", "C3", infantry()), ("B", "Blue", "C20", infantry())])
    with pytest.raises(IllegalOrderError, match="not next to"):
        play(b, "action unit:A action:jump to:C5")
    out = play(b, "action unit:A action:climb to:C4")
    assert str(b.unit("A").cell) == "C4" and effects(out, "moved")[0]["mode"] == "climb"


def test_pinned_model_cannot_jump_closer() -> None:
    """4.10: a pinned model may not reduce its distance to the nearest enemy, over an obstacle either."""
    b = battle([("A", "Red", "C3", infantry(statuses=["pinned"])), ("B", "Blue", "C9", infantry())],
               {"discipline_removes_pinned": "false"})
    with pytest.raises(IllegalOrderError, match="pinned"):
        play(b, "action unit:A action:jump to:C4")


def test_control_robot_needs_comms() -> None:
    """003:L188: after an Antenna hit "any ... robot controller ceases to function"."""
    robot = {"kind": "robot", "control": "slave", "pf": 4}
    b = battle([("A", "Red", "C3", infantry()), ("R", "Red", "C4", robot)])
    out = play(b, "action unit:A action:control_robot target:R")
    assert effects(out, "action")[0]["name"] == "Control a robot"
    b = battle([("A", "Red", "C3", infantry()), ("R", "Red", "C4", {**robot, "statuses": ["comms_down"]})])
    with pytest.raises(IllegalOrderError, match="controller is down"):
        play(b, "action unit:A action:control_robot target:R")


def test_pilot_and_impart_order_are_logged() -> None:
    """Pilot a vehicle (2 AP) and Impart an order (1 AP) are spent and logged for the GM; enemies are refused."""
    b = battle([("A", "Red", "C3", infantry()), ("T", "Red", "C4", vehicle()), ("E", "Blue", "C9", infantry())],
               {"ap_per_model": "4"})
    out = play(b, "action unit:A action:pilot target:T")
    assert out.turn.action_cost == 2 and effects(out, "action")[0]["target"] == "T"
    with pytest.raises(IllegalOrderError, match="enemy"):
        play(b, "action unit:A action:impart_order target:E")


def test_open_door_marks_the_square() -> None:
    """003:L37 "Open a door | 1": the square is marked for the GM."""
    b = battle([("A", "Red", "C3", infantry()), ("B", "Blue", "C9", infantry())])
    out = play(b, "action unit:A action:open_door to:C4")
    assert effects(out, "action")[0]["at"] == "C4" and out.highlight.target == "C4"


def test_actions_wait_for_the_start() -> None:
    """Before /battle start no unit acts: the refusal says the battle has not started, and nothing changes."""
    from rules.battle import Battle
    from rules.coords import Cell
    from rules.orders import AddUnit

    b = Battle.new("combat-action", 10, 10)
    b.apply(AddUnit("A", "Red", Cell.parse("A1"), stats=infantry()), dice())
    b.apply(AddUnit("B", "Blue", Cell.parse("A3"), stats=infantry()), dice())
    before = b.to_dict()
    for text in ("activate unit:A", "fire unit:A weapon:Rifle target:B", "move unit:A to:A2 mode:walk"):
        with pytest.raises(IllegalOrderError, match="has not started"):
            play(b, text, 6, 6)
    assert b.to_dict() == before
