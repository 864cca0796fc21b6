"""The stored `data` of a logged outcome is a contract: what each order reported loads typed and stores back the same.

Every literal here is written by hand in the form earlier versions stored under an outcome's `data`; it is read
into its order's details and the core's turn notes, checked field by field, and must store back as the same JSON
(byte for byte where the old order of keys is kept). A shape this version does not read keeps its stored form.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules.core_details import PaintDetails
from rules.details import NO_DETAILS, Details, StoredDetails, TurnNotes
from rules.outcome import Outcome
from rules.system import system_of
from rules.systems.combat_action.details import ShotDetails
from rules.systems.m42.details import ActionDetails
from rules.systems.m42.details import MapDetails as M42Map
from rules.systems.strategic.details import (
    AttackDetails,
    BandNote,
    Change,
    FeaturePlacedDetails,
    FeatureRemovedDetails,
    FpDetails,
    HitDamage,
    ManeuverDetails,
    MapDetails,
    MoveDetails,
    RollDetails,
    TrapSearch,
    UnitSetDetails,
)
from rules.systems.surface.details import EscapeRow, Fate, PlanDetails, RallyRow, RecoveryRow, SurfaceReport
from rules.systems.surface.state import Plan


def _load(ruleset: str, kind: str, data: dict[str, Any], order: str = "") -> Outcome:
    """Load a logged outcome holding `data` as its battle's system reads it, after a trip through JSON text."""
    system = system_of(ruleset)
    stored = json.loads(json.dumps({"order": order or kind, "kind": kind, "data": data}))
    return Outcome.from_dict(stored, system.effect_kinds, system.test_kinds, system.detail_kinds)


def _stores_back(outcome: Outcome, data: dict[str, Any], *, same_order: bool = True) -> None:
    stored = outcome.to_dict()["data"]
    assert stored == data
    if same_order:
        assert json.dumps(stored) == json.dumps(data)


# --- strategic attacks ---------------------------------------------------------------------------

RANGED = {
    "unit": "Eva-01", "weapon": "Positron Rifle", "target": "Sachiel", "at": "F2", "distance": 4,
    "kind": "blast", "R": 6,
    "band": {"key": "short", "name": "Short", "mod": 10, "limit": 3.5, "from": 2, "to": 3},
    "line_of_fire": {"cells": ["C2", "D2", "E2", "F2"], "penalised": [{"cell": "D2", "terrain": -10, "smoke": 0}],
                     "ignored": [], "altitude": 0, "terrain": -10, "smoke": 0, "smoke_squares": 0, "indirect": False},
    "storm": False, "storm_negated": False,
    "hits": [{"unit": "Sachiel", "why": "aimed", "cell": "F2"}, {"unit": "Mob", "why": "random", "cell": "F2"}],
    "damage": [
        {"unit": "Sachiel", "location": "body",
         "roll": {"notation": "2d10", "faces": [7, 9], "dropped": None, "total": 16, "tearing": False},
         "damage": 16, "dtype": "E", "personal_ap": 4, "cover_ap": 3, "cover_used": 1, "cover_note": "half against area attacks",
         "pen": 2, "armour": 3, "tb": 4, "wounds_lost": 9, "area": True, "melee": False, "source": "Positron Rifle",
         "feature_ap_left": 2, "wounds_left": 11, "destroyed": False},
        {"unit": "Mob", "location": "r_leg",
         "roll": {"notation": "3d10", "faces": [1, 8, 6], "dropped": 1, "total": 14, "tearing": True},
         "damage": 14, "dtype": "E", "personal_ap": 0, "cover_ap": 0, "cover_used": 0, "cover_note": "no cover",
         "pen": 2, "armour": 0, "tb": 3, "wounds_lost": 11, "area": True, "melee": False, "source": "Positron Rifle",
         "magnitude_lost": 1, "magnitude_left": 19, "destroyed": True},
    ],
    "action": "half", "action_cost": 1, "actions_left": 1,
}


