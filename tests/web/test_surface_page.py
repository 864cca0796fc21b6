"""The web view's page of a Surface battle, read from a saved battle and its log: plans made, the rounds fought."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.webfront import Logged
from rules.battle import Battle
from rules.visibility import PUBLIC
from storage.records import EventRecord
from web.surface import plans_made, rounds_html, surface_board

FIXTURE = Path(__file__).parent.parent / "fixtures" / "saved" / "surface.json"


def _saved() -> tuple[Battle[Any], Logged]:
    saved = json.loads(FIXTURE.read_text(encoding="utf-8"))
    events = [EventRecord(battle_id=1, seq=e["seq"], actor_id=0, kind=e["kind"], order_text=e["order"],
                          outcome=e["outcome"], hidden=bool(e["outcome"].get("hidden")), undone=False,
                          created_at=float(e["seq"])) for e in saved["orders"]]
    return Battle.from_dict(saved["final_state"]), Logged({}, events)


def test_the_page_says_which_sides_planned_and_never_what() -> None:
    battle, logged = _saved()
    assert plans_made(battle) == {"Marines": True, "Bugs": False}
    page = surface_board(battle, logged, PUBLIC, battle)
    assert "plan committed" in page and "no plan yet" in page
    assert "intensity" not in page.lower() and "daring" not in page.lower()


def test_the_last_engagement_shows_its_verdict_chart_and_every_round() -> None:
    battle, logged = _saved()
    page = rounds_html(logged, battle)
    assert '<p class="verdict"><bdi>Marines</bdi>: <bdi>draw</bdi>; <bdi>Bugs</bdi>: <bdi>draw</bdi></p>' in page
    assert page.count('<section class="round">') == 3 and "<h3>Round <bdi>3</bdi></h3>" in page
    assert "<svg" in page and "<caption>Losses by the end of each round</caption>" in page
    # A shot names its target by the name the report recorded, with its lottery and hits.
    assert "fires at" in page and "balls" in page and " hits" in page


def test_a_page_up_to_the_first_engagement_shows_that_one() -> None:
    battle, logged = _saved()
    first = next(e.seq for e in logged.events if e.kind == "surface-resolve")
    page = rounds_html(logged, battle, upto=first)
    assert page.count('<section class="round">') == 4
    assert rounds_html(logged, battle, upto=first - 1) == "<p>No engagement has been fought yet.</p>"
