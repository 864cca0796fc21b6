"""When a battle is over by the core's reading: a side with no unit left in the fight has lost."""

from __future__ import annotations

import random

import pytest

from rules.battle import Battle
from rules.coords import Cell
from rules.dice import Dice
from rules.ending import last_side_standing, require_two_sides
from rules.errors import IllegalOrderError
from rules.orders import AddUnit


def _battle(*units: tuple[str, str, str]) -> Battle:
    battle = Battle.new("strategic-e", 10, 10, "Core")
    for name, side, at in units:
        battle.apply(AddUnit(name=name, side=side, at=Cell.parse(at), stats={"ag": 40}), Dice(random.Random(1)))
    return battle


def test_a_side_all_destroyed_routed_or_off_the_table_has_lost() -> None:
    """A side whose every unit is destroyed, routing or taken off the table can no longer fight: the battle is over."""
    battle = _battle(("A", "Red", "B2"), ("B", "Blue", "H8"))
    battle.status = "active"
    assert last_side_standing(battle) is None
    battle.unit("B").statuses = ["routing"]
    verdict = last_side_standing(battle)
    assert verdict is not None and verdict.standing == ("Red",) and "Blue has no unit left" in verdict.reason
    battle.unit("A").statuses = ["routing"]
    both = last_side_standing(battle)
    assert both is not None and both.standing == () and "nobody is left" in both.reason


def test_a_side_whose_units_were_removed_still_counts_as_beaten() -> None:
    battle = _battle(("A", "Red", "B2"), ("B", "Blue", "H8"))
    battle.status = "active"
    battle.remove_unit(battle.unit("B"))
    verdict = last_side_standing(battle)
    assert verdict is not None and verdict.standing == ("Red",)


def test_a_battle_in_setup_is_never_over_and_needs_two_sides_to_start() -> None:
    battle = _battle(("A", "Red", "B2"))
    assert last_side_standing(battle) is None
    with pytest.raises(IllegalOrderError, match="only Red has units"):
        require_two_sides(battle)


def test_rounds_fought_count_from_the_start_to_the_last_order_given() -> None:
    """A round counts once an order was given in it; setup is no round, and a round opened by the automatic end
    of turn after the last blow, with nobody left to act, was never fought."""
    from rules.ending import rounds_fought

    def started(n: int) -> dict[str, object]:
        return {"type": "round_started", "round": n}

    log = [
        {"kind": "add-unit", "effects": []},
        {"kind": "start", "effects": [started(1)]},
        {"kind": "move", "effects": []},
        {"kind": "end-turn", "effects": [started(2)]},
        {"kind": "attack", "effects": []},
        {"kind": "end-turn", "effects": [started(3)]},  # the blow ended it: round 3 never saw an order
        {"kind": "end", "effects": [{"type": "battle_ended", "round": 3}]},
    ]
    assert rounds_fought(log) == 2
    assert rounds_fought(log[:1]) == 0  # ended before it started
    assert rounds_fought([*log[:-1], {"kind": "hold", "effects": []}]) == 3
