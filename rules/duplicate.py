"""Copy a battle's state for the next order: every mutable part copied, every immutable one shared.

The table service keeps an active battle in memory and resolves each order on a copy of it, so the battle
that readers were handed (a reply, a board, a web page) never changes under them and a refused order never
touches the battle. Rebuilding the copy from the stored document costs a parse of every unit; this walks the
objects instead: lists, dicts and sets are copied, dataclasses that are not frozen are copied field by field,
and strings, numbers, tuples of them and frozen dataclasses are shared as they are.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

_ATOMS: frozenset[type] = frozenset({str, int, float, bool, type(None), bytes})

# Per dataclass: None when frozen (shared), else the names of its fields.
_FIELDS: dict[type, tuple[str, ...] | None] = {}


def _fields_of(cls: type) -> tuple[str, ...] | None:
    if cls in _FIELDS:
        return _FIELDS[cls]
    params = getattr(cls, "__dataclass_params__", None)
    names = None if params is not None and params.frozen else tuple(f.name for f in dataclasses.fields(cls))
    _FIELDS[cls] = names
    return names


def duplicate(value: Any) -> Any:
    """Return a copy of a state value that shares nothing mutable with it."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is list:
        return [x if type(x) in _ATOMS else duplicate(x) for x in value]
    if kind is dict:
        return {k: x if type(x) in _ATOMS else duplicate(x) for k, x in value.items()}
    if kind is set:
        return set(value)  # members are hashable, so immutable
    if kind is tuple or kind is frozenset:
        return value if all(type(x) in _ATOMS for x in value) else kind(duplicate(x) for x in value)
    if dataclasses.is_dataclass(kind):
        names = _fields_of(kind)
        if names is None:
            return value
        new = object.__new__(kind)
        for name in names:
            x = getattr(value, name)
            object.__setattr__(new, name, x if type(x) in _ATOMS else duplicate(x))
        return new
    if isinstance(value, tuple):  # a named tuple: its fields are its items
        return value if all(type(x) in _ATOMS for x in value) else copy.deepcopy(value)
    return copy.deepcopy(value)  # anything else (an enum returns itself)
