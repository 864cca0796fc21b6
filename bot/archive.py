"""Export a battle to one JSON document, and recreate a battle from such a document.

The document holds the battle's setup, the state it was created with, every order of its log with the
dice it rolled and its outcome (undone ones marked), the clock settings and the final state. Replaying
the orders not undone from the initial state, with their recorded dice, rebuilds the final state
exactly; an import checks that before it creates anything.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, cast

from bot.clock import POLICIES, check_deadline, parse_reminders
from rules.battle import Battle
from rules.errors import GameError
from rules.replay import ReplayError, Step, apply_step, first_difference, replay, same_state
from storage import BattleRecord, BattleStatus, ClockRecord, DeadlinePolicy, EventRecord, NewEvent

if TYPE_CHECKING:
    from bot.service import Actor, Result, TableService

log = logging.getLogger(__name__)

FORMAT = "battlepost-battle"
VERSION = 1
MAX_IMPORT_BYTES = 8 * 1024 * 1024
MAX_ORDERS = 100_000
SKIPPED_KINDS = ("create", "undo")


class ArchiveError(GameError):
    """An import file that cannot be used; the message says what is wrong with it."""


@dataclass(frozen=True)
class ImportedOrder:
    """One order of an export to commit again."""

    seq: int
    actor_id: int
    kind: str
    order: str
    outcome: dict[str, Any] | None
    hidden: bool


@dataclass(frozen=True)
class ImportPlan:
    """A checked export: what to create, which orders to commit, and the state they must arrive at."""

    name: str
    ruleset: str
    initial_state: dict[str, Any]
    orders: list[ImportedOrder]
    left_out: int
    final_state: dict[str, Any]
    deadline: float | None
    policy: DeadlinePolicy | None
    reminders: tuple[str, ...] | None


# --- export -----------------------------------------------------------------------------


def event_document(event: EventRecord) -> dict[str, Any]:
    """Return one log entry as the export writes it."""
    return {
        "seq": event.seq, "actor_id": event.actor_id, "kind": event.kind, "order": event.order_text,
        "outcome": event.outcome, "hidden": event.hidden, "undone": event.undone, "created_at": event.created_at,
    }


def export_document(record: BattleRecord, clock: ClockRecord, events: list[EventRecord],
                    initial_state: dict[str, Any], now: float) -> dict[str, Any]:
    """Build the export document of a battle."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": now,
        "battle": {
            "id": record.id, "name": record.name, "ruleset": record.ruleset, "status": record.status,
            "created_by": record.created_by, "created_at": record.created_at, "updated_at": record.updated_at,
        },
        "clock": {"deadline": clock.deadline, "policy": clock.policy, "reminders": list(clock.reminders)},
        "initial_state": initial_state,
        "orders": [event_document(e) for e in events],
        "final_state": record.state,
    }


# --- reading an import ----------------------------------------------------------------


