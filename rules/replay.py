"""Replay: rebuild a battle from the state it began in and its log, with the dice the log recorded.

Each step re-applies one order with the faces it rolled fed back as scripted dice, so nothing is
rolled again; an order that would roll a different number of dice, or that the rules now refuse,
stops the replay with the step it failed on.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.battle import Battle
from rules.dice import Dice
from rules.errors import GameError
from rules.outcome import Outcome


class ReplayError(GameError):
    """An order of the log could not be replayed as it was recorded."""

    def __init__(self, seq: int, message: str) -> None:
        super().__init__(message)
        self.seq = seq


@dataclass(frozen=True, slots=True)
class Step:
    """One order of the log to replay: its number, its text and every die face it rolled, in order."""

    seq: int
    order: str
    faces: tuple[int, ...] = ()

    @classmethod
    def from_outcome(cls, seq: int, order: str, outcome: Mapping[str, Any] | None) -> Step:
        """Build a step from a logged order and its stored outcome."""
        return cls(seq, order, tuple(faces_of(outcome)))


def faces_of(outcome: Mapping[str, Any] | None) -> list[int]:
    """Return every die face an outcome recorded, in the order they were rolled."""
    if not outcome:
        return []
    faces: list[int] = []
    for roll in outcome.get("rolls", []):
        faces.extend(int(f) for f in roll.get("faces", []))
    return faces


def replay(initial: Mapping[str, Any], steps: Iterable[Step]) -> Battle[Any]:
    """Return the battle the steps make of the initial state, or raise ReplayError at the first that fails."""
    battle = Battle.from_dict(dict(initial))
    for step in steps:
        apply_step(battle, step)
    return battle


def apply_step(battle: Battle[Any], step: Step) -> Outcome:
    """Re-apply one logged order with its recorded dice; return the outcome the rules gave."""
    try:
        order = battle.parse_order(step.order)
    except GameError as exc:
        raise ReplayError(step.seq, f"Order #{step.seq} `{step.order[:80]}` cannot be read: {exc.message}") from None
    # The fallback source only matters when an order asks for more dice than it recorded, which is caught below.
    dice = Dice(random.Random(0), scripted=list(step.faces))
    try:
        outcome = battle.apply(order, dice)
    except GameError as exc:
        raise ReplayError(step.seq, f"Order #{step.seq} `{step.order[:80]}` is refused on replay: {exc.message}") from None
    rolled = [face for roll in outcome.rolls for face in roll.faces]
    if dice.scripted or len(rolled) != len(step.faces):
        raise ReplayError(
            step.seq,
            f"Order #{step.seq} `{step.order[:80]}` rolls {len(rolled)} dice on replay but the log recorded "
            f"{len(step.faces)}.",
        )
    # A replay never undoes, so keeping a snapshot per step would only cost memory.
    battle._history.clear()
    return outcome


def normalise(state: Mapping[str, Any]) -> dict[str, Any]:
    """Return a state document as it reads back from JSON, so two states compare by content."""
    value = json.loads(json.dumps(state, sort_keys=True))
    if not isinstance(value, dict):
        raise TypeError("a battle state is a JSON object")
    return value


def same_state(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Return whether two state documents describe the same battle."""
    return normalise(a) == normalise(b)


def first_difference(a: Mapping[str, Any], b: Mapping[str, Any], path: Sequence[str] = ()) -> str | None:
    """Return where two state documents first differ (`units[2].wounds`), or None when they are equal."""
    left, right = normalise(a), normalise(b)
    return _diff(left, right, list(path))


def _diff(a: Any, b: Any, path: list[str]) -> str | None:
    where = "".join(path) or "the state"
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{where}.{key}".lstrip(".")
            found = _diff(a[key], b[key], [*path, f".{key}" if path else key])
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{where} (length {len(a)} against {len(b)})"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = _diff(x, y, [*path, f"[{i}]"])
            if found:
                return found
        return None
    return None if a == b else where


def steps_from_log(events: Iterable[Mapping[str, Any]]) -> list[Step]:
    """Return the steps to replay from logged events: every order not undone, oldest first.

    Each event is a mapping with `seq`, `kind`, `order`, `outcome` and `undone`; the creation and the
    undo entries are records of the log, not orders, and are skipped like the orders they undid.
    """
    steps = []
    for event in sorted(events, key=lambda e: int(e["seq"])):
        if event.get("undone") or event["kind"] in ("create", "undo"):
            continue
        steps.append(Step.from_outcome(int(event["seq"]), str(event["order"]), event.get("outcome")))
    return steps
