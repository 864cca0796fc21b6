"""The Surface Combat orders: a side's standing, a side's secret plan, resolution, the next turn."""

from __future__ import annotations

from dataclasses import dataclass

from rules.orders import Order
from rules.systems.surface.table import order


@order("surface-side")
@dataclass(frozen=True)
class SetSide(Order):
    """Set a side's leader and Ability, and whether it is blockaded or on its last ground (GM)."""

    side: str
    leader: str = ""
    ability: int = 0
    blockaded: bool = False
    last_ground: bool = False


@order("surface-plan", "side")
@dataclass(frozen=True)
class SubmitPlan(Order):
    """Commit a side's secret Pre-Battle Plan (a player of that side, or the GM)."""

    side: str
    intensity: int = 1
    daring: int = 0
    dropped: tuple[str, ...] = ()
    besieged: bool = False


@order("surface-resolve", "anyone")
@dataclass(frozen=True)
class Resolve(Order):
    """Fight the engagement once both plans are in; the GM (or a passed deadline) may force it.

    Forced, a side without a plan takes the default plan, or with `standing` its plan of the last turn.
    """

    gm_options = ("force", "standing")
    slow = True  # every round of every unit, in one order

    force: bool = False
    standing: bool = False


@order("surface-next-turn")
@dataclass(frozen=True)
class NextTurn(Order):
    """Open the next game turn on this planet: survivors stay, plans are cleared (GM)."""


@order("surface-import")
@dataclass(frozen=True)
class ImportForces(Order):
    """Add every unit of a forces document (`/surface export`), all or none (GM)."""

    forces: str
