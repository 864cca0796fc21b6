"""The effects the core records: the battle's lifecycle, painted terrain, obstacles on sides, and turns."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.effects import Effect, effect, optional, table


@effect("battle_started")
@dataclass(frozen=True, slots=True)
class BattleStarted(Effect):
    """The GM started the battle; play begins in this round."""

    round: int


@effect("battle_ended")
@dataclass(frozen=True, slots=True)
class BattleEnded(Effect):
    """The GM ended the battle in this round."""

    round: int


@effect("rule_set")
@dataclass(frozen=True, slots=True)
class RuleSet(Effect):
    """The GM changed a named constant for this battle."""

    key: str
    old: int | float | bool | str
    new: int | float | bool | str
    default: int | float | bool | str


@effect("unit_removed")
@dataclass(frozen=True, slots=True)
class UnitRemoved(Effect):
    """The GM took a unit off the map."""

    unit: str
    at: str


@effect("unit_edited")
@dataclass(frozen=True, slots=True)
class UnitEdited(Effect):
    """The GM changed a unit's stat block; `fields` names what changed."""

    unit: str
    fields: Sequence[str]


@effect("painted")
@dataclass(frozen=True, slots=True)
class Painted(Effect):
    """The GM painted squares with a terrain."""

    terrain: str
    cells: int


@effect("edges_set")
@dataclass(frozen=True, slots=True)
class EdgesSet(Effect):
    """The GM put an obstacle on square sides."""

    obstacle: str
    height: float
    opening: float
    edges: Sequence[str]
    count: int


@effect("edges_cleared")
@dataclass(frozen=True, slots=True)
class EdgesCleared(Effect):
    """The GM took the obstacles off square sides (the first fifty named)."""

    edges: Sequence[str]
    count: int


@effect("turn_ended")
@dataclass(frozen=True, slots=True)
class TurnEnded(Effect):
    """A unit ended its turn with actions unused."""

    unit: str
    unused: int


@effect("held")
@dataclass(frozen=True, slots=True)
class Held(Effect):
    """A unit held its turn; a standing turn says why (`fallback`, `standing_order`, `no_standing_order`)."""

    unit: str
    unused: int
    reason: str | None = optional()


@effect("turn_skipped")
@dataclass(frozen=True, slots=True)
class TurnSkipped(Effect):
    """The GM skipped units' turns (a whole side's when `side` is named)."""

    units: Sequence[str]
    side: str | None


@effect("round_closed")
@dataclass(frozen=True, slots=True)
class RoundClosed(Effect):
    """The GM closed the round, skipping the units that had not acted."""

    round: int
    skipped: Sequence[str]


@effect("turn_mode_set")
@dataclass(frozen=True, slots=True)
class TurnModeSet(Effect):
    """The GM changed how turns are taken."""

    mode: str
    frm: str


@effect("standing_order_set")
@dataclass(frozen=True, slots=True)
class StandingOrderSet(Effect):
    """A unit was given a standing order, as order text."""

    unit: str
    order: str


@effect("standing_order_cleared")
@dataclass(frozen=True, slots=True)
class StandingOrderCleared(Effect):
    """A unit's standing order was cleared."""

    unit: str


@effect("standing_order_followed")
@dataclass(frozen=True, slots=True)
class StandingOrderFollowed(Effect):
    """A unit's turn was played by its standing order."""

    unit: str
    order: str


@effect("turn_lost")
@dataclass(frozen=True, slots=True)
class TurnLost(Effect):
    """A unit lost its turn (stunned, say)."""

    unit: str
    reason: str


@effect("turn_passed")
@dataclass(frozen=True, slots=True)
class TurnPassed(Effect):
    """Play passed to a unit (initiative mode); `frm` names the unit before it, if any."""

    to: str
    initiative: int | None
    round: int
    frm: str | None = optional()


@effect("phase_changed")
@dataclass(frozen=True, slots=True)
class PhaseChanged(Effect):
    """Play passed to a side (side mode); `frm` names the side before it, if any."""

    side: str
    round: int
    frm: str | None = optional()


@effect("round_started")
@dataclass(frozen=True, slots=True)
class RoundStarted(Effect):
    """A round began: its turn mode and its units in acting order."""

    round: int
    mode: str
    order: Sequence[str]


# The kinds every system's outcomes may hold; a system's own table overrides a kind it words differently.
CORE_EFFECTS = table(
    BattleStarted, BattleEnded, RuleSet, UnitRemoved, UnitEdited, Painted, EdgesSet, EdgesCleared, TurnEnded, Held,
    TurnSkipped, RoundClosed, TurnModeSet, StandingOrderSet, StandingOrderCleared, StandingOrderFollowed,
    TurnLost, TurnPassed, PhaseChanged, RoundStarted,
)
# Effects of the turn system: the turn formatter words them, and attack embeds group them apart.
TURN_EFFECTS: tuple[type[Effect], ...] = (
    RoundStarted, PhaseChanged, TurnPassed, TurnLost, TurnEnded, Held, TurnSkipped, RoundClosed, TurnModeSet,
    StandingOrderSet, StandingOrderCleared, StandingOrderFollowed,
)
