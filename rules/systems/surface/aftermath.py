"""After the last round (002 steps 4, 5B and 6): rally or disintegrate, damage reset, escape, collateral."""

from __future__ import annotations

from fractions import Fraction

from rules.dice import Dice
from rules.errors import RulesetError
from rules.outcome import Outcome
from rules.systems.surface.details import EscapeRow, RallyRow, RecoveryRow
from rules.systems.surface.effects import Disappeared, Disintegrated, Escaped, Lost, Rallied
from rules.systems.surface.rolltests import EscapeTest, RallyTest
from rules.systems.surface.state import SurfaceBattle, state
from rules.systems.surface.units import ACTIVE, DESTROYED, DISRUPTED, ESCAPED, ROUTED, Unit


def rally_or_disintegrate(battle: SurfaceBattle, dice: Dice, outcome: Outcome) -> list[RallyRow]:
    """Recover every Disrupted unit; each Routed unit rallies on 1dN at or under Rally, else is destroyed (A66)."""
    rows: list[RallyRow] = []
    die = int(battle.const("rally_die"))
    for u in battle.iter_units():
        if u.state == DISRUPTED:
            u.state = ACTIVE
            rows.append(RallyRow(unit=u.id, result="recovers"))
        elif u.state == ROUTED:
            roll = dice.d(die, f"rally of {u.name}")
            rallied = roll <= u.rally
            u.state = ACTIVE if rallied else DESTROYED
            result = "rallies" if rallied else "disintegrates"
            outcome.tests.append(RallyTest(unit=u.id, die=die, roll=roll, rally=u.rally, result=result))
            outcome.add(Rallied(unit=u.name) if rallied else Disintegrated(unit=u.name))
            rows.append(RallyRow(unit=u.id, result=result, die=die, roll=roll, rally=u.rally))
    return rows


def reset_damage(battle: SurfaceBattle) -> list[RecoveryRow]:
    """Clear the damage of every survivor; a besieged side recovers only `besieged_recovery` points."""
    rows: list[RecoveryRow] = []
    per_point = int(battle.const("besieged_recovery"))
    now = state(battle)
    for u in battle.iter_units():
        if u.state == DESTROYED:
            continue
        chosen = now.plan(u.side)
        before = u.damage
        u.damage = max(0, u.damage - per_point) if chosen is not None and chosen.besieged else 0
        if before != u.damage:
            rows.append(RecoveryRow(unit=u.id, before=before, after=u.damage))
    return rows


def escape(battle: SurfaceBattle, units: list[Unit], dice: Dice, outcome: Outcome) -> list[EscapeRow]:
    """Flee off-world: irregulars vanish; each regular survives on d100 within the chance, halved if blockaded."""
    rows: list[EscapeRow] = []
    now = state(battle)
    for u in units:
        if u.state == DESTROYED:
            continue
        if not u.regular:
            u.state = DESTROYED
            rows.append(EscapeRow(unit=u.id, result="disappears"))
            outcome.add(Disappeared(unit=u.name))
            continue
        chance = Fraction(int(battle.const("escape_pct")), 100)
        if now.standing_of(u.side).blockaded:
            chance /= int(battle.const("escape_blockade_divisor"))
        needed = int(chance * 100)
        roll = dice.d100(f"escape of {u.name}")
        u.state = ESCAPED if roll <= needed else DESTROYED
        result = "escapes" if u.state == ESCAPED else "lost"
        outcome.tests.append(EscapeTest(unit=u.id, roll=roll, needed=needed, result=result))
        outcome.add(Escaped(unit=u.name) if u.state == ESCAPED else Lost(unit=u.name))
        rows.append(EscapeRow(unit=u.id, result=result, roll=roll, needed=needed))
    return rows


def categories(text: str) -> list[tuple[str, int]]:
    """Parse the `collateral_categories` constant (`name:weight,...`)."""
    out: list[tuple[str, int]] = []
    for part in (p.strip() for p in text.split(",") if p.strip()):
        name, _, weight = part.partition(":")
        if not name.strip() or not weight.strip().isdigit():
            raise RulesetError(f"`collateral_categories` entry `{part}` should be `name:weight`, like `Industry:2`.")
        out.append((name.strip(), int(weight)))
    if not out or sum(w for _, w in out) < 1:
        raise RulesetError("`collateral_categories` needs at least one category with a weight of 1 or more.")
    return out


def collateral(battle: SurfaceBattle, points: int, dice: Dice) -> dict[str, int]:
    """Assign each point of Collateral Damage by a lottery over the weighted categories (A70)."""
    table = categories(str(battle.const("collateral_categories")))
    total = sum(w for _, w in table)
    tally = {name: 0 for name, _ in table}
    for _ in range(points):
        roll = dice.d(total, "collateral lottery") if total > 1 else 1
        running = 0
        for name, weight in table:
            running += weight
            if roll <= running:
                tally[name] += 1
                break
    return tally
