"""Realistic battles for the benchmarks: the example stat blocks with their weapons, terrain, and a played log.

A battle is built by playing it through the table service: blobs of terrain painted, units added from the
stat-block files in `examples/` (each with its armour, skills and weapons), the battle started, then moves
and attacks of the units whose turn it is, ending turns and closing rounds as a table would, until the
log holds the wanted number of events. Many battles are then cloned from one at the storage level (the
state row, its whole log with every undo snapshot, and its clock), so a database of thousands of battles
takes seconds, not hours.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from bot.service import Actor, BattleRecord, TableService
from rules import orders as o
from rules import turns
from rules.battle import Battle
from rules.coords import Cell
from rules.systems.strategic.actions.combat import Attack
from rules.systems.strategic.combat import in_reach
from rules.systems.strategic.movement import allowance, reachable
from rules.systems.strategic.ranges import max_range, weapon_range
from rules.systems.strategic.statblock_file import parse_statblock_file
from rules.turnorders import CloseRound, EndTurn
from storage import Database

if TYPE_CHECKING:
    from loopback import LoopbackDiscord
    from loopback.models import LoopbackChannel, LoopbackUser, StoredMessage
    from loopback.replies import Reply

CONFIRM = "bp:ok:"  # the custom id a question's Confirm button starts with
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
STAT_FILES = ("eva-01.toml", "armoured-horde.toml", "infantry-horde.toml", "superheavy.toml")
TERRAIN = ("forest", "mountain", "water", "urban")
SIDES = ("Blue", "Red")


def stat_blocks() -> list[dict[str, Any]]:
    """Return the stat blocks of the example files (kind, characteristics, armour, skills, weapons)."""
    blocks: list[dict[str, Any]] = []
    for name in STAT_FILES:
        blocks += [spec.stats for spec in parse_statblock_file((EXAMPLES / name).read_text())]
    return blocks


def unit_cells(size: int, count: int, rng: random.Random) -> list[Cell]:
    """Return distinct squares for the units: the two sides face each other across the middle of the map."""
    cells: list[Cell] = []
    taken: set[tuple[int, int]] = set()
    for i in range(count):
        left = i % 2 == 0
        while True:
            x = rng.randrange(0, max(1, size // 3)) if left else rng.randrange(size - max(1, size // 3), size)
            y = rng.randrange(size)
            if (x, y) not in taken:
                taken.add((x, y))
                cells.append(Cell(x, y))
                break
    return cells


def due_units(battle: Battle) -> list[Any]:
    """Return the living units whose turn it is now."""
    if not turns.engaged(battle):
        return []
    return [u for u in (battle.units.get(i) for i in turns.next_due(battle)) if u is not None and u.alive]


def moves_of(battle: Battle, unit: Any) -> list[o.Move]:
    """Return the Half Moves a unit may make now, from the rules' own reach."""
    if "immobilised" in unit.statuses:
        return []
    reach = reachable(battle, unit, allowance(battle, unit, "half"))
    return [o.Move(unit=unit.name, to=cell, mode="half") for cell in sorted(reach, key=lambda c: (c.y, c.x))
            if cell != unit.cell]


def attacks_of(battle: Battle, unit: Any) -> list[Attack]:
    """Return the attacks a unit may make now on enemies in range of its ranged weapons, or in reach of its melee ones."""
    enemies = [u for u in battle.iter_units() if u.alive and battle.enemies(unit, u)]
    found: list[Attack] = []
    for weapon in unit.weapons:
        if weapon.melee:
            targets = [e for e in enemies if in_reach(battle, unit, e, weapon)]
        else:
            reach = max_range(battle, weapon_range(battle, weapon))
            targets = [e for e in enemies if 0 < unit.cell.distance(e.cell) <= reach]
        found += [Attack(unit=unit.name, weapon=weapon.name, target=e.name) for e in targets]
    return found


def next_order(battle: Battle, rng: random.Random, kind: str = "any") -> o.Order:
    """Return an order a player would give now: a move or an attack (`kind`), else end a turn or the round.

    Moves come from the rules' reach; attacks from the weapons' ranges (the rules' own range bands), as
    the legal-order generator makes them, without its other modes, which a load generator need not pay.
    """
    due = due_units(battle)
    rng.shuffle(due)
    for unit in due:
        if turns.actions_left(battle, unit.id) < 1 or "stunned" in unit.statuses:
            continue
        if kind == "move":
            wanted: list[Any] = moves_of(battle, unit)
        elif kind == "attack":
            wanted = attacks_of(battle, unit)
        else:
            wanted = (attacks_of(battle, unit) if rng.random() < 0.5 else []) or moves_of(battle, unit)
        if wanted:
            return rng.choice(wanted)
    if due:
        return EndTurn(unit=due[0].name)
    return CloseRound()


