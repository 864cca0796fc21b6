"""One Combat Round (002 steps 1 and 2): initiative (A59), morale (A60), the lottery and firing."""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice import Dice
from rules.outcome import Outcome
from rules.systems.surface.effects import Damage, Routed
from rules.systems.surface.fire import count_hits, deflections, take_damage
from rules.systems.surface.lottery import draw_target, priorities
from rules.systems.surface.rolltests import MoraleTest
from rules.systems.surface.rounds import Action, InitiativeRow, MoraleCheck, Priority, Round
from rules.systems.surface.state import SurfaceBattle
from rules.systems.surface.units import ACTIVE, DISRUPTED, ROUTED, Unit

RECOVERS, STAYS, ROUTS = "recovers", "stays disrupted", "routs"


@dataclass(slots=True)
class _Rolled:
    """A unit's initiative while ties are rolled off."""

    unit: str
    iv: int
    roll: int
    rolloff: int = 0

    @property
    def key(self) -> tuple[int, int, int]:
        """Return what orders the units: AIV, then IV, then the roll-off (higher first)."""
        return (self.iv + self.roll, self.iv, self.rolloff)


def initiative(battle: SurfaceBattle, units: list[Unit], dice: Dice) -> list[InitiativeRow]:
    """Roll AIV = IV + 1dN for each unit; highest first, ties to the higher IV, then a roll-off (A59)."""
    die = int(battle.const("initiative_die"))
    rows = [_Rolled(u.id, u.iv, dice.d(die, f"initiative of {u.name}")) for u in units]
    tied = _ties(rows)
    while tied:
        for r in tied:
            r.rolloff = dice.d(100, f"initiative roll-off of {battle.units[r.unit].name}")
        tied = _ties(rows)
    rows.sort(key=lambda r: r.key, reverse=True)
    return [InitiativeRow(unit=r.unit, iv=r.iv, roll=r.roll, rolloff=r.rolloff, aiv=r.iv + r.roll) for r in rows]


def _ties(rows: list[_Rolled]) -> list[_Rolled]:
    seen: dict[tuple[int, int, int], list[_Rolled]] = {}
    for r in rows:
        seen.setdefault(r.key, []).append(r)
    return [r for group in seen.values() if len(group) > 1 for r in group]


def morale_check(battle: SurfaceBattle, unit: Unit, dice: Dice, outcome: Outcome) -> MoraleTest:
    """Check a Disrupted unit's morale: at or under Morale recovers, within the band stays, else routs (A60)."""
    die = int(battle.const("morale_die"))
    roll = dice.d(die, f"morale of {unit.name}")
    band = int(battle.const("morale_stay_band"))
    result = RECOVERS if roll <= unit.morale else STAYS if roll <= unit.morale + band else ROUTS
    test = MoraleTest(unit=unit.id, die=die, roll=roll, morale=unit.morale, stay_band=band, result=result)
    outcome.tests.append(test)
    if result == RECOVERS:
        unit.state = ACTIVE
    elif result == ROUTS:
        unit.state = ROUTED
        outcome.add(Routed(unit=unit.name))
    return test


def combat_round(battle: SurfaceBattle, number: int, dropped: set[str], dice: Dice,
                 outcome: Outcome) -> Round:
    """Fight one round: every eligible unit acts in AIV order; return the round's log."""
    fighting = [u for u in battle.iter_units() if u.eligible]
    order = initiative(battle, fighting, dice)
    dropped_now = dropped if number == 1 else set()  # A61: x3 only in the first round of the drop
    tpv = priorities(battle, fighting, dropped_now)
    actions: list[Action] = []
    collateral = 0
    for row in order:
        unit = battle.units[row.unit]
        if not unit.eligible:  # A71: destroyed or routed before its turn, it loses the turn
            actions.append(Action(unit=unit.id, skipped=unit.state))
            continue
        status = unit.state
        morale: MoraleCheck | None = None
        if unit.state == DISRUPTED:  # A71: a unit hit earlier this round acts on its current status
            check = morale_check(battle, unit, dice, outcome)
            morale = MoraleCheck(die=check.die, roll=check.roll, morale=check.morale, stay_band=check.stay_band,
                                 result=check.result)
            if unit.state != ACTIVE:
                actions.append(Action(unit=unit.id, status=status, morale=morale))
                continue
        targets = [t for t in battle.iter_units() if t.eligible and battle.enemies(unit, t)]
        if not targets:
            actions.append(Action(unit=unit.id, status=status, morale=morale, no_target=True))
            continue
        actions.append(shoot(battle, unit, targets, tpv, dice, outcome, status=status, morale=morale))
        collateral += int(battle.const("collateral_per_shot"))
    return Round(round=number, initiative=order, tpv=tpv, actions=actions, collateral=collateral)


def shoot(battle: SurfaceBattle, unit: Unit, targets: list[Unit], tpv: dict[str, Priority], dice: Dice,
          outcome: Outcome, *, status: str, morale: MoraleCheck | None = None) -> Action:
    """Fire one shot: the lottery, the hits, each hit's deflection roll, then the damage."""
    target, lottery = draw_target(unit, targets, tpv, dice)
    hits = count_hits(battle, unit, target, dice)
    through = deflections(battle, unit, target, hits.hits, dice)
    damage = take_damage(battle, target, sum(1 for d in through if d.success))
    if damage.damage:
        outcome.add(Damage(unit=target.name, by=unit.name, points=damage.damage, total=damage.total,
                       state=damage.after))
    return Action(unit=unit.id, status=status, morale=morale, target=target.id, lottery=lottery, hits=hits,
                  through=through, result=damage)