def test_a_ranged_area_attack_loads_every_part_typed_and_stores_back_the_same() -> None:
    out = _load("strategic-e", "attack", RANGED)
    attack = out.details_as(AttackDetails)
    assert attack is not None
    assert (attack.unit, attack.target, attack.distance, attack.form, attack.R) == ("Eva-01", "Sachiel", 4, "blast", 6)
    assert attack.band == BandNote(key="short", name="Short", mod=10, limit=3.5, low=2, high=3)
    assert attack.line_of_fire is not None and attack.line_of_fire.penalised[0].terrain == -10
    assert [(h.unit, h.why) for h in attack.hits or ()] == [("Sachiel", "aimed"), ("Mob", "random")]
    first, second = attack.damage or ()
    assert isinstance(first, HitDamage) and first.roll.faces == (7, 9) and first.hit.feature_ap_left == 2
    assert first.hit.wounds_left == 11 and first.hit.magnitude_lost is None and not first.destroyed
    assert second.roll.dropped == 1 and second.hit.magnitude_left == 19 and second.hit.wounds_left is None
    assert second.destroyed and second.hit.area and second.hit.cover_note == "no cover"
    assert attack.bridge is None and attack.reach is None
    assert out.turn == TurnNotes(action="half", action_cost=1, actions_left=1)
    # Each hit stores its Damage effect's fields in the effect's order: `feature_ap_left` after what was left.
    _stores_back(out, RANGED, same_order=False)


MELEE = {
    "unit": "Eva-02", "weapon": "Knife", "target": "Sachiel", "at": "C3", "distance": 1, "kind": "melee", "reach": 1,
    "damage": [{"unit": "Sachiel", "location": "head",
                "roll": {"notation": "1d10+4", "faces": [3], "dropped": None, "total": 7, "tearing": False},
                "damage": 7, "dtype": "R", "personal_ap": 2, "cover_ap": 0, "cover_used": 0,
                "cover_note": "melee ignores cover", "pen": 0, "armour": 2, "tb": 3, "wounds_lost": 2, "area": False,
                "melee": True, "source": "Knife", "wounds_left": 18, "destroyed": False}],
}
BRIDGE = {
    "unit": "Gunner", "weapon": "Cannon", "target": None, "at": "C3", "distance": 2, "kind": "bridge", "R": 10,
    "band": {"key": "short", "name": "Short", "mod": 10, "limit": 5, "from": 0, "to": 5},
    "line_of_fire": {"cells": ["B3", "C3"], "penalised": [], "ignored": [], "altitude": 0, "terrain": 0, "smoke": 0,
                     "smoke_squares": 0, "indirect": True},
    "storm": True, "storm_negated": True,
    "bridge": {"cell": "C3", "bridge": "temporary",
               "roll": {"notation": "2d10", "faces": [9, 9], "dropped": None, "total": 18, "tearing": False},
               "damage": 18, "armour": 0, "tb": 2, "wounds_lost": 16, "total_lost": 16, "wounds": 15, "destroyed": True},
}


def test_a_melee_attack_and_a_shot_at_a_bridge_store_back_the_same() -> None:
    melee = _load("strategic-p", "attack", MELEE).details_as(AttackDetails)
    assert melee is not None and melee.form == "melee" and melee.reach == 1 and melee.band is None
    assert melee.damage is not None and melee.damage[0].roll.notation == "1d10+4" and melee.damage[0].hit.melee
    _stores_back(_load("strategic-p", "attack", MELEE), MELEE)
    out = _load("strategic-e", "attack", BRIDGE)
    shot = out.details_as(AttackDetails)
    assert shot is not None and shot.target is None and shot.storm_negated is True
    assert shot.bridge is not None and shot.bridge.hit.destroyed and shot.bridge.roll.total == 18
    assert shot.hits is None and shot.damage is None
    _stores_back(out, BRIDGE)


def test_an_attack_stored_in_an_older_shape_keeps_its_stored_form() -> None:
    older = {"unit": "Eva-01", "weapon": "Rifle", "target": "Sachiel", "at": "F2", "kind": "ranged", "tn": 45,
             "action": "half"}
    out = _load("strategic-e", "attack", older)
    assert out.details_as(AttackDetails) is None and isinstance(out.details, StoredDetails)
    assert out.details.stored == {k: v for k, v in older.items() if k != "action"}
    assert out.turn.action == "half"  # the core's notes are still read
    _stores_back(out, older)


# --- the other strategic orders ------------------------------------------------------------------

