"""Combat Action orders on a battle: AP budget, fire with every term, damage, pinned and routing, rulings."""

from __future__ import annotations

import pytest

from rules.battle import Battle
from rules.coords import Cell
from rules.errors import GameError, IllegalOrderError, NotYourTurnError
from rules.orders import EditUnit, Order
from rules.systems.combat_action import SYSTEM
from rules.systems.combat_action.actions.fire import Fire
from rules.systems.combat_action.actions.play import Aim, FlatDown, GetUp
from rules.turnorders import EndTurn
from tests.rules.combat_action.helpers import RIFLE, battle, dice, infantry


@pytest.mark.parametrize("order", [
    Fire(unit="A", weapon="Rifle", target="B", mode="automatic"), FlatDown(unit="A"), GetUp(unit="A"),
    Aim(unit="A"), EndTurn(unit="A"), Order.parse("move unit:A to:C3 mode:charge"),
])
def test_orders_round_trip(order: Order) -> None:
    """DESIGN §3: `Order.parse(str(order)) == order`, read as a Combat Action battle reads it."""
    assert SYSTEM.parse_order(str(order)) == order


def test_turns_costs_match_the_ap_table() -> None:
    """003:L19-41: each order's cost is its AP row (Walk 1, Charge 2, Standard fire 1, automatic/heavy/sniping 2)."""
    b = battle([("A", "Red", "A1", infantry()), ("B", "Blue", "A5", infantry())])
    from rules import turns

    def cost(text: str) -> int:
        return turns.order_cost(b, b.parse_order(text)).points

    assert cost("move unit:A to:A2 mode:walk") == 1
    assert cost("move unit:A to:A2 mode:charge") == 2
    for mode, ap in (("standard", 1), ("sniping", 2), ("automatic", 2), ("heavy", 2), ("grenade", 1)):
        assert cost(f"fire unit:A weapon:Rifle target:B mode:{mode}") == ap
    assert cost("flat-down unit:A") == 1 and cost("get-up unit:A") == 1 and cost("aim unit:A") == 1


def test_over_budget_refused_saying_what_is_left() -> None:
    """A72: "A sequence whose total cost exceeds the budget is rejected"; nothing changes."""
    b = battle([("A", "Red", "A1", infantry()), ("B", "Blue", "A5", infantry())])
    b.apply(Order.parse("move unit:A to:A2 mode:walk"), dice())
    before = b.to_dict()
    with pytest.raises(NotYourTurnError, match="1 action left"):
        b.apply(Order.parse("move unit:A to:A3 mode:charge"), dice())
    assert b.to_dict() == before


@pytest.mark.constant("ap_per_model")
def test_ap_per_model_override_gives_more_actions() -> None:
    """A72 "2 AP per model per activation, configurable": at 3 AP a walk then a charge fits."""
    b = battle([("A", "Red", "A1", infantry()), ("B", "Blue", "Z30", infantry())], {"ap_per_model": "3"})
    b.apply(Order.parse("move unit:A to:A2 mode:walk"), dice())
    b.apply(Order.parse("move unit:A to:A5 mode:charge"), dice())
    assert b.unit("A").cell == Cell.parse("A5")


def test_fire_breakdown_has_every_term() -> None:
    """A73: 1d6 + modifiers >= SS; the Rifle's Point Blank +1 (003:L60) and a large target +1 (003:L74)."""
    b = battle([("A", "Red", "A1", infantry()), ("T", "Blue", "A3", {"kind": "vehicle", "pf": 9})])
    out = b.apply(Fire(unit="A", weapon="Rifle", target="T"), dice(2, 1))
    shot = out.tests[0]
    assert shot.band == "PB" and shot.die == 2 and shot.ss == 4
    assert [(m.label, m.value) for m in shot.modifiers] == [("Rifle at Point Blank", 1),
                                                                     ("Target size (large)", 1)]
    assert shot.total == 4 and shot.hit


