"""Small M42 battles for the rules tests: a field of open ground, units added through orders."""

from __future__ import annotations

from typing import Any

from rules.battle import Battle
from rules.coords import Cell, Edge
from rules.dice import Dice
from rules.edges import Obstacle
from rules.orders import AddUnit, Paint, SetRule, Start
from rules.systems.m42.movement import action_of, reachable
from rules.systems.m42.placement import verdict
from rules.systems.m42.units import Spot, Unit

DICE = Dice.seeded(7)


def field(width: int = 30, height: int = 20) -> Battle[Unit]:
    """Return an empty M42 battle of open ground."""
    return Battle.new("m42", width, height)


def paint(battle: Battle[Unit], terrain: str, a: str, b: str | None = None) -> None:
    """Paint a rectangle of terrain."""
    battle.apply(Paint(terrain=terrain, frm=Cell.parse(a), to=Cell.parse(b) if b else None), DICE)


def wall(battle: Battle[Unit], edge: str, kind: str = "wall", **fields: Any) -> None:
    """Put an obstacle on an edge."""
    battle.edges[Edge.parse(edge)] = Obstacle(kind, **fields)


def unit(battle: Battle[Unit], name: str, at: str, side: str = "Red", ld: int = 3, models: int = 1,
         traits: tuple[str, ...] = ()) -> Unit:
    """Add a unit through the add-unit order and return it."""
    battle.apply(AddUnit(name=name, side=side, at=Cell.parse(at),
                         stats={"ld": ld, "models": models, "traits": list(traits)}), DICE)
    found = battle.unit(name)
    assert isinstance(found, Unit)
    return found


def rule(battle: Battle[Unit], key: str, value: str) -> None:
    """Override a rule constant through the set-rule order."""
    battle.apply(SetRule(key=key, value=value), DICE)


def start(battle: Battle[Unit]) -> None:
    """Start the battle."""
    battle.apply(Start(), DICE)


def spot(text: str) -> Spot:
    """Parse a spot like `C4` or `C4^1`."""
    return Spot.parse(text)


def ends(battle: Battle[Unit], name: str, action: str) -> set[str]:
    """Return the spots a unit's leader may end an action on, as text."""
    return {str(s) for s in reachable(battle, battle.unit(name), action_of(battle, action))}


def ok(battle: Battle[Unit], name: str, where: str) -> bool:
    """Return whether a model of the unit may stand on a spot, its leader where it is now."""
    u = battle.unit(name)
    return verdict(battle, u, u.leader, spot(where)).ok
