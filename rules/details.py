"""Typed outcome details: what an order reports besides its effects, one frozen dataclass per order kind.

An outcome's stored `data` is one flat JSON object. It holds two parts: the turn notes the core adds to
any order (`TurnNotes`: what the order cost, who is due now, the standing order it played) and the
details of the order's own kind (an attack's hits and damage, a move's allowance and path, a roll's
total). A system declares the details of its order kinds in a table (`{"attack": AttackDetails, ...}`,
its `details.py`); the stored form is the dict it always was, and `load_details` reads it back through
the battle's system's table. A stored shape this version does not read keeps its stored form.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, TypeVar

from rules.effects import Record, plain
from rules.errors import RulesetError
from rules.stored import JSON, Document, texts
from rules.turnstate import InitiativeRecord

D = TypeVar("D", bound="Details")


@dataclass(frozen=True, slots=True)
class Details(Record):
    """What one order kind reports, stored as its fields alone: the outcome's kind says which class reads it."""

    TAG: ClassVar[str] = ""
    NOUN: ClassVar[str] = "details"
    STORED_AS: ClassVar[Mapping[str, str]] = {}  # a field stored under another key (a Python word, like `from`)

    def to_dict(self) -> dict[str, Any]:
        """Return the details as stored, each renamed field under its stored key."""
        out = Record.to_dict(self)
        return {self.STORED_AS.get(k, k): v for k, v in out.items()} if self.STORED_AS else out

    @classmethod
    def build(cls: type[D], data: Mapping[str, Any]) -> D:
        """Rebuild stored details, reading each renamed field from its stored key."""
        if cls.STORED_AS:
            back = {key: name for name, key in cls.STORED_AS.items()}
            data = {back.get(k, k): v for k, v in data.items()}
        return super(Details, cls).build(data)


@dataclass(frozen=True, slots=True)
class StoredDetails(Details):
    """Details this version does not read in their stored shape (or an order that reports none): kept as stored."""

    stored: Mapping[str, JSON] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Return the dict exactly as it was stored."""
        return {k: plain(v) for k, v in self.stored.items()}


NO_DETAILS = StoredDetails()


@dataclass(slots=True)
class TurnNotes:
    """What the core's turns add to any order's stored details; a field left None is not stored.

    `action` the kind of action the order was and `action_cost` what it cost (0 for a reaction),
    `actions_left` the unit's actions left this turn, `next_due` the units due now, `round` the round,
    `initiative` the round's initiative rolls when they were rolled, `standing_order` the standing order
    set or played, `fallback` why a standing order could not be played (the unit held instead).
    """

    standing_order: str | None = None
    fallback: str | None = None
    action: str | None = None
    action_cost: int | None = None
    actions_left: int | None = None
    initiative: list[InitiativeRecord] | None = None
    next_due: list[str] | None = None
    round: int | None = None

    def to_dict(self) -> Document:
        """Return the notes as stored: only the fields set."""
        out: Document = {}
        for f in fields(TurnNotes):
            value = getattr(self, f.name)
            if value is not None:
                out[f.name] = plain(value)
        return out

    def merge(self, other: TurnNotes) -> None:
        """Take every field the other notes set (an order played for another, like a standing order)."""
        for f in fields(TurnNotes):
            value = getattr(other, f.name)
            if value is not None:
                setattr(self, f.name, value)

    @classmethod
    def take(cls, data: Mapping[str, JSON], keep: frozenset[str]) -> tuple[TurnNotes, dict[str, JSON]]:
        """Split stored details into the turn notes and the rest; keys in `keep` (the order's own) stay in the rest."""
        notes = cls()
        rest: dict[str, JSON] = {}
        for key, value in data.items():
            if key in TURN_KEYS and key not in keep and _note(notes, key, value):
                continue
            rest[key] = value
        return notes, rest


TURN_KEYS = frozenset(f.name for f in fields(TurnNotes))


def _note(notes: TurnNotes, key: str, value: JSON) -> bool:
    """Set one stored turn note if its value has the note's type; return whether it did."""
    if key in ("action", "standing_order", "fallback") and isinstance(value, str):
        setattr(notes, key, value)
    elif key in ("action_cost", "actions_left", "round") and isinstance(value, int) and not isinstance(value, bool):
        setattr(notes, key, value)
    elif key == "next_due" and isinstance(value, list | tuple):
        notes.next_due = list(texts(value))
    elif key == "initiative" and isinstance(value, list | tuple):
        try:
            rolls = [InitiativeRecord.from_dict(r, "An initiative roll") for r in value]
        except RulesetError:
            return False
        if [r.to_dict() for r in rolls] != [plain(r) for r in value]:
            return False  # an older record's shape (without ids, say) stays as it was stored
        notes.initiative = rolls
    else:
        return False
    return True


def load_details(kind: str, data: Mapping[str, JSON], kinds: Mapping[str, type[Details]]) -> tuple[Details, TurnNotes]:
    """Rebuild an outcome's stored details and turn notes; a shape this version does not read keeps its stored form."""
    cls = kinds.get(kind)
    played = data.get("standing_order")
    if cls is None and isinstance(played, str):
        cls = kinds.get(played.split(" ", 1)[0])  # a standing turn reports the order it played
    own = frozenset(cls.STORED_AS.get(f.name, f.name) for f in fields(cls)) if cls is not None else frozenset()
    notes, rest = TurnNotes.take(data, own)
    if cls is not None:
        try:
            return cls.build(rest), notes
        except (RulesetError, TypeError, ValueError, KeyError, AttributeError):
            pass  # saved by an older version in another shape: still shown and stored as it was
    return (StoredDetails(stored=rest) if rest else NO_DETAILS), notes


__all__ = ["NO_DETAILS", "TURN_KEYS", "Details", "StoredDetails", "TurnNotes", "load_details"]
