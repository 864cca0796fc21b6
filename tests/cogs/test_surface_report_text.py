"""The battle report's words, read from the engagements of a saved Surface battle: every roll a player checks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cogs.surface.report import fate_words, plan_words, report_lines, summary_fields
from rules.battle import Battle
from rules.systems.surface.details import SurfaceReport
from rules.systems.surface.state import logged_report, state

FIXTURE = Path(__file__).parent.parent / "fixtures" / "saved" / "surface.json"


def _fought() -> tuple[Battle[Any], list[SurfaceReport]]:
    saved = json.loads(FIXTURE.read_text(encoding="utf-8"))
    battle = Battle.from_dict(saved["final_state"])
    reports = [logged_report(battle, e["outcome"]) for e in saved["orders"] if e["kind"] == "surface-resolve"]
    assert all(r is not None for r in reports)
    return battle, [r for r in reports if r is not None]


def test_the_log_shows_initiative_priorities_morale_and_the_rally_roll() -> None:
    _, (first, _) = _fought()
    lines = report_lines(first)
    assert lines[0].startswith("__Round 1__ \u00b7 AIV (IV+roll): Tank Column 13 (4+9)")
    assert lines[1].startswith("Target priority (balls): ") and "Zim-Drop 3" in lines[1]
    assert any("morale d10" in line and ": routs" in line for line in lines)
    # A66: "per routed unit, `1d10 ≤ Rally` → rallies ... otherwise the unit is destroyed"; Rally 4, rolled 10.
    assert "After the battle, **Warrior Swarm** disintegrates (d10 10 vs Rally 4)" in lines


def test_the_summary_reveals_the_plans_and_counts_the_fates() -> None:
    battle, (first, second) = _fought()
    assert plan_words(first, "Marines") == "Plan: intensity 1, daring 1, 1 dropped from transports"
    assert plan_words(second, "Bugs") == "No plan, so last turn's plan: intensity 0, daring 0, besieged"
    assert fate_words(first.units.values(), "Bugs") == "1 routed and disintegrated, 2 fought on"
    fields = dict(summary_fields(second))
    assert fields["Rounds"] == "3 fought of 3 planned"
    assert fields["Marines"].startswith("**Draw** \u00b7 lost")
    # The battle keeps the last report without its rounds; its summary reads the same.
    kept = state(battle).report
    assert kept is not None and summary_fields(kept) == summary_fields(second) and report_lines(kept) == []
