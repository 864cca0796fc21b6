"""Import a stat-block file into a battle: check every unit on a copy first, then place them all or none."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, replace

from bot.filelimits import check_toml
from bot.members import MemberCheck, absent_owners
from bot.service import Actor, BattleRecord, TableService
from rules.battle import Battle, check_name
from rules.coords import Cell
from rules.dice import Dice
from rules.effects import Effect
from rules.errors import GameError, IllegalOrderError, InvalidOrderError
from rules.filelimits import MAX_WHOLE
from rules.orders import AddUnit, RemoveUnit
from rules.statfile import STATBLOCK_LIMITS, PlacementError, StatError, UnitSpec, field_label

log = logging.getLogger(__name__)

STATBLOCK_SUFFIXES = (".toml",)
STATBLOCK_GUIDE = "one [[unit]] table per unit, as in docs/statblocks.md"
UNDO_CHUNK = 50  # the most orders the table service undoes at once
# 400 units of a dozen tables each at most; a stat block nests a weapon's table inside a list of them.
_MENTION_RE = re.compile(r"^<@!?(\d{1,20})>$")
_KEY_RE = r"^\s*(?:{0}|\"{0}\"|'{0}')\s*="


def field_line(lines: list[str], header: int, key: str) -> int:
    """Return the 1-based line where a unit's top-level key is written, or its [[unit]] line."""
    pattern = re.compile(_KEY_RE.format(re.escape(key)))
    for index in range(header, len(lines)):
        # A unit's own keys end where the next table ([unit.armour], [[unit.weapons]], [[unit]]) begins.
        if lines[index].lstrip().startswith("["):
            break
        if pattern.match(lines[index]):
            return index + 1
    return header


def where(lines: list[str], spec: UnitSpec, path: tuple[str | int, ...]) -> str:
    """Return the place of a unit's field as the rest of the file's errors name it."""
    head = str(path[0]) if path else ""
    line = field_line(lines, spec.line, head) if head else spec.line
    return f"Line {line} (unit {spec.name}), field `{field_label(path)}`"


def owner_id(handle: str | None) -> int | None:
    """Return the user id written as a handle (`123456789012345678` or `<@123...>`), None for a name."""
    if handle is None:
        return None
    text = handle.strip()
    m = _MENTION_RE.match(text)
    if m:
        text = m.group(1)
    if text.isascii() and text.isdigit() and len(text) <= 20 and 0 < int(text) <= MAX_WHOLE:
        return int(text)
    return None


def resolve_owner(lines: list[str], spec: UnitSpec) -> int | None:
    """Return a unit's commanding player from the file, refusing a user name the bot cannot look up."""
    if spec.owner is None:
        return None
    found = owner_id(spec.owner)
    if found is None:
        # Without the privileged members intent Discord never tells a bot who a user name belongs to.
        raise InvalidOrderError(
            f"{where(lines, spec, ('owner',))}: `{spec.owner}` is a user name, and Discord does not tell bots who "
            "a name belongs to. Write the player's user id instead (Discord: Developer Mode, then right-click the "
            "player, Copy User ID), or give this command's `owner` option to set the owner of every unit."
        )
    return found


@dataclass(frozen=True)
class ImportPlan:
    """The add-unit orders of a whole file, already checked against the battle."""

    orders: list[AddUnit]


def _check_placement(trial: Battle, lines: list[str], spec: UnitSpec, order: AddUnit) -> None:
    """Place a unit on the trial battle, refusing what cannot go where the file puts it, naming line and field."""
    clash = trial.find_unit(order.name)
    if clash is not None and clash.name.lower() == order.name.lower():
        existing = clash.name
        raise IllegalOrderError(f"{where(lines, spec, ('name',))}: there is already a unit called {existing} in "
                                "this battle; rename one of them.")
    try:
        trial.check_cell(order.at)
    except IllegalOrderError as exc:
        raise IllegalOrderError(f"{where(lines, spec, ('at',))}: {exc.message}") from None
    try:
        trial.apply(order, Dice.seeded(0))
    except StatError as exc:
        raise InvalidOrderError(f"{where(lines, spec, exc.path)}: {exc.message}") from None
    except PlacementError as exc:
        raise IllegalOrderError(f"{where(lines, spec, exc.path)}: {exc.message}", cells=exc.cells) from None
    except GameError as exc:
        raise GameError(f"Line {spec.line} (unit {spec.name}): {exc.message}") from None


def read_statblocks(battle: Battle, text: str) -> list[UnitSpec]:
    """Read a stat-block file as the battle's rule system writes its units, refusing one too big or too deeply
    nested before the TOML reader sees it, or saying the system has no such files."""
    reader = battle.system.statblocks
    if reader is None:
        raise IllegalOrderError(f"{battle.system.name} has no stat-block files; add its units with its own commands.")
    check_toml(text, STATBLOCK_LIMITS)
    return reader(text)


def layout_corner(specs: list[UnitSpec]) -> Cell:
    """Return the top-left corner of the squares a file's units stand on."""
    return Cell(min(spec.at.x for spec in specs), min(spec.at.y for spec in specs))


def placed_at(specs: list[UnitSpec], at: Cell | None) -> list[Cell]:
    """Return each unit's square: the file's own, or moved together so the layout's top-left corner is `at`."""
    if at is None or not specs:
        return [spec.at for spec in specs]
    corner = layout_corner(specs)
    return [Cell(at.x + spec.at.x - corner.x, at.y + spec.at.y - corner.y) for spec in specs]


