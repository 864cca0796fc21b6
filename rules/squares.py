"""The state of one square beyond its terrain, as the battle's rule system keeps it.

`Battle.cells` maps a square's text ("C3") to a `Square` of the type its `System` declares
(`System.square_type`): a dataclass subclass of `Square` whose fields are that system's own. The core
`Square` has no field; a system with nothing on its squares plays with it as it is.

A field at its empty value (None, 0, False) is absent from the saved document, so a square saves as a small
dict of its set fields (`{"smoke": 2}`). Fields may be `str`, `int`, `bool` or `list[str]`, each optionally
`| None`; a field defaulting to None counts as set when it holds anything, even 0 or []. Rules read and
write the fields; the mapping methods (`square["smoke"]`, `get`, `update`, `pop`, `in`) name the same fields
by their saved key, for map files and tests that speak of squares as documents.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar, TypeVar

from rules.errors import RulesetError

S = TypeVar("S", bound="Square")

_TYPE_WORDS: dict[type, str] = {str: "text", int: "a whole number", list: "a list", bool: "true or false"}


@dataclass(frozen=True, slots=True)
class _Layout:
    """What a square type's fields are: their saved keys, empty values and accepted types."""

    keys: tuple[str, ...]
    empty: dict[str, Any]
    types: dict[str, type]


def _base_type(hint: Any, where: str) -> type:
    """Return the one type a field holds besides None (`int | None` -> int, `list[str]` -> list)."""
    options = [a for a in typing.get_args(hint) if a is not type(None)] if isinstance(
        hint, types.UnionType) or typing.get_origin(hint) is typing.Union else [hint]
    if len(options) == 1:
        found = typing.get_origin(options[0]) or options[0]
        if found in _TYPE_WORDS:
            return typing.cast(type, found)
    raise RulesetError(f"{where}: a square field is text, a whole number, true or false or a list, not {hint}.")