@pytest.mark.constant("enforce_max_band")
def test_fire_past_max_band_refused_and_override() -> None:
    """A74: a Pistol reaches Short at most; at 35 cm (7 squares, Long) it is refused unless the GM lifts it."""
    pistol = {"name": "Pistol", "class": "pistol", "pen": 1}
    units = [("A", "Red", "A1", infantry(weapons=[pistol])), ("B", "Blue", "H1", infantry())]
    b = battle(units)
    with pytest.raises(IllegalOrderError, match="reaches Short at most"):
        b.apply(Fire(unit="A", weapon="Pistol", target="B"), dice(6))
    b = battle(units, {"enforce_max_band": "false"})
    assert b.apply(Fire(unit="A", weapon="Pistol", target="B"), dice(6, 6)).tests[0].band == "L"


def test_living_damage_and_cover() -> None:
    """A79 clamp(d6 + PF - Pen): a hit rolling 3 with Pen 2 on PF 0 looks up 1: Killed; in a slit (+3 PF) 4: OoA."""
    b = battle([("A", "Red", "A1", infantry()), ("B", "Blue", "A3", infantry())])
    b.apply(Fire(unit="A", weapon="Rifle", target="B"), dice(6, 3))
    assert b.unit("B").state == "killed"
    b = battle([("A", "Red", "A1", infantry()), ("B", "Blue", "A3", infantry())])
    b.apply(Order.parse("paint terrain:slit from:A3"), dice())
    b.apply(Fire(unit="A", weapon="Rifle", target="B"), dice(6, 3))
    assert b.unit("B").state == "ooa"


@pytest.mark.constant("large_scale")
def test_large_scale_override() -> None:
    """003:L100 "In the large scale game, all hits on Living Creatures are automatically considered OoA
    results." (A88): a hit is OoA with no table roll, so no damage die is rolled or recorded."""
    b = battle([("A", "Red", "A1", infantry()), ("B", "Blue", "A3", infantry())], {"large_scale": "true"})
    out = b.apply(Fire(unit="A", weapon="Rifle", target="B"), dice(6, 6))
    assert b.unit("B").state == "ooa"
    assert [r.purpose for r in out.rolls] == ["A to hit B"]
    assert out.tests[1].large_scale and out.tests[1].die is None and out.tests[1].value is None
    small = battle([("A", "Red", "A1", infantry()), ("B", "Blue", "A3", infantry(pf=2))])  # 6 + 2 - 2: Wounded
    out = small.apply(Fire(unit="A", weapon="Rifle", target="B"), dice(6, 6))
    assert small.unit("B").state == "wounded" and [r.purpose for r in out.rolls] == ["A to hit B", "damage to B"]


@pytest.mark.constant("large_scale")
def test_large_scale_crew_hit_rolls_nothing() -> None:
    """003:L196 the pilot and gunners "receive an automatic hit", and 003:L100 makes every hit on a Living
    Creature OoA at large scale (A88): the whole crew is out, with no crew die rolled."""
    b = battle([("A", "Red", "A1", infantry()), ("T", "Blue", "A3", {"kind": "vehicle", "pf": 0, "crew": 2})],
               {"large_scale": "true"})
    out = b.apply(Fire(unit="A", weapon="Rifle", target="T"), dice(6, 3))  # 3 + Pen 2 - PF 0 = 5: Pilot
    assert out.tests[1].location == "pilot"
    assert b.unit("T").crew == 0
    assert not [r for r in out.rolls if "crew" in r.purpose]


def test_vehicle_location_effects_are_kept() -> None:
    """003:L191 Locomotive System (d6 + Pen - PF = 0): "The MV of the machine is halved for the rest of the battle"."""
    b = battle([("A", "Red", "A1", infantry()), ("T", "Blue", "A3", {"kind": "vehicle", "pf": 5, "mv": 20})])
    out = b.apply(Fire(unit="A", weapon="Rifle", target="T"), dice(6, 3))
    assert out.tests[1].value == 0 and out.tests[1].location == "locomotion"
    t = Battle.from_dict(b.to_dict()).unit("T")
    assert t.mv_now() == 10 and "locomotion" in t.damaged


