"""A whole engagement through the orders: plans, rounds (A65), early end (A71), bad input, replay."""

from __future__ import annotations

import json

import pytest

from rules.errors import GameError
from rules.orders import Order
from rules.replay import Step, replay, same_state
from rules.systems.surface.details import SurfaceReport
from rules.systems.surface.state import state
from tests.rules.surface.helpers import add, battle, give


def sturdy(b, side, n=2, **stats):  # type: ignore[no-untyped-def]
    """Units that cannot hurt each other, so every planned round is fought."""
    for i in range(n):
        add(b, f"{side}{i}", side, accuracy=1, evade=4, attack_strength=0, armor=5, **stats)


def test_rounds_are_the_larger_plan() -> None:
    """A65: "rounds = max(planA.rounds, planB.rounds). Each plan's rounds = 2 + Intensity(0-2) + Daring(0-1)"."""
    b = battle()
    sturdy(b, "Red")
    sturdy(b, "Blue")
    give(b, "start")
    give(b, "surface-plan side:Red intensity:2 daring:1")
    give(b, "surface-plan side:Blue intensity:0")
    out = give(b, "surface-resolve")
    assert out.details.rounds_planned == 5 and out.details.rounds_fought == 5


@pytest.mark.constant("rounds_base")
def test_rounds_base_override() -> None:
    """A65's base is a constant: with 4, a plan of Intensity 0 and Daring 0 fights 4 rounds."""
    b = battle()
    sturdy(b, "Red")
    sturdy(b, "Blue")
    give(b, "set-rule key:rounds_base value:4")
    give(b, "start")
    give(b, "surface-plan side:Red intensity:0")
    give(b, "surface-plan side:Blue intensity:0")
    assert give(b, "surface-resolve").details.rounds_fought == 4


def test_battle_ends_early_when_a_side_has_nothing_left() -> None:
    """A65: "The battle also ends early when one side has no eligible units"."""
    b = battle()
    add(b, "Big", "Red", accuracy=20, evade=20, attack_strength=20, armor=20, capacity=20)
    add(b, "Small", "Blue", accuracy=1, evade=1, attack_strength=1, armor=1, capacity=1)
    give(b, "start")
    give(b, "surface-plan side:Red intensity:2 daring:1")
    give(b, "surface-plan side:Blue intensity:2 daring:1")
    out = give(b, "surface-resolve", seed=3)
    assert out.details.rounds_fought < 5
    assert out.details.verdict.levels["Blue"] == "decisive defeat"
    assert b.unit("Small").state == "destroyed"


def test_collateral_count_is_one_per_shot() -> None:
    """A70: "+1 Collateral Damage per firing action, hit or miss" (sturdy forces: 4 shots a round)."""
    b = battle()
    sturdy(b, "Red")
    sturdy(b, "Blue")
    give(b, "start")
    give(b, "surface-plan side:Red intensity:0")
    give(b, "surface-plan side:Blue intensity:0")
    out = give(b, "surface-resolve")
    assert out.details.collateral_count == 4 * 2
    assert sum(out.details.collateral.values()) == 8


def test_every_roll_has_a_purpose_and_every_step_is_logged() -> None:
    """Every roll goes through the injected dice with a purpose; the report keeps each action."""
    b = battle()
    sturdy(b, "Red")
    sturdy(b, "Blue")
    give(b, "start")
    outcome = give(b, "surface-resolve force:true")
    out = outcome.details
    assert isinstance(out, SurfaceReport)
    assert out.defaulted == ("Red", "Blue") and out.rounds_fought == 3
    assert all(r for r in out.rounds[0].actions)
    assert len(out.rounds[0].initiative) == 4
    assert all(r.purpose for r in outcome.rolls)
    kept = b.turn.systems["surface"]["report"]  # as saved: the battle keeps the result, not the rounds
    assert "log" not in kept and kept["rounds_fought"] == 3 and kept["turn"] == 1


def test_orders_round_trip() -> None:
    """Every surface order's text form parses back to itself."""
    for text in ("surface-side side:Red leader:Kell ability:2 blockaded:true last_ground:true",
                 "surface-plan side:Red intensity:2 daring:1 dropped:A,B besieged:true",
                 "surface-resolve force:true", "surface-next-turn"):
        order = Order.parse(text)
        assert Order.parse(str(order)) == order


