"""Takebacks: whether a player may take their last order back alone, or must ask the other sides first.

An order may be taken back freely while it rolled no die, told nobody anything that was hidden from them, and
nobody else has acted since; otherwise taking it back would let a player try again knowing what they should
not, so the other sides decide.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.battle import Battle
from rules.visibility import Viewer, is_hidden, secrets_for, unseen_names


def _sides(battle: Battle[Any]) -> set[str]:
    """Return the lower-case names of the sides with units in a battle."""
    return {u.side.lower() for u in battle.iter_units()}


def revealed(before: Battle[Any], after: Battle[Any]) -> bool:
    """Return whether an order showed a side something hidden from it: a hidden unit or square came to light."""
    for side in _sides(before) | _sides(after):
        viewer = Viewer.of([side])
        # A unit gone from the battle is not shown by being gone; one still there and no longer hidden is.
        unseen_after = unseen_names(after, viewer)
        if any(name not in unseen_after and after.find_unit(name) is not None
               for name in unseen_names(before, viewer)):
            return True
        # Hidden squares (a trap, a hidden feature) that stopped being secret; units' own squares move, so
        # only squares no unit hidden from this side stood on before are compared.
        units_before = {str(u.cell).upper() for u in before.iter_units() if is_hidden(u)}
        squares_before = secrets_for(before, viewer).squares - units_before
        units_after = {str(u.cell).upper() for u in after.iter_units() if is_hidden(u)}
        squares_after = secrets_for(after, viewer).squares - units_after
        if squares_before - squares_after:
            return True
    return False


def dice_reason(outcome: Mapping[str, Any] | None) -> str | None:
    """Return why an order's dice keep it from being taken back alone (a roll, a test, a hidden roll), or None."""
    logged = outcome or {}
    if logged.get("hidden"):
        return "it was a hidden roll"
    if logged.get("rolls") or logged.get("tests"):
        return "dice were rolled for it"
    return None


def why_not_free(outcome: Mapping[str, Any] | None, before: Battle[Any] | None, after: Battle[Any] | None,
                 others_since: int) -> str | None:
    """Return why an order may not be taken back by its player alone, or None when it may.

    `outcome` is the order's outcome as logged, `before` and `after` the battle around it, and
    `others_since` how many orders were given after it (when some were, the battles are not needed: None).
    """
    if others_since:
        plural = "order was" if others_since == 1 else "orders were"
        return f"{others_since} other {plural} given since"
    rolled = dice_reason(outcome)
    if rolled is not None:
        return rolled
    if before is None or after is None:
        raise ValueError("the battle before and after the order are needed to tell what it showed")
    if revealed(before, after):
        return "it brought something hidden to light"
    return None