STRATEGIC: list[tuple[str, dict[str, Any], Details]] = [
    ("move", {"mode": "full", "allowance": 6, "cost": 4, "base": 6, "base_label": "Movement (Ag bonus)",
              "spent_unit": "MP", "path": ["A1", "B2"], "stopped_at": None},
     MoveDetails(mode="full", allowance=6, cost=4, base=6, base_label="Movement (Ag bonus)", spent_unit="MP",
                 path=("A1", "B2"), stopped_at=None)),
    ("maneuver", {"won": True, "path": ["C4"]}, ManeuverDetails(won=True, path=("C4",))),
    ("detect-traps", {"revealed": ["C3"]}, TrapSearch(revealed=("C3",))),
    ("roll", {"notation": "2d6", "total": 9, "faces": [4, 5]}, RollDetails(notation="2d6", total=9, faces=(4, 5))),
    ("place-feature", {"feature": "trench", "side": "Red", "cells": ["B1", "C1"], "cost": 2, "purchase": 1, "fp_left": 3},
     FeaturePlacedDetails(feature="trench", side="Red", cells=("B1", "C1"), cost=2, purchase=1, fp_left=3)),
    ("remove-feature", {"feature": "trench", "cell": "B1", "refund": 2},
     FeatureRemovedDetails(feature="trench", cell="B1", refund=2)),
    ("set-fp", {"side": "Red", "pool": 10, "spent": 4, "left": 6}, FpDetails(side="Red", pool=10, spent=4, left=6)),
    ("import-map", {"width": 3, "height": 2, "storm": 1, "deep": 0, "rain": 0},
     MapDetails(width=3, height=2, storm=1, deep=0)),
    ("paint", {"terrain": "forest", "count": 6}, PaintDetails(terrain="forest", count=6)),
]


@pytest.mark.parametrize(("kind", "data", "expected"), STRATEGIC, ids=[k for k, _, _ in STRATEGIC])
def test_each_strategic_order_reports_typed_details_stored_as_before(kind: str, data: dict[str, Any],
                                                                    expected: Details) -> None:
    out = _load("strategic-p", kind, data)
    assert out.details == expected and out.turn == TurnNotes()
    _stores_back(out, data)


def test_a_gm_set_keeps_each_change_and_its_actions_left_among_the_turn_notes() -> None:
    data = {"changed": {"wounds": {"old": 40, "new": 12}, "statuses": {"old": [], "new": ["pinned"]}},
            "actions_left": 2}
    out = _load("strategic-e", "gm-set", data)
    assert out.details == UnitSetDetails(changed={"wounds": Change(old=40, new=12),
                                                  "statuses": Change(old=(), new=("pinned",))})
    assert out.turn.actions_left == 2
    _stores_back(out, data)


# --- the core's turn notes -----------------------------------------------------------------------

def test_turn_notes_load_typed_on_any_order() -> None:
    data = {"initiative": [{"id": "u1", "unit": "Asuka", "total": 14, "faces": [9], "bonus": 5, "ag": 40, "rolloff": []}],
            "next_due": ["Asuka", "Eva-01"], "round": 2}
    out = _load("strategic-e", "close-round", data)
    assert out.details is NO_DETAILS
    assert out.turn.next_due == ["Asuka", "Eva-01"] and out.turn.round == 2
    assert out.turn.initiative is not None and out.turn.initiative[0].total == 14
    _stores_back(out, data)


def test_a_held_standing_turn_keeps_why_and_a_followed_one_its_order_details() -> None:
    held = {"standing_order": "move unit:Eva-01 to:H8 mode:full", "fallback": "H8 is 9 squares from Eva-01.",
            "next_due": ["MP-Eva"], "round": 1}
    out = _load("strategic-e", "standing-turn", held)
    assert out.turn.fallback == "H8 is 9 squares from Eva-01." and out.details is NO_DETAILS
    _stores_back(out, held)
    followed = {"standing_order": "move unit:Eva-01 to:A8 mode:half", "mode": "half", "allowance": 3, "cost": 2,
                "base": 6, "base_label": "Movement", "spent_unit": "squares", "path": ["A7", "A8"], "stopped_at": None,
                "action": "half", "action_cost": 1, "actions_left": 1, "next_due": ["Asuka"], "round": 1}
    out = _load("strategic-e", "standing-turn", followed)
    move = out.details_as(MoveDetails)
    assert move is not None and move.path == ("A7", "A8")
    assert out.turn.standing_order == "move unit:Eva-01 to:A8 mode:half" and out.turn.actions_left == 1
    _stores_back(out, followed, same_order=False)  # the standing order was written first


def test_a_turn_note_of_another_type_and_an_unknown_order_keep_their_stored_form() -> None:
    odd = {"round": "second", "next_due": ["Asuka"]}
    out = _load("strategic-e", "end-turn", odd)
    assert out.turn.round is None and out.turn.next_due == ["Asuka"]
    assert isinstance(out.details, StoredDetails) and out.details.stored == {"round": "second"}
    _stores_back(out, odd)
    older = {"initiative": [{"unit": "Asuka", "total": 14}], "round": 1}
    out = _load("strategic-e", "close-round", older)
    assert out.turn.initiative is None and out.turn.round == 1
    _stores_back(out, older)
    unknown = {"warp": 9, "to": ["Z9"]}
    gone = _load("strategic-e", "warp-drive", unknown)
    assert gone.details == StoredDetails(stored={"warp": 9, "to": ["Z9"]}) and gone.turn == TurnNotes()
    _stores_back(gone, unknown)


