"""The planning phase of a game turn, as the play-by-post clock sees it: who still owes a plan, and the
orders a passed deadline gives (fight now, missing plans taking the default or last turn's plan)."""

from __future__ import annotations

from typing import Any

from rules.battle import Battle
from rules.orders import Order
from rules.system import Phases, Waiting
from rules.systems.surface.orders import Resolve
from rules.systems.surface.resolve import two_forces_or_none
from rules.systems.surface.state import state


def waiting(battle: Battle[Any]) -> Waiting | None:
    """Return the planning phase of an active battle whose engagement is not fought yet, else None."""
    if battle.status != "active":
        return None
    now = state(battle)
    if now.resolved:
        return None
    turn = now.turn
    due = tuple(s for s in two_forces_or_none(battle) if s.lower() not in now.plans)
    return Waiting(key=f"surface|{turn}|plans", label=f"game turn {turn}: pre-battle plans", due=due)


def on_deadline(battle: Battle[Any], policy: str) -> list[Order]:
    """Fight at once: `hold` gives missing plans the default, `default` their side's plan of the last turn."""
    return [Resolve(force=True, standing=policy == "default")]


PHASES = Phases(waiting=waiting, on_deadline=on_deadline, policies={
    "wait": "wait for the GM",
    "hold": "the battle is fought, a side without a plan taking the default plan",
    "default": "the battle is fought, a side without a plan repeating its plan of the last turn (else the default)",
})
