"""The orders a Combat Action unit may give now, generated from its MV, its weapons' bands and its state."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from rules import turns
from rules.coords import Cell
from rules.orders import Move, Order
from rules.systems.combat_action.actions.fire import CLASS_MODES, Fire, why_not_fire
from rules.systems.combat_action.actions.play import (
    MOVE_MODES,
    Aim,
    FlatDown,
    GetUp,
    move_limit_cm,
    why_not_move,
)
from rules.systems.combat_action.state import AIMED, FLAT_DOWN
from rules.systems.combat_action.units import Unit
from rules.turnorders import EndTurn

if TYPE_CHECKING:
    from rules.systems.combat_action.board import Battle
    from rules.units import Unit as BaseUnit


def _left(battle: Battle, unit: Unit) -> int | None:
    return turns.actions_left(battle, unit.id) if turns.engaged(battle) else None


def _affordable(battle: Battle, order: Order, left: int | None) -> bool:
    return left is None or turns.order_cost(battle, order).points <= left


def legal_orders(battle: Battle, base: BaseUnit) -> Iterator[Order]:
    """Yield the moves, shots and postures this unit may take now, within its action points."""
    if not isinstance(base, Unit) or battle.status != "active" or not base.alive:
        return
    unit = base
    if turns.engaged(battle) and turns.why_not_now(battle, unit.id) is not None:
        return
    left = _left(battle, unit)
    cm_per = int(battle.const("cm_per_square"))
    for mode in MOVE_MODES:
        probe = Move(unit=unit.name, to=unit.cell, mode=mode)
        if not _affordable(battle, probe, left):
            continue
        reach = move_limit_cm(unit, mode, battle) // cm_per
        for y in range(max(0, unit.y - reach), min(battle.height, unit.y + reach + 1)):
            for x in range(max(0, unit.x - reach), min(battle.width, unit.x + reach + 1)):
                cell = Cell(x, y)
                if cell != unit.cell and why_not_move(battle, unit, cell, mode) is None:
                    yield Move(unit=unit.name, to=cell, mode=mode)
    for weapon in unit.weapons:
        for mode in CLASS_MODES.get(weapon.wclass, ()):
            if not _affordable(battle, Fire(unit=unit.name, weapon=weapon.name, target="", mode=mode), left):
                continue
            for other in battle.iter_units():
                if other.alive and battle.enemies(unit, other) and why_not_fire(battle, unit, weapon, other, mode) is None:
                    yield Fire(unit=unit.name, weapon=weapon.name, target=other.name, mode=mode)
    postures: list[Order] = []
    if "routing" not in unit.statuses and not unit.machine:
        postures.append(GetUp(unit=unit.name) if FLAT_DOWN in unit.statuses else FlatDown(unit=unit.name))
    if "routing" not in unit.statuses and AIMED not in unit.statuses:
        postures.append(Aim(unit=unit.name))
    for posture in postures:
        if _affordable(battle, posture, left):
            yield posture
    if turns.engaged(battle):
        yield EndTurn(unit=unit.name)
