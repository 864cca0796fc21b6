"""What entering a square does to a unit: minefields, Difficult Terrain tests and deep water."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.constants import const_or
from rules.systems.strategic.area import target_count
from rules.systems.strategic.battlefield import on_hit_square, resist_sinking
from rules.systems.strategic.combat import hit_location, roll_test, skill_breakdown, unit_breakdown
from rules.systems.strategic.damage import apply_damage
from rules.systems.strategic.effects import FeatureExpended, Fell, MineTriggered, Surfaced
from rules.systems.strategic.features import clear_feature, feature_at
from rules.systems.strategic.rolltests import DeepWaterTest, DifficultTerrainTest, MinefieldTest
from rules.systems.strategic.squares import square_at
from rules.systems.strategic.terrain import deep_water, effective_dtv
from rules.systems.strategic.units import Weapon

if TYPE_CHECKING:
    from rules.coords import Cell
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.systems.strategic.board import Battle
    from rules.systems.strategic.units import Unit

# A30: the save against a minefield is the better of these skills; Agility when the unit has neither.
MINE_SAVE_SKILLS = ("dodge", "acrobatics")


@dataclass(frozen=True, slots=True)
class FallRule:
    """What failing a Difficult Terrain test on a terrain does: from how many DoF, the damage, and prone or not."""

    dof: int
    damage: str
    prone: bool


def fall_rule(battle: Battle, terrain_key: str) -> FallRule | None:
    """Return the fall rule of a terrain, read from its constants `<terrain>_fall_dof/_damage/_prone`."""
    dof = const_or(battle, f"{terrain_key}_fall_dof", None)
    if dof is None:
        return None
    return FallRule(
        dof=int(dof), damage=str(const_or(battle, f"{terrain_key}_fall_damage", "1d5")),
        prone=bool(const_or(battle, f"{terrain_key}_fall_prone", False)),
    )


def in_play(battle: Battle, unit: Unit) -> bool:
    """Return whether the unit is still on the map and in the fight."""
    return battle.units.get(unit.id) is unit and unit.alive


def enter_square(battle: Battle, unit: Unit, cell: Cell, dice: Dice, outcome: Outcome) -> None:
    """Resolve a unit stepping onto a square: an enemy minefield goes off, then footing, then deep water."""
    trigger_minefield(battle, unit, cell, dice, outcome)
    if in_play(battle, unit):
        difficult_terrain_test(battle, unit, cell, dice, outcome)
    if in_play(battle, unit):
        sink_test(battle, unit, cell, dice, outcome)
    if in_play(battle, unit):
        surface(battle, unit, cell, outcome)


def difficult_terrain_test(battle: Battle, unit: Unit, cell: Cell, dice: Dice, outcome: Outcome) -> DifficultTerrainTest | None:
    """Make the Agility test for entering a difficult square (A38) and apply a fall (000:L68, 001:L60, A54)."""
    if unit.is_horde or not bool(const_or(battle, "dt_test_on_entry", True)):
        return None  # A38: Hordes pay MP instead
    dtv = effective_dtv(battle, unit, cell)
    if dtv < 1:
        return None
    bd = unit_breakdown(battle, unit, "ag", "Agility (AG)", unit.chars.get("ag", 0), cell, "A38")
    rolled = roll_test(battle, dice, bd, f"{unit.name}: Difficult Terrain test on {cell}")
    result = DifficultTerrainTest(*rolled.terms(), unit=unit.name, cell=str(cell), dtv=dtv)
    outcome.tests.append(result)
    terrain = battle.terrain_at(cell)
    rule = fall_rule(battle, terrain.key)
    if result.success or rule is None or unit.flying or result.degrees < rule.dof:
        return result
    outcome.add(Fell(unit=unit.name, cell=str(cell), terrain=terrain.key, degrees=result.degrees,
                   prone=rule.prone))
    if rule.prone and "prone" not in unit.statuses:
        unit.statuses.append("prone")
    location = hit_location(dice.d100(f"hit location of {unit.name}'s fall"))
    apply_damage(battle, unit, dice, outcome, notation=rule.damage, location=location, ignore_armour=True,
                 ignore_tb=True, source=f"fall on {terrain.name}")
    return result


def sink_test(battle: Battle, unit: Unit, cell: Cell, dice: Dice, outcome: Outcome) -> DeepWaterTest | None:
    """Test an Eva (Athletics) or a Superheavy (Pilot) entering deep water; failure sinks it (000:L74, A35)."""
    if not deep_water(battle, cell) or not unit.sinks_in_deep_water or unit.flying or unit.hovering:
        return None
    if "sunk" in unit.statuses:
        return None  # already under water: nothing new to resist
    return resist_sinking(battle, unit, cell, dice, outcome)


def surface(battle: Battle, unit: Unit, cell: Cell, outcome: Outcome) -> None:
    """Bring a sunk unit back up when it moves onto a square that is not deep water (A35: leaving)."""
    if "sunk" in unit.statuses and not deep_water(battle, cell):
        unit.statuses.remove("sunk")
        unit.altitude = max(0, unit.altitude)
        outcome.add(Surfaced(unit=unit.name, cell=str(cell)))


def trigger_minefield(battle: Battle, unit: Unit, cell: Cell, dice: Dice, outcome: Outcome) -> bool:
    """Set off an enemy minefield the unit enters; return whether it went off (000:L110, A30)."""
    ftype = feature_at(battle, cell)
    if ftype is None or not ftype.triggers:
        return False
    state = square_at(battle, cell)
    if (state.feature_side or "").lower() == unit.side.lower():
        return False  # A30.3: friendly units never trigger it
    if unit.flying and bool(const_or(battle, "minefield_ignores_flying", True)):
        return False
    left = (int(battle.const("minefield_triggers")) if state.mine_triggers is None else state.mine_triggers) - 1
    state.mine_triggers = left
    outcome.add(MineTriggered(unit=unit.name, cell=str(cell), feature=ftype.key, triggers_left=max(0, left)))
    outcome.highlight.mark(str(cell), "mine")
    hit = True
    if not unit.is_horde:  # Hordes are automatically affected
        known = [s for s in MINE_SAVE_SKILLS if s in unit.skills]
        stat = max(known, key=lambda s: unit.skills[s]) if known else "ag"
        rolled = roll_test(battle, dice, skill_breakdown(battle, unit, stat), f"{unit.name} dodges the mines on {cell}")
        result = MinefieldTest(*rolled.terms(), unit=unit.name, cell=str(cell), skill=stat)
        outcome.tests.append(result)
        hit = not result.success
    if hit:
        blast = int(battle.const("minefield_blast"))
        # A30.2: only the entering unit is hit; a Horde takes the Blast's unfilled slots as extra hits (A15.3).
        hits = target_count(battle, Weapon(name="Minefield", blast=blast)) if unit.is_horde and blast else 1
        for _ in range(hits):
            location = "body" if unit.is_horde else hit_location(dice.d100(f"hit location of the mine on {unit.name}"))
            apply_damage(
                battle, unit, dice, outcome, notation=str(battle.const("minefield_damage")),
                pen=int(battle.const("minefield_pen")), tearing=bool(battle.const("minefield_tearing")),
                area=blast > 0, location=location, dtype="X", qualities=(f"Blast({blast})",), source="minefield",
            )
            if not in_play(battle, unit):
                break
    # A30.5: a detonation is an Explosive attack landing on the square: forest fire, melting ice, water smoke.
    on_hit_square(battle, cell, "X", dice, outcome)
    if left <= 0:
        clear_feature(battle, cell)
        outcome.add(FeatureExpended(cell=str(cell), feature=ftype.key))
    return True
