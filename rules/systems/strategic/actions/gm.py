"""GM overrides: put a unit on any square and set any field, outside the movement and turn rules.

These orders name their unit `target`, not `unit`: the turn system treats an order's `unit` as the unit
acting on its turn (checking whose turn it is and spending its actions), and a GM override is neither.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rules import turns
from rules.battle import LastAction
from rules.coords import Cell
from rules.errors import IllegalOrderError, InvalidOrderError, shorten
from rules.filelimits import MAX_WHOLE, TYPED_JSON, load_json, whole
from rules.orders import Order
from rules.systems.strategic.combat import prune_engagement
from rules.systems.strategic.details import Change, UnitSetDetails
from rules.systems.strategic.effects import Disengaged, Placed, UnitSet
from rules.systems.strategic.movement import blocker
from rules.systems.strategic.statblock import STAT_FIELDS, STATUSES, apply_stats
from rules.systems.strategic.table import checks, handles
from rules.systems.strategic.table import order as _order

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.systems.strategic.board import Battle
    from rules.systems.strategic.units import Unit

# Fields gm-set understands beyond the stat block: turn budget, status toggles, ownership, identity.
EXTRA_FIELDS = ("actions", "add_status", "remove_status", "owner", "side", "name")
# Stat-block tables a GM may change one entry of, as `armour.head` or `skills.dodge`.
TABLE_FIELDS = ("armour", "skills", "unnatural")
MAX_ACTIONS = 20
_MENTION_RE = re.compile(r"^<@!?(\d+)>$")


@_order("gm-place")
@dataclass(frozen=True)
class GmPlace(Order):
    """Put a unit on a square without moving it there (GM): no path, no cost, no turn spent."""

    target: str
    at: Cell


@_order("gm-set")
@dataclass(frozen=True)
class GmSet(Order):
    """Set fields of a unit directly (GM): stats, statuses, owner, side, name or actions left."""

    target: str
    changes: dict[str, Any] = field(default_factory=dict)


def _require_not_ended(battle: Battle) -> None:
    if battle.status == "ended":
        raise IllegalOrderError("This battle has ended; nothing on it can change any more.")


@checks("gm-place")
def check_gm_place(battle: Battle, order: GmPlace) -> tuple[Unit, Cell]:
    """Check that the unit may stand on the square (not its own, nothing there that refuses it); return both."""
    _require_not_ended(battle)
    unit = battle.unit(order.target)
    goal = battle.check_cell(order.at)
    if goal == unit.cell:
        raise IllegalOrderError(f"{unit.name} is already on {goal}.")
    why = blocker(battle, unit, goal)
    if why:
        raise IllegalOrderError(f"{unit.name} cannot be put on {goal}: {why}.")
    return unit, goal


@handles("gm-place")
def gm_place(battle: Battle, order: GmPlace, dice: Dice, outcome: Outcome) -> None:
    """Put a unit on a square; only what may never share a square (Hordes, enemy blockers) still refuses."""
    unit, goal = check_gm_place(battle, order)
    start = unit.cell
    unit.x, unit.y = goal.x, goal.y
    dropped = prune_engagement(battle, unit)
    outcome.actor = unit.name
    outcome.add(Placed(unit=unit.name, frm=str(start), to=str(goal)))
    if dropped:
        outcome.add(Disengaged(unit=unit.name, from_units=dropped))
    path = [str(start), str(goal)]
    outcome.highlight.update(path=path, actor=str(start), target=str(goal))
    battle.last = LastAction(kind="move", unit=unit.name, path=tuple(path))


def _owner(value: Any) -> int | None:
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none", "gm", "0")):
        return None
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return whole(value, "owner", 1, MAX_WHOLE)
    text = str(value).strip()
    match = _MENTION_RE.match(text)
    digits = match.group(1) if match else text
    if not digits.isascii() or not digits.isdigit():
        raise InvalidOrderError(f"`owner` is a player (a user id or mention) or `none` for the GM, "
                                f"not `{shorten(str(value), 40)}`.")
    return whole(digits, "owner", 1, MAX_WHOLE)


def _value(raw: Any) -> Any:
    """Read a value typed as text: JSON lists and tables as such, anything else as it was given."""
    if isinstance(raw, str) and raw.strip()[:1] in ("[", "{"):
        try:
            return load_json(raw, TYPED_JSON)
        except json.JSONDecodeError:
            raise InvalidOrderError(f"`{raw[:40]}` is not valid JSON.") from None
    return raw


def _status_list(raw: Any) -> list[str]:
    if isinstance(raw, list):
        return [str(s) for s in raw]
    text = str(raw).strip()
    if text.lower() in ("", "none", "clear"):
        return []
    return [part for part in re.split(r"[,\s]+", text) if part]


def _status(raw: Any) -> str:
    word = "_".join(str(raw).strip().lower().split())
    if word not in STATUSES:
        raise InvalidOrderError(f"`{raw}` is not a status; use one of {', '.join(STATUSES)}.")
    return word


def _stats_for(unit: Unit, changes: dict[str, Any]) -> dict[str, Any]:
    """Turn the GM's changes into stat-block fields, resolving dotted table entries and status toggles."""
    stats: dict[str, Any] = {}
    statuses = list(unit.statuses)
    touched_statuses = False
    for key, raw in changes.items():
        if key in ("add_status", "remove_status"):
            for word in _status_list(raw):
                status = _status(word)
                if key == "add_status" and status not in statuses:
                    statuses.append(status)
                elif key == "remove_status" and status in statuses:
                    statuses.remove(status)
            touched_statuses = True
            continue
        table, dot, entry = key.partition(".")
        if dot:
            if table not in TABLE_FIELDS or not entry:
                raise InvalidOrderError(
                    f"`{key}` is not a field; dotted fields are {', '.join(t + '.…' for t in TABLE_FIELDS)}."
                )
            current: dict[str, Any] = dict(getattr(unit, table) if table != "armour" else {})
            current.update(stats.get(table, {}))
            current[entry] = raw
            stats[table] = current
            continue
        if key == "statuses":
            statuses = [_status(s) for s in _status_list(raw)]
            touched_statuses = True
            continue
        stats[key] = _value(raw)
    if touched_statuses:
        stats["statuses"] = statuses
    return stats


