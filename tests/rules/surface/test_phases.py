"""The planning phase under the play-by-post clock: start, end, who owes a plan, and what a passed deadline orders."""

from __future__ import annotations

import pytest

from rules.errors import GameError
from rules.orders import Order
from rules.systems.surface.details import SurfaceReport
from rules.systems.surface.orders import Resolve
from rules.systems.surface.phases import PHASES
from tests.rules.surface.helpers import add, battle, give


def two_sides():  # type: ignore[no-untyped-def]
    b = battle()
    add(b, "R0", "Red", accuracy=1, evade=4, attack_strength=0, armor=5)
    add(b, "B0", "Blue", accuracy=1, evade=4, attack_strength=0, armor=5)
    return b


def test_no_phase_before_start_or_after_the_fight() -> None:
    """The clock runs only while the plans are open: after /battle start, until the engagement is fought."""
    b = two_sides()
    assert PHASES.waiting(b) is None
    give(b, "start")
    waiting = PHASES.waiting(b)
    assert waiting is not None and waiting.key == "surface|1|plans" and waiting.due == ("Red", "Blue")
    give(b, "surface-plan side:Blue")
    assert PHASES.waiting(b).due == ("Red",)  # type: ignore[union-attr]
    give(b, "surface-plan side:Red")
    assert PHASES.waiting(b).due == ()  # type: ignore[union-attr]
    give(b, "surface-resolve")
    assert PHASES.waiting(b) is None
    give(b, "surface-next-turn")
    assert PHASES.waiting(b).key == "surface|2|plans"  # type: ignore[union-attr]
    give(b, "end")
    assert PHASES.waiting(b) is None and b.status == "ended"


def test_deadline_orders_fight_with_default_or_standing_plans() -> None:
    """Policy hold: missing plans take the default; policy default: the side's plan of the last turn."""
    b = two_sides()
    assert PHASES.on_deadline(b, "hold") == [Resolve(force=True)]
    assert PHASES.on_deadline(b, "default") == [Resolve(force=True, standing=True)]
    assert set(PHASES.policies) == {"wait", "hold", "default"}


def test_a_standing_plan_repeats_last_turn_without_its_drops() -> None:
    """A side without a plan repeats last turn's Intensity, Daring and siege; drops were for that turn only."""
    b = two_sides()
    give(b, "start")
    give(b, "surface-plan side:Red intensity:2 daring:1 dropped:R0 besieged:true")
    give(b, "surface-plan side:Blue intensity:0")
    give(b, "surface-resolve")
    give(b, "surface-next-turn")
    give(b, "surface-plan side:Blue intensity:1")
    report = give(b, "surface-resolve force:true standing:true").details
    assert isinstance(report, SurfaceReport)
    assert report.fallback == {"Red": "standing"}
    assert report.plans["Red"].to_dict() == {"intensity": 2, "daring": 1, "dropped": [], "besieged": True}
    assert report.rounds_planned == 2 + 2 + 1


def test_without_a_last_plan_the_standing_fallback_is_the_default() -> None:
    """A65: "Each plan's rounds = 2 + Intensity(0-2) + Daring(0-1), default 3" (`default_intensity` 1, Daring 0)."""
    b = two_sides()
    give(b, "start")
    report = give(b, "surface-resolve force:true standing:true").details
    assert isinstance(report, SurfaceReport)
    assert report.fallback == {"Red": "default", "Blue": "default"} and report.rounds_planned == 3


def test_default_intensity_override() -> None:
    """The default plan's Intensity is a constant: at 0 a forced battle with no plans fights 2 rounds."""
    b = two_sides()
    give(b, "set-rule key:default_intensity value:0")
    give(b, "start")
    assert give(b, "surface-resolve force:true").details.rounds_fought == 2


def test_start_needs_two_forces_and_end_stops_everything() -> None:
    """A force with no units cannot fight: start refuses it, naming the empty side."""
    b = battle()
    add(b, "R0", "Red")
    b.ensure_side("Blue")
    with pytest.raises(GameError, match="Blue has no units"):
        give(b, "start")
    add(b, "B0", "Blue")
    give(b, "start")
    with pytest.raises(GameError, match="already active"):
        give(b, "start")
    give(b, "end")
    for text in ("surface-plan side:Red", "surface-resolve force:true", "add-unit name:X side:Red at:A1",
                 "surface-next-turn", "end"):
        with pytest.raises(GameError):
            give(b, text)


def test_order_text_forms_round_trip() -> None:
    """The new option of resolve round-trips through its text form."""
    for text in ("surface-resolve force:true standing:true", "start", "end"):
        order = Order.parse(text)
        assert Order.parse(str(order)) == order
