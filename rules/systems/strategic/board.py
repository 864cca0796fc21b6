"""The battle as the Strategic Combat system sees it: a board of its own units."""

from __future__ import annotations

from rules.battle import Battle as _Battle
from rules.systems.strategic.units import Unit

Battle = _Battle[Unit]

__all__ = ["Battle"]
