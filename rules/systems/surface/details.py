"""What the Surface orders report besides their effects (`rules.details`): a plan's receipt, the battle report."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from rules.details import Details
from rules.effects import optional
from rules.systems.surface.plans import Plan
from rules.systems.surface.rounds import Round


@dataclass(frozen=True, slots=True)
class PlanDetails(Details):
    """A side's plan committed: whether it replaced one, and whether every side's plan is now in."""

    side: str
    replaced: bool
    ready: bool


@dataclass(frozen=True, slots=True)
class Fate(Details):
    """What became of a unit in the engagement: destroyed, rallied, disintegrated, fled or fought on."""

    name: str
    side: str
    routed: bool
    fate: str


@dataclass(frozen=True, slots=True)
class Verdict(Details):
    """The result for each side (`levels`), why (`broken` or `losses`), the first side's loss ratio and the
    leaders' shift of it."""

    levels: Mapping[str, str]
    reason: str
    ratio: str | None
    leader_shift: int | None = optional()


@dataclass(frozen=True, slots=True)
class RallyRow(Details):
    """A unit after the rounds (A66): a Disrupted one recovers; a Routed one rolls 1d`die` at or under its Rally."""

    unit: str  # the unit's id
    result: str  # recovers, rallies or disintegrates
    die: int | None = optional()
    roll: int | None = optional()
    rally: int | None = optional()


@dataclass(frozen=True, slots=True)
class EscapeRow(Details):
    """A unit of a defeated side fleeing off-world: irregulars disappear, regulars roll a d100 within `needed`."""

    unit: str  # the unit's id
    result: str  # disappears, escapes or lost
    roll: int | None = optional()
    needed: int | None = optional()


@dataclass(frozen=True, slots=True)
class RecoveryRow(Details):
    """A survivor's damage cleared after the battle (stored `from` and `to`)."""

    STORED_AS: ClassVar[Mapping[str, str]] = {"before": "from", "after": "to"}

    unit: str  # the unit's id
    before: int
    after: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SurfaceReport(Details):
    """The engagement fought: sides, plans, each round, the verdict and the aftermath.

    The order's outcome holds the round-by-round `log`; the battle keeps its last report without it (`log`
    None), so the battle stays small to load and to snapshot however long the fight was.
    """

    sides: Sequence[str]
    plans: Mapping[str, Plan]
    fallback: Mapping[str, str]  # the plan a side without one fought with
    defaulted: Sequence[str]
    rounds_planned: int
    rounds_fought: int
    log: Sequence[Round] | None = optional()
    rally: Sequence[RallyRow]
    broken: Mapping[str, bool]
    losses: Mapping[str, str]
    lost_points: Mapping[str, int]
    units: Mapping[str, Fate]  # by unit id
    capacity: Mapping[str, int]
    verdict: Verdict
    retreat: Mapping[str, int]
    escape: Sequence[EscapeRow]
    recovery: Sequence[RecoveryRow]
    collateral_count: int
    collateral: Mapping[str, int]
    draw: bool
    turn: int

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        """Read the plans, the fates, the verdict and the aftermath's rows."""
        log = data.get("log")
        return {**Details.read(data), "plans": {s: Plan.from_dict(p) for s, p in data["plans"].items()},
                "log": None if log is None else tuple(Round.build(r) for r in log),
                "units": {uid: Fate.build(f) for uid, f in data["units"].items()},
                "verdict": Verdict.build(data["verdict"]), "rally": tuple(RallyRow.build(r) for r in data["rally"]),
                "escape": tuple(EscapeRow.build(r) for r in data["escape"]),
                "recovery": tuple(RecoveryRow.build(r) for r in data["recovery"])}

    def kept(self) -> SurfaceReport:
        """Return the report as the battle keeps it: without the round-by-round log."""
        return replace(self, log=None)

    @property
    def rounds(self) -> Sequence[Round]:
        """Return the rounds fought (none when this is the report the battle keeps, without its log)."""
        return self.log or ()


DETAILS: dict[str, type[Details]] = {"surface-plan": PlanDetails, "surface-resolve": SurfaceReport}
