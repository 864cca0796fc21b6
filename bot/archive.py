"""Export a battle to one JSON document, and recreate a battle from such a document.

The document holds the battle's setup, the state it was created with, every order of its log with the
dice it rolled and its outcome (undone ones marked), the clock settings and the final state. Replaying
the orders not undone from the initial state, with their recorded dice, rebuilds the final state
exactly; an import checks that, within limits on the file's size and shape, before it creates anything.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass, replace
from typing import Any, cast

from bot.archive_replay import ArchiveError, ImportedOrder, rebuild, unassign
from bot.clock import POLICIES, check_deadline, parse_reminders
from bot.filelimits import FileLimitError, Limits, load_json
from bot.members import MemberCheck, absent_owners
from bot.table import Actor, Notice, Result, Table, note_committed
from rules import scale
from rules.battle import Battle
from rules.dice import MAX_FACES
from rules.errors import GameError, shorten
from rules.replay import first_difference, same_state
from rules.ruleset import fraction_text, get_ruleset
from storage import BattleRecord, BattleStatus, ClockRecord, DeadlinePolicy, EventRecord

log = logging.getLogger(__name__)

__all__ = ["ArchiveError", "ImportPlan", "export_document", "import_battle", "read_import"]

FORMAT = "battlepost-battle"
VERSION = 1
MAX_IMPORT_BYTES = 8 * 1024 * 1024
# A long campaign logs a few thousand orders; each costs a replay, so a file of more is refused outright.
MAX_ORDERS = 10_000
SKIPPED_KINDS = ("create", "undo")
MAX_TIMESTAMP = 32_503_680_000  # the year 3000, in seconds since 1970
# An export nests ten levels deep and holds about 60 values and 12 lists or objects per order.
EXPORT_LIMITS = Limits("an export", max_bytes=MAX_IMPORT_BYTES, max_depth=20, max_containers=250_000,
                       max_values=500_000)


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
    created_at: float | None = None  # when the battle was created where it was exported


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


def _document(raw: bytes) -> dict[str, Any]:
    """Parse the file within the export limits, or say what is wrong with it."""
    try:
        doc = load_json(raw, EXPORT_LIMITS)
    except FileLimitError as exc:
        raise ArchiveError(f"{exc.message} Export a battle with /battle export and attach that file.") from None
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
    return doc


def read_import(raw: bytes) -> ImportPlan:
    """Parse and check an export file's shape; raise ArchiveError saying exactly what is wrong with it.

    Nothing in the file is trusted: its initial state must be the empty battle /battle new makes,
    and rebuild() replays every order under the rules before anything is created.
    """
    doc = _document(raw)
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
        raise ArchiveError(f"The file holds {len(raw_orders):,} orders; an import takes at most {MAX_ORDERS:,}.")
    orders, left_out = _orders(raw_orders)
    deadline, policy, reminders = _clock(doc.get("clock"))
    _check_fresh(initial)
    return ImportPlan(name=name, ruleset=ruleset, initial_state=initial, orders=orders, left_out=left_out,
                      final_state=final, deadline=deadline, policy=policy, reminders=reminders,
                      created_at=_when(battle, "battle."))


def _check_fresh(initial: dict[str, Any]) -> None:
    """Refuse an initial state other than the empty battle /battle new creates: every change after it is an order."""
    where = "initial_state."
    ruleset = _need(initial, "ruleset", str, where)
    width = _need(initial, "width", int, where)
    height = _need(initial, "height", int, where)
    name = _need(initial, "name", str, where)
    try:
        # The log's first orders set the battle's scale: the map may be as large as the finest scale allows.
        found = get_ruleset(ruleset)
        finest = ((found.scale_key, fraction_text(scale.finest(found))),) if found.scale_key else ()
        fresh = Battle.new(ruleset, width, height, name, finest).to_dict()
    except GameError as exc:
        raise ArchiveError(f"`initial_state` is not a battle /battle new could create: {exc.message}") from None
    if not same_state(fresh, initial):
        raise ArchiveError(
            f"`initial_state` is not the empty battle /battle new creates (it differs at "
            f"`{first_difference(fresh, initial)}`); every later change is an order of the log, so the file "
            "has been edited. Attach the file /battle export gave you."
        )


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
        actor = entry.get("actor_id", 0)
        if not isinstance(actor, int) or isinstance(actor, bool) or not 0 <= actor < 2**64:
            raise ArchiveError(f"`{where}actor_id` in the file must be a Discord user id.")
        hidden = entry.get("hidden", False)
        if not isinstance(hidden, bool):
            raise ArchiveError(f"`{where}hidden` in the file must be true or false.")
        if kind in SKIPPED_KINDS:
            continue
        if entry.get("undone"):
            left_out += 1
            continue
        outcome = _need(entry, "outcome", dict, where)
        orders.append(ImportedOrder(seq, actor, kind, text, outcome, hidden, _faces(outcome, seq), _when(entry, where)))
    orders.sort(key=lambda o: o.seq)
    return orders, left_out


def _when(entry: dict[str, Any], where: str) -> float | None:
    """Return when an export says something happened (seconds since 1970), or None if it does not say."""
    at = entry.get("created_at")
    if at is None:
        return None
    if isinstance(at, bool) or not isinstance(at, (int, float)) or not 0 <= at <= MAX_TIMESTAMP:
        raise ArchiveError(f"`{where}created_at` in the file must be a time in seconds since 1970, "
                           f"from 0 to {MAX_TIMESTAMP:,}.")
    return float(at)


def _faces(outcome: dict[str, Any], seq: int) -> tuple[int, ...]:
    """Return every die face an order's outcome recorded, refusing anything no die shows."""
    rolls = outcome.get("rolls", [])
    faces: list[int] = []
    if isinstance(rolls, list):
        for roll in rolls:
            shown = roll.get("faces") if isinstance(roll, dict) else None
            if not isinstance(shown, list):
                raise ArchiveError(f"A roll of order #{seq} in the file has no list of faces.")
            faces += shown
    if not isinstance(rolls, list) or not all(type(f) is int and 1 <= f <= MAX_FACES for f in faces):
        raise ArchiveError(f"Order #{seq} in the file records a die face that no die shows "
                           f"(faces are whole numbers from 1 to {MAX_FACES}).")
    return tuple(faces)


