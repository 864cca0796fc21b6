"""What the M42 orders report besides their effects (`rules.details`); the action taken is the turn notes' `action`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.details import Details


@dataclass(frozen=True, slots=True)
class MapDetails(Details):
    """A map imported: its size, its obstacles on sides, and the squares of road and of floors."""

    width: int
    height: int
    edges: int
    road: int
    floors: int


@dataclass(frozen=True, slots=True)
class ActionDetails(Details):
    """A leader's action: how far it went, of what allowance, and what halved the allowance (A90)."""

    walked: float
    allowance: float
    halved: Sequence[str]


DETAILS: dict[str, type[Details]] = {"import-map": MapDetails, "move": ActionDetails, "take-action": ActionDetails}
