"""What a viewer may see of a battle: the GM everything, a side its own hidden units, the public neither.

A unit with the `hidden` status (a Strategic unit that hid, a Combat Action model hidden behind cover) is out
of the other sides' sight: maps, map text, unit lists, logs and menus shown to them leave it out until it
comes out of hiding. Every view of the battle asks `sees` (or `seen_units`) here, so the answer is written once.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules.units import Unit

if TYPE_CHECKING:
    from rules.battle import Battle

HIDDEN = "hidden"


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who looks at the battle: the GM, the players of some sides, or the public (no side, not the GM)."""

    sides: frozenset[str] = frozenset()  # lower-case side names
    gm: bool = False

    @classmethod
    def of(cls, sides: Iterable[str] = (), *, gm: bool = False) -> Viewer:
        """Return the viewer of these sides (the GM too when `gm`)."""
        return cls(sides=frozenset(s.lower() for s in sides), gm=gm)

    def is_of(self, side: str) -> bool:
        """Return whether the viewer plays this side."""
        return side.lower() in self.sides

    @property
    def public(self) -> bool:
        """Return whether this is what everyone may see: no side's secrets, not the GM's."""
        return not self.gm and not self.sides


PUBLIC = Viewer()
GM = Viewer(gm=True)


def is_hidden(unit: Unit) -> bool:
    """Return whether a unit is hiding."""
    return HIDDEN in unit.statuses


def sees(viewer: Viewer, unit: Unit) -> bool:
    """Return whether a viewer sees a unit: a hidden one only its own side and the GM do."""
    return viewer.gm or not is_hidden(unit) or viewer.is_of(unit.side)


def seen_units(battle: Battle[Any], viewer: Viewer) -> Iterator[Unit]:
    """Iterate over the units a viewer sees, in the order they were added."""
    return (u for u in battle.iter_units() if sees(viewer, u))


def unseen_names(battle: Battle[Any], viewer: Viewer) -> set[str]:
    """Return the lower-case names of the units hidden from a viewer."""
    return {u.name.lower() for u in battle.iter_units() if not sees(viewer, u)}


def hides_from(battle: Battle[Any], target: Unit, looker: Unit) -> bool:
    """Return whether a unit is out of another unit's sight: hidden, and on another side."""
    return is_hidden(target) and battle.enemies(target, looker)
