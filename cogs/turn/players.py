"""Each player's say over their pings: a muted turn and how often they are reminded, in words."""

from __future__ import annotations

from bot.clock import describe_remind, turn_label
from bot.service import BattleRecord, TableService
from cogs.turn.text import join
from rules.battle import Battle
from rules.errors import IllegalOrderError, NotFoundError


async def mute_turn(service: TableService, battle_id: int, user_id: int, *, undo: bool = False) -> str:
    """Mute a player's pings for the turn running now if it calls them, else for the next that does; say which."""
    record, battle = await _current(service, battle_id)
    if undo:
        if not await service.unmute(battle_id, user_id):
            raise IllegalOrderError("Nothing is muted: your turns are pinged as usual.")
        return "Unmuted: your turns are pinged and reminded as usual again."
    mine = await service.mute_turn(record, battle, user_id)
    if mine:
        return (f"Muted for this turn ({turn_label(battle)}): no more reminders of {join(mine)}. "
                "The next turn that calls you pings you as usual.")
    return ("None of your units is due now, so your next turn is muted: it starts without a ping or reminders. "
            "The turn after it pings you as usual; `/turn mute off:True` takes the mute back.")


async def set_reminding(service: TableService, battle_id: int, user_id: int, spec: str) -> str:
    """Store how often a player is reminded in a battle, schedule the current turn by it, and say what it means."""
    clock = await service.set_reminding(battle_id, user_id, spec)
    return f"Your reminders before a deadline in this battle: {describe_remind(spec, clock.reminders)}."


async def _current(service: TableService, battle_id: int) -> tuple[BattleRecord, Battle]:
    found = await service.current(battle_id)
    if found is None:
        raise NotFoundError("That battle is gone.")
    return found
