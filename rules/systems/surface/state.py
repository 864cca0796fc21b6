"""The surface battle's own state: each side's leader and standing, the secret plans, the last report.

It lives under `battle.turn.systems["surface"]` (saved as the turn's `surface` key), a JSON-able document,
so saving, undo and replay need nothing new.
Plans stay there until resolution and are never copied into an outcome anyone else can read.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from rules.battle import Battle
from rules.systems.surface.units import Unit

KEY = "surface"
SurfaceBattle = Battle[Unit]


@dataclass(frozen=True, slots=True)
class Plan:
    """A side's Pre-Battle Plan: intensity, daring, units dropped from transports, besieged."""

    intensity: int
    daring: int
    dropped: tuple[str, ...] = ()  # unit ids
    besieged: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Return the plan as a JSON-able dict."""
        return {"intensity": self.intensity, "daring": self.daring, "dropped": list(self.dropped),
                "besieged": self.besieged}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Plan:
        """Rebuild a plan from its dict."""
        return cls(int(data["intensity"]), int(data["daring"]), tuple(data.get("dropped", ())),
                   bool(data.get("besieged", False)))


@dataclass(frozen=True, slots=True)
class Standing:
    """What the GM set for a side: its leader and ability, and its strategic situation."""

    leader: str = ""
    ability: int = 0
    blockaded: bool = False
    last_ground: bool = False  # the side holds no more territory to cede (5B)

    def to_dict(self) -> dict[str, Any]:
        """Return the standing as a JSON-able dict."""
        return asdict(self)


def doc(battle: SurfaceBattle) -> dict[str, Any]:
    """Return the mutable surface document of a battle, created empty when needed."""
    found: dict[str, Any] = battle.turn.systems.setdefault(
        KEY, {"standing": {}, "plans": {}, "resolved": False, "turn": 1, "report": None}
    )
    return found


def peek(battle: Battle[Any]) -> dict[str, Any]:
    """Return the surface document of a battle as stored, without creating it (empty when it has none)."""
    return battle.turn.systems.get(KEY, {})


def standing(battle: SurfaceBattle, side: str) -> Standing:
    """Return a side's standing (defaults when the GM set none)."""
    raw = doc(battle)["standing"].get(side.lower())
    return Standing(**raw) if raw else Standing()


def plan(battle: SurfaceBattle, side: str) -> Plan | None:
    """Return a side's submitted plan, if it has one."""
    raw = doc(battle)["plans"].get(side.lower())
    return Plan.from_dict(raw) if raw else None


def forces(battle: SurfaceBattle) -> dict[str, list[Unit]]:
    """Return each side's units, by side name, in the order sides were created."""
    out: dict[str, list[Unit]] = {s.name: [] for s in battle.sides}
    for u in battle.iter_units():
        key = next((n for n in out if n.lower() == u.side.lower()), u.side)
        out.setdefault(key, []).append(u)
    return out
