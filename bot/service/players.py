"""The table service's players: how each player hears of their turns, what they muted, and who is stalling."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.clock import wants_reminder
from bot.service.clocks import ClocksJob
from rules import turns
from rules.battle import Battle
from storage import NEXT_TURN, BattleRecord, ClockRecord, NotifyMode, PlayerRecord


@dataclass(frozen=True)
class Stalling:
    """A player who let reminders pass without acting: how many, and since the first of them (epoch seconds)."""

    user_id: int
    reminders: int
    since: float


class PlayersJob(ClocksJob):
    """Keep each player's own settings: how they hear of their turns, their mutes, reminders and digest."""

    async def notify_mode(self, user_id: int) -> NotifyMode:
        """Return how a player wants to hear that it is their turn."""
        return await self.db.users.get_notify(user_id)

    async def set_notify_mode(self, user_id: int, mode: NotifyMode) -> None:
        """Set how a player wants to hear that it is their turn."""
        await self.db.users.set_notify(user_id, mode)

    async def _player(self, battle_id: int, user_id: int, turn: str | None) -> PlayerRecord:
        return (await self.db.players.get(battle_id, user_id)).for_turn(turn)

    async def pingable(self, battle_id: int, turn: str, user_ids: Sequence[int]) -> list[int]:
        """Return who of these is pinged for a new turn: not those who muted it (a mute of the next turn lands here)."""
        out = []
        for uid in user_ids:
            player = await self.db.players.get(battle_id, uid)
            if player.muted_turn == NEXT_TURN:
                await self.db.players.save(replace(player, muted_turn=turn))
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
        posting = await self.db.players.posting(clock.battle_id)
        now = self.clock()
        stalling = []
        for uid in user_ids:
            player = await self._player(clock.battle_id, uid, clock.turn_key)
            since = now if player.reminded_since is None else player.reminded_since
            player = replace(player, reminded=player.reminded + 1, reminded_since=since)
            if posting.stall_after and player.reminded >= posting.stall_after and not player.stall_told:
                player = replace(player, stall_told=True)
                stalling.append(Stalling(uid, player.reminded, since))
            await self.db.players.save(player)
        return stalling

    async def acted(self, battle_id: int, user_id: int) -> None:
        """Start a player's count of unanswered reminders again: they gave an order."""
        player = await self.db.players.get(battle_id, user_id)
        if player.reminded or player.reminded_since is not None:
            await self.db.players.save(replace(player, reminded=0, reminded_since=None))

    async def mute_turn(self, record: BattleRecord, battle: Battle, user_id: int) -> list[str]:
        """Mute a player's pings for the turn running now if it calls them, else for the next that does.

        Return the player's units due now, whose reminders stop (none: the next turn that calls them is muted).
        """
        clock = await self.clock_of(record)
        due = turns.next_due(battle) if clock.turn_key is not None and turns.engaged(battle) else []
        mine = [battle.unit(n).name for n in due if (battle.unit(n).owner or record.created_by) == user_id]
        player = await self.db.players.get(record.id, user_id)
        muted = clock.turn_key if mine and clock.turn_key is not None else NEXT_TURN
        await self.db.players.save(replace(player, muted_turn=muted))
        return mine if muted != NEXT_TURN else []

    async def unmute(self, battle_id: int, user_id: int) -> bool:
        """Take a player's mute back; return False when nothing was muted."""
        player = await self.db.players.get(battle_id, user_id)
        if player.muted_turn is None:
            return False
        await self.db.players.save(replace(player, muted_turn=None))
        return True

    async def set_reminding(self, battle_id: int, user_id: int, spec: str) -> ClockRecord:
        """Store how often a player is reminded in a battle and schedule the current turn by it; return the clock."""
        player = await self.db.players.get(battle_id, user_id)
        await self.db.players.save(replace(player, remind=spec))
        return await self.turn_clocks.replan(battle_id)
