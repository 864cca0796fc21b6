"""The stored JSON of typed state is a contract: saved battles and logged events written before it was typed load.

Every literal here is written by hand in the form earlier versions stored; each is read into its class,
checked field by field, and must store back as the same JSON (key order included where it was fixed).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import rules.systems.combat_action.rolltests as ca
import rules.systems.strategic.rolltests as strategic
import rules.systems.surface.rolltests as surface
from rules.battle import Battle, LastAction
from rules.coords import Cell
from rules.dice import Dice
from rules.modifiers import Modifier
from rules.orders import Move
from rules.outcome import Highlight, Mark, Outcome
from rules.rolltests import CORE_TESTS, D100Test, StoredTest, Tally, load_test
from rules.system import system_of

FIXTURES = Path(__file__).parent / "fixtures"


def _same(obj: Any, literal: dict[str, Any]) -> None:
    """Assert an object stores as the literal, byte for byte once dumped."""
    assert obj.to_dict() == literal
    assert json.dumps(obj.to_dict()) == json.dumps(literal)


# --- the battle's last move or shot --------------------------------------------------------------

MOVE = {"kind": "move", "unit": "Eva-01", "path": ["B2", "C3", "D4"]}
ATTACK = {"kind": "attack", "unit": "Eva-01", "line": ["B2", "F2"], "hit": False}


def test_last_action_reads_and_stores_a_move_and_a_shot() -> None:
    move = LastAction.from_dict(json.loads(json.dumps(MOVE)))
    assert move == LastAction(kind="move", unit="Eva-01", path=("B2", "C3", "D4"))
    assert move.line is None and move.hit is None
    _same(move, MOVE)
    shot = LastAction.from_dict(json.loads(json.dumps(ATTACK)))
    assert shot is not None and shot.line == ("B2", "F2") and shot.hit is False and shot.path is None
    _same(shot, ATTACK)
    assert LastAction.from_dict({}) is None


def test_a_version_1_battle_keeps_its_last_shot_and_stores_it_back() -> None:
    saved = json.loads((FIXTURES / "battle_v1.json").read_text(encoding="utf-8"))
    battle = Battle.from_dict(saved)
    assert battle.last == LastAction(kind="attack", unit="Eva-01", line=("B2", "B2"), hit=True)
    assert battle.to_dict()["last"] == saved["last"]


def test_a_version_2_battle_without_a_last_action_plays_on_and_stores_its_move() -> None:
    saved = json.loads((FIXTURES / "battle_v2.json").read_text(encoding="utf-8"))
    assert saved["last"] == {}
    battle = Battle.from_dict(saved)
    assert battle.last is None and battle.to_dict()["last"] == {}
    battle.apply(Move(unit="Eva-01", to=Cell.parse("C3"), mode="half"), Dice.seeded(1))
    stored = json.loads(json.dumps(battle.to_dict()))["last"]
    assert stored["kind"] == "move" and stored["unit"] == "Eva-01"
    assert stored["path"][0] == "B3" and stored["path"][-1] == "C3" and set(stored) == {"kind", "unit", "path"}
    assert Battle.from_dict(battle.to_dict()).last == battle.last


def test_rule_overrides_load_with_their_value_and_apply() -> None:
    doc = Battle.new("strategic-e", 4, 4, "Overrides").to_dict()
    doc["constants"] = {"modifier_cap": 45}
    battle = Battle.from_dict(json.loads(json.dumps(doc)))
    assert battle.constants == {"modifier_cap": 45} and battle.const("modifier_cap") == 45
    assert battle.to_dict()["constants"] == {"modifier_cap": 45}


# --- what an outcome marks on the map ------------------------------------------------------------

HIGHLIGHT = {"actor": "C3", "target": "H3", "hit": False, "landed": "J5", "line": ["C3", "H3"], "cells": [],
             "marks": [{"cell": "C5", "text": "fire"}, {"cell": "D5", "text": "Rei destroyed"}]}


def test_a_highlight_reads_every_mark_and_stores_back_what_was_set() -> None:
    h = Highlight.from_dict(json.loads(json.dumps(HIGHLIGHT)))
    assert (h.actor, h.target, h.hit, h.landed, h.line) == ("C3", "H3", False, "J5", ["C3", "H3"])
    assert h.path is None and h.attacker is None and h.cells == []  # an empty list set stays set
    assert h.marks == [Mark("C5", "fire"), Mark("D5", "Rei destroyed")]
    assert h.to_dict() == HIGHLIGHT  # its keys came in whatever order a handler set them: equal as JSON objects
    assert Highlight().to_dict() == {}
    assert Highlight.from_dict({"path": ["A1", "B1"], "glow": 3}).to_dict() == {"path": ["A1", "B1"]}


def test_highlight_helpers_set_only_what_they_are_given() -> None:
    h = Highlight(actor="A1")
    h.update(target="B2", hit=False)
    h.add_cells(["C3"])
    h.add_cells(["D4"])
    h.mark("C3", "mine")
    assert h.to_dict() == {"actor": "A1", "target": "B2", "hit": False, "cells": ["C3", "D4"],
                           "marks": [{"cell": "C3", "text": "mine"}]}
    other = Highlight(path=["A1", "A2"], actor="A2")
    h.merge(other)
    assert (h.actor, h.path, h.target) == ("A2", ["A1", "A2"], "B2")


# --- tests an order rolled -----------------------------------------------------------------------

BREAKDOWN = {"base_label": "Agility (AG)", "base": 40,
             "modifiers": [{"label": "Difficult terrain (DTV 2)", "value": -10, "source": "DTV"},
                           {"label": "Storm", "value": -20, "source": "A44"}],
             "cap": 60, "raw_total": -30, "total_modifier": -30, "target": 10}
D100 = {"purpose": "Rei hides", "breakdown": BREAKDOWN, "roll": 7, "target": 10, "success": True, "degrees": 0}
DEEP_WATER = {"purpose": "Eva keeps afloat on C3", "breakdown": BREAKDOWN, "roll": 55, "target": 10,
              "success": False, "degrees": 4, "test": "deep_water", "unit": "Eva", "cell": "C3", "skill": "athletics"}


def test_a_d100_test_reads_its_breakdown_typed_and_stores_back_the_same() -> None:
    test = load_test(json.loads(json.dumps(D100)), CORE_TESTS)
    assert isinstance(test, D100Test) and not isinstance(test, strategic.DeepWaterTest)
    assert test.breakdown == Tally("Agility (AG)", 40, (Modifier("Difficult terrain (DTV 2)", -10, "DTV"),
                                                         Modifier("Storm", -20, "A44")), 60, -30, -30, 10)
    assert (test.roll, test.target, test.success, test.degrees) == (7, 10, True, 0)
    _same(test, D100)


def test_a_terrain_test_keeps_its_kind_after_the_d100_terms() -> None:
    kinds = system_of("strategic-e").test_kinds
    test = load_test(json.loads(json.dumps(DEEP_WATER)), kinds)
    assert isinstance(test, strategic.DeepWaterTest)
    assert (test.unit, test.cell, test.skill, test.success) == ("Eva", "C3", "athletics", False)
    _same(test, DEEP_WATER)


TO_HIT = {"test": "to_hit", "die": 4, "modifiers": [{"label": "Short range", "value": 1, "source": "A74"}],
          "total": 5, "ss": 4, "hit": True, "miss": 0, "weapon": "Rifle", "band": "S", "target": "B", "unit": "A",
          "cm": 20, "mode": "close", "strike_back": True}
DAMAGE = {"test": "damage", "target": "B", "die": 3, "pf": 5, "cover": 1, "pen": 4, "value": 4, "large_scale": False,
          "result": "wounded", "source": "Rifle", "final": "ooa"}
CREW = {"test": "damage", "target": "APC crew 1", "die": 2, "pf": 0, "pen": 5, "value": 1, "result": "ooa",
        "source": "pilot compartment"}
HATCH = {"test": "hatch", "unit": "A", "target": "APC", "die": 5, "pen": 3, "pf": 4, "inside": True, "value": 4,
         "need": 3, "broken": True, "weapon": "bare hands"}


@pytest.mark.parametrize(("literal", "cls"), [(TO_HIT, ca.ToHitTest), (DAMAGE, ca.DamageTest), (CREW, ca.DamageTest),
                                              (HATCH, ca.HatchTest)])
def test_combat_action_tests_read_typed_and_store_back(literal: dict[str, Any], cls: type) -> None:
    test = load_test(json.loads(json.dumps(literal)), system_of("combat-action").test_kinds)
    assert type(test) is cls
    _same(test, literal)


def test_combat_action_test_fields_are_typed() -> None:
    kinds = system_of("combat-action").test_kinds
    shot = load_test(TO_HIT, kinds)
    assert isinstance(shot, ca.ToHitTest) and shot.modifiers == (Modifier("Short range", 1, "A74"),)
    assert shot.strike_back is True and shot.mode == "close"
    crew = load_test(CREW, kinds)
    assert isinstance(crew, ca.DamageTest) and crew.cover is None and crew.final is None and crew.large_scale is None


def test_surface_tests_read_typed_and_store_back() -> None:
    kinds = system_of("surface").test_kinds
    morale = {"test": "morale", "unit": "u3", "die": 10, "roll": 8, "morale": 6, "stay_band": 2, "result": "stays disrupted"}
    escape = {"test": "escape", "unit": "u4", "roll": 61, "needed": 50, "result": "lost"}
    m, e = load_test(morale, kinds), load_test(escape, kinds)
    assert isinstance(m, surface.MoraleTest) and m.stay_band == 2 and m.result == "stays disrupted"
    assert isinstance(e, surface.EscapeTest) and e.needed == 50
    _same(m, morale)
    _same(e, escape)


def test_a_test_of_an_unknown_kind_or_shape_keeps_its_stored_form() -> None:
    odd = {"test": "morale", "unit": "u3", "roll": 8}  # missing fields: an older shape
    kept = load_test(odd, system_of("surface").test_kinds)
    assert isinstance(kept, StoredTest) and kept.kind == "morale"
    _same(kept, odd)
    elsewhere = load_test(TO_HIT, system_of("strategic-e").test_kinds)  # a kind this system does not record
    assert isinstance(elsewhere, StoredTest) and elsewhere.kind == "to_hit"
    assert elsewhere.to_dict() == TO_HIT


# --- a whole logged outcome ----------------------------------------------------------------------

STORED_HIDE = {
    "order": "hide unit:Rei", "kind": "hide", "actor": "Rei",
    "rolls": [],
    "tests": [D100, DEEP_WATER], "effects": [],
    "highlight": {"actor": "C3", "marks": [{"cell": "C3", "text": "mine"}]}, "data": {"action": "half"},
    "hidden": False,
}


def test_a_logged_outcome_loads_its_tests_and_highlight_typed_and_stores_back_the_same() -> None:
    system = system_of("strategic-e")
    stored = json.loads(json.dumps(STORED_HIDE))
    outcome = Outcome.from_dict(stored, system.effect_kinds, system.test_kinds)
    plain, deep = outcome.tests
    assert type(plain) is D100Test and isinstance(deep, strategic.DeepWaterTest)
    assert outcome.tests_of(strategic.DeepWaterTest) == [deep] and len(outcome.tests_of(D100Test)) == 2
    assert outcome.highlight == Highlight(actor="C3", marks=[Mark("C3", "mine")])
    _same(outcome, STORED_HIDE)
    again = Outcome.from_dict(json.loads(json.dumps(outcome.to_dict())), system.effect_kinds, system.test_kinds)
    assert again.tests == outcome.tests and again.highlight == outcome.highlight
