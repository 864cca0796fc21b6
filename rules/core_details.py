"""What the core's own orders report besides their effects (`rules.details`); turn notes are `TurnNotes`."""

from __future__ import annotations

from dataclasses import dataclass

from rules.details import Details


@dataclass(frozen=True, slots=True)
class PaintDetails(Details):
    """Terrain painted: its key and how many squares it covered."""

    terrain: str
    count: int


CORE_DETAILS: dict[str, type[Details]] = {"paint": PaintDetails}
