"""The whole engagement (RULES.md 3.1): rounds from the plans, early end, then the aftermath."""

from __future__ import annotations

from typing import Any

from rules.dice import Dice
from rules.errors import IllegalOrderError
from rules.outcome import Outcome
from rules.systems.surface.aftermath import collateral, escape, rally_or_disintegrate, reset_damage
from rules.systems.surface.combat_round import combat_round
from rules.systems.surface.state import Plan, SurfaceBattle, forces, plan, standing
from rules.systems.surface.units import DESTROYED, Unit
from rules.systems.surface.victory import DRAW, judge, relative_loss, retreat_steps


def plan_rounds(battle: SurfaceBattle, chosen: Plan) -> int:
    """Return the rounds a plan asks for: base + Intensity + Daring (A65)."""
    return int(battle.const("rounds_base")) + chosen.intensity + chosen.daring


def default_plan(battle: SurfaceBattle) -> Plan:
    """Return the plan of a side that submitted none when the GM resolves."""
    return Plan(int(battle.const("default_intensity")), 0)


def two_forces(battle: SurfaceBattle) -> tuple[str, str]:
    """Return the two sides that fight, or explain why this battle cannot be fought."""
    sides = [name for name, units in forces(battle).items() if units]
    if len(sides) != 2:
        empty = [s.name for s in battle.sides if s.name not in sides]
        hint = f" {', '.join(empty)} has no units." if empty else ""
        raise IllegalOrderError(
            f"Surface Combat needs exactly two forces with units; this battle has {len(sides)}.{hint} "
            "Add units with `/surface add`."
        )
    fighting = [s for s in sides if any(u.alive and u.state != "escaped" for u in forces(battle)[s])]
    if len(fighting) != 2:
        raise IllegalOrderError("One force has no unit left standing; add units before the battle is fought.")
    return sides[0], sides[1]


def resolve_battle(battle: SurfaceBattle, dice: Dice, outcome: Outcome) -> dict[str, Any]:
    """Fight the engagement round by round and settle its aftermath; return the full report."""
    sides = two_forces(battle)
    by_side = forces(battle)
    plans = {s: plan(battle, s) or default_plan(battle) for s in sides}
    rounds = max(plan_rounds(battle, p) for p in plans.values())
    dropped = {uid for p in plans.values() for uid in p.dropped}
    start = {u.id: u.damage for s in sides for u in by_side[s]}
    capacity = {s: sum(u.capacity for u in by_side[s]) for s in sides}
    log: list[dict[str, Any]] = []
    collateral_count = 0
    for number in range(1, rounds + 1):
        battle.round = number
        entry = combat_round(battle, number, dropped, dice, outcome)
        entry["losses"] = {s: _lost(by_side[s], start) for s in sides}
        log.append(entry)
        collateral_count += int(entry["collateral"])
        if any(not any(u.eligible for u in by_side[s]) for s in sides):  # A71: a side has nothing left
            break
    broken = {s: not any(u.eligible for u in by_side[s]) for s in sides}
    rally = rally_or_disintegrate(battle, dice, outcome)
    losses = {s: relative_loss(_lost(by_side[s], start), capacity[s]) for s in sides}
    verdict = judge(battle, sides, losses, broken)
    escapes: list[dict[str, Any]] = []
    retreat: dict[str, int] = {}
    for s in sides:
        level = verdict["levels"][s]
        retreat[s] = retreat_steps(battle, level)
        if level.endswith("defeat") and standing(battle, s).last_ground:
            escapes += escape(battle, by_side[s], dice, outcome)
    recovery = reset_damage(battle)
    report = {
        "sides": list(sides), "plans": {s: plans[s].to_dict() for s in sides}, "rounds_planned": rounds,
        "rounds_fought": len(log), "log": log, "rally": rally, "broken": broken,
        "losses": {s: str(losses[s]) for s in sides}, "lost_points": {s: _lost(by_side[s], start) for s in sides},
        "capacity": capacity, "verdict": verdict, "retreat": retreat, "escape": escapes, "recovery": recovery,
        "collateral_count": collateral_count, "collateral": collateral(battle, collateral_count, dice),
        "draw": verdict["levels"][sides[0]] == DRAW,
    }
    outcome.effect("resolved", levels=verdict["levels"], rounds=len(log))
    return report


def _lost(units: list[Unit], start: dict[str, int]) -> int:
    """Return the damage points a force lost this battle, destroyed units counting at full capacity."""
    return sum((u.capacity if u.state == DESTROYED else u.damage) - start[u.id] for u in units)
