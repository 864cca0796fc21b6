"""Statistics of play: per player how fast they act, the deadlines they missed, their orders and takebacks; per
side the units lost round by round. All of it is read from the log and the absence counts, nothing is kept apart,
so a seat's substitute has their own numbers and the player who left keeps theirs.
"""

from __future__ import annotations

import asyncio
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.maps import MapImage
from bot.table import SYSTEM_USER_ID
from render.losses_chart import render_losses_chart
from rules.battle import Battle
from rules.colours import side_colours
from rules.errors import GameError
from rules.replay import apply_step, steps_from_log
from storage import BattleRecord, EventRecord
from storage.records import RESERVED_KINDS

if TYPE_CHECKING:
    from bot.service import TableService

TAKEBACK = "takeback"  # the kind a takeback's logged note names (bot.takeback)


@dataclass
class PlayerStats:
    """One player's numbers in one battle (or added up over several)."""

    user_id: int
    orders: int = 0
    takebacks: int = 0
    missed: int = 0
    waits: list[float] = field(default_factory=list)  # seconds from the battle's last change by another to each order

    @property
    def median_wait(self) -> float | None:
        """Return the median time to act, or None when the player never acted after someone else."""
        return statistics.median(self.waits) if self.waits else None

    @property
    def longest_wait(self) -> float | None:
        """Return the longest time to act, or None."""
        return max(self.waits) if self.waits else None

    def add(self, other: PlayerStats) -> None:
        """Add another battle's numbers of the same player to these."""
        self.orders += other.orders
        self.takebacks += other.takebacks
        self.missed += other.missed
        self.waits += other.waits


def player_stats(events: Iterable[EventRecord], missed: Mapping[int, int]) -> dict[int, PlayerStats]:
    """Count each player's orders, takebacks and times to act from a battle's log, oldest first.

    A time to act runs from the last entry of the log by anybody else (another player, the GM, a deadline) to the
    player's order; the orders a player gives one after the other count once, as one stretch of play.
    """
    found: dict[int, PlayerStats] = {uid: PlayerStats(uid, missed=n) for uid, n in missed.items()}
    last: EventRecord | None = None
    for event in sorted(events, key=lambda e: e.seq):
        outcome = event.outcome or {}
        if event.kind in RESERVED_KINDS:
            if outcome.get("kind") == TAKEBACK and isinstance(outcome.get("player"), int):
                player = int(outcome["player"])
                found.setdefault(player, PlayerStats(player)).takebacks += 1
            last = event
            continue
        if event.actor_id == SYSTEM_USER_ID:
            last = event
            continue
        stats = found.setdefault(event.actor_id, PlayerStats(event.actor_id))
        stats.orders += 1
        if last is not None and last.actor_id != event.actor_id:
            stats.waits.append(max(0.0, event.created_at - last.created_at))
        last = event
    return found


def side_losses(initial: Mapping[str, Any], events: Sequence[EventRecord]) -> tuple[list[int], dict[str, list[int]]]:
    """Replay a battle's log and return its rounds and each side's units lost by the end of each of them.

    Runs every order again (with its recorded dice): call it off the event loop.
    """
    battle = Battle.from_dict(dict(initial))
    logged = [{"seq": e.seq, "kind": e.kind, "order": e.order_text, "outcome": e.outcome, "undone": e.undone}
              for e in events]
    by_round: dict[int, dict[str, int]] = {}
    ever: dict[str, str] = {}  # every unit that stood in the battle, by id, with its side
    for step in steps_from_log(logged):
        apply_step(battle, step)
        for unit in battle.iter_units():
            ever.setdefault(unit.id, unit.side)
        if battle.round >= 1:
            # A unit destroyed is taken off the map, so what is lost is what stood there and no longer fights.
            lost = {s.name: 0 for s in battle.sides}
            for unit_id, side in ever.items():
                unit = battle.units.get(unit_id)
                lost[side] = lost.get(side, 0) + (unit is None or not unit.alive)
            by_round[battle.round] = lost
    rounds = sorted(by_round)
    order = [s.name for s in battle.sides]
    sides = sorted({s for counts in by_round.values() for s in counts},
                   key=lambda s: order.index(s) if s in order else len(order))
    return rounds, {s: [by_round[r].get(s, 0) for r in rounds] for s in sides}


@dataclass(frozen=True)
class BattleStats:
    """A battle's statistics: each player's, and each side's losses with their chart (None: no rounds played)."""

    players: list[PlayerStats]
    rounds: list[int]
    losses: dict[str, list[int]]
    chart: MapImage | None
    replay_error: str | None = None


async def battle_stats(service: TableService, record: BattleRecord) -> BattleStats:
    """Work out a battle's statistics; the log is replayed in a worker thread for the losses."""
    events = await service.all_events(record)
    missed = {a.user_id: a.missed_total for a in await service.db.seats.absences(record.id)}
    players = sorted(player_stats(events, missed).values(), key=lambda p: (-p.orders, p.user_id))
    initial = await service.db.events.initial_state(record.id) or record.state
    try:
        rounds, losses = await asyncio.to_thread(side_losses, initial, events)
    except GameError as exc:
        return BattleStats(players, [], {}, None, exc.message)
    chart = None
    if rounds and losses:
        colours = side_colours(service.read_only(record))
        png = await asyncio.to_thread(render_losses_chart, rounds, losses, colours)
        chart = MapImage(png=png, alt=losses_alt(rounds, losses))
    return BattleStats(players, rounds, losses, chart)


def losses_alt(rounds: Sequence[int], losses: Mapping[str, Sequence[int]]) -> str:
    """Return the chart's alt text: each side's units lost by the end of each round."""
    parts = ["Chart of units lost by the end of each round."]
    for side, counts in losses.items():
        parts.append(f"{side}: " + ", ".join(f"round {r}: {n}" for r, n in zip(rounds, counts, strict=False)) + ".")
    return " ".join(parts)[:1000]


async def my_stats(service: TableService, user_id: int) -> tuple[PlayerStats, int]:
    """Add up a player's numbers over every battle they gave orders in; return them and how many battles."""
    total = PlayerStats(user_id)
    battles = await service.db.events.battles_of(user_id)
    for battle_id in battles:
        record = await service.db.battles.get(battle_id)
        if record is None:
            continue
        events = await service.all_events(record)
        missed = (await service.db.seats.absence(battle_id, user_id)).missed_total
        mine = player_stats(events, {user_id: missed}).get(user_id)
        if mine is not None:
            total.add(mine)
    return total, len(battles)
