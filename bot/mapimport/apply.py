"""Apply an imported or generated map to a battle: the map, then its features, all or nothing."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from bot.mapimport.grid import FeaturePlacement
from rules.battle import Battle
from rules.dice import Dice
from rules.errors import GameError, IllegalOrderError
from rules.orders import ImportMap, Order
from rules.systems.strategic.actions.features import PlaceFeature

if TYPE_CHECKING:
    from bot.service import Actor, BattleRecord, Result, TableService

log = logging.getLogger(__name__)

MAX_FEATURES = 200
UNDO_CHUNK = 50  # the most orders the table service undoes at once


def map_orders(text: str, features: tuple[FeaturePlacement, ...]) -> list[Order]:
    """Return the orders that lay a map and then its features."""
    if len(features) > MAX_FEATURES:
        raise IllegalOrderError(f"The map lays {len(features)} features; at most {MAX_FEATURES} are placed at once.")
    orders: list[Order] = [ImportMap(text=text)]
    orders += [PlaceFeature(feature=f.feature, side=f.side, at=f.cell) for f in features]
    return orders


def check_on_copy(battle: Battle, orders: list[Order]) -> None:
    """Apply the orders to a copy of the battle, so a refusal names the order that fails and changes nothing."""
    trial = Battle.from_dict(battle.to_dict())
    for order in orders:
        try:
            trial.apply(order, Dice.seeded(0))
        except GameError as exc:
            where = f"The feature on {order.at}: " if isinstance(order, PlaceFeature) else ""
            raise GameError(f"{where}{exc.message} Nothing was imported.") from None


async def apply_map(service: TableService, actor: Actor, record: BattleRecord, orders: list[Order]) -> Result:
    """Execute the map's orders; should one fail after all, take the earlier ones back and re-raise."""
    await service.require_gm(actor, record, "replace the map")
    battle = await service.load(await service.get_battle(actor.guild_id, record.id))
    # Laying a 100x100 map and its features on a copy takes a while: off the event loop.
    await asyncio.to_thread(check_on_copy, battle, orders)
    results: list[Result] = []
    contiguous = True
    try:
        for order in orders:
            result = await service.execute(actor, record, order, render=False)
            # Another order slipping in between ours means an undo would take back the wrong thing.
            contiguous = contiguous and (not results or result.record.version == results[-1].record.version + 1)
            results.append(result)
    except GameError as exc:
        await _take_back(service, actor, record, len(results), contiguous)
        raise GameError(f"{exc.message} Nothing was imported.") from None
    first, last = results[0], results[-1]
    # Report the map order's outcome (its size and marks) with the battle as the last order left it.
    last.outcome = first.outcome
    return last


async def _take_back(service: TableService, actor: Actor, record: BattleRecord, count: int, contiguous: bool) -> None:
    """Undo the orders of an import that failed half-way, when nothing else came in between."""
    if not count:
        return
    if not contiguous:
        log.warning("battle %s: a map import failed half-way after other orders came in; the GM can /gm undo",
                    record.id)
        return
    left = count
    while left:
        step = min(UNDO_CHUNK, left)
        await service.undo(actor, await service.get_battle(actor.guild_id, record.id), count=step)
        left -= step