def _clock(raw: Any) -> tuple[float | None, DeadlinePolicy | None, tuple[str, ...] | None]:
    if raw is None:
        return None, None, None
    if not isinstance(raw, dict):
        raise ArchiveError("`clock` in the file must be an object.")
    try:
        deadline = check_deadline(float(raw["deadline"])) if "deadline" in raw else None
        policy = raw.get("policy")
        if policy is not None and policy not in POLICIES:
            raise ArchiveError(f"`clock.policy` must be wait, hold or default, not `{shorten(str(policy), 24)}`.")
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

async def import_battle(service: Table, actor: Actor, *, channel_id: int, thread_id: int | None,
                        raw: bytes, is_member: MemberCheck | None = None) -> Result:
    """Create the battle of an export in a channel, with its whole log, in one transaction.

    Reading the file and replaying its orders run in worker threads so other battles keep answering;
    units whose owner is not a member here (by is_member) are left for the GM to assign.
    """
    db = service.db
    here = thread_id or channel_id
    existing = await db.battles.in_channel(actor.guild_id, here)
    if existing is not None:
        raise GameError(f"This channel already runs **{existing.name}**; import the battle into another channel or a thread.")
    plan = await asyncio.to_thread(read_import, raw)
    rebuilt = await asyncio.to_thread(rebuild, plan.initial_state, plan.orders, plan.final_state)
    battle = rebuilt.battle
    owners = [u.owner for u in battle.iter_units() if u.owner is not None]
    outsiders = await absent_owners(owners, is_member) if is_member is not None else set()
    unassigned = await asyncio.to_thread(unassign, rebuilt, outsiders, actor.user_id) if outsiders else []
    defaults = ClockRecord(battle_id=0)
    clock = replace(defaults, deadline=plan.deadline or defaults.deadline, policy=plan.policy or defaults.policy,
                    reminders=defaults.reminders if plan.reminders is None else plan.reminders)
    record = await db.battles.create(
        guild_id=actor.guild_id, channel_id=channel_id, thread_id=thread_id, name=battle.name,
        ruleset=battle.ruleset_id, created_by=actor.user_id, events=rebuilt.events, state=battle.to_dict(),
        status=cast("BattleStatus", battle.status), now=service.clock(), clock=clock, begun=plan.created_at,
    )
    note_committed(record.version)
    log.info("battle %s imported into guild %s with %d order(s)", record.id, actor.guild_id, len(plan.orders))
    started = None
    try:
        async with service.locks.get(record.id):
            started = await service.turn_clocks.sync(record, battle)
    except Exception:
        # The battle is saved; the scheduler's recovery starts its turn clock at the next startup.
        log.exception("could not start the turn clock of imported battle %s", record.id)
    service.publish(Notice("created", record, battle, actor=actor, turn=started))
    png = await service.render(battle, full=True, battle_id=record.id) if service.render_enabled else None
    return Result(record=record, battle=battle, png=png,
                  extra={"orders": len(plan.orders), "left_out": plan.left_out, "unassigned": unassigned})
