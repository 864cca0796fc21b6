"""The surface battle's own state: each side's leader and standing, the secret plans, the last report.

It is saved under the turn's `surface` key (`battle.turn.systems["surface"]`) as the document it always was,
so saving, undo and replay need nothing new; the rules read it as a `SurfaceState` and write it back whole.
Plans stay there until resolution and are never copied into an outcome anyone else can read.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.battle import Battle
from rules.errors import RulesetError
from rules.outcome import Outcome
from rules.stored import JSON, Document
from rules.systems.surface.details import SurfaceReport
from rules.systems.surface.plans import Plan, Standing
from rules.systems.surface.units import Unit

KEY = "surface"
RESOLVE = "surface-resolve"
SurfaceBattle = Battle[Unit]


@dataclass(frozen=True, slots=True)
class SurfaceState:
    """Where a Surface battle stands: sides' standings and plans (by lower-case side name), the game turn, whether
    its engagement is fought, the last report, and the plans fought last turn (each side's standing plan)."""

    standing: Mapping[str, Standing] = field(default_factory=dict)
    plans: Mapping[str, Plan] = field(default_factory=dict)
    resolved: bool = False
    turn: int = 1
    report: SurfaceReport | None = None  # kept without its round-by-round log
    last_plans: Mapping[str, Plan] | None = None  # None until a second game turn
    # A kept report in a shape this version does not read (an early version's), saved back as it was.
    unread_report: Mapping[str, JSON] | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return the state as the battle saves it."""
        out: dict[str, Any] = {
            "standing": {s: v.to_dict() for s, v in self.standing.items()},
            "plans": {s: p.to_dict() for s, p in self.plans.items()},
            "resolved": self.resolved, "turn": self.turn,
            "report": self.report.to_dict() if self.report is not None else _plain(self.unread_report),
        }
        if self.last_plans is not None:
            out["last_plans"] = {s: p.to_dict() for s, p in self.last_plans.items()}
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SurfaceState:
        """Rebuild the state from its saved document, naming the part that does not fit."""
        try:
            report, unread = _report(data.get("report"))
            last = data.get("last_plans")
            return cls(
                standing={str(s): Standing.from_dict(v) for s, v in (data.get("standing") or {}).items()},
                plans={str(s): Plan.from_dict(p) for s, p in (data.get("plans") or {}).items()},
                resolved=bool(data.get("resolved", False)), turn=int(data.get("turn", 1)), report=report,
                last_plans=None if last is None else {str(s): Plan.from_dict(p) for s, p in last.items()},
                unread_report=unread,
            )
        except (KeyError, TypeError, ValueError, AttributeError, RulesetError) as exc:
            raise RulesetError(f"The saved Surface Combat state does not fit ({exc}).") from None

    def plan(self, side: str) -> Plan | None:
        """Return a side's submitted plan, if it has one."""
        return self.plans.get(side.lower())

    def standing_of(self, side: str) -> Standing:
        """Return a side's standing (defaults when the GM set none)."""
        return self.standing.get(side.lower(), Standing())


def _report(stored: Any) -> tuple[SurfaceReport | None, Mapping[str, JSON] | None]:
    """Read a kept report; one in a shape this version does not read is kept as stored."""
    if stored is None:
        return None, None
    try:
        return SurfaceReport.build(stored), None
    except (KeyError, TypeError, ValueError, AttributeError, RulesetError):
        return None, copy.deepcopy(stored)


def _plain(stored: Mapping[str, JSON] | None) -> dict[str, Any] | None:
    return None if stored is None else copy.deepcopy(dict(stored))


def state(battle: Battle[Any]) -> SurfaceState:
    """Return a battle's surface state as saved (a fresh one when it has none yet)."""
    found = battle.turn.systems.get(KEY)
    if not found:
        return EMPTY
    hit = _READ.get(id(found))
    if hit is not None and hit[0] is found:
        return hit[1]
    read = SurfaceState.from_dict(found)
    _remember(found, read)
    return read


def store(battle: Battle[Any], new: SurfaceState) -> None:
    """Save a battle's surface state."""
    saved = new.to_dict()
    battle.turn.systems[KEY] = saved
    _remember(saved, new)


# Every order's check reads the state, and a big battle's kept report takes milliseconds to read, so each saved
# document is read once. A document is replaced whole by `store` (undo and loading build new ones), never changed
# in place; an entry holds its document, so the id it is found by cannot be reused while it is here.
_READ: dict[int, tuple[Document, SurfaceState]] = {}
_READ_LOCK = threading.Lock()  # slow orders are applied in a worker thread while others read
READ_MAX = 256
EMPTY = SurfaceState()


def _remember(saved: Document, read: SurfaceState) -> None:
    with _READ_LOCK:
        _READ[id(saved)] = (saved, read)
        while len(_READ) > READ_MAX:
            del _READ[next(iter(_READ))]


def logged_report(battle: Battle[Any], logged: Mapping[str, Any] | None) -> SurfaceReport | None:
    """Return the report an engagement's logged outcome holds, with its rounds (None for a shape not read)."""
    system = battle.system
    outcome = Outcome.from_dict({"order": RESOLVE, "kind": RESOLVE, **(logged or {})}, system.effect_kinds,
                                system.test_kinds, system.detail_kinds)
    return outcome.details_as(SurfaceReport)


def forces(battle: SurfaceBattle) -> dict[str, list[Unit]]:
    """Return each side's units, by side name, in the order sides were created."""
    out: dict[str, list[Unit]] = {s.name: [] for s in battle.sides}
    for u in battle.iter_units():
        key = next((n for n in out if n.lower() == u.side.lower()), u.side)
        out.setdefault(key, []).append(u)
    return out


__all__ = ["KEY", "RESOLVE", "Plan", "Standing", "SurfaceBattle", "SurfaceState", "forces", "logged_report", "state",
           "store"]
