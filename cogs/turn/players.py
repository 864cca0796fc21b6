"""Each player's say over their pings: a muted turn, how often they are reminded, and who is stalling."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.clock import describe_remind, turn_label, wants_reminder
from bot.service import NEXT_TURN, BattleRecord, ClockRecord, PlayerRecord, TableService
from cogs.turn.text import join
from rules import turns
from rules.battle import Battle
from rules.errors import IllegalOrderError, NotFoundError

MAX_STALL_AFTER = 20


@dataclass(frozen=True)
class Stalling:
    """A player who let reminders pass without acting: how many, and since the first of them (epoch seconds)."""

    user_id: int
    reminders: int
    since: float


class PlayerPings:
    """Read and keep each player's pinging settings and this turn's reminder counts."""

    def __init__(self, service: TableService) -> None:
        self.service = service

    async def _player(self, battle_id: int, user_id: int, turn: str | None) -> PlayerRecord:
        return (await self.service.db.players.get(battle_id, user_id)).for_turn(turn)

    async def pingable(self, battle_id: int, turn: str, user_ids: Sequence[int]) -> list[int]:
        """Return who of these is pinged for a new turn: not those who muted it (a mute of the next turn lands here)."""
        out = []
        for uid in user_ids:
            player = await self.service.db.players.get(battle_id, uid)
            if player.muted_turn == NEXT_TURN:
                await self.service.db.players.save(replace(player, muted_turn=turn))
                continue
            if not player.muted(turn):
                out.append(uid)
        return out

    async def to_remind(self, clock: ClockRecord, user_ids: Sequence[int], meant_for: str, first: bool) -> list[int]:
        """Return who of these a reminder meant for `meant_for` reaches: by their choice, and not if muted."""
        out = []
        for uid in user_ids:
            player = await self._player(clock.battle_id, uid, clock.turn_key)
            if not player.muted(clock.turn_key) and wants_reminder(player.remind, meant_for, first):
                out.append(uid)
        return out

    async def reminded(self, clock: ClockRecord, user_ids: Sequence[int]) -> list[Stalling]:
        """Count a reminder sent to each; return those the GM should now hear about (once a turn each)."""
        posting = await self.service.db.players.posting(clock.battle_id)
        now = self.service.clock()
        stalling = []
        for uid in user_ids:
            player = await self._player(clock.battle_id, uid, clock.turn_key)
            since = now if player.reminded_since is None else player.reminded_since
            player = replace(player, reminded=player.reminded + 1, reminded_since=since)
            if posting.stall_after and player.reminded >= posting.stall_after and not player.stall_told:
                player = replace(player, stall_told=True)
                stalling.append(Stalling(uid, player.reminded, since))
            await self.service.db.players.save(player)
        return stalling

    async def acted(self, battle_id: int, user_id: int) -> None:
        """Start a player's count of unanswered reminders again: they gave an order."""
        player = await self.service.db.players.get(battle_id, user_id)
        if player.reminded or player.reminded_since is not None:
            await self.service.db.players.save(replace(player, reminded=0, reminded_since=None))


async def mute_turn(service: TableService, battle_id: int, user_id: int, *, undo: bool = False) -> str:
    """Mute a player's pings for the turn running now if it calls them, else for the next that does; say which."""
    record, battle = await _current(service, battle_id)
    player = await service.db.players.get(battle_id, user_id)
    if undo:
        if player.muted_turn is None:
            raise IllegalOrderError("Nothing is muted: your turns are pinged as usual.")
        await service.db.players.save(replace(player, muted_turn=None))
        return "Unmuted: your turns are pinged and reminded as usual again."
    clock = await service.clock_of(record)
    due = turns.next_due(battle) if clock.turn_key is not None and turns.engaged(battle) else []
    mine = [battle.unit(n).name for n in due if (battle.unit(n).owner or record.created_by) == user_id]
    if mine and clock.turn_key is not None:
        await service.db.players.save(replace(player, muted_turn=clock.turn_key))
        return (f"Muted for this turn ({turn_label(battle)}): no more reminders of {join(mine)}. "
                "The next turn that calls you pings you as usual.")
    await service.db.players.save(replace(player, muted_turn=NEXT_TURN))
    return ("None of your units is due now, so your next turn is muted: it starts without a ping or reminders. "
            "The turn after it pings you as usual; `/turn mute off:True` takes the mute back.")


async def set_reminding(service: TableService, battle_id: int, user_id: int, spec: str) -> str:
    """Store how often a player is reminded in a battle, schedule the current turn by it, and say what it means."""
    player = await service.db.players.get(battle_id, user_id)
    await service.db.players.save(replace(player, remind=spec))
    clock = await service.turn_clocks.replan(battle_id)
    return f"Your reminders before a deadline in this battle: {describe_remind(spec, clock.reminders)}."


async def _current(service: TableService, battle_id: int) -> tuple[BattleRecord, Battle]:
    found = await service.current(battle_id)
    if found is None:
        raise NotFoundError("That battle is gone.")
    return found
