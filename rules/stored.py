"""The stored form of state: the JSON values a saved battle, an event or an imported file holds.

Live state is typed dataclasses; these aliases name what their `to_dict` writes and `from_dict` reads, and
what stays in stored form by design (a homebrew file's checked rows, an undo snapshot, an effect this
version no longer records in that shape).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Union

Scalar = str | int | float | bool
"""One value a GM may set or a table row may hold: a number, a flag or a word."""

JSON = Union[Scalar, None, Sequence["JSON"], Mapping[str, "JSON"]]  # noqa: UP007 (a recursive alias needs Union)
"""Any JSON value (lists may be tuples and objects any mapping, as frozen effects keep them)."""

Document = dict[str, JSON]
"""A JSON object: a saved battle, an event's outcome, one row of an imported table."""


def texts(value: object) -> tuple[str, ...]:
    """Return a stored list of words as a tuple of strings (nothing when the value is not a list)."""
    return tuple(str(v) for v in value) if isinstance(value, list | tuple) else ()


__all__ = ["JSON", "Document", "Scalar", "texts"]
