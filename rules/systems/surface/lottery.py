"""The target lottery (step 2B, A61): Target Priority Values and the draw among the eligible enemies."""

from __future__ import annotations

from rules.dice import Dice
from rules.errors import RulesetError
from rules.systems.surface.rounds import Lottery, Priority, PriorityLine
from rules.systems.surface.state import SurfaceBattle
from rules.systems.surface.units import Unit
from rules.systems.surface.unittypes import FLAGS

# The additive modifiers of 002 step 2B, each a GM-overridable constant (A61: they stack).
ADDITIVE = {
    "space_marine": "tpv_space_marine",
    "mobile_infantry": "tpv_mobile_infantry",
    "powered_armor": "tpv_powered_armor",
    "armor": "tpv_armor",
    "battleoid": "tpv_battleoid",
}


def extra_multipliers(text: str) -> dict[str, int]:
    """Parse the `tpv_multipliers` constant (`flag:mult,...`)."""
    out: dict[str, int] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        flag, _, mult = part.partition(":")
        if flag.strip() not in FLAGS or not mult.strip().isdigit() or int(mult) < 1:
            raise RulesetError(
                f"`tpv_multipliers` entry `{part}` should be `flag:multiplier` with a flag from "
                f"{', '.join(FLAGS)} and a whole number of 1 or more."
            )
        out[flag.strip()] = int(mult)
    return out


def target_priority(battle: SurfaceBattle, unit: Unit, dropped_now: bool) -> Priority:
    """Return a unit's Target Priority Value with its breakdown: (base + additions) x multipliers."""
    lines = [PriorityLine(source=f"base ({unit.category})", add=unit.tpv)]
    total = unit.tpv
    for flag, key in ADDITIVE.items():
        if unit.has(flag):
            value = int(battle.const(key))
            lines.append(PriorityLine(source=flag, add=value))
            total += value
    mults: list[PriorityLine] = []
    if dropped_now:
        mults.append(PriorityLine(source="dropped from a transport", times=int(battle.const("tpv_drop_multiplier"))))
    for flag, times in extra_multipliers(str(battle.const("tpv_multipliers"))).items():
        if unit.has(flag):
            mults.append(PriorityLine(source=flag, times=times))
    tpv = total
    for m in mults:
        tpv *= m.times or 1
    return Priority(tpv=tpv, lines=lines + mults)


def priorities(battle: SurfaceBattle, units: list[Unit], dropped_now: set[str]) -> dict[str, Priority]:
    """Return the Target Priority of each unit for one round, by unit id (it holds the whole round)."""
    return {u.id: target_priority(battle, u, u.id in dropped_now) for u in units}


def draw_target(shooter: Unit, targets: list[Unit], tpv: dict[str, Priority],
                dice: Dice) -> tuple[Unit, Lottery]:
    """Hold the lottery among the targets: each has its TPV in balls; one roll picks the ball.

    The round's priority table carries each unit's breakdown once, so a shot records only the balls in
    the drum and the roll, which the table lets a player check.
    """
    balls = sum(tpv[t.id].tpv for t in targets)
    if len(targets) == 1:  # one enemy left: every ball is its own, nothing to draw
        return targets[0], Lottery(balls=balls, roll=None)
    roll = dice.d(balls, f"target lottery for {shooter.name}")
    running = 0
    for target in targets:
        running += tpv[target.id].tpv
        if roll <= running:
            return target, Lottery(balls=balls, roll=roll)
    raise AssertionError("the lottery roll lies within the balls")  # pragma: no cover - roll <= balls
