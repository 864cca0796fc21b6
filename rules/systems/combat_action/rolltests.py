"""The rolls Combat Action records with every term: to-hit, damage on each table, and the other d6 tests."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules.effects import optional, table
from rules.errors import RulesetError
from rules.modifiers import Modifier
from rules.rolltests import RollTest, rolltest
from rules.stored import JSON


@rolltest("to_hit")
@dataclass(frozen=True, slots=True)
class ToHitTest(RollTest):
    """1d6 + modifiers against the firer's SS (A73): the range in cm and band, and by how much it missed."""

    die: int
    modifiers: tuple[Modifier, ...]
    total: int
    ss: int
    hit: bool
    miss: int
    weapon: str
    band: str
    target: str
    unit: str
    cm: int | float
    mode: str | None = optional()
    strike_back: bool | None = optional()

    @classmethod
    def read(cls, data: Mapping[str, JSON]) -> dict[str, object]:
        """Return the stored fields with the modifier lines typed."""
        items = data.get("modifiers")
        if not isinstance(items, list | tuple):
            raise RulesetError("A to-hit roll lists its modifiers.")
        modifiers = tuple(Modifier.from_dict(m) for m in items if isinstance(m, Mapping))
        return {**super(ToHitTest, cls).read(data), "modifiers": modifiers}


@rolltest("damage")
@dataclass(frozen=True, slots=True, kw_only=True)  # fields in their stored order, the optional ones among them
class DamageTest(RollTest):
    """1d6 + PF - Pen on the living damage table (A79); `final` when a second Wounded takes the model out.

    A crew member's hit (003:L196) stores no `cover` and no `large_scale`; a hit in a large scale game
    stores no `die` and no `value`, as none is rolled (A88).
    """

    target: str
    die: int | None = optional()
    pf: int
    cover: int | None = optional()
    pen: int
    value: int | None = optional()
    large_scale: bool | None = optional()
    result: str
    source: str
    final: str | None = optional()


@rolltest("building_damage")
@dataclass(frozen=True, slots=True)
class BuildingDamageTest(RollTest):
    """1d6 + PF - Pen on the building table (A81)."""

    target: str
    die: int
    pf: int
    pen: int
    value: int
    result: str
    source: str


@rolltest("machine_damage")
@dataclass(frozen=True, slots=True)
class MachineDamageTest(RollTest):
    """1d6 + Pen - PF on the machine location table (A82)."""

    target: str
    die: int
    pen: int
    pf: int
    cover: int
    value: int
    location: str
    source: str


@rolltest("splash")
@dataclass(frozen=True, slots=True)
class SplashTest(RollTest):
    """A d6 for a model near an exploding power plant: `need` or more and it is hit."""

    target: str
    die: int
    need: int
    hit: bool


@rolltest("hatch")
@dataclass(frozen=True, slots=True)
class HatchTest(RollTest):
    """A blow on a jammed hatch (003:L189, A83): d6 + Pen - hatch PF reaching `need` breaks it open."""

    unit: str
    target: str
    die: int
    pen: int
    pf: int
    inside: bool
    value: int
    need: int
    broken: bool
    weapon: str


@rolltest("discipline")
@dataclass(frozen=True, slots=True)
class DisciplineTest(RollTest):
    """A pinned unit's Discipline test at its activation: d6 + mod reaching its Discipline unpins it."""

    unit: str
    die: int
    mod: int
    total: int
    need: int
    passed: bool


@rolltest("malfunction")
@dataclass(frozen=True, slots=True)
class MalfunctionTest(RollTest):
    """A faulty weapon's malfunction die before it fires (A86)."""

    weapon: str
    die: int
    need: int
    malfunctioned: bool


ROLLTESTS = table(ToHitTest, DamageTest, BuildingDamageTest, MachineDamageTest, SplashTest, HatchTest,
                        DisciplineTest, MalfunctionTest)
