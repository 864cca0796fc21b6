"""GM-overridable constants of strategic combat: melee reach and damage, Maneuver, Line attacks, altitude."""

from __future__ import annotations

from typing import Any

import pytest

from rules.battle import Battle
from rules.coords import Cell
from rules.errors import GameError
from rules.orders import SetRule
from rules.outcome import Outcome
from rules.systems.strategic.actions.combat import Attack
from rules.systems.strategic.actions.other import Maneuver
from rules.systems.strategic.area import line_targets
from rules.systems.strategic.combat import line_of_fire
from tests.rules.conftest import add, dice, start

C = Cell.parse
KNIFE = {"name": "Knife", "melee": True, "damage": "1d10", "type": "R"}


def _set(b: Battle, key: str, value: object) -> None:
    b.apply(SetRule(key=key, value=str(value).lower()), dice())


def _melee(ruleset: str, target_at: str, **target: Any) -> Battle:
    b = Battle.new(ruleset, 10, 10)
    add(b, "Fighter", "Red", "C3", ws=50, s=40, weapons=[KNIFE])
    if target.get("kind") != "horde":
        target.setdefault("wounds", 30)
    add(b, "Target", "Blue", target_at, t=0, **target)
    return b


def _strike(b: Battle, *faces: int) -> Outcome:
    start(b)
    return b.apply(Attack(unit="Fighter", target="Target", weapon="Knife"), dice(*faces))


def _strike_or_refused(b: Battle, allowed: bool) -> None:
    if allowed:
        _strike(b, 99)
        return
    with pytest.raises(GameError, match="melee weapon"):
        _strike(b, 99)


@pytest.mark.constant("maneuver_push")
@pytest.mark.parametrize(("push", "lands"), [(2, "C6"), (3, "C7")])
def test_maneuver_push(push: int, lands: str) -> None:
    """000:L7 "actions such as Maneuver shift an enemy 1dm": a won Maneuver pushes the target that many squares."""
    b = _melee("strategic-p", "C4", ws=10)
    _set(b, "maneuver_push", push)
    start(b)
    b.apply(Maneuver(unit="Fighter", target="Target"), dice(1, 99))
    assert b.unit("Target").cell == C(lands)


def test_maneuver_push_of_zero_leaves_the_target_where_it_stands() -> None:
    """The constant's range starts at 0: a won Maneuver that pushes nobody moves nothing and fails no order."""
    b = _melee("strategic-p", "C4", ws=10)
    _set(b, "maneuver_push", 0)
    start(b)
    out = b.apply(Maneuver(unit="Fighter", target="Target"), dice(1, 99))
    assert out.details.won and b.unit("Target").cell == C("C4")


@pytest.mark.constant("melee_reach")
@pytest.mark.parametrize(("reach", "target_at", "allowed"), [(2, "C5", True), (3, "C6", True), (0, "C4", False)])
def test_melee_reach(reach: int, target_at: str, allowed: bool) -> None:
    """000:L16 "in range, which is considered to be, for most melee weapons, adjacent squares" (melee_reach)."""
    b = _melee("strategic-p", target_at)
    _set(b, "melee_reach", reach)
    _strike_or_refused(b, allowed)


@pytest.mark.constant("melee_reach_vs_horde")
@pytest.mark.parametrize(("reach", "target_at", "allowed"), [(2, "C5", True), (0, "C4", False)])
def test_melee_reach_vs_horde(reach: int, target_at: str, allowed: bool) -> None:
    """001:L24 "The only exception is when attacking Hordes": E-Scale melee reaches a Horde this many squares (A58)."""
    b = _melee("strategic-e", target_at, kind="horde", magnitude=20)
    _set(b, "melee_reach_vs_horde", reach)
    _strike_or_refused(b, allowed)


@pytest.mark.constant("melee_strength_bonus")
@pytest.mark.parametrize(("on", "damage"), [(True, 9), (False, 5)])
def test_melee_strength_bonus(on: bool, damage: int) -> None:
    """Parent rule: melee damage adds the attacker's Strength Bonus: a Knife's 1d10 showing 5 with S 40 (SB 4)."""
    b = _melee("strategic-p", "C4")
    _set(b, "melee_strength_bonus", on)
    out = _strike(b, 1, 5)
    assert out.details.damage[0].hit.damage == damage


@pytest.mark.constant("line_targets_per_square")
@pytest.mark.parametrize(("per_square", "hits"), [(1, 1), (2, 2), (3, 3)])
def test_line_targets_per_square(per_square: int, hits: int) -> None:
    """A17: a Line attack hits this many targets in each square it crosses (three units stand on C3)."""
    b = Battle.new("strategic-p", 5, 5)
    for name in ("A", "B", "C"):
        add(b, name, "Blue", "C3")
    _set(b, "line_targets_per_square", per_square)
    assert len(line_targets(b, dice(1, 1, 1), [C("C3")], None)) == hits


@pytest.mark.constant("altitude_ignores_penalties")
@pytest.mark.parametrize(("on", "ignored"), [(True, ["C2"]), (False, [])])
def test_altitude_ignores_penalties(on: bool, ignored: list[str]) -> None:
    """A20: "Each square of altitude ignores one penalised square on the line of fire": a flyer 1 up over a forest."""
    b = Battle.new("strategic-p", 5, 5)
    b.set_terrain(C("C2"), "forest")
    add(b, "Jet", "Red", "C1", flyer=4, altitude=1)
    add(b, "Target", "Blue", "C3")
    _set(b, "altitude_ignores_penalties", on)
    line = line_of_fire(b, C("C1"), C("C3"), b.unit("Jet"), b.unit("Target"), False)
    assert list(line.ignored) == ignored
