"""The turn state saved with a battle: the round's units, budgets, initiative, who is done, standing orders.

`Battle.turn` is a `TurnState`. It saves as the document it always was (`{"mode": "side", "round": 1,
"units": [...], "left": {...}, "done": {...}, "initiative": [...], "at": "NERV", "standing": {...}}`),
so stored battles, undo snapshots and replays read as before; a malformed document names the field.
A rule system with a turn of its own (Surface) keeps its document under its own key, in `systems`.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.errors import RulesetError
from rules.stored import Document

# The keys of the core turn state; any other key of a saved turn belongs to a rule system.
# The saved key of a record's tie-breaker, as battles have always stored it.
TIEBREAK_KEY = "ag"
CORE_KEYS = frozenset({"mode", "round", "units", "left", "done", "initiative", "at", "standing"})


@dataclass(slots=True)
class InitiativeRecord:
    """One unit's initiative roll this round: the total, its dice, and the tie-breakers."""

    id: str
    unit: str  # the unit's name when it rolled, for the roll's purpose text
    total: int
    faces: list[int] = field(default_factory=list)
    bonus: int = 0
    tiebreak: int = 0  # the first tie-breaker, the unit's own (`Unit.initiative_tiebreak`): higher goes first
    rolloff: list[int] = field(default_factory=list)  # d10 roll-offs among units still tied

    def to_dict(self) -> dict[str, Any]:
        """Return the record as the JSON-able dict saved with the battle."""
        return {"id": self.id, "unit": self.unit, "total": self.total, "faces": list(self.faces),
                "bonus": self.bonus, TIEBREAK_KEY: self.tiebreak, "rolloff": list(self.rolloff)}

    @classmethod
    def from_dict(cls, data: Any, where: str) -> InitiativeRecord:
        """Rebuild a record from its saved dict, naming the field that does not fit."""
        if not isinstance(data, Mapping):
            raise RulesetError(f"{where} must be a table of fields.")
        try:
            return cls(id=str(data.get("id", data["unit"])), unit=str(data["unit"]), total=int(data["total"]),
                       faces=[int(f) for f in data.get("faces", [])], bonus=int(data.get("bonus", 0)),
                       tiebreak=int(data.get(TIEBREAK_KEY, 0)), rolloff=[int(f) for f in data.get("rolloff", [])])
        except KeyError as exc:
            raise RulesetError(f"{where} has no `{exc.args[0]}`.") from None
        except (TypeError, ValueError):
            raise RulesetError(f"{where}: `total`, `faces`, `bonus`, `{TIEBREAK_KEY}` and `rolloff` are whole numbers.") from None


@dataclass(slots=True)
class TurnState:
    """Where the turns of a battle stand; units are named by their stable ids."""

    mode: str | None = None  # the GM's choice; None: the ruleset's default
    round: int | None = None  # the round these turns belong to
    units: list[str] | None = None  # this round's units in acting order; None: no round set up yet
    left: dict[str, int] = field(default_factory=dict)  # action points left this turn, per unit
    done: dict[str, str] = field(default_factory=dict)  # units whose turn is over, and how
    initiative: list[InitiativeRecord] = field(default_factory=list)  # best first (initiative mode)
    at: str | None = None  # the unit id or side play was last announced to stand at
    standing: dict[str, str] = field(default_factory=dict)  # standing orders, as order text
    systems: dict[str, Document] = field(default_factory=dict)  # a rule system's own turn document, by key

    @property
    def set_up(self) -> bool:
        """Return whether a round's turns have been set up."""
        return self.units is not None

    def to_dict(self) -> dict[str, Any]:
        """Return the turn state as the JSON-able dict saved with the battle."""
        out: dict[str, Any] = {}
        if self.mode is not None:
            out["mode"] = self.mode
        if self.round is not None:
            out["round"] = self.round
        if self.units is not None:
            out.update(units=list(self.units), left=dict(self.left), done=dict(self.done),
                       initiative=[r.to_dict() for r in self.initiative], at=self.at, standing=dict(self.standing))
        else:
            extra = {"left": dict(self.left), "done": dict(self.done),
                     "initiative": [r.to_dict() for r in self.initiative], "standing": dict(self.standing)}
            out.update({k: v for k, v in extra.items() if v})
            if self.at is not None:
                out["at"] = self.at
        for key, doc in self.systems.items():
            out[key] = copy.deepcopy(doc)
        return out

    @classmethod
    def from_dict(cls, data: Any) -> TurnState:
        """Rebuild the turn state from its saved dict, explaining any field that does not fit."""
        if not isinstance(data, Mapping):
            raise RulesetError("The saved `turn` must be a table of fields.")
        state = cls(systems={k: copy.deepcopy(v) for k, v in data.items() if k not in CORE_KEYS})
        mode, rnd, at = data.get("mode"), data.get("round"), data.get("at")
        state.mode = None if mode is None else _text(mode, "mode")
        state.round = None if rnd is None else _whole(rnd, "round")
        state.at = None if at is None else _text(at, "at")
        units = data.get("units")
        if units is not None:
            if not isinstance(units, list):
                raise RulesetError("The saved turn's `units` must be a list of unit ids.")
            state.units = [_text(u, "units") for u in units]
        state.left = {str(k): _whole(v, f"left.{k}") for k, v in _table(data, "left").items()}
        state.done = {str(k): _text(v, f"done.{k}") for k, v in _table(data, "done").items()}
        state.standing = {str(k): _text(v, f"standing.{k}") for k, v in _table(data, "standing").items()}
        records = data.get("initiative") or []
        if not isinstance(records, list):
            raise RulesetError("The saved turn's `initiative` must be a list of rolls.")
        state.initiative = [InitiativeRecord.from_dict(r, f"The saved turn's initiative roll {i}")
                            for i, r in enumerate(records, start=1)]
        return state


def _table(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    found = data.get(key) or {}
    if not isinstance(found, Mapping):
        raise RulesetError(f"The saved turn's `{key}` must be a table by unit id.")
    return found


def _text(value: Any, key: str) -> str:
    if not isinstance(value, str):
        raise RulesetError(f"The saved turn's `{key}` must be text, not {value!r}.")
    return value


def _whole(value: Any, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesetError(f"The saved turn's `{key}` must be a whole number, not {value!r}.")
    return value


__all__ = ["CORE_KEYS", "InitiativeRecord", "TurnState"]