def _refused(b, text, fragment):  # type: ignore[no-untyped-def]
    before = json.dumps(b.to_dict(), sort_keys=True)
    with pytest.raises(GameError) as err:
        give(b, text)
    assert fragment in str(err.value)
    assert json.dumps(b.to_dict(), sort_keys=True) == before


def test_bad_input_changes_nothing() -> None:
    """Bad input gets a specific message and changes nothing."""
    b = battle()
    add(b, "R0", "Red")
    _refused(b, "start", "exactly two forces")
    add(b, "B0", "Blue")
    _refused(b, "surface-plan side:Red", "has not started")
    _refused(b, "surface-resolve force:true", "has not started")
    give(b, "start")
    _refused(b, 'add-unit name:X side:Red at:A1 stats:\'{"capacity":0}\'', "Damage Capacity")
    _refused(b, 'add-unit name:X side:Red at:A1 stats:\'{"accuracy":-1}\'', "ratings are 0 to 99")
    _refused(b, 'add-unit name:X side:Red at:A1 stats:\'{"accuracy":100}\'', "ratings are 0 to 99")
    _refused(b, 'add-unit name:X side:Red at:A1 stats:\'{"damage":3}\'', "0 to 2")
    _refused(b, 'add-unit name:X side:Red at:A1 stats:\'{"attack_strength":0,"armor":0}\'', "divides")
    _refused(b, "surface-plan side:Red intensity:3", "Intensity is 0 to 2")
    _refused(b, "surface-plan side:Red dropped:B0", "not a unit of Red")
    _refused(b, "surface-plan side:Green", "no side `Green`")
    give(b, "surface-plan side:Red")
    _refused(b, "surface-resolve", "Waiting for the plan of Blue")
    give(b, "surface-plan side:Blue")
    give(b, "surface-resolve")
    _refused(b, "surface-plan side:Red", "has been resolved")


def test_plan_outcome_is_hidden_and_carries_no_plan() -> None:
    """A plan is secret until resolution: its outcome is hidden and shows no intensity or daring."""
    b = battle()
    add(b, "R0", "Red")
    add(b, "B0", "Blue")
    give(b, "start")
    out = give(b, "surface-plan side:Red intensity:2 daring:1")
    assert out.hidden and "intensity" not in json.dumps(out.to_dict()["data"])
    assert out.details.ready is False
    assert give(b, "surface-plan side:Blue").details.ready is True


def test_next_turn_keeps_survivors_and_clears_plans() -> None:
    """The GM opens the next game turn: destroyed units leave, plans are cleared, leaders stay."""
    b = battle()
    add(b, "Big", "Red", accuracy=20, evade=20, attack_strength=20, armor=20, capacity=20)
    add(b, "Small", "Blue", accuracy=1, evade=1, attack_strength=1, armor=1, capacity=1)
    give(b, "surface-side side:Red leader:Kell ability:2")
    give(b, "start")
    give(b, "surface-resolve force:true", seed=3)
    give(b, "surface-next-turn")
    assert [u.name for u in b.iter_units()] == ["Big"]
    assert state(b).plans == {} and state(b).standing_of("Red").leader == "Kell"


def test_replay_equals_state() -> None:
    """Replaying the log with its recorded dice rebuilds the same battle."""
    b = battle()
    initial = b.to_dict()
    steps = []
    texts = ['add-unit name:M1 side:Red at:A1 owner:1 stats:\'{"type":"space-marines","flags":["powered_armor"]}\'',
             'add-unit name:M2 side:Red at:A1 owner:1 stats:\'{"type":"battleoids"}\'',
             'add-unit name:R1 side:Blue at:A1 owner:2 stats:\'{"type":"rebels"}\'',
             'add-unit name:R2 side:Blue at:A1 owner:2 stats:\'{"type":"armor"}\'', "start",
             "surface-plan side:Red intensity:2 daring:1 dropped:M2", "surface-plan side:Blue", "surface-resolve"]
    for seq, text in enumerate(texts, start=1):
        out = give(b, text, seed=seq)
        steps.append(Step.from_outcome(seq, text, out.to_dict()))
    again = replay(initial, steps)
    assert same_state(again.to_dict(), b.to_dict())
    report = state(b).report
    assert report is not None and report.rounds_fought >= 1
