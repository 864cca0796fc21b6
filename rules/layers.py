"""The layers of a map file after its terrain grid: each marks one field of a rule system's squares."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rules.ruleset import Ruleset

# Refuses a mark on a square of some terrain with the reason, or allows it with None.
MarkCheck = Callable[["Ruleset", str], "str | None"]


@dataclass(frozen=True)
class Layer:
    """A grid of marks after the terrain grid: `x` flags a square, or a digit counts something on it."""

    name: str  # the field of the system's squares a mark sets (`System` checks it is one)
    what: str  # what a mark means, for the error messages
    counts: bool = False  # digits 2 to 9 (a count of 1 is the default and written `.`)
    check: MarkCheck | None = None


__all__ = ["Layer", "MarkCheck"]
