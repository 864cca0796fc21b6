"""The previous turn: the battle as the last finished turn left it, and what was done in it.

Rebuilt by replaying the log from the state the battle was created with, with the dice each order
recorded (as an export's import does), so no snapshot beyond the log is needed.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.clock import turn_key, turn_label
from rules import turns
from rules.battle import Battle
from rules.details import Details, load_details
from rules.errors import GameError
from rules.outcome import Highlight
from rules.replay import ReplayError, Step, apply_step, steps_from_log

log = logging.getLogger(__name__)


class NoPreviousTurnError(GameError):
    """The battle has no finished turn to show yet."""


@dataclass(frozen=True)
class PastTurn:
    """A finished turn: the battle at its end, its label, and the highlights of the orders given in it."""

    battle: Battle
    label: str
    highlights: tuple[tuple[Highlight, Details], ...]


def has_previous_turn(battle: Battle) -> bool:
    """Return whether a turn has finished before the current one, from the turn state alone (no replay)."""
    if battle.status == "setup" or battle.round < 1:
        return False
    if battle.round > 1:
        return True
    status = turns.turn_status(battle)
    done = [u for u in status["units"] if u["state"] in turns.DONE_PHRASES]
    if status["mode"] == "side":
        phase = str(status["phase"] or "").lower()
        return any(u["side"].lower() != phase for u in done)
    if status["mode"] == "initiative":
        return any(u["unit"] != status["current"] for u in done)
    # Free order: a round is one turn, and this is the first round.
    return False


def previous_turn(initial: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> PastTurn:
    """Return the last turn finished before the current one, replayed from the log.

    `events` are logged events as `steps_from_log` reads them (oldest first or not), each with its
    stored outcome; a hidden one (a GM's secret roll, a sprung trap) is replayed but not highlighted.
    """
    steps = steps_from_log(events)
    outcomes = {int(e["seq"]): ({} if e.get("hidden") else e.get("outcome") or {}) for e in events}
    battle = Battle.from_dict(dict(initial))
    keys: list[str | None] = []
    for step in steps:
        keys.append(turn_key(battle))
        _apply(battle, step)
    now = turn_key(battle)
    # The previous turn is the last run of orders given in a turn other than the current one.
    last = next((i for i in range(len(steps) - 1, -1, -1) if keys[i] is not None and keys[i] != now), None)
    if last is None:
        raise NoPreviousTurnError("No turn has finished yet in this battle; /map show shows the map as it is now.")
    first = last
    while first > 0 and keys[first - 1] == keys[last]:
        first -= 1
    past = Battle.from_dict(dict(initial))
    label = ""
    for i, step in enumerate(steps[: last + 1]):
        if i == first:
            label = turn_label(past)
        _apply(past, step)
    highlights = tuple(
        (Highlight.from_dict(outcomes[s.seq].get("highlight") or {}),
         load_details(str(outcomes[s.seq].get("kind", "")), outcomes[s.seq].get("data") or {},
                      past.system.detail_kinds)[0])
        for s in steps[first : last + 1]
    )
    return PastTurn(battle=past, label=label, highlights=highlights)


def _apply(battle: Battle, step: Step) -> None:
    """Replay one step, or explain that the log no longer replays."""
    try:
        apply_step(battle, step)
    except ReplayError as exc:
        log.warning("previous turn: replay stopped at order %s: %s", exc.seq, exc.message)
        raise NoPreviousTurnError(
            f"The previous turn cannot be rebuilt: {exc.message} The map as it is now is still shown by /map show."
        ) from None
