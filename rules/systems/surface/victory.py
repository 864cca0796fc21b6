"""Winners and losers (002 step 5, A67, A71) and the territory the loser cedes (A68)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from rules.battle import Battle
from rules.ending import Verdict, last_side_standing
from rules.systems.surface.details import Verdict as Judged
from rules.systems.surface.state import SurfaceBattle, state

DECISIVE_VICTORY, MARGINAL_VICTORY, DRAW = "decisive victory", "marginal victory", "draw"
MARGINAL_DEFEAT, DECISIVE_DEFEAT = "marginal defeat", "decisive defeat"
MIRROR = {DECISIVE_VICTORY: DECISIVE_DEFEAT, MARGINAL_VICTORY: MARGINAL_DEFEAT, DRAW: DRAW,
          MARGINAL_DEFEAT: MARGINAL_VICTORY, DECISIVE_DEFEAT: DECISIVE_VICTORY}


def relative_loss(lost: int, capacity: int) -> Fraction:
    """Return damage points lost over the starting capacity of the force (A67)."""
    return Fraction(lost, capacity) if capacity else Fraction(0)


def _level(battle: SurfaceBattle, ratio: Fraction | None, shift: int) -> str | None:
    """Return the victory level a loss ratio earns, thresholds lowered by the leader shift, or None."""
    decisive = Fraction(max(100, int(battle.const("decisive_ratio_pct")) - shift), 100)
    marginal = Fraction(max(100, int(battle.const("marginal_ratio_pct")) - shift), 100)
    if ratio is None or ratio >= decisive:
        return DECISIVE_VICTORY
    if ratio >= marginal:
        return MARGINAL_VICTORY
    return None


def judge(battle: SurfaceBattle, sides: tuple[str, str], losses: dict[str, Fraction],
          broken: dict[str, bool]) -> Judged:
    """Judge the first side's result; a side all routed or eliminated loses big time, both at once is a draw."""
    a, b = sides
    if broken[a] or broken[b]:
        level = DRAW if broken[a] and broken[b] else DECISIVE_DEFEAT if broken[a] else DECISIVE_VICTORY
        return Judged(levels={a: level, b: MIRROR[level]}, reason="broken", ratio=None)
    step = int(battle.const("leader_shift_pct"))
    now = state(battle)
    edge = (now.standing_of(a).ability - now.standing_of(b).ability) * step
    ratio_a = None if losses[a] == 0 else losses[b] / losses[a]
    ratio_b = None if losses[b] == 0 else losses[a] / losses[b]
    if losses[a] == 0 and losses[b] == 0:
        level = DRAW
    else:
        won = _level(battle, ratio_a, edge)
        lost = _level(battle, ratio_b, -edge)
        level = won if won else MIRROR[lost] if lost else DRAW
    return Judged(levels={a: level, b: MIRROR[level]}, reason="losses",
                  ratio=None if ratio_a is None else str(ratio_a), leader_shift=edge)


def retreat_steps(battle: SurfaceBattle, level: str) -> int:
    """Return the territory steps a side with this result cedes (A68)."""
    if level == DECISIVE_DEFEAT:
        return int(battle.const("retreat_decisive"))
    if level == MARGINAL_DEFEAT:
        return int(battle.const("retreat_marginal"))
    return 0


def battle_over(battle: Battle[Any]) -> Verdict | None:
    """Return the verdict once a force has no unit left that fights (002 step 5), or None while both can fight.

    "If one side has all its units either routed or eliminated, it loses the battle (big time)": after the
    rally, a routed unit has rallied or disintegrated, and an escaped one has left the planet, so a force
    without an Active or Disrupted unit cannot fight another game turn. The last engagement's result is told.
    """
    verdict = last_side_standing(battle, lambda u: bool(getattr(u, "eligible", False)))
    if verdict is None:
        return None
    now = state(battle)
    levels = now.report.verdict.levels if now.resolved and now.report is not None else {}
    said = "; ".join(f"{side}: {level}" for side, level in levels.items())
    return replace(verdict, reason=f"{verdict.reason} Game turn {now.turn}: {said}." if said else verdict.reason)
