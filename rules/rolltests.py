"""Typed roll tests: every test an order rolled, with all its terms, one frozen dataclass per kind.

An outcome's `tests` explain the arithmetic (a d100 test's breakdown, a to-hit's modifiers against SS, a
damage roll against PF and Pen). Each kind is declared next to its rule with `@rolltest("kind")` (the core's
d100 test here, each system's own in its `rolltests.py`) and recorded with `outcome.tests.append(...)`.
The stored form is the dict it always was: `{"test": kind, **fields}`, except the d100 test, stored as its
fields alone; `load_tests` reads it back through the battle's system's table of kinds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import ClassVar, TypeVar

from rules.effects import OMIT
from rules.errors import RulesetError
from rules.modifiers import Breakdown, Modifier
from rules.stored import JSON, Document

T = TypeVar("T", bound="type[RollTest]")
D100 = "d100"  # the kind of a stored test that names none


@dataclass(frozen=True, slots=True)
class RollTest:
    """One roll an order made against a number, with every term; subclasses name their kind."""

    KIND: ClassVar[str] = ""
    TAGGED: ClassVar[bool] = True  # stored with `"test": kind` (the d100 test is not)
    TAG_AT: ClassVar[int] = 0  # where `test` stands among the stored keys (a d100 test's kind follows its terms)

    @property
    def kind(self) -> str:
        """Return the test's kind, as stored under `test`."""
        return self.KIND

    def to_dict(self) -> Document:
        """Return the test as its JSON-able stored dict."""
        out: Document = {}
        for i, f in enumerate(fields(self)):
            if self.TAGGED and i == self.TAG_AT:
                out["test"] = self.kind
            value = getattr(self, f.name)
            if value is None and f.metadata.get(OMIT):
                continue
            out[f.name] = _plain(value)
        return out

    @classmethod
    def read(cls, data: Mapping[str, JSON]) -> dict[str, object]:
        """Return the field values of a stored test (a class whose fields hold records reads them here)."""
        return {k: v for k, v in data.items() if k != "test"}

    @classmethod
    def build(cls, data: Mapping[str, JSON]) -> RollTest:
        """Rebuild a test of this class from its stored fields; raise RulesetError if they do not fit."""
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - names - {"test"})
        if unknown:
            raise RulesetError(f"A `{cls.KIND}` test has no field `{unknown[0]}`.")
        missing = [f.name for f in fields(cls)
                   if f.name not in data and f.default is MISSING and f.default_factory is MISSING]
        if missing:
            raise RulesetError(f"A `{cls.KIND}` test needs `{missing[0]}`.")
        return cls(**cls.read(data))


@dataclass(frozen=True, slots=True)
class StoredTest(RollTest):
    """A test read from an event this version no longer records in that shape; it keeps its stored form."""

    details: Mapping[str, JSON] = field(default_factory=dict)

    @property
    def kind(self) -> str:
        """Return the stored kind."""
        return str(self.details.get("test", D100))

    def to_dict(self) -> Document:
        """Return the dict exactly as it was stored."""
        return {k: _plain(v) for k, v in self.details.items()}


def _modifiers(items: JSON) -> tuple[Modifier, ...]:
    """Read a stored list of modifier lines."""
    if not isinstance(items, list | tuple):
        raise RulesetError("A test's modifiers are a list.")
    return tuple(Modifier.from_dict(m) for m in items if isinstance(m, Mapping))


@dataclass(frozen=True, slots=True)
class Tally:
    """A d100 test's breakdown as it stood when rolled: base, modifier lines, cap, totals and target."""

    base_label: str
    base: int
    modifiers: tuple[Modifier, ...]
    cap: int | None
    raw_total: int
    total_modifier: int
    target: int

    @classmethod
    def of(cls, bd: Breakdown) -> Tally:
        """Return the tally of a breakdown."""
        return cls(bd.base_label, bd.base, tuple(bd.modifiers), bd.cap, bd.raw_total, bd.total_modifier, bd.target)

    def to_dict(self) -> Document:
        """Return the breakdown as stored."""
        return {"base_label": self.base_label, "base": self.base, "modifiers": [m.to_dict() for m in self.modifiers],
                "cap": self.cap, "raw_total": self.raw_total, "total_modifier": self.total_modifier,
                "target": self.target}

    @classmethod
    def from_dict(cls, data: Mapping[str, JSON]) -> Tally:
        """Rebuild a stored breakdown."""
        cap = data.get("cap")
        return cls(str(data["base_label"]), _int(data["base"]), _modifiers(data.get("modifiers", [])),
                   None if cap is None else _int(cap), _int(data["raw_total"]), _int(data["total_modifier"]),
                   _int(data["target"]))


def rolltest(kind: str) -> Callable[[T], T]:
    """Name the kind a test class is stored under (a class decorator)."""

    def wrap(cls: T) -> T:
        cls.KIND = kind
        return cls

    return wrap


@rolltest(D100)
@dataclass(frozen=True, slots=True)
class D100Test(RollTest):
    """A d100 roll against a breakdown's target: at or under succeeds, with degrees of success or failure."""

    TAGGED: ClassVar[bool] = False

    purpose: str
    breakdown: Tally
    roll: int
    target: int
    success: bool
    degrees: int

    def terms(self) -> tuple[str, Tally, int, int, bool, int]:
        """Return the d100 fields in order, to record the test as a kind that adds its own context."""
        return self.purpose, self.breakdown, self.roll, self.target, self.success, self.degrees

    @classmethod
    def read(cls, data: Mapping[str, JSON]) -> dict[str, object]:
        """Return the stored fields with the breakdown typed (a subclass's context fields as stored)."""
        tally = data.get("breakdown")
        if not isinstance(tally, Mapping):
            raise RulesetError("A d100 test needs its `breakdown`.")
        return {**super(D100Test, cls).read(data), "breakdown": Tally.from_dict(tally)}


def tests_table(*classes: type[RollTest]) -> dict[str, type[RollTest]]:
    """Return the kinds of some test classes, refusing two classes of one kind."""
    out: dict[str, type[RollTest]] = {}
    for cls in classes:
        if not cls.KIND or cls.KIND in out:
            raise ValueError(f"test kind {cls.KIND!r} of {cls.__name__} is empty or declared twice")
        out[cls.KIND] = cls
    return out


CORE_TESTS = tests_table(D100Test)


def load_test(data: Mapping[str, JSON], kinds: Mapping[str, type[RollTest]]) -> RollTest:
    """Rebuild one stored test; a kind or shape this version does not record keeps its stored form."""
    cls = kinds.get(str(data.get("test", D100)))
    if cls is not None:
        try:
            return cls.build(data)
        except (RulesetError, TypeError, KeyError, ValueError):
            pass  # saved by an older version in another shape: still shown and compared as stored
    return StoredTest(details=dict(data))


def load_tests(items: Iterable[JSON], kinds: Mapping[str, type[RollTest]]) -> list[RollTest]:
    """Rebuild a stored list of tests."""
    return [load_test(t, kinds) for t in items if isinstance(t, Mapping)]


def _int(value: JSON) -> int:
    """Read a stored whole number."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise RulesetError(f"A test holds {value!r} where a number belongs.")
    return int(value)


def _plain(value: object) -> JSON:
    """Return a field's value as JSON holds it (tuples as lists, records as their dicts)."""
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, Modifier | Tally):
        return value.to_dict()
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise TypeError(f"{value!r} has no stored form")


__all__ = ["CORE_TESTS", "D100", "D100Test", "RollTest", "StoredTest", "Tally", "load_test", "load_tests",
           "rolltest", "tests_table"]