def owners_of(battle: Battle, order: o.Order) -> int | None:
    """Return the owner of the unit an order names, if any."""
    name = getattr(order, "unit", "")
    unit = battle.find_unit(name) if name else None
    return unit.owner if unit is not None else None


async def build(service: TableService, gm: Actor, players: list[Actor], *, size: int = 40, units: int = 60,
                events: int = 200, channel: int = 10, seed: int = 1, name: str = "Bench") -> BattleRecord:
    """Create a started battle of `size` squares a side and `units` units, and play it to `events` log entries."""
    rng = random.Random(seed)
    result = await service.create_battle(gm, channel_id=channel, thread_id=None, name=name, ruleset="strategic-e",
                                         width=size, height=size)
    record = result.record
    for _ in range(max(1, size * size // 120)):
        x, y, r = rng.randrange(size), rng.randrange(size), rng.randint(1, 3)
        a, b = Cell(max(0, x - r), max(0, y - r)), Cell(min(size - 1, x + r), min(size - 1, y + r))
        record = (await service.execute(gm, record, o.Paint(terrain=rng.choice(TERRAIN), frm=a, to=b),
                                        render=False)).record
    blocks = stat_blocks()
    for i, at in enumerate(unit_cells(size, units, rng)):
        owner = players[i % len(players)].user_id if players else None
        order = o.AddUnit(name=f"U{i + 1}", side=SIDES[i % 2], at=at, owner=owner, stats=dict(blocks[i % len(blocks)]))
        record = (await service.execute(gm, record, order, render=False)).record
    record = (await service.execute(gm, record, o.Start(), render=False)).record
    logged = await service.db.events.count(record.id)
    while logged < events:
        battle = Battle.from_dict(record.state)
        order = next_order(battle, rng)
        record = (await service.execute(gm, record, order, render=False)).record
        logged += 1
    return record


def clone(raw: sqlite3.Connection, source: int, places: list[tuple[int, int]], *, snapshots: bool = True) -> list[int]:
    """Copy a battle (state, whole log, clock) into each (guild, channel) given; return the new ids.

    Without `snapshots` the copies' log entries keep no undo snapshot: a database of thousands of battles
    then fits on a disk, and only those battles' undo is lost.
    """
    made: list[int] = []
    for i, (guild, channel) in enumerate(places):
        cursor = raw.execute(
            """INSERT INTO battles (guild_id, channel_id, thread_id, name, ruleset, status, created_by, created_at,
                                    updated_at, version, state)
               SELECT ?, ?, NULL, name || ' #' || ?, ruleset, status, created_by, created_at, updated_at, version, state
               FROM battles WHERE id = ?""",
            (guild, channel, i, source))
        new = int(cursor.lastrowid or 0)
        raw.execute(
            """INSERT INTO events (battle_id, seq, actor_id, kind, order_text, outcome, hidden, undone, created_at,
                                   status_before, state_before)
               SELECT ?, seq, actor_id, kind, order_text, outcome, hidden, undone, created_at, status_before,
                      CASE WHEN ? THEN state_before END
               FROM events WHERE battle_id = ?""", (new, int(snapshots), source))
        raw.execute(
            """INSERT INTO battle_clocks (battle_id, deadline, policy, reminders, turn_key, turn_started, due_at,
                                          paused_at, remaining, expired_at)
               SELECT ?, deadline, policy, reminders, turn_key, turn_started, due_at, paused_at, remaining, expired_at
               FROM battle_clocks WHERE battle_id = ?""", (new, source))
        made.append(new)
    return made


def lengthen(raw: sqlite3.Connection, battle_id: int, total: int) -> int:
    """Copy a battle's logged orders (with their snapshots) after its newest until it has `total` events.

    The copies are marked undone, so undo and replay still see only the orders really played; the log, its
    index and its snapshots are as big as a battle that long.
    """
    have, last = raw.execute("SELECT COUNT(*), MAX(seq) FROM events WHERE battle_id = ?", (battle_id,)).fetchone()
    rows = raw.execute(
        """SELECT actor_id, kind, order_text, outcome, hidden, created_at, status_before, state_before
           FROM events WHERE battle_id = ? AND kind NOT IN ('create', 'undo') ORDER BY seq""", (battle_id,)).fetchall()
    seq = int(last)
    # The copies go before the real log's end would break undo's order; they are appended after it, undone.
    for row in _cycle(rows, max(0, total - int(have))):
        seq += 1
        raw.execute(
            """INSERT INTO events (battle_id, seq, actor_id, kind, order_text, outcome, hidden, undone, created_at,
                                   status_before, state_before)
               VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)""", (battle_id, seq, *row))
    return seq


def resize_log(raw: sqlite3.Connection, battle_id: int, total: int) -> None:
    """Give a battle a log of `total` events: its newest ones kept, or older ones copied on (see lengthen)."""
    have, last = raw.execute("SELECT COUNT(*), MAX(seq) FROM events WHERE battle_id = ?", (battle_id,)).fetchone()
    if have > total:
        raw.execute("DELETE FROM events WHERE battle_id = ? AND seq <= ?", (battle_id, int(last) - total))
    else:
        lengthen(raw, battle_id, total)


def encoded(record: BattleRecord) -> bytes:
    """Return a battle's state as stored."""
    return orjson.dumps(record.state)


async def last_entry_sizes(db: Database, battle_id: int) -> tuple[int, int]:
    """Return the length of a battle's newest log entry (order and outcome) and of its undo snapshot."""
    def read(raw: sqlite3.Connection) -> tuple[int, int]:
        row = raw.execute("""SELECT LENGTH(order_text) + LENGTH(COALESCE(outcome, '')), LENGTH(state_before)
                             FROM events WHERE battle_id = ? ORDER BY seq DESC LIMIT 1""", (battle_id,)).fetchone()
        return int(row[0]), int(row[1] or 0)

    return await db.engine.executor.read(read)  # type: ignore[attr-defined,no-any-return]


def _cycle(rows: list[Any], count: int) -> Iterator[Any]:
    for i in range(count):
        yield rows[i % len(rows)]


async def write_raw(db: Database, fn: Any) -> Any:
    """Run fn over the SQLite connection in one transaction (the benchmark's own bulk writes)."""
    return await db.engine.executor.write(fn)  # type: ignore[attr-defined]


class Refused(RuntimeError):
    """The bot refused an order: its answer was private and gave no result."""


def command_of(order: o.Order) -> tuple[str, dict[str, Any]]:
    """Return the slash command and options a player types for a move, an attack or the end of a unit's turn."""
    if isinstance(order, o.Move):
        return "move", {"unit": order.unit, "to": str(order.to), "mode": order.mode}
    if isinstance(order, EndTurn):
        return "turn end", {"unit": order.unit}
    if isinstance(order, Attack):
        return "attack", {"unit": order.unit, "weapon": order.weapon, "target": order.target}
    raise ValueError(f"no player's command for {order}")


async def give(discord: LoopbackDiscord, order: o.Order, *, user: LoopbackUser, channel: LoopbackChannel,
               within: float | None = None, gone: Callable[[], bool] | None = None) -> tuple[StoredMessage, int]:
    """Give an order by its slash command as a player would, confirming the question it may ask (a turn ended
    with action points unused); return its public result and how many interactions it took.
    """
    command, options = command_of(order)
    what = f"/{command} {options}"
    reply = await discord.slash(command, user=user, channel=channel, options=options, within=within)
    confirm = next((c for m in reply.messages for c in m.custom_ids() if c.startswith(CONFIRM)), None)
    interactions = 1
    if confirm is not None and reply.message is not None:
        reply = await discord.click(reply.message, confirm, user=user, within=within)
        interactions = 2
    return await public(discord, reply, what, within, gone), interactions


async def public(discord: LoopbackDiscord, reply: Reply, what: str, within: float | None = None,
                 gone: Callable[[], bool] | None = None) -> StoredMessage:
    """Return the public message an order's reply posts, waiting for it when it follows the first answer.

    It follows when the bot had to defer (the note then says the result is in the channel) and after a
    Confirm, whose answer closes the question before the result is sent. `gone` says the bot that answered
    has stopped: the result will never come (InteractionError).
    """
    # Imported here: bench_memory's process, which measures what the table service keeps, never needs them.
    from cogs.common.replies import POSTED_NOTE
    from loopback import InteractionError
    from loopback.replies import DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE

    def found() -> StoredMessage | None:
        return next((m for m in reply.messages if not m.ephemeral), None)

    def settled() -> bool:
        if found() is not None:
            return True
        if reply.response_type in (UPDATE_MESSAGE, DEFERRED_UPDATE_MESSAGE) and not reply.followups:
            return False  # the question closed; its result follows
        return not reply.messages or reply.messages[-1].content != POSTED_NOTE

    await discord.until(lambda: settled() or (gone is not None and gone()), f"the public reply to {what}",
                        limit=within)
    message = found()
    if message is None and gone is not None and gone():
        raise InteractionError(f"the bot's connection closed before it answered {what}")
    if message is None:
        shown = reply.messages[-1].content if reply.messages else ""
        raise Refused(f"{what} was refused: {shown}")
    return message
