"""Replay: the log with its recorded dice rebuilds the battle exactly, and says where it cannot."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.battle import Battle
from rules.coords import Cell
from rules.dice import Dice
from rules.orders import Move, Order, Roll, SkillTest
from rules.replay import ReplayError, Step, first_difference, replay, same_state, steps_from_log
from rules.turnorders import EndTurn, StandingOrder, StandingTurn
from tests.rules.conftest import add, start

RIFLE = {"name": "Rifle", "range": 20, "range_unit": "km", "damage": "2d10", "type": "I", "pen": 2}


def played(battle: Battle, orders: list[Order], seed: int = 3) -> list[Step]:
    """Apply orders with random dice and return them as the log would hold them."""
    rng = random.Random(seed)
    steps = []
    for i, order in enumerate(orders, start=2):
        outcome = battle.apply(order, Dice(random.Random(rng.getrandbits(32))))
        steps.append(Step.from_outcome(i, str(order), outcome.to_dict()))
    return steps


def small_battle() -> Battle:
    battle = Battle.new("strategic-e", 12, 10, "Replay")
    add(battle, "Eva-01", "NERV", "B2", ag=45, bs=50, weapons=[RIFLE])
    add(battle, "Sachiel", "Angels", "H8", ag=38, wounds=30, weapons=[RIFLE])
    return battle


def test_replay_with_recorded_dice_rebuilds_the_state() -> None:
    battle = small_battle()
    initial = battle.to_dict()
    start(battle, "side")
    orders: list[Order] = [
        SkillTest(unit="Eva-01", stat="ag", modifier=10), Move(unit="Eva-01", to=Cell.parse("C3"), mode="half"),
        EndTurn(unit="Eva-01"), Roll(dice="2d10+5", purpose="damage", hidden=True),
        StandingOrder(unit="Sachiel", text="move to:G7 mode:half"), StandingTurn(unit="Sachiel"),
    ]
    steps = [Step(0, "set-turn-mode mode:side"), Step(1, "start"), *played(battle, orders)]
    rebuilt = replay(initial, steps)
    assert same_state(rebuilt.to_dict(), battle.to_dict())
    assert rebuilt.unit("Sachiel").cell == Cell.parse("G7")


def test_steps_skip_undone_and_bookkeeping_entries() -> None:
    log = [
        {"seq": 1, "kind": "create", "order": "create", "outcome": None, "undone": False},
        {"seq": 3, "kind": "roll", "order": "roll dice:d6", "outcome": {"rolls": [{"faces": [4]}]}, "undone": True},
        {"seq": 2, "kind": "roll", "order": "roll dice:2d6", "outcome": {"rolls": [{"faces": [1, 2]}]}, "undone": False},
        {"seq": 4, "kind": "undo", "order": "undo 1", "outcome": {"undone": [3]}, "undone": False},
    ]
    assert steps_from_log(log) == [Step(2, "roll dice:2d6", (1, 2))]


def test_a_step_with_too_few_recorded_dice_is_caught() -> None:
    battle = small_battle()
    with pytest.raises(ReplayError, match="rolls 2 dice on replay but the log recorded 1") as caught:
        replay(battle.to_dict(), [Step(7, "roll dice:2d6", (3,))])
    assert caught.value.seq == 7


def test_a_step_with_spare_dice_is_caught() -> None:
    with pytest.raises(ReplayError, match="rolls 1 dice on replay but the log recorded 2"):
        replay(small_battle().to_dict(), [Step(2, "roll dice:d6", (3, 4))])


def test_a_refused_or_unreadable_step_names_its_number() -> None:
    with pytest.raises(ReplayError, match=r"#5 .* refused on replay"):
        replay(small_battle().to_dict(), [Step(5, "move unit:Eva-01 to:C3")])
    with pytest.raises(ReplayError, match=r"#6 .* cannot be read"):
        replay(small_battle().to_dict(), [Step(6, "fly unit:Eva-01")])
    with pytest.raises(ReplayError, match="cannot show 9"):
        replay(small_battle().to_dict(), [Step(8, "roll dice:d6", (9,))])


def test_first_difference_points_at_the_field() -> None:
    a = small_battle().to_dict()
    b = small_battle().to_dict()
    assert first_difference(a, b) is None
    b["units"][1]["wounds"] = 3
    assert first_difference(a, b) == "units[1].wounds"
    b["units"].pop()
    assert first_difference(a, b) == "units (length 2 against 1)"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(["act", "half", "end", "roll"]), max_size=12), st.integers(0, 2**16))
def test_any_legal_sequence_replays_to_the_same_state(script: list[str], seed: int) -> None:
    battle = small_battle()
    initial = battle.to_dict()
    start(battle, "free")
    steps = [Step(0, "set-turn-mode mode:free"), Step(1, "start")]
    rng = random.Random(seed)
    for n, word in enumerate(script, start=2):
        unit = rng.choice(["Eva-01", "Sachiel"])
        here = battle.unit(unit).cell
        order: Order = {
            "act": SkillTest(unit=unit, stat="ag"),
            "half": Move(unit=unit, to=Cell(min(here.x + 1, 11), here.y), mode="half"),
            "end": EndTurn(unit=unit),
            "roll": Roll(dice="3d10"),
        }[word]
        if not battle.is_legal(order):
            continue
        outcome = battle.apply(order, Dice(random.Random(rng.getrandbits(32))))
        steps.append(Step.from_outcome(n, str(order), outcome.to_dict()))
    assert same_state(replay(initial, steps).to_dict(), battle.to_dict())
