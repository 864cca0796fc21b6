"""The round-by-round log of an engagement: each round's initiative, target priorities and every unit's action.

Each record stores as the dict the rounds always wrote (an engagement's logged outcome holds them), so a
battle fought by an earlier version reads back; a field left None is not stored, as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rules.details import Details
from rules.effects import optional


@dataclass(frozen=True, slots=True)
class Row(Details):
    """One record of the round log, stored as its fields alone."""

    NOUN: ClassVar[str] = "round log entry"


@dataclass(frozen=True, slots=True)
class Chance(Row):
    """A roll of 1d`die` that succeeds at or under `needed`; no roll (`roll` None) when the chance is 0 or 1."""

    roll: int | None
    needed: int
    die: int
    success: bool


@dataclass(frozen=True, slots=True)
class Hits(Row):
    """A shot's hits (A62): the whole part of q = Accuracy/Evade, and the extra hit rolled for its fraction."""

    q: str  # the quotient, as a fraction's text
    whole: int
    extra: Chance
    hits: int

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        """Read the extra hit's roll."""
        return {**Row.read(data), "extra": Chance.build(data["extra"])}


@dataclass(frozen=True, slots=True)
class Lottery(Row):
    """The target lottery of a shot: the balls in the drum and the roll (None when one target was left)."""

    balls: int
    roll: int | None


@dataclass(frozen=True, slots=True)
class DamageDone(Row):
    """The damage a shot did and the target's state before and after it."""

    damage: int
    total: int
    before: str
    after: str


@dataclass(frozen=True, slots=True)
class MoraleCheck(Row):
    """A Disrupted unit's morale roll on its turn (A60): recovers, stays disrupted or routs."""

    die: int
    roll: int
    morale: int
    stay_band: int
    result: str


@dataclass(frozen=True, slots=True)
class InitiativeRow(Row):
    """A unit's initiative this round (A59): AIV = IV + roll, ties broken by a roll-off (0 when none was needed)."""

    unit: str  # the unit's id
    iv: int
    roll: int
    rolloff: int
    aiv: int


@dataclass(frozen=True, slots=True)
class PriorityLine(Row):
    """One line of a Target Priority Value: an addition (`add`) or a multiplier (`times`), and its source."""

    source: str
    add: int | None = optional()
    times: int | None = optional()


@dataclass(frozen=True, slots=True)
class Priority(Row):
    """A unit's Target Priority Value for a round and its breakdown (A61)."""

    tpv: int
    lines: Sequence[PriorityLine]

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        """Read the breakdown's lines."""
        return {**Row.read(data), "lines": tuple(PriorityLine.build(line) for line in data["lines"])}


@dataclass(frozen=True, slots=True)
class Action(Row):
    """One unit's turn of a round: skipped (`skipped` says why), or its morale check and then its shot.

    A unit that routs at its morale check, or finds no target (`no_target`), does not fire.
    """

    unit: str  # the unit's id
    skipped: str | None = optional()  # the state that cost it its turn (destroyed, routed)
    status: str | None = optional()  # its state when its turn came
    morale: MoraleCheck | None = optional()  # noqa: RUF009 (a field marker, its default None)
    no_target: bool | None = optional()
    target: str | None = optional()  # the target's id
    lottery: Lottery | None = optional()  # noqa: RUF009 (a field marker, its default None)
    hits: Hits | None = optional()  # noqa: RUF009 (a field marker, its default None)
    through: Sequence[Chance] | None = optional()  # each hit's deflection roll
    result: DamageDone | None = optional()  # noqa: RUF009 (a field marker, its default None)

    @property
    def fired(self) -> bool:
        """Return whether the unit fired this turn."""
        return self.target is not None

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        """Read the morale check and the shot's records."""
        out = Row.read(data)
        if data.get("morale") is not None:
            out["morale"] = MoraleCheck.build(data["morale"])
        if data.get("lottery") is not None:
            out["lottery"] = Lottery.build(data["lottery"])
        if data.get("hits") is not None:
            out["hits"] = Hits.build(data["hits"])
        if data.get("through") is not None:
            out["through"] = tuple(Chance.build(r) for r in data["through"])
        if data.get("result") is not None:
            out["result"] = DamageDone.build(data["result"])
        return out


@dataclass(frozen=True, slots=True)
class Round(Row):
    """One Combat Round: initiative, the priorities that changed since the last round, the actions, the
    collateral points it added and each side's damage points lost by its end."""

    round: int
    initiative: Sequence[InitiativeRow]
    tpv: Mapping[str, Priority]  # by unit id
    actions: Sequence[Action]
    collateral: int
    losses: Mapping[str, int] = field(default_factory=dict)  # by side

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        """Read the initiative rows, the priorities and the actions."""
        return {**Row.read(data), "initiative": tuple(InitiativeRow.build(r) for r in data["initiative"]),
                "tpv": {str(uid): Priority.build(p) for uid, p in data["tpv"].items()},
                "actions": tuple(Action.build(a) for a in data["actions"])}


__all__ = ["Action", "Chance", "DamageDone", "Hits", "InitiativeRow", "Lottery", "MoraleCheck", "Priority",
           "PriorityLine", "Round", "Row"]
