"""The battle as the Combat Action system sees it: a board of its own units."""

from __future__ import annotations

from rules.battle import Battle as _Battle
from rules.systems.combat_action.units import Unit

Battle = _Battle[Unit]

__all__ = ["Battle"]
