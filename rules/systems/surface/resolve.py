"""The whole engagement (RULES.md 3.1): rounds from the plans, early end, then the aftermath."""

from __future__ import annotations

from dataclasses import replace

from rules.dice import Dice
from rules.errors import IllegalOrderError
from rules.outcome import Outcome
from rules.systems.surface.aftermath import collateral, escape, rally_or_disintegrate, reset_damage
from rules.systems.surface.combat_round import combat_round
from rules.systems.surface.details import EscapeRow, Fate, RallyRow, SurfaceReport
from rules.systems.surface.effects import Resolved
from rules.systems.surface.rounds import Priority, Round
from rules.systems.surface.state import Plan, SurfaceBattle, forces, state
from rules.systems.surface.units import DESTROYED, ESCAPED, Unit
from rules.systems.surface.victory import DRAW, judge, relative_loss, retreat_steps


def plan_rounds(battle: SurfaceBattle, chosen: Plan) -> int:
    """Return the rounds a plan asks for: base + Intensity + Daring (A65)."""
    return int(battle.const("rounds_base")) + chosen.intensity + chosen.daring


def default_plan(battle: SurfaceBattle) -> Plan:
    """Return the plan of a side that submitted none when the GM resolves."""
    return Plan(int(battle.const("default_intensity")), 0)


def fallback_plan(battle: SurfaceBattle, side: str, standing: bool) -> tuple[Plan, str]:
    """Return the plan a side without one fights with: its last turn's plan if `standing`, else the default.

    A standing plan keeps Intensity, Daring and the siege; its drops were for that turn only.
    """
    old = (state(battle).last_plans or {}).get(side.lower())
    if standing and old:
        return Plan(old.intensity, old.daring, (), old.besieged), "standing"
    return default_plan(battle), "default"


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
    fighting = [s for s in sides if any(u.alive and u.state != ESCAPED for u in forces(battle)[s])]
    if len(fighting) != 2:
        raise IllegalOrderError("One force has no unit left standing; add units before the battle is fought.")
    return sides[0], sides[1]


def two_forces_or_none(battle: SurfaceBattle) -> tuple[str, ...]:
    """Return the two fighting sides, or nothing if the forces are not yet complete."""
    try:
        return two_forces(battle)
    except IllegalOrderError:
        return ()


def resolve_battle(battle: SurfaceBattle, dice: Dice, outcome: Outcome, *, last_plans: bool = False) -> SurfaceReport:
    """Fight the engagement round by round and settle its aftermath; return the full report.

    A side without a plan fights with its fallback plan (with `last_plans`: last turn's plan, else the default).
    """
    sides = two_forces(battle)
    by_side = forces(battle)
    now = state(battle)
    plans: dict[str, Plan] = {}
    fallback: dict[str, str] = {}
    for s in sides:
        chosen = now.plan(s)
        if chosen is None:
            chosen, fallback[s] = fallback_plan(battle, s, last_plans)
        plans[s] = chosen
    rounds = max(plan_rounds(battle, p) for p in plans.values())
    dropped = {uid for p in plans.values() for uid in p.dropped}
    start = {u.id: u.damage for s in sides for u in by_side[s]}
    capacity = {s: sum(u.capacity for u in by_side[s]) for s in sides}
    log: list[Round] = []
    collateral_count = 0
    known: dict[str, Priority] = {}
    for number in range(1, rounds + 1):
        battle.round = number
        entry = combat_round(battle, number, dropped, dice, outcome)
        # A round's priorities are logged where they differ from the last round's (only drops change them).
        changed = {uid: e for uid, e in entry.tpv.items() if known.get(uid) != e}
        known.update(changed)
        entry = replace(entry, tpv=changed, losses={s: _lost(by_side[s], start) for s in sides})
        log.append(entry)
        collateral_count += entry.collateral
        if any(not any(u.eligible for u in by_side[s]) for s in sides):  # A71: a side has nothing left
            break
    broken = {s: not any(u.eligible for u in by_side[s]) for s in sides}
    fallen = {u.id for s in sides for u in by_side[s] if u.state == DESTROYED}
    rally = rally_or_disintegrate(battle, dice, outcome)
    lost = {s: _lost(by_side[s], start) for s in sides}
    losses = {s: relative_loss(lost[s], capacity[s]) for s in sides}
    verdict = judge(battle, sides, losses, broken)
    escapes: list[EscapeRow] = []
    retreat: dict[str, int] = {}
    for s in sides:
        level = verdict.levels[s]
        retreat[s] = retreat_steps(battle, level)
        if level.endswith("defeat") and now.standing_of(s).last_ground:
            escapes += escape(battle, by_side[s], dice, outcome)
    recovery = reset_damage(battle)
    report = SurfaceReport(
        sides=list(sides), plans={s: plans[s] for s in sides}, fallback=fallback,
        defaulted=[s for s in sides if s in fallback], rounds_planned=rounds,
        rounds_fought=len(log), log=log, rally=rally, broken=broken,
        losses={s: str(losses[s]) for s in sides}, lost_points=lost,
        units=fates([u for s in sides for u in by_side[s]], fallen, rally, escapes),
        capacity=capacity, verdict=verdict, retreat=retreat, escape=escapes, recovery=recovery,
        collateral_count=collateral_count, collateral=collateral(battle, collateral_count, dice),
        draw=verdict.levels[sides[0]] == DRAW, turn=now.turn,
    )
    # First among the engagement's many effects, so a log entry shows the result before any single hit.
    outcome.effects.insert(0, Resolved(levels=dict(verdict.levels), rounds=len(log)))
    return report


def fates(units: list[Unit], fallen: set[str], rally: list[RallyRow], escapes: list[EscapeRow]) -> dict[str, Fate]:
    """Return each unit's name, side and fate: destroyed in the rounds, rallied, disintegrated, fled or fought on."""
    routed = {r.unit: r.result for r in rally if r.result != "recovers"}
    fled = {r.unit: r.result for r in escapes}
    out: dict[str, Fate] = {}
    for u in units:
        fate = "destroyed" if u.id in fallen else routed.get(u.id, "fought on")
        out[u.id] = Fate(name=u.name, side=u.side, routed=u.id in routed, fate=fled.get(u.id, fate))
    return out


def _lost(units: list[Unit], start: dict[str, int]) -> int:
    """Return the damage points a force lost this battle, destroyed units counting at full capacity."""
    return sum((u.capacity if u.state == DESTROYED else u.damage) - start[u.id] for u in units)
