"""Legal orders of a surface unit: units give no orders of their own; sides plan, the GM resolves."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rules.battle import Battle
from rules.orders import Order
from rules.units import Unit


def legal_orders(battle: Battle[Any], unit: Unit) -> Iterator[Order]:
    """Yield nothing: in Surface Combat a unit fires by the round sequence, never by its own order."""
    return iter(())
