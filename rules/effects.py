"""Typed outcome effects: one frozen dataclass per kind of effect, stored as `{"type": kind, **fields}`.

A rule declares the effects it records next to it (`rules/core_effects.py` for the core, one
`effects.py` per system) with `@effect("kind")`, and a handler records one with
`outcome.add(Moved(unit=..., frm=..., to=...))`, so a misspelt kind or field fails where it is written.
The stored form is the dict it always was: events in the database and exported files hold it, and
`Outcome.from_dict` reads it back through the battle's system's table of kinds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar, TypeVar

from rules.errors import RulesetError
from rules.stored import JSON

R = TypeVar("R", bound="type[Record]")
S = TypeVar("S", bound="Record")
OMIT = "omit_when_none"


def optional(default: Any = None) -> Any:
    """Declare a field that today's stored form leaves out when it is None (older effects lack it)."""
    return field(default=default, metadata={OMIT: True})


@dataclass(frozen=True, slots=True)
class Record:
    """A frozen record of an outcome, stored as `{TAG: kind, **fields}`: an effect, or a test rolled.

    Subclasses name their kind (`@named("kind")`); `TAG_AT` is where the kind stands among the stored keys.
    """

    KIND: ClassVar[str] = ""
    TAG: ClassVar[str] = "type"  # the key the kind is stored under; "" stores no kind
    TAG_AT: ClassVar[int] = 0
    NOUN: ClassVar[str] = "record"  # what refusals call it

    def __post_init__(self) -> None:
        # A rule hands over the lists it built; the effect keeps tuples, so it equals its reloaded self.
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, list):
                object.__setattr__(self, f.name, _frozen(value))

    @property
    def kind(self) -> str:
        """Return the record's kind, as stored under its tag."""
        return self.KIND

    def to_dict(self) -> dict[str, Any]:
        """Return the record as its JSON-able stored dict: `{TAG: kind, **fields}`."""
        out: dict[str, Any] = {}
        for i, f in enumerate(fields(self)):
            if self.TAG and i == self.TAG_AT:
                out[self.TAG] = self.kind
            value = getattr(self, f.name)
            if value is None and f.metadata.get(OMIT):
                continue
            out[f.name] = plain(value)
        if self.TAG and self.TAG not in out:
            out = {self.TAG: self.kind, **out}  # a record without fields
        return out

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        """Return the field values of a stored record (a class whose fields hold records reads them here)."""
        return {k: _frozen(v) for k, v in data.items() if k != cls.TAG}

    @classmethod
    def build(cls: type[S], data: Mapping[str, Any]) -> S:
        """Rebuild a record of this class from its stored fields; raise RulesetError if they do not fit."""
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - names - {cls.TAG})
        if unknown:
            raise RulesetError(f"A `{cls.KIND}` {cls.NOUN} has no field `{unknown[0]}`.")
        missing = [f.name for f in fields(cls)
                   if f.name not in data and f.default is MISSING and f.default_factory is MISSING]
        if missing:
            raise RulesetError(f"A `{cls.KIND}` {cls.NOUN} needs `{missing[0]}`.")
        return cls(**cls.read(data))


@dataclass(frozen=True, slots=True)
class Effect(Record):
    """One thing an order did (a unit moved, a square burned, wounds lost); subclasses name their kind."""

    NOUN: ClassVar[str] = "effect"


@dataclass(frozen=True, slots=True)
class StoredEffect(Effect):
    """An effect read from an event this version no longer records in that shape; it keeps its stored form."""

    type: str = ""
    details: Mapping[str, JSON] = field(default_factory=dict)  # the stored fields, as stored

    @property
    def kind(self) -> str:
        """Return the stored kind."""
        return self.type

    def to_dict(self) -> dict[str, Any]:
        """Return the dict exactly as it was stored."""
        return {"type": self.type, **{k: plain(v) for k, v in self.details.items()}}


def named(kind: str) -> Callable[[R], R]:
    """Name the kind a record class (an effect, a test) is stored under (a class decorator)."""

    def wrap(cls: R) -> R:
        cls.KIND = kind
        return cls

    return wrap


effect = named


def table(*classes: R) -> dict[str, R]:
    """Return the kinds of some record classes, refusing two classes of one kind."""
    out: dict[str, R] = {}
    for cls in classes:
        if not cls.KIND or cls.KIND in out:
            raise ValueError(f"{cls.NOUN} kind {cls.KIND!r} of {cls.__name__} is empty or declared twice")
        out[cls.KIND] = cls
    return out


def load_effect(data: Mapping[str, Any], kinds: Mapping[str, type[Effect]]) -> Effect:
    """Rebuild one stored effect; a kind or shape this version does not record keeps its stored form."""
    kind = str(data.get("type", ""))
    cls = kinds.get(kind)
    if cls is not None:
        try:
            return cls.build(data)
        except (RulesetError, TypeError):
            pass  # saved by an older version in another shape: still shown and compared as stored
    return StoredEffect(type=kind, details={k: _frozen(v) for k, v in data.items() if k != "type"})


def load_effects(items: Iterable[Any], kinds: Mapping[str, type[Effect]]) -> list[Effect]:
    """Rebuild a stored list of effects."""
    return [load_effect(e, kinds) for e in items if isinstance(e, Mapping)]


def _frozen(value: Any) -> Any:
    """Return a stored value with its lists as tuples, so a frozen effect holds nothing mutable."""
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def plain(value: Any) -> Any:
    """Return a field's value as JSON holds it (tuples as lists, records by their `to_dict`)."""
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    to_dict = getattr(value, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    return value
