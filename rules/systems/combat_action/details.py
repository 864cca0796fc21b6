"""What the Combat Action orders report besides their effects (`rules.details`)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.details import Details


@dataclass(frozen=True, slots=True)
class ShotDetails(Details):
    """A shot (fired, or a robot's own on its activation): whether it hit, with what, at whom."""

    hit: bool
    weapon: str
    target: str


DETAILS: dict[str, type[Details]] = {"fire": ShotDetails, "activate": ShotDetails}