def _need(obj: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in obj:
        raise ArchiveError(f"The file has no `{where}{key}`; it is not a complete battlepost export.")
    value = obj[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind in (int, (int, float))):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise ArchiveError(f"`{where}{key}` in the file must be {_article(names)}, not {type(value).__name__}.")
    return value


def _article(names: str) -> str:
    words = {"str": "text", "int": "a whole number", "dict": "an object", "list": "a list", "bool": "true or false",
             "float": "a number", "int or float": "a number"}
    return words.get(names, names)


def read_import(raw: bytes) -> ImportPlan:
    """Parse and check an export file; raise ArchiveError saying exactly what is wrong with it."""
    if len(raw) > MAX_IMPORT_BYTES:
        raise ArchiveError(f"The file is {len(raw) // 1024} KiB; an export can be at most {MAX_IMPORT_BYTES // 1024 // 1024} MiB.")
    try:
        doc = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise ArchiveError("The file is not text; attach the .json file /battle export gave you.") from None
    except json.JSONDecodeError as exc:
        raise ArchiveError(
            f"The file is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
            "attach the .json file /battle export gave you, unedited."
        ) from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ArchiveError("This JSON file is not a battlepost export (its `format` is not "
                           f"`{FORMAT}`); export a battle with /battle export and attach that file.")
    version = _need(doc, "version", int, "")
    if version > VERSION:
        raise ArchiveError(f"This export was written by a newer battlepost (format {version}); this one reads {VERSION}.")
    if version < 1:
        raise ArchiveError(f"`version` {version} is not a format this bot knows.")
    battle = _need(doc, "battle", dict, "")
    name = _need(battle, "name", str, "battle.")
    ruleset = _need(battle, "ruleset", str, "battle.")
    initial = _need(doc, "initial_state", dict, "")
    final = _need(doc, "final_state", dict, "")
    raw_orders = _need(doc, "orders", list, "")
    if len(raw_orders) > MAX_ORDERS:
        raise ArchiveError(f"The file holds {len(raw_orders)} orders; an import takes at most {MAX_ORDERS}.")
    orders, left_out = _orders(raw_orders)
    deadline, policy, reminders = _clock(doc.get("clock"))
    for label, state in (("initial_state", initial), ("final_state", final)):
        try:
            Battle.from_dict(state)
        except GameError as exc:
            raise ArchiveError(f"`{label}` is not a battle this bot can load: {exc.message}") from None
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ArchiveError(f"`{label}` is not a battle this bot can load ({type(exc).__name__}: {exc}).") from None
    steps = [Step.from_outcome(o.seq, o.order, o.outcome) for o in orders]
    try:
        rebuilt = replay(initial, steps)
    except ReplayError as exc:
        raise ArchiveError(f"The file's log does not replay: {exc.message}") from None
    if not same_state(rebuilt.to_dict(), final):
        where = first_difference(rebuilt.to_dict(), final)
        raise ArchiveError(
            f"The file's orders do not rebuild its final state (they differ at `{where}`); "
            "it may have been edited by hand."
        )
    return ImportPlan(name=name, ruleset=ruleset, initial_state=initial, orders=orders, left_out=left_out,
                      final_state=final, deadline=deadline, policy=policy, reminders=reminders)


def _orders(raw_orders: list[Any]) -> tuple[list[ImportedOrder], int]:
    orders: list[ImportedOrder] = []
    left_out = 0
    seen: set[int] = set()
    for i, entry in enumerate(raw_orders):
        where = f"orders[{i}]."
        if not isinstance(entry, dict):
            raise ArchiveError(f"`orders[{i}]` in the file must be an object, not {type(entry).__name__}.")
        seq = _need(entry, "seq", int, where)
        if seq in seen:
            raise ArchiveError(f"Two orders in the file are numbered #{seq}.")
        seen.add(seq)
        kind = _need(entry, "kind", str, where)
        text = _need(entry, "order", str, where)
        outcome = entry.get("outcome")
        if outcome is not None and not isinstance(outcome, dict):
            raise ArchiveError(f"`{where}outcome` in the file must be an object or null.")
        actor = entry.get("actor_id", 0)
        if not isinstance(actor, int) or isinstance(actor, bool):
            raise ArchiveError(f"`{where}actor_id` in the file must be a whole number.")
        if kind in SKIPPED_KINDS:
            continue
        if entry.get("undone"):
            left_out += 1
            continue
        orders.append(ImportedOrder(seq, actor, kind, text, outcome, bool(entry.get("hidden", False))))
    orders.sort(key=lambda o: o.seq)
    return orders, left_out


def _clock(raw: Any) -> tuple[float | None, DeadlinePolicy | None, tuple[str, ...] | None]:
    if raw is None:
        return None, None, None
    if not isinstance(raw, dict):
        raise ArchiveError("`clock` in the file must be an object.")
    try:
        deadline = check_deadline(float(raw["deadline"])) if "deadline" in raw else None
        policy = raw.get("policy")
        if policy is not None and policy not in POLICIES:
            raise ArchiveError(f"`clock.policy` must be wait, hold or default, not `{policy}`.")
        reminders = raw.get("reminders")
        specs = parse_reminders(", ".join(str(r) for r in reminders) or "none") if isinstance(reminders, list) else None
    except (TypeError, ValueError):
        raise ArchiveError("`clock.deadline` in the file must be a number of seconds.") from None
    except ArchiveError:
        raise
    except GameError as exc:
        raise ArchiveError(f"`clock` in the file is not usable: {exc.message}") from None
    return deadline, cast("DeadlinePolicy | None", policy), specs


# --- recreating the battle ---------------------------------------------------------------


async def import_battle(service: TableService, actor: Actor, *, channel_id: int, thread_id: int | None,
                        raw: bytes) -> Result:
    """Create the battle of an export in a channel, committing its orders again one by one."""
    from bot.service import Notice, Result

    plan = read_import(raw)
    db = service.db
    here = thread_id or channel_id
    existing = await db.battles.in_channel(actor.guild_id, here)
    if existing is not None:
        raise GameError(f"This channel already runs **{existing.name}**; import the battle into another channel or a thread.")
    battle = Battle.from_dict(plan.initial_state)
    record = await db.battles.create(
        guild_id=actor.guild_id, channel_id=channel_id, thread_id=thread_id, name=battle.name,
        ruleset=battle.ruleset_id, created_by=actor.user_id, state=battle.to_dict(), now=service.clock(),
    )
    try:
        async with service.locks.get(record.id):
            for entry in plan.orders:
                before = battle.status
                apply_step(battle, Step.from_outcome(entry.seq, entry.order, entry.outcome))
                status = cast("BattleStatus", battle.status) if battle.status != before else None
                record = await db.battles.commit(
                    record.id, expected_version=record.version, state=battle.to_dict(), status=status,
                    event=NewEvent(actor_id=entry.actor_id, kind=entry.kind, order_text=entry.order,
                                   outcome=entry.outcome, hidden=entry.hidden),
                    now=service.clock(),
                )
            clock = await db.clocks.get(record.id)
            clock = replace(
                clock,
                deadline=plan.deadline if plan.deadline is not None else clock.deadline,
                policy=plan.policy or clock.policy,
                reminders=plan.reminders if plan.reminders is not None else clock.reminders,
            )
            await db.clocks.save(clock)
            started = await service.turn_clocks.sync(record, battle)
    except BaseException:
        # Nothing half-imported stays behind.
        await db.battles.delete(record.id)
        raise
    log.info("battle %s imported into guild %s with %d order(s)", record.id, actor.guild_id, len(plan.orders))
    service.publish(Notice("created", record, battle, actor=actor, turn=started))
    png = await service.render(battle, full=True, battle_id=record.id) if service.render_enabled else None
    return Result(record=record, battle=battle, png=png,
                  extra={"orders": len(plan.orders), "left_out": plan.left_out})
