"""Weapon ranges on the strategic map: conversion per scale and the range bands (A04, A09-A11, A44, A45)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from rules.constants import const_or
from rules.errors import RulesetError
from rules.systems.strategic.details import BandNote

if TYPE_CHECKING:
    from collections.abc import Callable

    from rules.systems.strategic.board import Battle
    from rules.systems.strategic.units import Weapon

_TOKEN_RE = re.compile(r"\s*(?:(\d+(?:\.\d+)?)|([A-Za-z_]+)|(.))")
_FUNCTIONS: dict[str, Callable[[list[Fraction]], Fraction]] = {
    "min": min,
    "max": max,
    "floor": lambda args: Fraction(math.floor(args[0])),
    "ceil": lambda args: Fraction(math.ceil(args[0])),
}


# --- band formulas ------------------------------------------------------------
# The data file writes band limits as small formulas ("min(1.5*R, R+5)"). They are parsed
# by this little recursive-descent reader over exact fractions, never by eval().


class _Formula:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens: list[tuple[str, str]] = []
        for m in _TOKEN_RE.finditer(text):
            if m.group(1):
                self.tokens.append(("num", m.group(1)))
            elif m.group(2):
                self.tokens.append(("name", m.group(2)))
            elif m.group(3) and not m.group(3).isspace():
                self.tokens.append(("op", m.group(3)))
        self.pos = 0

    def fail(self) -> RulesetError:
        return RulesetError(f"Range band formula `{self.text}` is not understood; use numbers, R, + - * /, min(), max().")

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, value: str | None = None) -> tuple[str, str]:
        tok = self.peek()
        if tok is None or (value is not None and tok[1] != value):
            raise self.fail()
        self.pos += 1
        return tok

    def parse(self, r: int) -> Fraction:
        value = self.expr(r)
        if self.peek() is not None:
            raise self.fail()
        return value

    def expr(self, r: int) -> Fraction:
        value = self.term(r)
        while (tok := self.peek()) is not None and tok[1] in "+-":
            self.take()
            rhs = self.term(r)
            value = value + rhs if tok[1] == "+" else value - rhs
        return value

    def term(self, r: int) -> Fraction:
        value = self.factor(r)
        while (tok := self.peek()) is not None and tok[1] in "*/":
            self.take()
            rhs = self.factor(r)
            if tok[1] == "/" and rhs == 0:
                raise self.fail()
            value = value * rhs if tok[1] == "*" else value / rhs
        return value

    def factor(self, r: int) -> Fraction:
        kind, text = self.take()
        if kind == "num":
            return Fraction(text)
        if kind == "op" and text == "-":
            return -self.factor(r)
        if kind == "op" and text == "(":
            value = self.expr(r)
            self.take(")")
            return value
        if kind == "name" and text == "R":
            return Fraction(r)
        if kind == "name" and text.lower() in _FUNCTIONS:
            self.take("(")
            args = [self.expr(r)]
            while (tok := self.peek()) is not None and tok[1] == ",":
                self.take()
                args.append(self.expr(r))
            self.take(")")
            return _FUNCTIONS[text.lower()](args)
        raise self.fail()


@lru_cache(maxsize=512)
def evaluate(formula: str, r: int) -> Fraction:
    """Evaluate a band limit formula for a weapon range R, exactly."""
    return _Formula(formula).parse(r)


# --- conversion ---------------------------------------------------------------


def strategic_length(battle: Battle, value: int, unit: str) -> int:
    """Convert a length on a weapon profile to squares of this map (A09 in P, A44 in E)."""
    if unit == "m":
        value = math.ceil(value / 10)  # metres -> decametres, rounding up (A09, A44)
        unit = "dm"
    if unit == "dm" and battle.ruleset.range_conversion == "e":
        return math.ceil(value / 10)  # 001:L28: round up to the next 10, then divide by 10
    # P-Scale squares are dm (A09: the seed's "km" is read as dm); "km" on an E map and "sq"
    # are already in squares of the map.
    return value


def weapon_range(battle: Battle, weapon: Weapon) -> int:
    """Return the weapon's range R in squares of this map."""
    return strategic_length(battle, weapon.range, weapon.range_unit)


@dataclass(frozen=True, slots=True)
class Band:
    """A range band as it applies to one weapon: limits in squares and its to-hit modifier."""

    key: str
    name: str
    mod: int
    limit: Fraction
    low: int | None
    high: int | None

    def to_dict(self) -> dict[str, Any]:
        """Return the band as a JSON-able dict."""
        return self.note().to_dict()

    def note(self) -> BandNote:
        """Return the band as an attack's details record it."""
        return BandNote(key=self.key, name=self.name, mod=self.mod, limit=_num(self.limit), low=self.low, high=self.high)


def _num(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


def bands(battle: Battle, r: int) -> list[Band]:
    """Return every band for range R, with the whole distances each covers (None when it covers none)."""
    cap = int(const_or(battle, "short_band_cap", 0))
    out: list[Band] = []
    covered = -1  # every distance up to this one already belongs to an earlier band
    for spec in battle.ruleset.bands:
        limit = evaluate(spec.max, r)
        if spec.key == "short" and cap > 0:
            limit = min(limit, Fraction(cap))
        top = math.floor(limit)
        if top > covered:
            out.append(Band(spec.key, spec.name, spec.mod, limit, covered + 1, top))
            covered = top
        else:
            out.append(Band(spec.key, spec.name, spec.mod, limit, None, None))
    return out


def max_range(battle: Battle, r: int) -> int:
    """Return the farthest distance at which a weapon of range R may fire (end of the last band)."""
    return max((b.high for b in bands(battle, r) if b.high is not None), default=-1)


def band_for(battle: Battle, r: int, distance: int) -> Band | None:
    """Return the band a distance falls in, or None beyond the last band (A04, A10, A45)."""
    for band in bands(battle, r):
        if band.low is not None and band.high is not None and band.low <= distance <= band.high:
            return band
    return None
