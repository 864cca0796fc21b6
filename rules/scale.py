"""How much table one square stands for, exactly, and the largest map a scale allows.

A square may stand for a fraction of the system's unit (half an inch, half a centimetre), so the
scale is read as a Fraction and every distance derived from it stays exact. A finer scale needs more
squares for the same table: a map may then grow past the usual 100 squares a side, up to the
squares of the system's largest table at that scale, and never past 144 by 96 squares.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rules.coords import MAX_SIDE
from rules.errors import IllegalOrderError, InvalidOrderError, RulesetError
from rules.ruleset import Ruleset, exact, fraction_text

if TYPE_CHECKING:
    from rules.board import Board

MAX_LONG_SIDE, MAX_SHORT_SIDE = 144, 96  # the largest map of all: a 6'x4' table at half an inch a square


def square_size(battle: Board) -> Fraction:
    """Return how much table one square of this battle stands for, in the system's unit (1 when fixed)."""
    key = battle.ruleset.scale_key
    return exact(battle.const(key)) if key else Fraction(1)


def finest(ruleset: Ruleset) -> Fraction:
    """Return the finest scale a ruleset allows (its scale's step), or 1 when its scale is fixed."""
    if not ruleset.scale_key:
        return Fraction(1)
    const = ruleset.constants[ruleset.scale_key]
    return exact(const.step or const.min or 1)


def as_number(value: Fraction) -> int | float:
    """Return an exact measure as stored and shown: whole, or a float (every step is a halving, so exact)."""
    return value.numerator if value.denominator == 1 else float(value)


def largest_map(ruleset: Ruleset, size: Fraction) -> tuple[int, int]:
    """Return the largest map (long side, short side) a square of `size` allows: the table's squares, or 100 a side."""
    if ruleset.table is None:
        return MAX_SIDE, MAX_SIDE
    long = min(MAX_LONG_SIDE, int(ruleset.table[0] / size))
    short = min(MAX_SHORT_SIDE, int(ruleset.table[1] / size))
    return (long, short) if long > MAX_SIDE else (MAX_SIDE, MAX_SIDE)


def fits(ruleset: Ruleset, size: Fraction, width: int, height: int) -> bool:
    """Return whether a map of width x height squares is allowed at this scale (either way round)."""
    if width < 1 or height < 1:
        return False
    if width <= MAX_SIDE and height <= MAX_SIDE:
        return True
    long, short = largest_map(ruleset, size)
    return max(width, height) <= long and min(width, height) <= short


def measure_text(ruleset: Ruleset, value: Fraction) -> str:
    """Write a measure in the ruleset's unit: `0.5"` for inches, `0.5 cm` for centimetres."""
    unit = ruleset.square_unit
    return f'{fraction_text(value)}"' if unit == "in" else f"{fraction_text(value)} {unit}"


def largest_text(ruleset: Ruleset, size: Fraction) -> str:
    """Say the largest map a scale allows, as a refusal quotes it."""
    long, short = largest_map(ruleset, size)
    at = f"at {measure_text(ruleset, size)} a square" if ruleset.scale_key else "here"
    if long == short:
        return f"{at} a map is at most {long} squares a side"
    return f"{at} a map is at most {long}x{short} squares (either way round), or {MAX_SIDE} squares a side"


def check_map(ruleset: Ruleset, size: Fraction, width: int, height: int) -> None:
    """Refuse a map too large (or empty) at this scale, saying the largest the scale allows."""
    if not fits(ruleset, size, width, height):
        finer = ""
        if ruleset.scale_key and max(width, height) <= MAX_LONG_SIDE and min(width, height) <= MAX_SHORT_SIDE:
            finer = f"; a finer `{ruleset.scale_key}` allows more squares"
        raise InvalidOrderError(f"A {width}x{height} map is too large: {largest_text(ruleset, size)}{finer}.")


def coerce_scale(ruleset: Ruleset, text: str) -> int | float:
    """Read a GM's scale, refused (with the largest map the finest scale allows) unless a multiple of the step."""
    const = ruleset.constant(ruleset.scale_key)
    try:
        value = const.coerce(text)
    except RulesetError as exc:
        raise RulesetError(f"{str(exc).rstrip('.')}; {largest_text(ruleset, finest(ruleset))}.") from None
    assert not isinstance(value, (bool, str))  # a measure is a number
    return value


def check_new_scale(battle: Board, key: str, value: Any) -> None:
    """Refuse a change of scale once units are placed, or one this battle's map is too large for."""
    ruleset = battle.ruleset
    if not key or key != ruleset.scale_key:
        return
    size = exact(value)
    if size == square_size(battle):
        return
    if battle.units:
        raise IllegalOrderError(
            f"`{key}` cannot change once units are placed: every distance on the map would change under them "
            f"({len(battle.units)} unit(s) placed). Set the scale before adding units, or remove them first."
        )
    if not fits(ruleset, size, battle.width, battle.height):
        raise IllegalOrderError(
            f"This map is {battle.width}x{battle.height} squares, too large for `{key}` = {fraction_text(size)}: "
            f"{largest_text(ruleset, size)}."
        )
