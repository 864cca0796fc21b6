"""When a battle is over: a side with no unit left in the fight has lost, and the bot then asks to end it.

Each system may say it its own way (`System.battle_over`); without one, the core's reading holds: every unit
of a side destroyed, routing or taken off the table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules.errors import IllegalOrderError

if TYPE_CHECKING:
    from rules.board import Board
    from rules.units import Unit

ROUTING = "routing"


@dataclass(frozen=True)
class Verdict:
    """Why a battle is over: the sides still in the fight and what happened (its GM is then asked to end it)."""

    standing: tuple[str, ...]  # the sides with a unit still able to fight (none: nobody is left)
    reason: str  # as players read it: `Angels has no unit left in the fight...`


def sides_with_units(battle: Board) -> list[str]:
    """Return the sides that have a unit that takes part in the rounds (scenery counts for nobody), in order."""
    present = {u.side.lower() for u in battle.iter_units() if u.takes_turns}
    return [s.name for s in battle.sides if s.name.lower() in present]


def in_the_fight(unit: Unit) -> bool:
    """Return whether a unit can still fight: not destroyed, not routing, taking turns.

    A unit riding inside a vehicle is still in the fight; one taken off the table is no longer in the battle.
    """
    return unit.alive and unit.takes_turns and ROUTING not in unit.statuses


def contenders(battle: Board) -> list[str]:
    """Return the sides that fight: every side but one holding only scenery (a side whose units are gone counts)."""
    scenery = {u.side.lower() for u in battle.iter_units() if not u.takes_turns}
    fighting = {u.side.lower() for u in battle.iter_units() if u.takes_turns}
    return [s.name for s in battle.sides if s.name.lower() in fighting or s.name.lower() not in scenery]


def last_side_standing(battle: Board, fights: Callable[[Unit], bool] = in_the_fight) -> Verdict | None:
    """Return the verdict of a running battle in which at most one side still has a unit that `fights`."""
    if battle.status != "active":
        return None
    sides = contenders(battle)
    if len(sides) < 2:
        return None
    standing = tuple(s for s in sides if any(fights(u) for u in battle.iter_units() if u.side.lower() == s.lower()))
    if len(standing) >= 2:
        return None
    beaten = [s for s in sides if s not in standing]
    lost = " and ".join(beaten)
    reason = (f"{lost} {'has' if len(beaten) == 1 else 'have'} no unit left in the fight (all destroyed, routing "
              "or taken off the table)")
    reason += f": {standing[0]} holds the field." if standing else ": nobody is left to fight."
    return Verdict(standing=standing, reason=reason)


def require_two_sides(battle: Board) -> None:
    """Refuse to start a battle unless two sides have units: a battle of one side is over before it begins."""
    sides = sides_with_units(battle)
    if len(sides) < 2:
        have = f"only {sides[0]} has units" if sides else "no side has units yet"
        raise IllegalOrderError(f"A battle needs two sides with units to start; {have}. Add units of another "
                                "side first.")


def rounds_fought(outcomes: Iterable[Mapping[str, Any]]) -> int:
    """Return the rounds a battle fought, from its logged outcomes (undone ones left out), oldest first.

    A round counts once an order was given in it after the start: the round an automatic end of turn opened
    after the last blow, with nobody left to act in it, was never fought; setup before the start is no round.
    """
    current = 1
    fought = 0
    started = False
    for outcome in outcomes:
        kind = outcome.get("kind")
        if kind == "start":
            started = True
        elif started and kind != "end":
            fought = max(fought, current)
        for effect in outcome.get("effects") or ():
            if isinstance(effect, Mapping) and effect.get("type") == "round_started":
                current = int(effect.get("round") or current)
    return fought