def check_on_map(battle: Battle, specs: list[UnitSpec], cells: list[Cell], at: Cell | None, lines: list[str]) -> None:
    """Refuse a file whose units would fall off the map, naming them all and saying how to place them instead."""
    off = [f"{spec.name} (line {field_line(lines, spec.line, 'at')}, at {spec.at})"
           for spec, cell in zip(specs, cells, strict=True) if not battle.on_map(cell)]
    if not off:
        return
    last = Cell(battle.width - 1, battle.height - 1)
    named = ", ".join(off[:10]) + (f" and {len(off) - 10} more" if len(off) > 10 else "")
    where = f"placed from {at}" if at is not None else "where the file puts them"
    head = (f"{len(off)} of the file's {len(specs)} units would fall off this map (A1 to {last}) {where}: "
            f"{named}.")
    corner = layout_corner(specs)
    span_w = max(spec.at.x for spec in specs) - corner.x + 1
    span_h = max(spec.at.y for spec in specs) - corner.y + 1
    if span_w > battle.width or span_h > battle.height:
        raise IllegalOrderError(f"{head} The file's units spread over {span_w}x{span_h} squares, more than this "
                                f"{battle.width}x{battle.height} map holds: import them on a bigger map, or split "
                                "the file.")
    highest = Cell(battle.width - span_w, battle.height - span_h)
    wanted = at or corner
    fits = Cell(max(0, min(wanted.x, highest.x)), max(0, min(wanted.y, highest.y)))
    raise IllegalOrderError(f"{head} The file's units spread over {span_w}x{span_h} squares from {corner}: give "
                            f"`at:` a square from A1 to {highest} to place that corner there, the layout kept "
                            f"(like `at:{fits}`).")


def plan_import(text: str, battle: Battle, *, side: str | None, owner: int | None, at: Cell | None = None) -> ImportPlan:
    """Read a stat-block file and place every unit on a copy of the battle; any error names its line and field.

    With `at`, the units keep their layout but its top-left corner goes to that square.
    """
    if battle.status == "ended":
        raise IllegalOrderError("This battle has ended; nothing on it can change any more.")
    specs = read_statblocks(battle, text)
    if side is not None:
        side = check_name(side, "side name")
    if at is not None:
        battle.check_cell(at)
    cells = placed_at(specs, at)
    lines = text.splitlines()
    check_on_map(battle, specs, cells, at, lines)
    trial = Battle.from_dict(battle.to_dict())
    orders: list[AddUnit] = []
    for spec, cell in zip(specs, cells, strict=True):
        who = owner if owner is not None else resolve_owner(lines, spec)
        order = AddUnit(name=spec.name, side=side or spec.side, at=cell, owner=who, stats=dict(spec.stats) or None)
        _check_placement(trial, lines, spec, order)
        orders.append(order)
    return ImportPlan(orders)


async def place_all(service: TableService, actor: Actor, record: BattleRecord, plan: ImportPlan) -> list[Effect]:
    """Execute every add-unit order; if one fails, take the placed ones off again and re-raise."""
    placed: list[Effect] = []
    added: list[str] = []
    version = record.version
    contiguous = True
    try:
        for order in plan.orders:
            result = await service.execute(actor, record, order, render=False)
            # Another order slipping in between ours means a plain undo would take back the wrong thing.
            contiguous = contiguous and result.record.version == version + 1
            version = result.record.version
            added.append(order.name)
            assert result.outcome is not None
            placed += [e for e in result.outcome.effects if e.kind == "unit_added"]  # in every system that has one
    except Exception as exc:
        if added:
            await _take_back(service, actor, record, added, version if contiguous else None)
        if isinstance(exc, GameError):
            raise GameError(f"{exc.message} Nothing was imported.") from None
        raise
    return placed


async def _take_back(service: TableService, actor: Actor, record: BattleRecord, added: list[str],
                     version: int | None) -> None:
    """Undo the orders of a failed import, or remove its units if other orders came in between."""
    current = await service.get_battle(actor.guild_id, record.id)
    if version is not None and current.version == version:
        try:
            left = len(added)
            while left:
                step = min(UNDO_CHUNK, left)
                await service.undo(actor, current, count=step)
                left -= step
            return
        except GameError:
            log.warning("battle %s: undoing a failed import failed; removing its units instead", record.id)
    battle = await service.load(await service.get_battle(actor.guild_id, record.id))
    for name in reversed(added):
        if battle.find_unit(name) is None:
            continue
        try:
            await service.execute(actor, record, RemoveUnit(unit=name), render=False)
        except GameError:
            log.exception("battle %s: could not remove %s after a failed import", record.id, name)


async def without_strangers(plan: ImportPlan, is_member: MemberCheck) -> tuple[ImportPlan, list[str]]:
    """Leave unowned the units whose file owner is not a member here; return the plan and those units' names."""
    absent = await absent_owners((o.owner for o in plan.orders if o.owner is not None), is_member)
    if not absent:
        return plan, []
    orders = [replace(o, owner=None) if o.owner in absent else o for o in plan.orders]
    return ImportPlan(orders), [o.name for o in plan.orders if o.owner in absent]


def parse_one_unit(battle: Battle, text: str) -> UnitSpec:
    """Read a stat-block file that must hold exactly one unit, as the battle's rule system writes units."""
    specs = read_statblocks(battle, text)
    if len(specs) != 1:
        raise InvalidOrderError(f"This file holds {len(specs)} units; attach a stat-block file of one unit.")
    return specs[0]
