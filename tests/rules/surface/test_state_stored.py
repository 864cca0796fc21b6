"""Surface's typed state, report and round log store as the JSON the battle and its log always held."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rules.battle import Battle
from rules.details import TURN_KEYS
from rules.systems.surface.details import SurfaceReport
from rules.systems.surface.plans import Plan, Standing
from rules.systems.surface.rounds import Action, Round
from rules.systems.surface.state import SurfaceState, state, store
from tests.rules.surface.helpers import add, battle, give

FIXTURE = Path(__file__).parent.parent.parent / "fixtures" / "saved" / "surface.json"


def _saved() -> dict[str, Any]:
    found: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return found


def _resolved() -> list[dict[str, Any]]:
    """Return the stored data of each engagement's logged outcome, without the core's turn notes."""
    return [{k: v for k, v in e["outcome"]["data"].items() if k not in TURN_KEYS or k == "fallback"}
            for e in _saved()["orders"] if e["kind"] == "surface-resolve"]


def test_the_saved_state_reads_typed_and_stores_back_exactly() -> None:
    doc = _saved()["final_state"]["turn"]["surface"]
    read = SurfaceState.from_dict(doc)
    assert read.to_dict() == doc
    assert SurfaceState.from_dict(read.to_dict()) == read
    assert read.turn == 2 and read.resolved and read.plan("Marines") == Plan(0, 1)
    assert read.standing_of("Bugs") == Standing("Brain", 1, True, True) and read.standing_of("Nobody") == Standing()
    assert read.report is not None and read.report.log is None and read.report.rounds == ()
    assert read.report.verdict.levels["Marines"] == "draw" and read.report.fallback == {"Bugs": "standing"}
    assert read.last_plans is not None and read.last_plans["bugs"].besieged


def test_every_logged_report_and_round_stores_back_exactly() -> None:
    for data in _resolved():
        report = SurfaceReport.build(data)
        assert report.to_dict() == data
        assert SurfaceReport.build(report.to_dict()) == report
        for stored, rnd in zip(data["log"], report.rounds, strict=True):
            assert isinstance(rnd, Round) and rnd.to_dict() == stored and Round.build(stored) == rnd
        # The battle keeps the report without its rounds.
        assert "log" not in report.kept().to_dict() and report.kept().rounds_fought == report.rounds_fought


def test_the_logged_rounds_read_as_typed_actions() -> None:
    first = SurfaceReport.build(_resolved()[0])
    shots = [a for r in first.rounds for a in r.actions if a.fired]
    assert shots and all(a.hits is not None and a.result is not None and a.lottery is not None for a in shots)
    routed = [a for r in first.rounds for a in r.actions if a.morale is not None and a.morale.result == "routs"]
    assert routed and all(not a.fired for a in routed)
    assert sum(r.collateral for r in first.rounds) == first.collateral_count
    # The first round lists every unit's priority, later rounds those that changed: "dropped into battle during
    # this, the first Round of combat that turn" (002:L7, A61), so the dropped unit is back to its base in round 2.
    assert len(first.rounds[0].tpv) == 6 and first.rounds[0].tpv["u2"].tpv == 3
    assert list(first.rounds[1].tpv) == ["u2"] and first.rounds[1].tpv["u2"].tpv == 1


def test_a_skipped_turn_and_a_unit_without_target_store_only_their_keys() -> None:
    assert Action(unit="u1", skipped="destroyed").to_dict() == {"unit": "u1", "skipped": "destroyed"}
    assert Action(unit="u2", status="active", no_target=True).to_dict() == {"unit": "u2", "status": "active",
                                                                            "no_target": True}


def test_an_early_report_shape_is_kept_as_stored() -> None:
    """A report this version does not read (an early version's, without fates or turn) still saves back unchanged."""
    doc = {"standing": {}, "plans": {}, "resolved": True, "turn": 1,
           "report": {"sides": ["Red", "Blue"], "rounds_fought": 2, "log": []}}
    read = SurfaceState.from_dict(doc)
    assert read.report is None and read.to_dict() == doc


def test_a_battle_without_surface_state_reads_a_fresh_one_and_stores_it() -> None:
    b = battle()
    add(b, "R", "Red")
    add(b, "B", "Blue")
    assert state(b) == SurfaceState() and "surface" not in b.turn.systems
    give(b, "start")
    assert b.turn.systems["surface"] == {"standing": {}, "plans": {}, "resolved": False, "turn": 1, "report": None}
    store(b, SurfaceState(turn=4))
    assert Battle.from_dict(b.to_dict()).turn.systems["surface"]["turn"] == 4


def test_a_plan_undone_is_gone_from_the_state_read_after_it() -> None:
    """Undo restores the state before the order (DESIGN 3), and the state the rules read follows it."""
    b = battle()
    add(b, "R", "Red")
    add(b, "B", "Blue")
    give(b, "start")
    give(b, "surface-plan side:Red intensity:2")
    assert state(b).plan("Red") == Plan(2, 0) and state(b) is state(b)
    b.undo()
    assert state(b).plan("Red") is None and state(b).plans == {}
    give(b, "surface-plan side:Red intensity:1")
    assert state(b).plan("red") == Plan(1, 0)