@checks("gm-set")
def check_gm_set(battle: Battle, order: GmSet) -> Unit:
    """Check every field a GM sets, the stat block's on a copy of the unit; return the unit."""
    _require_not_ended(battle)
    unit = battle.unit(order.target)
    changes = dict(order.changes)
    if not changes:
        raise InvalidOrderError("Say what to set, like `wounds 12`, `armour.head 8` or `add_status pinned`.")
    known = (*STAT_FIELDS, *EXTRA_FIELDS)
    for key in changes:
        if key.partition(".")[0] not in (*known, *TABLE_FIELDS):
            raise InvalidOrderError(f"`{key}` is not a field of a unit. Fields: {', '.join(known)}, "
                                    f"or {', '.join(t + '.…' for t in TABLE_FIELDS)}.")
    actions = changes.pop("actions", None)
    name = changes.pop("name", None)
    side = changes.pop("side", None)
    if "owner" in changes:
        _owner(changes.pop("owner"))
    apply_stats(copy.deepcopy(unit), _stats_for(unit, changes), battle.ruleset.unit_kinds, partial=True)
    if actions is not None:
        _check_actions(battle, unit, actions)
    if side is not None:
        battle.check_side(str(side))
    if name is not None:
        battle.check_rename(unit, str(name))
    return unit


@handles("gm-set")
def gm_set(battle: Battle, order: GmSet, dice: Dice, outcome: Outcome) -> None:
    """Set fields of a unit regardless of the rules that would normally change them."""
    unit = check_gm_set(battle, order)
    changes = dict(order.changes)
    before = unit.to_dict()
    actions = changes.pop("actions", None)
    name = changes.pop("name", None)
    side = changes.pop("side", None)
    owner_given = "owner" in changes
    owner = _owner(changes.pop("owner", None)) if owner_given else unit.owner
    apply_stats(unit, _stats_for(unit, changes), battle.ruleset.unit_kinds, partial=True)
    if actions is not None:
        entry, count = _check_actions(battle, unit, actions)
        battle.turn.left[entry] = count
    if side is not None:
        unit.side = battle.ensure_side(str(side)).name
    if owner_given:
        unit.owner = owner
    if name is not None:
        battle.rename_unit(unit, str(name))
    after = unit.to_dict()
    shown = {k: v for k, v in after.items() if before.get(k) != v and k not in ("status_rounds",)}
    outcome.actor = unit.name
    outcome.details = UnitSetDetails(changed={k: Change(old=before.get(k), new=v) for k, v in shown.items()})
    if actions is not None:
        outcome.turn.actions_left = turns.actions_left(battle, unit.name)
    outcome.add(UnitSet(unit=unit.name, fields=sorted(order.changes)))
    outcome.highlight.actor = str(unit.cell)


def _check_actions(battle: Battle, unit: Unit, raw: Any) -> tuple[str, int]:
    """Return the unit's turn entry and the actions a GM gives it, checked."""
    try:
        count = int(raw)
    except (TypeError, ValueError):
        raise InvalidOrderError(f"`actions` is a whole number of action points, not `{raw}`.") from None
    if not 0 <= count <= MAX_ACTIONS:
        raise InvalidOrderError(f"`actions` must be from 0 to {MAX_ACTIONS}.")
    if not turns.engaged(battle):
        raise IllegalOrderError("Actions left only exist once the battle has started and a round is running.")
    return turns.due_entry(battle, unit.name), count