@dataclass(slots=True, eq=False)
class Square:
    """One square's state: a rule system's subclass declares the fields, this base their handling."""

    _LAYOUTS: ClassVar[dict[type, _Layout]] = {}

    @classmethod
    def layout(cls) -> _Layout:
        """Return the fields of this square type, read once from its dataclass declaration."""
        found = Square._LAYOUTS.get(cls)
        if found is None:
            hints = typing.get_type_hints(cls)
            declared = fields(cls)
            found = _Layout(
                keys=tuple(f.name for f in declared),
                empty={f.name: f.default for f in declared},
                types={f.name: _base_type(hints[f.name], f"{cls.__name__}.{f.name}") for f in declared},
            )
            Square._LAYOUTS[cls] = found
        return found

    @classmethod
    def keys(cls) -> tuple[str, ...]:
        """Return the saved keys of this square type's fields, in declaration order."""
        return cls.layout().keys

    # --- typed reading --------------------------------------------------------------------

    @property
    def empty(self) -> bool:
        """Return whether nothing lies on this square (it is then dropped from the battle)."""
        return not any(self._is_set(k) for k in self.keys())

    def clear(self, *keys: str) -> None:
        """Reset the named fields to empty."""
        empty = self.layout().empty
        for key in keys:
            self._check(key)
            setattr(self, key, empty[key])

    def copy(self: S) -> S:
        """Return an independent copy of this square."""
        values = {k: getattr(self, k) for k in self.keys()}
        return type(self)(**{k: list(v) if isinstance(v, list) else v for k, v in values.items()})

    # --- (de)serialisation ----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Return the square as the JSON-able dict saved with the battle: set fields only."""
        out: dict[str, Any] = {}
        for key in self.keys():
            if self._is_set(key):
                value = getattr(self, key)
                out[key] = list(value) if isinstance(value, list) else value
        return out

    @classmethod
    def from_dict(cls: type[S], data: Mapping[str, Any], where: str = "square") -> S:
        """Rebuild a square from its saved dict, explaining any field that does not belong."""
        if not isinstance(data, Mapping):
            raise RulesetError(f"The saved state of {where} must be a table of fields, not {type(data).__name__}.")
        square = cls()
        for key, value in data.items():
            square._set(str(key), value, where)
        return square

    # --- the document view ----------------------------------------------------------------

    def __getitem__(self, key: str) -> Any:
        if not self._check(key) or not self._is_set(key):
            raise KeyError(key)
        return getattr(self, key)

    def __setitem__(self, key: str, value: Any) -> None:
        self._set(key, value, "square")

    def __delitem__(self, key: str) -> None:
        if key not in self:
            raise KeyError(key)
        self.clear(key)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key in self.layout().empty and self._is_set(key)

    def __iter__(self) -> Iterator[str]:
        return iter(self.to_dict())

    def __len__(self) -> int:
        return len(self.to_dict())

    def __bool__(self) -> bool:
        return not self.empty

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Square):
            return self.to_dict() == other.to_dict()
        if isinstance(other, Mapping):
            return self.to_dict() == dict(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value

    def get(self, key: str, default: Any = None) -> Any:
        """Return a field by its saved key, or the default when it is empty (or not a field of this type)."""
        return getattr(self, key) if key in self else default

    def update(self, values: Mapping[str, Any] | None = None, **more: Any) -> None:
        """Set several fields by their saved keys."""
        for key, value in {**(values or {}), **more}.items():
            self[key] = value

    def pop(self, key: str, default: Any = None) -> Any:
        """Empty a field and return what it held (or the default when it was empty)."""
        value = self.get(key, default)
        if key in self:
            self.clear(key)
        return value

    def setdefault(self, key: str, default: Any = None) -> Any:
        """Return a field, setting it to the default first when it is empty."""
        if key not in self:
            self[key] = default
        return getattr(self, key)

    def items(self) -> Iterator[tuple[str, Any]]:
        """Iterate over the set fields and their values."""
        return iter(self.to_dict().items())

    # --- checks -----------------------------------------------------------------------------

    def _is_set(self, key: str) -> bool:
        value = getattr(self, key)
        # An optional field is set when it holds anything, even 0 (cover worn to nothing) or [] (hidden, unfound).
        return value is not None if self.layout().empty[key] is None else bool(value)

    def _fields_text(self) -> str:
        return ", ".join(self.keys()) or "none: this rule system keeps nothing on its squares"

    def _check(self, key: str) -> bool:
        if key not in self.layout().empty:
            raise KeyError(f"`{key}` is not a square field; the fields are {self._fields_text()}.")
        return True

    def _set(self, key: str, value: Any, where: str) -> None:
        layout = self.layout()
        if key not in layout.empty:
            raise RulesetError(f"{where}: `{key}` is not a square field; use one of {self._fields_text()}.")
        if value is None:
            setattr(self, key, layout.empty[key])
            return
        kind = layout.types[key]
        if (isinstance(value, bool) and kind is not bool) or not isinstance(value, kind):
            raise RulesetError(f"{where}: `{key}` must be {_TYPE_WORDS[kind]}, not {value!r}.")
        if isinstance(value, list):
            if not all(isinstance(v, str) for v in value):
                raise RulesetError(f"{where}: `{key}` must be a list of side names.")
            value = list(value)
        setattr(self, key, value)


def narrowed(found: Square, kind: type[S]) -> S:
    """Return a square as its rule system's type, or explain that the battle keeps another kind of square."""
    if not isinstance(found, kind):
        raise RulesetError(f"A {kind.__module__}.{kind.__name__} square was asked of a battle whose squares are "
                           f"{type(found).__module__}.{type(found).__name__}.")
    return found


def squares_from_dict(data: Mapping[str, Any], square_type: type[Square] = Square) -> dict[str, Square]:
    """Rebuild a battle's squares from their saved document (square text -> fields) as its system's type."""
    if not isinstance(data, Mapping):
        raise RulesetError("The saved `cells` must be a table of squares.")
    return {str(k): square_type.from_dict(v, f"square {k}") for k, v in data.items()}


def squares_to_dict(cells: Mapping[str, Square]) -> dict[str, dict[str, Any]]:
    """Return a battle's squares as their saved document."""
    return {k: s.to_dict() for k, s in cells.items()}


__all__ = ["Square", "narrowed", "squares_from_dict", "squares_to_dict"]
