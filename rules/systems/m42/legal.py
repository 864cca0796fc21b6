"""The orders an M42 unit may give now, generated from where each action can take its leader."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from rules import turns
from rules.coords import Cell
from rules.orders import Move, Order
from rules.systems.m42.kinds import actions_of
from rules.systems.m42.movement import reachable_all
from rules.systems.m42.orders import Act
from rules.systems.m42.units import Unit
from rules.turnorders import EndTurn, Hold

if TYPE_CHECKING:
    from rules.systems.m42.board import Battle
    from rules.units import Unit as BaseUnit


def legal_orders(battle: Battle, base: BaseUnit) -> Iterator[Order]:
    """Yield every action's legal destinations (a `move` on the ground, an `act` to an upper floor), then the
    orders that end the unit's turn: after its action a unit may still place its models, so its turn never ends
    by itself, and a player who only presses buttons ends it with these."""
    if not isinstance(base, Unit) or battle.status != "active":
        return
    if turns.engaged(battle) and turns.why_not_now(battle, base.id) is not None:
        return
    left = turns.actions_left(battle, base.id) if turns.engaged(battle) else None
    reach = reachable_all(battle, base)
    # Actions of one distance share one reach: its spots are put in order, with their squares, once.
    ordered: dict[int, list[tuple[int, Cell]]] = {}
    for action in actions_of(battle).values():
        if left is not None and turns.order_cost(battle, Move(unit=base.name, to=base.cell, mode=action.key)).points > left:
            continue  # a unit with no action left is offered nothing but ending its turn
        found = reach[action.key]
        spots = ordered.get(id(found))
        if spots is None:
            spots = ordered[id(found)] = [(p.level, p.cell) for p in sorted(found, key=lambda p: (p.level, p.y, p.x))]
        for level, cell in spots:
            if level:
                yield Act(unit=base.name, action=action.key, to=cell, level=level)
            else:
                yield Move(unit=base.name, to=cell, mode=action.key)
    if turns.engaged(battle):
        yield from (ender for ender in (Hold(unit=base.name), EndTurn(unit=base.name)) if battle.is_legal(ender))
