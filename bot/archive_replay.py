"""Rebuild an imported battle from its file, off the event loop: every order replayed under the rules.

The file is a claim about what happened; the rules decide. Each order is applied again with the dice
it recorded, its logged result must be the one the rules give, and the battle it arrives at must be
the file's final state. Nothing the file says is stored unless it was rebuilt that way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from rules.battle import Battle
from rules.dice import Dice
from rules.errors import GameError
from rules.orders import EditUnit
from rules.replay import ReplayError, Step, apply_step, first_difference, normalise, same_state
from storage import BattleStatus, LoggedEvent, NewEvent, pack_event


class ArchiveError(GameError):
    """An import file that cannot be used; the message says what is wrong with it."""


@dataclass(frozen=True)
class ImportedOrder:
    """One order of an export to commit again, with the die faces it recorded."""

    seq: int
    actor_id: int
    kind: str
    order: str
    outcome: dict[str, Any]
    hidden: bool
    faces: tuple[int, ...]
    created_at: float | None = None  # when the order was given where the battle was exported


@dataclass
class Rebuilt:
    """The battle an import arrives at, and its log ready to be written in one transaction."""

    battle: Battle
    events: list[LoggedEvent] = field(default_factory=list)


def rebuild(initial: Mapping[str, Any], orders: Sequence[ImportedOrder], final_state: Mapping[str, Any]) -> Rebuilt:
    """Replay the orders from the initial state; raise ArchiveError where the file and the rules disagree."""
    rebuilt = Rebuilt(Battle.from_dict(dict(initial)))
    battle = rebuilt.battle
    for entry in orders:
        before, status = battle.to_dict(), cast("BattleStatus", battle.status)
        try:
            outcome = apply_step(battle, Step(entry.seq, entry.order, entry.faces))
        except ReplayError as exc:
            raise ArchiveError(f"The file's log does not replay: {exc.message}") from None
        if outcome.kind != entry.kind:
            raise ArchiveError(f"Order #{entry.seq} in the file is logged as `{entry.kind}` but is "
                               f"a `{outcome.kind}` order.")
        where = outcome_difference(outcome.to_dict(), entry.outcome)
        if where is not None:
            raise ArchiveError(
                f"Order #{entry.seq} in the file records a result the rules do not give with its dice (it differs "
                f"at `{where}`); it may have been edited by hand."
            )
        event = NewEvent(entry.actor_id, entry.kind, entry.order, entry.outcome, entry.hidden)
        rebuilt.events.append(pack_event(event, before, status, entry.created_at))
    final = battle.to_dict()
    if not same_state(final, final_state):
        raise ArchiveError(
            f"The file's orders do not rebuild its final state (they differ at "
            f"`{first_difference(final, final_state)}`); it may have been edited by hand."
        )
    return rebuilt


def outcome_difference(replayed: dict[str, Any], recorded: dict[str, Any]) -> str | None:
    """Return where a recorded outcome differs from the replayed one, or None; whether a die was typed in is kept."""
    mine, theirs = normalise(replayed), normalise(recorded)
    # A replay feeds every face back in, so it sees all dice as typed in; the file knows which were.
    for doc in (mine, theirs):
        for roll in doc.get("rolls", []):
            if isinstance(roll, dict):
                roll.pop("manual", None)
    return first_difference(mine, theirs)


def unassign(rebuilt: Rebuilt, outsiders: set[int], actor_id: int) -> list[str]:
    """Take units away from owners who are not members here, logging each as the importing GM's edit."""
    battle = rebuilt.battle
    names: list[str] = []
    if battle.status == "ended":
        return names  # an ended battle has no turns, so nobody is ever called on to play it
    for unit in list(battle.iter_units()):
        if unit.owner is None or unit.owner not in outsiders:
            continue
        order = EditUnit(unit=unit.name, stats={"owner": None})
        before, status = battle.to_dict(), cast("BattleStatus", battle.status)
        try:
            outcome = battle.apply(order, Dice.seeded(0))
        except GameError:
            continue
        event = NewEvent(actor_id, order.kind, str(order), outcome.to_dict(), False)
        rebuilt.events.append(pack_event(event, before, status))
        names.append(unit.name)
    return names