def test_damaged_weapon_system_malfunctions_and_cannot_fire() -> None:
    """003:L190 + A86: a faulty weapon rolls d6 before the shot; 4-6 it malfunctions, the shot is lost, and it
    cannot fire again."""
    b = battle([("T", "Red", "A1", {"kind": "vehicle", "weapons": [RIFLE]}), ("B", "Blue", "A3", infantry())])
    b.unit("T").weapons[0].faulty = True
    out = b.apply(Fire(unit="T", weapon="Rifle", target="B"), dice(5))
    assert out.tests[0].malfunctioned and len(out.tests) == 1
    with pytest.raises(IllegalOrderError, match="malfunctioned"):
        b.apply(Fire(unit="T", weapon="Rifle", target="B"), dice(6, 6))


@pytest.mark.constant("malfunction_min_roll")
def test_malfunction_threshold_override() -> None:
    """A86 constant: with malfunction_min_roll 6 a 5 fires normally."""
    b = battle([("T", "Red", "A1", {"kind": "vehicle", "weapons": [RIFLE]}), ("B", "Blue", "A3", infantry())],
               {"malfunction_min_roll": "6"})
    b.unit("T").weapons[0].faulty = True
    out = b.apply(Fire(unit="T", weapon="Rifle", target="B"), dice(5, 6, 6))
    assert not out.tests[0].malfunctioned and out.tests[1].kind == "to_hit"


def test_grenade_deviates_on_a_miss() -> None:
    """003:L109-110: miss = SS - roll; grenades deviate miss x 3 cm; A80 a 1 carries on along the line of fire."""
    b = battle([("A", "Red", "A1", infantry()), ("B", "Blue", "A4", infantry())])
    b.apply(Order.parse("prime unit:A weapon:Frag"), dice())
    out = b.apply(Fire(unit="A", weapon="Frag", target="B", mode="grenade"), dice(1, 1))
    # roll 1 + 0 (grenades are +1 only at PB; 15 cm is Short) -> miss 3 -> 9 cm -> 2 squares on (rounded).
    dev = next(e for e in out.effects if e.kind == "deviated")
    assert dev.cm == 9 and dev.to == "A6"


def test_pinned_cannot_close_or_fire_in_the_open() -> None:
    """4.10: "It may not move to reduce its distance to the nearest enemy"; "Only movement actions are allowed
    until the model is in cover, Flat down or out of LOS"."""
    b = battle([("A", "Red", "A1", infantry()), ("B", "Blue", "A9", infantry())],
               {"discipline_removes_pinned": "false"})
    b.apply(EditUnit(unit="A", stats={"statuses": ["pinned"]}), dice())
    with pytest.raises(IllegalOrderError, match="pinned"):
        b.apply(Order.parse("move unit:A to:A2 mode:walk"), dice())
    with pytest.raises(IllegalOrderError, match="pinned"):
        b.apply(Fire(unit="A", weapon="Rifle", target="B"), dice(6, 6))
    legal = [str(o) for o in b.system.legal_orders(b, b.unit("A"))]
    assert not any(o.startswith("fire") for o in legal) and "flat-down unit:A" in legal
    b.apply(FlatDown(unit="A"), dice())
    b.apply(Fire(unit="A", weapon="Rifle", target="B"), dice(1))


@pytest.mark.constant("discipline_mod")
def test_discipline_phase_removes_pinned() -> None:
    """A87: "default: d6 >= the unit's Discipline value to remove Pinned"; the modifier constant changes it.

    An order is checked before its dice: a pinned unit's move closer is refused until its activation (and with it
    the Discipline test) is open, and the test's roll stands whatever comes after."""
    b = battle([("A", "Red", "A1", infantry(discipline=4)), ("B", "Blue", "A9", infantry())])
    b.apply(EditUnit(unit="A", stats={"statuses": ["pinned"]}), dice())
    with pytest.raises(IllegalOrderError, match="activate"):
        b.apply(Order.parse("move unit:A to:A2 mode:walk"), dice(4))
    out = b.apply(Order.parse("activate unit:A"), dice(4))
    assert out.tests[0].passed and "pinned" not in b.unit("A").statuses
    b.apply(Order.parse("move unit:A to:A2 mode:walk"), dice())
    assert str(b.unit("A").cell) == "A2"
    b = battle([("A", "Red", "A1", infantry(discipline=4)), ("B", "Blue", "A9", infantry())],
               {"discipline_mod": "-1"})
    b.apply(EditUnit(unit="A", stats={"statuses": ["pinned"]}), dice())
    out = b.apply(Order.parse("activate unit:A"), dice(4))
    assert not out.tests[0].passed and "pinned" in b.unit("A").statuses
    with pytest.raises(GameError):
        b.apply(Order.parse("move unit:A to:A2 mode:walk"), dice(4))


