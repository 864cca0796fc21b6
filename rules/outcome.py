"""Outcomes: the structured result of an order, which explains itself line by line."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from rules.core_details import CORE_DETAILS
from rules.core_effects import CORE_EFFECTS
from rules.details import NO_DETAILS, Details, TurnNotes, load_details
from rules.dice import Roll
from rules.effects import Effect, load_effects
from rules.rolltests import CORE_TESTS, RollTest, load_tests
from rules.stored import JSON, Document, texts

E = TypeVar("E", bound=Effect)
R = TypeVar("R", bound=RollTest)
D = TypeVar("D", bound=Details)


@dataclass(frozen=True, slots=True)
class Mark:
    """A word written on a square of the map (`trap`, `Rei destroyed`), stored as `{"cell": ..., "text": ...}`."""

    cell: str
    text: str

    def to_dict(self) -> Document:
        """Return the mark as stored."""
        return {"cell": self.cell, "text": self.text}

    @classmethod
    def from_dict(cls, data: Mapping[str, JSON]) -> Mark:
        """Rebuild a stored mark."""
        return cls(cell=str(data["cell"]), text=str(data["text"]))


_SQUARE_KEYS = ("actor", "target", "attacker", "landed")
_LIST_KEYS = ("path", "line", "cells", "choices")


@dataclass(slots=True)
class Highlight:
    """What the map should mark for an order: squares as text (`C4`); a field left None is not stored.

    `actor` the unit's square, `target` the aimed or reached square, `attacker` the square shot from,
    `landed` where a miss came down, `hit` whether the shot hit, `path` the squares walked, `line` the
    line of fire (from, to), `cells` the squares an order covered, `marks` words written on squares, `choices`
    the squares a player picks among (outlined and named on the map).
    """

    actor: str | None = None
    target: str | None = None
    attacker: str | None = None
    landed: str | None = None
    hit: bool | None = None
    path: list[str] | None = None
    line: list[str] | None = None
    cells: list[str] | None = None
    marks: list[Mark] | None = None
    choices: list[str] | None = None

    def update(self, *, actor: str | None = None, target: str | None = None, attacker: str | None = None,
               landed: str | None = None, hit: bool | None = None, path: list[str] | None = None,
               line: list[str] | None = None, cells: list[str] | None = None) -> None:
        """Set the fields given (those left None stay as they were)."""
        given = {"actor": actor, "target": target, "attacker": attacker, "landed": landed, "hit": hit,
                 "path": path, "line": line, "cells": cells}
        for key, value in given.items():
            if value is not None:
                setattr(self, key, value)

    def add_cells(self, cells: Iterable[str]) -> None:
        """Add squares to those the order covered."""
        self.cells = [*(self.cells or []), *cells]

    def mark(self, cell: str, text: str) -> None:
        """Write a word on a square."""
        self.marks = [*(self.marks or []), Mark(cell, text)]

    def merge(self, other: Highlight) -> None:
        """Take every field the other highlight sets (an order given for another, like a standing order)."""
        for f in fields(Highlight):
            value = getattr(other, f.name)
            if value is not None:
                setattr(self, f.name, value)

    def to_dict(self) -> Document:
        """Return the highlight as stored: only the fields set, lists as lists, marks as dicts."""
        out: Document = {}
        for key in _SQUARE_KEYS:
            square = getattr(self, key)
            if square is not None:
                out[key] = square
        if self.hit is not None:
            out["hit"] = self.hit
        for key in _LIST_KEYS:
            items = getattr(self, key)
            if items is not None:
                out[key] = list(items)
        if self.marks is not None:
            out["marks"] = [m.to_dict() for m in self.marks]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, JSON]) -> Highlight:
        """Rebuild a stored highlight; keys this version does not mark are passed over."""
        out = cls()
        for key in _SQUARE_KEYS:
            if data.get(key) is not None:
                setattr(out, key, str(data[key]))
        if data.get("hit") is not None:
            out.hit = bool(data["hit"])
        for key in _LIST_KEYS:
            if key in data:
                setattr(out, key, list(texts(data[key])))
        marks = data.get("marks")
        if isinstance(marks, list | tuple):
            out.marks = [Mark.from_dict(m) for m in marks if isinstance(m, Mapping)]
        return out


@dataclass
class Outcome:
    """What an order did: its rolls, its breakdowns, its effects and what the map should mark."""

    order: str
    kind: str
    actor: str | None = None
    rolls: list[Roll] = field(default_factory=list)
    tests: list[RollTest] = field(default_factory=list)
    effects: list[Effect] = field(default_factory=list)
    highlight: Highlight = field(default_factory=Highlight)
    details: Details = NO_DETAILS
    turn: TurnNotes = field(default_factory=TurnNotes)
    hidden: bool = False
    # The side its secret part was told to in private, for a reply to say so (never stored).
    told: str | None = field(default=None, compare=False)

    def add(self, effect: Effect) -> None:
        """Record one effect of the order (a unit moved, a square burned, wounds lost...)."""
        self.effects.append(effect)

    def of(self, kind: type[E]) -> list[E]:
        """Return the effects of one class, in order."""
        return [e for e in self.effects if isinstance(e, kind)]

    def tests_of(self, kind: type[R]) -> list[R]:
        """Return the tests of one class, in order."""
        return [t for t in self.tests if isinstance(t, kind)]

    def details_as(self, kind: type[D]) -> D | None:
        """Return the order's details if they are of this class (None for another order, or an old shape)."""
        return self.details if isinstance(self.details, kind) else None

    def to_dict(self) -> dict[str, Any]:
        """Return the outcome as a JSON-able dict, as stored in the event log."""
        return {
            "order": self.order, "kind": self.kind, "actor": self.actor,
            "rolls": [r.to_dict() for r in self.rolls], "tests": [t.to_dict() for t in self.tests],
            "effects": [e.to_dict() for e in self.effects], "highlight": self.highlight.to_dict(),
            "data": {**self.details.to_dict(), **self.turn.to_dict()}, "hidden": self.hidden,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], kinds: Mapping[str, type[Effect]] = CORE_EFFECTS,
                  test_kinds: Mapping[str, type[RollTest]] = CORE_TESTS,
                  detail_kinds: Mapping[str, type[Details]] = CORE_DETAILS) -> Outcome:
        """Rebuild an outcome from its stored dict, its effects, tests and details typed by its system's
        `effect_kinds`, `test_kinds` and `detail_kinds`."""
        kind = str(data["kind"])
        details, turn = load_details(kind, data.get("data") or {}, detail_kinds)
        return cls(
            order=str(data["order"]), kind=kind, actor=data.get("actor"),
            rolls=[Roll.from_dict(r) for r in data.get("rolls", [])], tests=load_tests(data.get("tests", []), test_kinds),
            effects=load_effects(data.get("effects", []), kinds), highlight=Highlight.from_dict(data.get("highlight") or {}),
            details=details, turn=turn, hidden=bool(data.get("hidden", False)),
        )
