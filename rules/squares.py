"""The state of one square beyond its terrain: the feature on it and the smoke, fire and weather over it.

`Battle.cells` maps a square's text ("C3") to a `Square`. A field at its empty value (None, 0, False) is
absent from the saved document, so a square saves as the same small dict it always did:
`{"feature": "trench", "feature_side": "Blue", "feature_purchase": 1}`, `{"storm": true}`, `{"smoke": 2}`.
Rules read and write the fields; the mapping methods (`square["smoke"]`, `get`, `update`, `pop`, `in`)
name the same fields by their saved key, for map files and tests that speak of squares as documents.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from rules.errors import RulesetError


@dataclass(slots=True, eq=False)
class Square:
    """One square's feature, its wear, and the effects lying on it."""

    feature: str | None = None  # a FeatureType key of the ruleset
    feature_side: str | None = None  # the side that bought it (it never triggers on its own side)
    feature_purchase: int | None = None  # one purchase may lay several squares (A27)
    feature_ap: int | None = None  # cover AP left after decay (A22); None: the feature's own
    mine_triggers: int | None = None  # a minefield's detonations left (A30)
    revealed: list[str] | None = None  # the enemy sides that found this hidden trap (A29); None: not hidden
    bridge_wounds: int | None = None  # wounds a bridge on this square has lost (A32)
    underlying: str | None = None  # the water terrain under Ice, which it melts back into (A33)
    smoke: int = 0  # rounds of smoke left
    fire: int = 0  # rounds of fire left
    burnt: bool = False  # burnt-out Forest never burns again (A36)
    storm: bool = False
    rain: bool = False
    deep: bool = False  # deep water (A35)
    road: bool = False  # M42: a road runs through the square
    floors: int | None = None  # M42: floors of a building or ruin square; None: the ground floor alone

    KEYS: ClassVar[tuple[str, ...]] = ()
    _TYPES: ClassVar[dict[str, tuple[type, ...]]] = {}

    # --- typed reading --------------------------------------------------------------------

    @property
    def empty(self) -> bool:
        """Return whether nothing lies on this square (it is then dropped from the battle)."""
        return not any(self._is_set(k) for k in self.KEYS)

    def clear(self, *keys: str) -> None:
        """Reset the named fields to empty."""
        for key in keys:
            self._check(key)
            setattr(self, key, _EMPTY[key])

    def copy(self) -> Square:
        """Return an independent copy of this square."""
        out = Square(**{k: getattr(self, k) for k in self.KEYS})
        if self.revealed is not None:
            out.revealed = list(self.revealed)
        return out

    # --- (de)serialisation ----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Return the square as the JSON-able dict saved with the battle: set fields only."""
        out: dict[str, Any] = {}
        for key in self.KEYS:
            if self._is_set(key):
                value = getattr(self, key)
                out[key] = list(value) if isinstance(value, list) else value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "square") -> Square:
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
        return isinstance(key, str) and key in _EMPTY and self._is_set(key)

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
        """Return a field by its saved key, or the default when it is empty."""
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
        return value is not None if _EMPTY[key] is None else bool(value)

    def _check(self, key: str) -> bool:
        if key not in _EMPTY:
            raise KeyError(f"`{key}` is not a square field; the fields are {', '.join(self.KEYS)}.")
        return True

    def _set(self, key: str, value: Any, where: str) -> None:
        if key not in _EMPTY:
            raise RulesetError(f"{where}: `{key}` is not a square field; use one of {', '.join(self.KEYS)}.")
        if value is None:
            setattr(self, key, _EMPTY[key])
            return
        types = self._TYPES[key]
        if isinstance(value, bool) and bool not in types:
            raise RulesetError(f"{where}: `{key}` must be {_TYPE_WORDS[types]}, not {value!r}.")
        if not isinstance(value, types):
            raise RulesetError(f"{where}: `{key}` must be {_TYPE_WORDS[types]}, not {value!r}.")
        if isinstance(value, list):
            if not all(isinstance(v, str) for v in value):
                raise RulesetError(f"{where}: `{key}` must be a list of side names.")
            value = list(value)
        setattr(self, key, value)


_EMPTY: dict[str, Any] = {f.name: f.default for f in fields(Square)}
Square.KEYS = tuple(_EMPTY)
Square._TYPES = {
    **dict.fromkeys(("feature", "feature_side", "underlying"), (str,)),
    **dict.fromkeys(("feature_purchase", "feature_ap", "mine_triggers", "bridge_wounds", "smoke", "fire", "floors"),
                   (int,)),
    "revealed": (list,),
    **dict.fromkeys(("burnt", "storm", "rain", "deep", "road"), (bool,)),
}
_TYPE_WORDS: dict[tuple[type, ...], str] = {(str,): "text", (int,): "a whole number", (list,): "a list", (bool,): "true or false"}


def squares_from_dict(data: Mapping[str, Any]) -> dict[str, Square]:
    """Rebuild a battle's squares from their saved document (square text -> fields)."""
    if not isinstance(data, Mapping):
        raise RulesetError("The saved `cells` must be a table of squares.")
    return {str(k): Square.from_dict(v, f"square {k}") for k, v in data.items()}


def squares_to_dict(cells: Mapping[str, Square]) -> dict[str, dict[str, Any]]:
    """Return a battle's squares as their saved document."""
    return {k: s.to_dict() for k, s in cells.items()}


__all__ = ["Square", "squares_from_dict", "squares_to_dict"]
