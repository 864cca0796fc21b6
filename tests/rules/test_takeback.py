"""When a player may take an order back alone: `rules.takeback.why_not_free`.

The rule the bot keeps: a player undoes their own last order while no die was rolled by it, no hidden
information was revealed by it, and nobody else has acted since. Hidden information is what RULES.md A28 and
`rules.visibility` keep from a side: a hidden unit, and a side's features (a Fire Trap on B2 here) until an
enemy finds them (A29).
"""

from __future__ import annotations

import copy

from rules.battle import Battle
from rules.coords import Cell
from rules.orders import Move
from rules.takeback import revealed, why_not_free
from tests.rules.test_visibility_redact import dice, hidden_alpha


def copy_of(battle: Battle) -> Battle:
    """Return an independent copy of a battle, through its stored form."""
    return Battle.from_dict(copy.deepcopy(battle.to_dict()))


def test_a_move_without_dice_by_the_last_to_act_is_free() -> None:
    before = hidden_alpha()
    after = copy_of(before)
    outcome = after.apply(Move(unit="Omega", to=Cell.parse("L9")), dice())
    assert not outcome.rolls
    assert why_not_free(outcome.to_dict(), before, after, 0) is None


def test_a_hidden_unit_moving_in_hiding_shows_nothing() -> None:
    before = hidden_alpha()
    after = copy_of(before)
    after.unit("Alpha").x += 1  # still in the forest, still hidden: its new square is as secret as the old
    assert "hidden" in after.unit("Alpha").statuses
    assert not revealed(before, after)


def test_a_hidden_unit_coming_to_light_is_revealed() -> None:
    before = hidden_alpha()
    after = copy_of(before)
    after.unit("Alpha").statuses.remove("hidden")
    assert revealed(before, after)
    reason = why_not_free({"order": "x", "kind": "x", "rolls": []}, before, after, 0)
    assert reason == "it brought something hidden to light"


def test_a_side_trap_no_longer_secret_is_revealed() -> None:
    before = hidden_alpha()
    after = copy_of(before)
    assert before.cells["B2"].revealed == []
    # A29: an enemy side may find a hidden trap; once Red found the Fire Trap on B2, Red knows where it is.
    after.cells["B2"].revealed = ["red"]
    assert revealed(before, after)
    assert not revealed(before, copy_of(before))


def test_dice_others_acting_and_hidden_rolls_each_need_approval() -> None:
    before = hidden_alpha()
    after = copy_of(before)
    rolled = {"order": "act", "kind": "act", "rolls": [{"notation": "1d100", "faces": [5], "total": 5}]}
    assert why_not_free(rolled, before, after, 0) == "dice were rolled for it"
    assert why_not_free({"order": "roll", "kind": "roll", "hidden": True}, before, after, 0) == "it was a hidden roll"
    assert why_not_free({"order": "move", "kind": "move"}, None, None, 2) == "2 other orders were given since"
    assert why_not_free({"order": "move", "kind": "move"}, None, None, 1) == "1 other order was given since"
