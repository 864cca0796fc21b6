"""The battle at any order of its log: replayed with the recorded dice (`rules.replay`), from kept checkpoints.

Step 0 is the battle as it was created; step n is the battle after the n-th order still in force. Every
CHECKPOINT-th state is kept (as its document), so a step back replays at most CHECKPOINT - 1 orders.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.battle import Battle
from rules.replay import ReplayError, Step, apply_step, steps_from_log

log = logging.getLogger(__name__)

CHECKPOINT = 16
KEPT_BATTLES = 8  # replays kept at once (each holds a few documents of its battle)


@dataclass
class Replay:
    """One battle's log at one version, with the states replayed so far."""

    initial: dict[str, Any]
    steps: list[Step]
    checkpoints: dict[int, dict[str, Any]] = field(default_factory=dict)
    broken_at: int | None = None  # the first step that no longer replays, if any
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def length(self) -> int:
        """Return how many orders can be stepped through."""
        return len(self.steps) if self.broken_at is None else self.broken_at

    def battle_at(self, index: int) -> Battle:
        """Return a fresh battle after the first `index` steps (clamped to what replays)."""
        with self.lock:
            index = max(0, min(index, self.length))
            base = max((k for k in self.checkpoints if k <= index), default=0)
            battle = Battle.from_dict(dict(self.checkpoints.get(base, self.initial)))
            for i in range(base, index):
                try:
                    apply_step(battle, self.steps[i])
                except ReplayError as exc:
                    log.warning("web replay stopped at order %s: %s", exc.seq, exc.message)
                    self.broken_at = i
                    return battle
                if (i + 1) % CHECKPOINT == 0 and i + 1 not in self.checkpoints:
                    self.checkpoints[i + 1] = battle.to_dict()
            return battle


class Replays:
    """The replays of the battles watched lately, by battle and version."""

    def __init__(self, keep: int = KEPT_BATTLES) -> None:
        self.keep = keep
        self._kept: OrderedDict[tuple[int, int], Replay] = OrderedDict()

    def get(self, battle_id: int, version: int, initial: Mapping[str, Any],
            events: Sequence[Mapping[str, Any]]) -> Replay:
        """Return the replay of a battle at a version, made from its log the first time."""
        key = (battle_id, version)
        found = self._kept.get(key)
        if found is None:
            found = Replay(dict(initial), steps_from_log(events))
            self._kept[key] = found
            while len(self._kept) > self.keep:
                self._kept.popitem(last=False)
        self._kept.move_to_end(key)
        return found

    def known(self, battle_id: int, version: int) -> Replay | None:
        """Return a kept replay without making one."""
        return self._kept.get((battle_id, version))
