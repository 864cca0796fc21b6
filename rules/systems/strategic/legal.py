"""The orders a Strategic Combat unit may give now, generated from its reach and its weapons' ranges."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from rules import turns
from rules.errors import GameError
from rules.orders import Move, Order
from rules.systems.strategic.actions.charge import MODE as CHARGE
from rules.systems.strategic.actions.charge import Charge, charge_squares, check_charge
from rules.systems.strategic.actions.combat import Attack
from rules.systems.strategic.actions.other import Aim, Defend, Hide
from rules.systems.strategic.combat import in_reach, out_of_sight
from rules.systems.strategic.movement import allowance, reachable
from rules.systems.strategic.ranges import band_for, weapon_range
from rules.systems.strategic.units import Unit
from rules.turnorders import EndTurn, Hold

if TYPE_CHECKING:
    from rules.systems.strategic.board import Battle
    from rules.units import Unit as BaseUnit


def _may_act(battle: Battle, unit: Unit) -> bool:
    if battle.status != "active" or not unit.alive or "stunned" in unit.statuses:
        return False
    return not turns.engaged(battle) or turns.why_not_now(battle, unit.id) is None


def _affordable(battle: Battle, order: Order, left: int | None) -> bool:
    return left is None or turns.order_cost(battle, order).points <= left


def _charges(battle: Battle, unit: Unit, enemies: list[Unit], left: int | None) -> Iterator[Order]:
    """Yield a charge at every enemy a charge move brings within reach, with each melee weapon.

    The squares a charge may end on are found once for the unit; each enemy's check reads them.
    """
    weapons = [w for w in unit.weapons if w.melee]
    if not weapons or not _affordable(battle, Charge(unit=unit.name, target=unit.name), left):
        return
    squares = charge_squares(battle, unit)
    for weapon in weapons:
        for enemy in enemies:
            order = Charge(unit=unit.name, target=enemy.name, weapon=weapon.name)
            try:
                check_charge(battle, order, squares)
            except GameError:
                continue
            yield order


def legal_orders(battle: Battle, base: BaseUnit) -> Iterator[Order]:
    """Yield the orders this unit may give now: moves per mode, attacks on targets in range, the rest."""
    if not isinstance(base, Unit) or not _may_act(battle, base):
        return
    unit = base
    left = turns.actions_left(battle, unit.id) if turns.engaged(battle) else None
    for mode in battle.ruleset.move_modes:
        if mode == CHARGE:
            continue  # a charge is its own order, ending in a melee attack (below)
        probe = Move(unit=unit.name, to=unit.cell, mode=mode)
        if not _affordable(battle, probe, left) or "immobilised" in unit.statuses:
            continue
        for cell in sorted(reachable(battle, unit, allowance(battle, unit, mode)), key=lambda c: (c.y, c.x)):
            yield Move(unit=unit.name, to=cell, mode=mode)
    enemies = [u for u in battle.iter_units()
               if u.alive and battle.enemies(unit, u) and not out_of_sight(battle, u, unit)]
    for weapon in unit.weapons:
        probe_attack = Attack(unit=unit.name, weapon=weapon.name, target=unit.name)
        if not _affordable(battle, probe_attack, left):
            continue
        if weapon.melee:
            targets = [e for e in enemies if in_reach(battle, unit, e, weapon)]
        else:
            # Every distance a range band covers, the attacker's own square too where Point Blank takes it
            # ("0-1km range, so either same square or adjacent square", 001:L32): what the attack accepts.
            r = weapon_range(battle, weapon)
            targets = [e for e in enemies if band_for(battle, r, unit.cell.distance(e.cell)) is not None]
        for enemy in targets:
            yield Attack(unit=unit.name, weapon=weapon.name, target=enemy.name)
    yield from _charges(battle, unit, enemies, left)
    for other in (Aim(unit=unit.name), Hide(unit=unit.name), Defend(unit=unit.name)):
        check = battle.system.handlers.check(other.kind)
        if check is None or not _affordable(battle, other, left):
            continue
        try:
            check(battle, other)
        except GameError:
            continue
        yield other
    if turns.engaged(battle):
        yield Hold(unit=unit.name)
        yield EndTurn(unit=unit.name)