def test_routing_only_charges_away_and_leaves_at_the_edge() -> None:
    """4.11: "The unit's only legal action is Charge away from the enemy"; "A model that reaches the table edge is
    removed from play"."""
    b = battle([("A", "Red", "B3", infantry()), ("B", "Blue", "B9", infantry())])
    b.apply(EditUnit(unit="A", stats={"statuses": ["routing"]}), dice())
    legal = [str(o) for o in b.system.legal_orders(b, b.unit("A"))]
    assert legal and all(o.startswith("move") and "mode:charge" in o for o in legal
                         if o not in ("end-turn unit:A", "activate unit:A"))
    with pytest.raises(IllegalOrderError, match="routing"):
        b.apply(Order.parse("move unit:A to:B2 mode:walk"), dice())
    b.apply(Order.parse("move unit:A to:B1 mode:charge"), dice())
    assert not b.unit("A").alive


def test_power_grid_move_or_fire() -> None:
    """003:L192: "during any single turn the machine may either move or fire, not both"."""
    b = battle([("T", "Red", "A1", {"kind": "vehicle", "mv": 20, "weapons": [RIFLE]}),
                ("B", "Blue", "A9", infantry())], {"ap_per_model": "4"})
    b.unit("T").damaged.append("power_grid")
    b.apply(Order.parse("move unit:T to:A2 mode:walk"), dice())
    with pytest.raises(IllegalOrderError, match="power grid"):
        b.apply(Fire(unit="T", weapon="Rifle", target="B"), dice(6, 6))


def test_replay_equals_state() -> None:
    """A short fight replayed from its orders and recorded dice gives the same battle, end-turn included."""
    from rules.replay import Step, faces_of, replay, same_state

    b = Battle.new("combat-action", 20, 20)
    initial = b.to_dict()
    texts = ['add-unit name:A side:Red at:A1 stats:\'{"kind":"infantry","weapons":[{"name":"Rifle","class":"rifle","pen":2}]}\'',
             'add-unit name:T side:Blue at:A4 stats:\'{"kind":"vehicle","pf":4}\'',
             "start", "aim unit:A", "fire unit:A weapon:Rifle target:T", "end-turn unit:T"]
    steps = []
    source = dice(*([3] * 20))
    for seq, text in enumerate(texts, 1):
        order = SYSTEM.parse_order(text)
        if seq == 3:
            b.turn.mode = "free"
            initial = b.to_dict()
            steps = []
        out = b.apply(order, source)
        steps.append(Step(seq, str(order), faces_of(out.to_dict())))
    assert b.unit("T").damaged == ["power_grid"]  # 3 + aim 1 + large 1 hits SS 4; 3 + Pen 2 - PF 4 = 1
    assert same_state(replay(initial, steps).to_dict(), b.to_dict())


def test_grenade_deviating_off_the_table_lands_nowhere() -> None:
    """003:L108-114 near the edge: a grenade that deviates past the table's edge hits nobody; the reply names the
    edge it went over."""
    b = battle([("A", "Red", "C1", infantry()), ("B", "Blue", "A1", infantry())])
    b.apply(Order.parse("prime unit:A weapon:Frag"), dice())
    out = b.apply(Fire(unit="A", weapon="Frag", target="B", mode="grenade"), dice(1, 1))
    dev = next(e for e in out.effects if e.kind == "deviated")
    assert not dev.on_map and dev.to == "A1" and b.unit("B").state == "ok"
    assert (out.highlight.target, out.highlight.landed) == ("A1", "A1")
