"""What a viewer may see of a battle: the GM everything, a side its own hidden units, the public neither.

A unit with the `hidden` status (a Strategic unit that hid, a Combat Action model hidden behind cover) is out
of the other sides' sight: maps, map text, unit lists, logs and menus shown to them leave it out until it
comes out of hiding. Every view of the battle asks `sees` (or `seen_units`) here, so the answer is written once.

What an order did reaches a viewer only through `redact`: it takes the outcome and the viewer and returns the
outcome with every part the viewer may not know taken out (a roll, test, effect, detail or map mark naming a
square of something hidden from them, or everything but the order's kind for a GM's hidden roll). Embeds,
log lines, maps and their alt text are built from what it returns, so no formatter can show a secret it
was never given.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from rules.details import NO_DETAILS
from rules.outcome import Highlight, Outcome
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


@dataclass(frozen=True, slots=True)
class Secrets:
    """The squares a viewer may not learn anything about: where a hidden unit or a hidden feature lies."""

    squares: frozenset[str] = frozenset()  # upper-case squares, like `F6`

    def named_in(self, text: str) -> bool:
        """Return whether a text names one of the secret squares (`F6`, but not `F60` or `AF6`)."""
        if not self.squares or not text:
            return False
        return any(_square_pattern(square).search(text) for square in self.squares)


def _square_pattern(square: str) -> re.Pattern[str]:
    """Return the pattern of a square standing alone in a text (a literal between boundaries: no backtracking)."""
    return re.compile(rf"(?<![A-Za-z0-9]){re.escape(square)}(?![0-9])", re.IGNORECASE)


def secrets_for(battle: Battle[Any], viewer: Viewer) -> Secrets:
    """Return what the viewer may not learn: the squares of units hidden from them and of features they cannot see."""
    if viewer.gm:
        return Secrets()
    squares = {str(u.cell).upper() for u in battle.iter_units() if not sees(viewer, u) and battle.system.has_map}
    hidden_squares = battle.system.hidden_squares
    if hidden_squares is not None:
        squares |= {s.upper() for s in hidden_squares(battle, viewer.sides)}
    return Secrets(frozenset(squares))


def _mentions(secrets: Secrets, part: object) -> bool:
    """Return whether a part of an outcome (a roll, test, effect or detail, as stored) names a secret square."""
    to_dict = getattr(part, "to_dict", None)
    text = repr(to_dict()) if callable(to_dict) else repr(part)
    return secrets.named_in(text)


def _acted_unseen(outcome: Outcome, battle: Battle[Any], viewer: Viewer) -> bool:
    """Return whether the order's own unit is out of the viewer's sight after it (a hidden unit's move)."""
    if not outcome.actor:
        return False
    unit = battle.find_unit(outcome.actor)
    return unit is not None and not sees(viewer, unit)


def _highlight_for(highlight: Highlight, secrets: Secrets) -> Highlight:
    """Return the map marks without any square that is a secret (a line or path through one goes whole)."""
    out = Highlight(hit=highlight.hit)
    for key in ("actor", "target", "attacker", "landed"):
        square = getattr(highlight, key)
        if square is not None and not secrets.named_in(square):
            setattr(out, key, square)
    for key in ("path", "line"):
        squares = getattr(highlight, key)
        if squares is not None and not any(secrets.named_in(c) for c in squares):
            setattr(out, key, list(squares))
    for key in ("cells", "choices"):
        squares = getattr(highlight, key)
        if squares is not None:
            setattr(out, key, [c for c in squares if not secrets.named_in(c)])
    if highlight.marks is not None:
        out.marks = [m for m in highlight.marks if not secrets.named_in(m.cell) and not secrets.named_in(m.text)]
    return out


def visible_highlight(highlight: Highlight, battle: Battle[Any], viewer: Viewer) -> Highlight:
    """Return map marks as the viewer may see them: none on, or through, a square hidden from them."""
    return highlight if viewer.gm else _highlight_for(highlight, secrets_for(battle, viewer))


def redact(outcome: Outcome, battle: Battle[Any], viewer: Viewer) -> Outcome:
    """Return the outcome as this viewer may know it; every public rendering of an order is built from this.

    `battle` is the battle after the order. The GM gets the outcome whole. Anyone else loses, of a GM's
    hidden roll, everything but that a roll was made; of an order whose unit is out of their sight after it
    (a hidden unit's move), everything but that the unit did it; and of any other order, each roll, test,
    effect, detail and map mark that names a square of something hidden from them.
    """
    if viewer.gm:
        return outcome
    if outcome.hidden:
        return replace(outcome, order=outcome.kind, actor=None, rolls=[], tests=[], effects=[],
                       highlight=Highlight(), details=NO_DETAILS)
    secrets = secrets_for(battle, viewer)
    if _acted_unseen(outcome, battle, viewer):
        assert outcome.actor is not None
        # Every square the order touched is its unit's secret now, wherever the order says it went.
        marked = outcome.highlight
        touched = {s for s in (marked.actor, marked.target, marked.attacker, marked.landed) if s}
        touched |= {c for cells in (marked.path, marked.line, marked.cells) if cells for c in cells}
        secrets = Secrets(secrets.squares | {s.upper() for s in touched})
        # The order that hid the unit was made in sight, so its test may be read; anything a unit does
        # once hidden (a move's terrain tests) would tell where it is.
        hid = any(e.kind == HIDDEN for e in outcome.effects)
        return replace(outcome, order=f"{outcome.kind} unit:{shlex.quote(outcome.actor)}",
                       rolls=[r for r in outcome.rolls if hid and not _mentions(secrets, r)],
                       tests=[t for t in outcome.tests if hid and not _mentions(secrets, t)],
                       effects=[], highlight=Highlight(), details=NO_DETAILS)
    if not secrets.squares:
        return outcome
    return replace(
        outcome,
        order=outcome.kind if secrets.named_in(outcome.order) else outcome.order,
        rolls=[r for r in outcome.rolls if not _mentions(secrets, r)],
        tests=[t for t in outcome.tests if not _mentions(secrets, t)],
        effects=[e for e in outcome.effects if not _mentions(secrets, e)],
        highlight=_highlight_for(outcome.highlight, secrets),
        details=NO_DETAILS if _mentions(secrets, outcome.details) else outcome.details,
    )
