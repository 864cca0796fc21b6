"""The orders a Combat Action unit may give now, generated from its MV, its weapons, its hold and its state."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from rules import turns
from rules.coords import Cell
from rules.orders import Move, Order
from rules.scale import square_size
from rules.systems.combat_action.actions.close import (
    CloseCombat,
    best_close_weapon,
    why_not_break_hatch,
    why_not_strike,
)
from rules.systems.combat_action.actions.fire import CLASS_MODES, Fire, why_not_fire
from rules.systems.combat_action.actions.other import ACTIONS, Act, why_not_act
from rules.systems.combat_action.actions.play import Activate, Aim, FlatDown, GetUp
from rules.systems.combat_action.actions.transport import (
    REACH,
    Disembark,
    Embark,
    Hatch,
    carrier,
    why_not_disembark,
    why_not_embark,
    why_not_hatch,
)
from rules.systems.combat_action.actions.weapons import Prime, Reload, Unjam, why_not_tend
from rules.systems.combat_action.movement import MOVE_MODES, move_limit_cm, why_not_move_now, why_not_step
from rules.systems.combat_action.state import AIMED, FLAT_DOWN, ROUTING, on_table
from rules.systems.combat_action.units import Unit
from rules.turnorders import EndTurn

if TYPE_CHECKING:
    from rules.systems.combat_action.board import Battle
    from rules.units import Unit as BaseUnit


def _left(battle: Battle, unit: Unit) -> int | None:
    return turns.actions_left(battle, unit.id) if turns.engaged(battle) else None


def _affordable(battle: Battle, order: Order, left: int | None) -> bool:
    return left is None or turns.order_cost(battle, order).points <= left


def _around(battle: Battle, centre: Cell, reach: int) -> Iterator[Cell]:
    for y in range(max(0, centre.y - reach), min(battle.height, centre.y + reach + 1)):
        for x in range(max(0, centre.x - reach), min(battle.width, centre.x + reach + 1)):
            yield Cell(x, y)


def _moves(battle: Battle, unit: Unit, left: int | None) -> Iterator[Order]:
    cm_per = square_size(battle)
    for mode in MOVE_MODES:
        if not _affordable(battle, Move(unit=unit.name, to=unit.cell, mode=mode), left):
            continue
        if why_not_move_now(battle, unit, mode) is not None:
            continue  # what keeps the unit from moving this way is asked once, not for every square
        here = unit.cell
        # The squares around within the move's reach are those `why_not_move_to` finds near enough; of them, only
        # the pinned and routing limits are left to ask.
        for cell in _around(battle, here, int(move_limit_cm(unit, mode, battle) // cm_per)):
            if cell != here and why_not_step(battle, unit, cell, mode) is None:
                yield Move(unit=unit.name, to=cell, mode=mode)


def _shots(battle: Battle, unit: Unit, left: int | None) -> Iterator[Order]:
    for weapon in unit.weapons:
        for mode in CLASS_MODES.get(weapon.wclass, ()):
            if not _affordable(battle, Fire(unit=unit.name, weapon=weapon.name, target="", mode=mode), left):
                continue
            for other in battle.iter_units():
                if battle.enemies(unit, other) and why_not_fire(battle, unit, weapon, other, mode) is None:
                    yield Fire(unit=unit.name, weapon=weapon.name, target=other.name, mode=mode)
        for kind, cls in (("reload", Reload), ("unjam", Unjam), ("prime", Prime)):
            tend = cls(unit=unit.name, weapon=weapon.name)
            if why_not_tend(battle, unit, weapon, kind) is None and _affordable(battle, tend, left):
                yield tend


def _blows(battle: Battle, unit: Unit, left: int | None) -> Iterator[Order]:
    if not _affordable(battle, CloseCombat(unit=unit.name, target=""), left):
        return
    best = best_close_weapon(unit)
    weapon = best.name if best else ""
    for other in battle.iter_units():
        if other.alive and battle.enemies(unit, other) and why_not_strike(battle, unit, other) is None:
            yield CloseCombat(unit=unit.name, target=other.name, weapon=weapon)
        if other.machine and why_not_break_hatch(battle, unit, other) is None:
            yield CloseCombat(unit=unit.name, target=other.name, weapon=weapon, hatch=True)


def _hold(battle: Battle, unit: Unit, left: int | None) -> Iterator[Order]:
    near = [u for u in battle.iter_units() if on_table(u) and u.kind == "vehicle"
            and u.cell.distance(unit.cell) <= REACH]
    vehicles = [unit] if unit.kind == "vehicle" else [carrier(battle, unit, "")] if unit.inside else near
    for vehicle in vehicles:
        for action in ("open", "close"):
            order: Order = Hatch(unit=unit.name, action=action, vehicle="" if vehicle is unit or unit.inside else vehicle.name)
            if why_not_hatch(battle, unit, vehicle, action) is None and _affordable(battle, order, left):
                yield order
    if unit.inside:
        vehicle = battle.units[unit.inside]
        for cell in _around(battle, vehicle.cell, REACH):
            order = Disembark(unit=unit.name, to=cell)
            if why_not_disembark(battle, unit, cell) is None and _affordable(battle, order, left):
                yield order
        return
    for vehicle in near:
        order = Embark(unit=unit.name, vehicle=vehicle.name)
        if why_not_embark(battle, unit, vehicle) is None and _affordable(battle, order, left):
            yield order


def _actions(battle: Battle, unit: Unit, left: int | None) -> Iterator[Order]:
    for key, need in ACTIONS.items():
        if not _affordable(battle, Act(unit=unit.name, action=key), left):
            continue
        if need == "":
            if why_not_act(battle, unit, key, None, None) is None:
                yield Act(unit=unit.name, action=key)
        elif need == "to" and key in ("jump", "climb"):
            for cell in _around(battle, unit.cell, 1):
                if cell != unit.cell and why_not_act(battle, unit, key, None, cell) is None:
                    yield Act(unit=unit.name, action=key, to=cell)
        elif need == "target":
            for other in battle.iter_units():
                if other is not unit and other.alive and why_not_act(battle, unit, key, other, None) is None:
                    yield Act(unit=unit.name, action=key, target=other.name)


def legal_orders(battle: Battle, base: BaseUnit) -> Iterator[Order]:
    """Yield every order this unit may give now within its action points, the End Phase last.

    Opening a door names a square of the GM's choosing, so it is offered by the commands rather than here.
    """
    if not isinstance(base, Unit) or battle.status != "active" or not base.alive or base.building:
        return
    unit = base
    if turns.engaged(battle) and turns.why_not_now(battle, unit.id) is not None:
        return
    left = _left(battle, unit)
    if unit.activated != battle.round:
        yield Activate(unit=unit.name)
    yield from _moves(battle, unit, left)
    yield from _shots(battle, unit, left)
    yield from _blows(battle, unit, left)
    yield from _hold(battle, unit, left)
    postures: list[Order] = []
    if ROUTING not in unit.statuses and not unit.machine and not unit.inside:
        postures.append(GetUp(unit=unit.name) if FLAT_DOWN in unit.statuses else FlatDown(unit=unit.name))
    if ROUTING not in unit.statuses and AIMED not in unit.statuses:
        postures.append(Aim(unit=unit.name))
    for posture in postures:
        if _affordable(battle, posture, left):
            yield posture
    yield from _actions(battle, unit, left)
    if turns.engaged(battle):
        yield EndTurn(unit=unit.name)
