"""What the Surface orders report besides their effects (`rules.details`): a plan's receipt, the battle report."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rules.details import Details
from rules.stored import JSON


@dataclass(frozen=True, slots=True)
class PlanDetails(Details):
    """A side's plan committed: whether it replaced one, and whether every side's plan is now in."""

    side: str
    replaced: bool
    ready: bool


@dataclass(frozen=True, slots=True)
class SurfaceReport(Details):
    """The engagement fought: sides, plans, each round, the verdict and the aftermath.

    Its parts below the first level (`log` of rounds, `units`' fates, `verdict`, `rally`, `escape`,
    `recovery`, `collateral`, `plans`) are in the form the battle keeps its last report in (without `log`),
    which the report's pages and chart read from either place.
    """

    sides: Sequence[str]
    plans: Mapping[str, JSON]
    fallback: Mapping[str, str]  # the plan a side without one fought with
    defaulted: Sequence[str]
    rounds_planned: int
    rounds_fought: int
    log: Sequence[JSON]
    rally: Sequence[JSON]
    broken: Mapping[str, bool]
    losses: Mapping[str, str]
    lost_points: Mapping[str, int]
    units: Mapping[str, JSON]  # each unit's fate, by id
    capacity: Mapping[str, int]
    verdict: Mapping[str, JSON]
    retreat: Mapping[str, int]
    escape: Sequence[JSON]
    recovery: Sequence[JSON]
    collateral_count: int
    collateral: Mapping[str, int]
    draw: bool
    turn: int


DETAILS: dict[str, type[Details]] = {"surface-plan": PlanDetails, "surface-resolve": SurfaceReport}