# --- M42, Combat Action, Surface -----------------------------------------------------------------

def test_m42_map_and_action_details_with_the_action_among_the_turn_notes() -> None:
    imported = {"width": 6, "height": 3, "edges": 3, "road": 6, "floors": 1}
    out = _load("m42", "import-map", imported)
    assert out.details == M42Map(width=6, height=3, edges=3, road=6, floors=1)
    _stores_back(out, imported)
    moved = {"action": "advance", "walked": 11.5, "allowance": 12, "halved": ["rough ground"],
             "action_cost": 1, "actions_left": 0}
    out = _load("m42", "take-action", moved)
    assert out.details == ActionDetails(walked=11.5, allowance=12, halved=("rough ground",))
    assert out.turn.action == "advance" and out.turn.action_cost == 1
    _stores_back(out, moved, same_order=False)  # the action was written first


def test_a_combat_action_shot() -> None:
    data = {"hit": True, "weapon": "Rifle", "target": "T", "action_cost": 2, "actions_left": 2}
    out = _load("combat-action", "fire", data)
    assert out.details == ShotDetails(hit=True, weapon="Rifle", target="T")
    assert out.turn == TurnNotes(action_cost=2, actions_left=2)
    _stores_back(out, data)


REPORT = {
    "sides": ["Red", "Blue"],
    "plans": {"Red": {"intensity": 2, "daring": 1, "dropped": [], "besieged": True},
              "Blue": {"intensity": 1, "daring": 0, "dropped": [], "besieged": False}},
    "fallback": {"Blue": "default"}, "defaulted": ["Blue"], "rounds_planned": 5, "rounds_fought": 2,
    "log": [{"round": 1, "initiative": [], "tpv": {}, "actions": [], "collateral": 0, "losses": {"Red": 0, "Blue": 2}}],
    "rally": [{"unit": "u2", "result": "recovers"}, {"unit": "u1", "result": "disintegrates", "die": 10, "roll": 9,
               "rally": 4}],
    "broken": {"Red": False, "Blue": True}, "losses": {"Red": "0", "Blue": "1"},
    "lost_points": {"Red": 0, "Blue": 2}, "units": {"u1": {"name": "Soft", "side": "Blue", "routed": False, "fate": "destroyed"}},
    "capacity": {"Red": 9, "Blue": 2}, "verdict": {"levels": {"Red": "decisive victory", "Blue": "decisive defeat"}, "reason": "broken",
                                              "ratio": None},
    "retreat": {"Red": 0, "Blue": 2}, "escape": [{"unit": "u3", "result": "disappears"}, {"unit": "u4", "result": "escapes", "roll": 12, "needed": 25}],
    "recovery": [{"unit": "u2", "from": 3, "to": 0}], "collateral_count": 0,
    "collateral": {"light": 0}, "draw": False, "turn": 1,
}


def test_surface_plan_receipt_and_report_whose_own_fallback_is_not_a_turn_note() -> None:
    plan = {"side": "Red", "replaced": False, "ready": True}
    out = _load("surface", "surface-plan", plan)
    assert out.details == PlanDetails(side="Red", replaced=False, ready=True)
    _stores_back(out, plan)
    out = _load("surface", "surface-resolve", REPORT)
    report = out.details_as(SurfaceReport)
    assert report is not None and report.fallback == {"Blue": "default"} and out.turn.fallback is None
    assert report.rounds_fought == 2 and report.units["u1"] == Fate(name="Soft", side="Blue", routed=False,
                                                                      fate="destroyed")
    assert report.plans["Red"] == Plan(intensity=2, daring=1, besieged=True)
    assert report.verdict.levels["Blue"] == "decisive defeat" and report.verdict.leader_shift is None
    assert report.rally == (RallyRow(unit="u2", result="recovers"),
                            RallyRow(unit="u1", result="disintegrates", die=10, roll=9, rally=4))
    assert report.escape[1] == EscapeRow(unit="u4", result="escapes", roll=12, needed=25)
    assert report.recovery == (RecoveryRow(unit="u2", before=3, after=0),)
    _stores_back(out, REPORT)


def test_a_misspelt_field_is_refused_where_details_are_built() -> None:
    with pytest.raises(TypeError):
        MoveDetails(mode="full", allowance=6, cost=4, base=6, base_label="", spent_unit="MP", path=(),
                    stoped_at=None)  # type: ignore[call-arg]
