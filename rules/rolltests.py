"""Typed roll tests: every test an order rolled, with all its terms, one frozen dataclass per kind.

An outcome's `tests` explain the arithmetic (a d100 test's breakdown, a to-hit's modifiers against SS, a
damage roll against PF and Pen). Each kind is declared next to its rule with `@rolltest("kind")` (the core's
d100 test here, each system's own in its `rolltests.py`) and recorded with `outcome.tests.append(...)`.
The stored form is the dict it always was: `{"test": kind, **fields}`, except the d100 test, stored as its
fields alone; `load_tests` reads it back through the battle's system's table of kinds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rules.effects import Record, named, plain, table
from rules.errors import RulesetError
from rules.modifiers import Breakdown, Modifier
from rules.stored import JSON, Document

D100 = "d100"  # the kind of a stored test that names none


@dataclass(frozen=True, slots=True)
class RollTest(Record):
    """One roll an order made against a number, with every term; subclasses name their kind."""

    TAG: ClassVar[str] = "test"
    NOUN: ClassVar[str] = "test"


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
        return {k: plain(v) for k, v in self.details.items()}


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


rolltest = named


@rolltest(D100)
@dataclass(frozen=True, slots=True)
class D100Test(RollTest):
    """A d100 roll against a breakdown's target: at or under succeeds, with degrees of success or failure."""

    TAG: ClassVar[str] = ""  # stored as its fields alone

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
    def read(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        """Return the stored fields with the breakdown typed (a subclass's context fields as stored)."""
        tally = data.get("breakdown")
        if not isinstance(tally, Mapping):
            raise RulesetError("A d100 test needs its `breakdown`.")
        return {**super(D100Test, cls).read(data), "breakdown": Tally.from_dict(tally)}


CORE_TESTS: dict[str, type[RollTest]] = table(D100Test)


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


__all__ = ["CORE_TESTS", "D100", "D100Test", "RollTest", "StoredTest", "Tally", "load_test", "load_tests",
           "rolltest"]
