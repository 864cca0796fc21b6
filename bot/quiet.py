"""Whether an order may be taken back by its player alone: it began no turn and showed nothing hidden."""

from __future__ import annotations

from typing import Any

from bot.clock import turn_key
from rules.battle import Battle
from rules.takeback import why_not_free


def quiet_order(before: Battle[Any], after: Battle[Any]) -> bool:
    """Return whether an order between two battles (read only) began no turn and showed nothing hidden."""
    return quiet_between(before, after, turn_key(before), turn_key(after))


def quiet_between(before: Battle[Any], after: Battle[Any], turn_before: str | None, turn_after: str | None) -> bool:
    """Return whether an order between two battles of the given turn keys began no turn and showed nothing hidden."""
    # The keys come from whoever worked them out already (the order's own resolution): not worked out twice.
    return turn_before == turn_after and why_not_free(None, before, after, 0) is None
