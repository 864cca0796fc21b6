"""A Surface battle saved two engagements in (plans, standing, last report, and the logged rounds) loads and plays on.

The fixture holds the battle's saved document after its second game turn was fought, and the log of every order
that led there, each outcome as the event log stores it.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from rules.battle import Battle
from rules.dice import Dice
from rules.orders import Order
from rules.outcome import Outcome
from rules.systems.surface.details import SurfaceReport

FIXTURE = Path(__file__).parent.parent / "fixtures" / "saved" / "surface.json"


def _saved() -> dict[str, Any]:
    found: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return found


def _battle() -> Battle[Any]:
    return Battle.from_dict(_saved()["final_state"])


def _logged(battle: Battle[Any]) -> list[Outcome]:
    """Return the logged outcomes of the engagements fought, oldest first, read through the system's tables."""
    system = battle.system
    return [Outcome.from_dict(entry["outcome"], system.effect_kinds, system.test_kinds, system.detail_kinds)
            for entry in _saved()["orders"] if entry["kind"] == "surface-resolve"]


def _give(battle: Battle[Any], text: str, seed: int) -> Outcome:
    return battle.apply(Order.parse(text), Dice(random.Random(seed)))


def test_the_saved_battle_keeps_its_turn_plans_standing_and_last_report() -> None:
    battle = _battle()
    stored = battle.to_dict()["turn"]["surface"]
    assert stored["turn"] == 2 and stored["resolved"] is True
    assert stored["plans"]["marines"] == {"intensity": 0, "daring": 1, "dropped": [], "besieged": False}
    assert "bugs" not in stored["plans"]
    # The plan a side fought last turn stays as its standing plan (the first turn's drop was for that turn).
    assert stored["last_plans"]["marines"]["dropped"] == [battle.unit("Zim-Drop").id]
    assert stored["standing"]["bugs"] == {"leader": "Brain", "ability": 1, "blockaded": True, "last_ground": True}
    report = stored["report"]
    assert "log" not in report and report["turn"] == 2 and report["fallback"] == {"Bugs": "standing"}
    assert report["rounds_fought"] == report["rounds_planned"] == 3


def test_the_saved_battle_round_trips_exactly() -> None:
    saved = _saved()["final_state"]
    # Sides of every system once saved strategic's feature-point keys, all empty for a Surface battle: they are
    # read and dropped; everything else saves back as it was.
    expected = {**saved, "sides": [{k: v for k, v in side.items() if not k.startswith("fp_")} for side in saved["sides"]]}
    assert expected["sides"] != saved["sides"], "the fixture was saved with the old keys"
    assert Battle.from_dict(saved).to_dict() == expected


def test_the_logged_engagements_read_back_with_every_round() -> None:
    battle = _battle()
    first, second = _logged(battle)
    assert isinstance(first.details, SurfaceReport) and isinstance(second.details, SurfaceReport)
    assert first.details.rounds_fought == len(first.details.log) == 4
    assert second.details.rounds_fought == len(second.details.log) == 3
    swarm = next(uid for uid, fate in first.details.units.items() if fate.name == "Warrior Swarm")
    assert first.details.units[swarm].fate == "disintegrates" and first.details.units[swarm].routed
    # Every unit fighting acts once a round, in initiative order.
    opening = first.to_dict()["data"]["log"][0]
    assert len(opening["initiative"]) == len(opening["actions"]) == 6
    stored = [e["outcome"] for e in _saved()["orders"] if e["kind"] == "surface-resolve"]
    assert [o.to_dict() for o in (first, second)] == stored


def test_the_saved_battle_plays_a_third_game_turn() -> None:
    """A65: "Each plan's rounds = 2 + Intensity(0-2) + Daring(0-1)"; the larger plan sets the rounds."""
    battle = _battle()
    turn = _give(battle, "surface-next-turn", 1)
    assert turn.effects[0].to_dict()["turn"] == 3
    assert battle.to_dict()["turn"]["surface"]["plans"] == {}
    _give(battle, "surface-plan side:Marines intensity:2 daring:1", 2)
    _give(battle, "surface-plan side:Bugs intensity:1 daring:0", 3)
    fought = _give(battle, "surface-resolve", 4)
    assert isinstance(fought.details, SurfaceReport)
    assert fought.details.turn == 3 and fought.details.rounds_planned == 5
    assert 1 <= fought.details.rounds_fought <= 5
    assert battle.to_dict()["turn"]["surface"]["report"]["turn"] == 3
