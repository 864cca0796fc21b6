"""The outcome schema the replies read: each effect kind's fields, its stored JSON form, and old outcomes loading.

Events in the database and exported battle files hold outcomes as JSON (`{"type": kind, **fields}` per
effect); replays and imports compare a replayed outcome with the stored one, so the stored form is a
contract. A kind whose fields change here changes what every reply, the log and old files read.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

import rules.core_effects as core
import rules.systems.strategic.effects as strategic
import rules.systems.surface.effects as surface
from rules.battle import Battle
from rules.coords import Cell
from rules.dice import Dice
from rules.effects import StoredEffect, load_effect
from rules.errors import RulesetError
from rules.orders import AddUnit, Move, Start
from rules.outcome import Outcome
from rules.system import system_of

# Every effect kind each system's outcomes hold, and its fields in stored order.
SCHEMA: dict[str, dict[str, str]] = {
    "strategic": {
        "aiming": "unit mode bonus",
        "bakelite": "unit penalty total",
        "battle_ended": "round",
        "battle_started": "round",
        "bridge_damaged": "cell bridge damage armour tb wounds_lost total_lost wounds destroyed",
        "bridge_destroyed": "cell bridge terrain",
        "burnt_out": "cell",
        "caught_fire": "unit cell",
        "chance": "what cell chance roll happened",
        "cover_decayed": "cell feature before after",
        "damage": (
            "unit location damage dtype personal_ap cover_ap cover_used cover_note pen armour "
            "tb wounds_lost area melee source wounds_left magnitude_lost magnitude_left "
            "feature_ap_left"
        ),
        "defending": "unit penalty",
        "destroyed": "unit side at engaged_with last",
        "disengaged": "unit from_units",
        "edges_cleared": "edges count",
        "edges_set": "obstacle height opening edges count",
        "engaged": "units",
        "feature_expended": "cell feature",
        "feature_placed": "feature name side cells cost purchase hidden",
        "feature_removed": "feature name cell side refund",
        "fell": "unit cell terrain degrees prone",
        "fire_out": "unit cell cause",
        "fp_set": "side override adjust pool spent",
        "frozen": "cell cause",
        "frozen_in": "unit cell",
        "held": "unit unused reason",
        "hidden": "unit cell",
        "homebrew_imported": "terrain features",
        "ice_melted": "cell terrain",
        "ignited": "cell rounds cause",
        "magnitude_damage": "unit magnitude_lost magnitude_left source",
        "map_imported": "width height storm deep rain",
        "mine_triggered": "unit cell feature triggers_left",
        "moved": "unit frm to cost",
        "painted": "terrain cells",
        "phase_changed": "side round frm",
        "placed": "unit frm to",
        "plunged": "unit cell",
        "pushed": "unit frm to engagement_ended",
        "round_closed": "round skipped",
        "round_started": "round mode order",
        "rule_set": "key old new default",
        "smoke": "cell rounds",
        "smoke_cleared": "cell",
        "standing_order_cleared": "unit",
        "standing_order_followed": "unit order",
        "standing_order_set": "unit order",
        "status_ended": "unit status",
        "storms_moved": "direction distance before after dropped",
        "stunned": "unit rounds",
        "sunk": "unit cell altitude",
        "surfaced": "unit cell",
        "trap_revealed": "cell feature side",
        "trap_sprung": "feature cell cause",
        "turn_ended": "unit unused",
        "turn_lost": "unit reason",
        "turn_mode_set": "mode frm",
        "turn_passed": "to initiative round frm",
        "turn_skipped": "units side",
        "unit_added": "unit side at owner",
        "unit_edited": "unit fields",
        "unit_removed": "unit at",
        "unit_set": "unit fields",
    },
    "combat_action": {
        "action": "unit action name target at",
        "activation": "unit round",
        "aimed": "unit",
        "altitude": "unit altitude",
        "battle_ended": "round",
        "battle_started": "round",
        "building_hit": "unit result state at",
        "crashed": "unit at pen",
        "crew_hit": "unit pen lost crew",
        "deviated": "weapon frm to cm face miss on_map",
        "disembarked": "unit vehicle to",
        "drifted": "unit to cm face",
        "edges_cleared": "edges count",
        "edges_set": "obstacle height opening edges count",
        "embarked": "unit vehicle at",
        "emergency_landing": "unit altitude landed",
        "flat_down": "unit",
        "got_up": "unit",
        "halted": "unit",
        "hatch": "unit by hatch",
        "hatch_broken": "unit by",
        "held": "unit unused reason",
        "left_the_table": "unit",
        "location_damaged": "unit location effect at",
        "missed": "unit target",
        "model_hit": "unit result at",
        "moved": "unit frm to cm mode",
        "no_target": "unit",
        "nothing_to_repeat": "unit",
        "order_not_obeyed": "unit",
        "out_of_control": "unit face action",
        "painted": "terrain cells",
        "phase_changed": "side round frm",
        "primed": "unit weapon shots",
        "reloaded": "unit weapon shots",
        "round_closed": "round skipped",
        "round_started": "round mode order",
        "rule_set": "key old new default",
        "shut_down": "unit crashed",
        "standing_order_cleared": "unit",
        "standing_order_followed": "unit order",
        "standing_order_set": "unit order",
        "transported_hit": "unit models pen",
        "turn_ended": "unit",
        "turn_lost": "unit reason",
        "turn_mode_set": "mode frm",
        "turn_passed": "to initiative round frm",
        "turn_skipped": "units side",
        "unit_added": "unit side at owner unit_kind",
        "unit_edited": "unit fields",
        "unit_removed": "unit at",
        "unjammed": "unit weapon shots",
        "ready_lost": "unit",
        "unpinned": "unit",
        "weapon_faulty": "unit weapon",
        "weapon_jammed": "unit weapon die",
        "weapon_malfunctioned": "unit weapon",
    },
    "surface": {
        "battle_ended": "turn",
        "battle_started": "turn",
        "damage": "unit by points total state",
        "disappeared": "unit",
        "disintegrated": "unit",
        "edges_cleared": "edges count",
        "edges_set": "obstacle height opening edges count",
        "escaped": "unit",
        "held": "unit unused reason",
        "lost": "unit",
        "next_turn": "turn removed",
        "painted": "terrain cells",
        "phase_changed": "side round frm",
        "plan_submitted": "side",
        "rallied": "unit",
        "resolved": "levels rounds",
        "round_closed": "round skipped",
        "round_started": "round mode order",
        "routed": "unit",
        "rule_set": "key old new default",
        "side_set": "side leader ability blockaded last_ground",
        "standing_order_cleared": "unit",
        "standing_order_followed": "unit order",
        "standing_order_set": "unit order",
        "turn_ended": "unit unused",
        "turn_lost": "unit reason",
        "turn_mode_set": "mode frm",
        "turn_passed": "to initiative round frm",
        "turn_skipped": "units side",
        "unit_added": "unit id side unit_type",
        "unit_edited": "unit id fields",
        "unit_removed": "unit id",
    },
    "m42": {
        "action_taken": "unit action frm to walked allowance halved models name",
        "battle_ended": "round",
        "battle_started": "round",
        "edges_cleared": "edges count",
        "edges_set": "obstacle height opening edges count",
        "floors": "floors cells",
        "held": "unit unused reason",
        "homebrew_imported": "terrain features actions",
        "map_imported": "width height edges road floors",
        "painted": "terrain cells",
        "phase_changed": "side round frm",
        "placed": "unit models",
        "road": "on cells",
        "round_closed": "round skipped",
        "round_started": "round mode order",
        "rule_set": "key old new default",
        "standing_order_cleared": "unit",
        "standing_order_followed": "unit order",
        "standing_order_set": "unit order",
        "turn_ended": "unit unused",
        "turn_lost": "unit reason",
        "turn_mode_set": "mode frm",
        "turn_passed": "to initiative round frm",
        "turn_skipped": "units side",
        "unit_added": "unit side at owner models",
        "unit_edited": "unit fields",
        "unit_removed": "unit at",
    },
}
RULESET = {"strategic": "strategic-e", "combat_action": "combat-action", "surface": "surface", "m42": "m42"}

# An outcome exactly as the event log stored it before effects were typed: a strategic move into a
# minefield, the turn passing on, and an effect of a shape no longer recorded (an `ignited` without rounds).
STORED_MOVE: dict[str, Any] = {
    "order": "move unit:Eva-01 to:C3 mode:full", "kind": "move", "actor": "Eva-01",
    "rolls": [{"notation": "1d100", "faces": [12], "total": 12, "purpose": "minefield on C3", "manual": False}],
    "tests": [],
    "effects": [
        {"type": "moved", "unit": "Eva-01", "frm": "B2", "to": "C3", "cost": 2},
        {"type": "mine_triggered", "unit": "Eva-01", "cell": "C3", "feature": "minefield", "triggers_left": 3},
        {"type": "damage", "unit": "Eva-01", "location": "body", "damage": 9, "dtype": "X", "personal_ap": 2,
         "cover_ap": 0, "cover_used": 0, "cover_note": "", "pen": 0, "armour": 2, "tb": 4, "wounds_lost": 3,
         "area": True, "melee": False, "source": "minefield", "wounds_left": 7},
        {"type": "ignited", "cell": "C3"},
        {"type": "turn_passed", "to": "Rei", "initiative": 14, "round": 1, "frm": "Eva-01"},
        {"type": "held", "unit": "Rei", "unused": 2},
        {"type": "turn_skipped", "units": ["Asuka"], "side": None},
        {"type": "dance", "unit": "Rei"},
    ],
    "highlight": {"path": ["B2", "C3"]}, "data": {"cost": 2}, "hidden": False,
}


def _ruleset(system_id: str) -> str:
    return RULESET.get(system_id, system_id)


@pytest.mark.parametrize("system_id", sorted(SCHEMA))
def test_each_kind_has_the_fields_the_replies_read(system_id: str) -> None:
    kinds = system_of(_ruleset(system_id)).effect_kinds
    assert sorted(kinds) == sorted(SCHEMA[system_id])
    for kind, cls in kinds.items():
        assert cls.KIND == kind
        assert " ".join(f.name for f in dataclasses.fields(cls)) == SCHEMA[system_id][kind], kind


def test_an_outcome_stored_before_effects_were_typed_loads_and_stores_back_the_same() -> None:
    kinds = system_of("strategic-e").effect_kinds
    outcome = Outcome.from_dict(json.loads(json.dumps(STORED_MOVE)), kinds)
    moved, mine, damage, ignited, passed, held, skipped, dance = outcome.effects
    assert isinstance(moved, strategic.Moved) and (moved.frm, moved.to, moved.cost) == ("B2", "C3", 2)
    assert isinstance(mine, strategic.MineTriggered) and mine.triggers_left == 3
    assert isinstance(damage, strategic.Damage) and damage.wounds_left == 7 and damage.magnitude_lost is None
    assert isinstance(passed, core.TurnPassed) and passed.frm == "Eva-01"
    assert isinstance(held, core.Held) and held.reason is None
    assert isinstance(skipped, core.TurnSkipped) and skipped.units == ("Asuka",) and skipped.side is None
    # A shape or kind this version does not record keeps its stored form, to show and to compare.
    assert isinstance(ignited, StoredEffect) and ignited.kind == "ignited"
    assert isinstance(dance, StoredEffect) and dance.kind == "dance"
    assert outcome.to_dict() == STORED_MOVE
    assert json.dumps(outcome.to_dict()) == json.dumps(STORED_MOVE)  # key order too


def test_optional_fields_stay_out_of_the_stored_form_when_absent_and_none_stays_when_recorded() -> None:
    assert core.Held(unit="Rei", unused=1).to_dict() == {"type": "held", "unit": "Rei", "unused": 1}
    assert core.TurnSkipped(units=["A"], side=None).to_dict() == {"type": "turn_skipped", "units": ["A"],
                                                                   "side": None}
    assert strategic.FireOut(cell="D4", cause="storm").to_dict() == {"type": "fire_out", "cell": "D4",
                                                                     "cause": "storm"}


def test_one_kind_means_different_fields_in_different_systems() -> None:
    started = {"type": "battle_started", "turn": 2}
    assert isinstance(load_effect(started, system_of("surface").effect_kinds), surface.BattleStarted)
    assert isinstance(load_effect({"type": "battle_started", "round": 1}, system_of("strategic-e").effect_kinds),
                      core.BattleStarted)
    # Read as a strategic battle's, a Surface-shaped effect is kept as stored, not forced into the wrong class.
    assert isinstance(load_effect(started, system_of("strategic-e").effect_kinds), StoredEffect)


def test_an_unknown_field_or_a_missing_one_is_refused() -> None:
    with pytest.raises(TypeError):
        strategic.Smoke(cell="C3", rounds=2, colour="grey")  # type: ignore[call-arg]
    with pytest.raises(RulesetError, match="no field `colour`"):
        strategic.Smoke.build({"type": "smoke", "cell": "C3", "rounds": 2, "colour": "grey"})
    with pytest.raises(RulesetError, match="needs `rounds`"):
        strategic.Smoke.build({"type": "smoke", "cell": "C3"})


def test_effects_are_frozen_and_equal_to_themselves_reloaded() -> None:
    e = strategic.Engaged(units=["Eva", "Angel"])
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.units = ("x",)  # type: ignore[misc]
    assert e.units == ("Eva", "Angel")
    assert load_effect(json.loads(json.dumps(e.to_dict())), strategic.EFFECTS) == e


def test_a_played_outcome_survives_the_event_log_round_trip() -> None:
    battle = Battle.new("strategic-e", 8, 8, "Schema")
    battle.apply(AddUnit(name="Eva-01", side="NERV", at=Cell.parse("B2")), Dice.seeded(1))
    battle.apply(AddUnit(name="Rei", side="NERV", at=Cell.parse("F5")), Dice.seeded(1))
    battle.apply(Start(), Dice.seeded(1))
    out = battle.apply(Move(unit="Eva-01", to=Cell.parse("C3"), mode="full"), Dice.seeded(2))
    stored = json.loads(json.dumps(out.to_dict()))
    assert stored["effects"][0]["type"] == "moved"
    again = Outcome.from_dict(stored, battle.system.effect_kinds)
    assert again.effects == out.effects and again.to_dict() == stored
