"""Attack arithmetic: to-hit breakdowns for ranged and melee attacks, reach, hit location and engagement."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.constants import const_or
from rules.coords import Cell, line_cells
from rules.errors import IllegalOrderError, InvalidOrderError
from rules.modifiers import Breakdown
from rules.rolltests import D100Test, Tally
from rules.systems.strategic.details import FireNotes, LineOfFire, PenalisedSquare
from rules.systems.strategic.ranges import Band, band_for, bands, max_range, weapon_range
from rules.systems.strategic.squares import state_at
from rules.systems.strategic.terrain import (
    add_dtv_line,
    elevation,
    feature_hit_penalty,
    hit_bonus,
    line_penalties,
)
from rules.systems.strategic.units import CHARACTERISTIC_NAMES, CHARACTERISTICS
from rules.visibility import hides_from

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.systems.strategic.board import Battle
    from rules.systems.strategic.units import Unit, Weapon

# Parent hit-location table on the reversed attack roll (A21).
LOCATION_TABLE = ((10, "head"), (20, "r_arm"), (30, "l_arm"), (70, "body"), (85, "r_leg"), (100, "l_leg"))
HEAD_AND_ARMS = ("head", "r_arm", "l_arm")
_LOCATION_WORDS = {
    "head": "head", "body": "body", "r_arm": "r_arm", "right_arm": "r_arm", "l_arm": "l_arm", "left_arm": "l_arm",
    "r_leg": "r_leg", "right_leg": "r_leg", "l_leg": "l_leg", "left_leg": "l_leg",
}
ELEVATION_RANK = {"low": 0, "middle": 1, "high": 2}
# Untrained skills test at half their characteristic in the parent system.
SKILL_CHARS = {"dodge": "ag", "stealth": "ag", "awareness": "per", "athletics": "s", "pilot": "ag",
               "acrobatics": "ag", "parry": "ws"}
MAX_ADJUST = 100


# --- tests --------------------------------------------------------------------


def degrees(battle: Battle, roll: int, target: int) -> tuple[bool, int]:
    """Return success and the degrees of success or failure of a d100 test (A08)."""
    success = roll <= target
    margin = (target - roll) if success else (roll - target)
    count = margin // 10
    if bool(battle.const("dof_plus_one")):
        count += 1
    return success, count


def run_test(battle: Battle, dice: Dice, bd: Breakdown, purpose: str) -> D100Test:
    """Roll d100 against a breakdown and return the structured result."""
    roll = dice.d100(purpose)
    success, count = degrees(battle, roll, bd.target)
    return D100Test(purpose=purpose, breakdown=Tally.of(bd), roll=roll, target=bd.target, success=success,
                    degrees=count)


def roll_test(battle: Battle, dice: Dice, bd: Breakdown, purpose: str) -> D100Test:
    """Roll d100 against a breakdown, with the same result structure as every other test."""
    return run_test(battle, dice, bd, purpose)


def _condition_modifiers(bd: Breakdown, unit: Unit, stat: str) -> None:
    """Add the lines that a unit's conditions put on a test of this characteristic."""
    char = SKILL_CHARS.get(stat, stat)  # a skill carries its characteristic's penalties (Dodge is Agility)
    if char in ("ws", "ag") and "bakelite" in unit.statuses:
        bd.add("Bakelite Trap", -abs(int(unit.status_rounds.get("bakelite", 0))), "000:L107")


def unit_breakdown(battle: Battle, unit: Unit, key: str, label: str, base: int, cell: Cell | None = None,
                   dtv_source: str = "DTV") -> Breakdown:
    """Start a unit's test: its base, the DTV penalty and its conditions, the one place each is added."""
    bd = Breakdown(label, base, cap=int(battle.const("modifier_cap")))
    add_dtv_line(battle, bd, unit, key, cell, dtv_source)
    _condition_modifiers(bd, unit, key)
    return bd


def skill_breakdown(battle: Battle, unit: Unit, stat: str, modifier: int = 0, reason: str = "",
                    untrained: bool = True) -> Breakdown:
    """Build a test of a characteristic or skill (untrained skills at half their characteristic, if allowed)."""
    key = stat.strip().lower()
    if key in CHARACTERISTICS:
        base, label = unit.chars.get(key, 0), f"{CHARACTERISTIC_NAMES[key]} ({key.upper()})"
    elif key in unit.skills:
        base, label = unit.skills[key], key.title()
    elif untrained and key in SKILL_CHARS:
        char = SKILL_CHARS[key]
        base, label = unit.chars.get(char, 0) // 2, f"{key.title()} (untrained: half {char.upper()})"
    else:
        known = ", ".join([c.upper() for c in CHARACTERISTICS] + sorted(unit.skills))
        raise InvalidOrderError(f"{unit.name} has no characteristic or skill `{stat}`. It has: {known}.")
    bd = unit_breakdown(battle, unit, key, label, base)
    bd.add(reason or "Modifier", modifier, "order")
    return bd


def check_adjust(value: int) -> int:
    """Refuse a GM adjustment beyond what a test can carry."""
    if abs(value) > MAX_ADJUST:
        raise InvalidOrderError(f"An adjustment must be between -{MAX_ADJUST} and +{MAX_ADJUST}, not {value}.")
    return value


def can_act(unit: Unit) -> None:
    """Refuse an action by a destroyed or stunned unit."""
    if not unit.alive:
        what = "magnitude" if unit.is_horde else "wounds"
        raise IllegalOrderError(f"{unit.name} is destroyed (0 {what}) and cannot act.")
    if "stunned" in unit.statuses:
        raise IllegalOrderError(f"{unit.name} is stunned and cannot act until the stun wears off.")


def out_of_sight(battle: Battle, target: Unit, looker: Unit) -> bool:
    """Return whether a target is hidden from an enemy that would pick it (hidden_blocks_targeting)."""
    return hides_from(battle, target, looker) and bool(const_or(battle, "hidden_blocks_targeting", True))


def require_in_sight(battle: Battle, target: Unit, looker: Unit) -> None:
    """Refuse to let a unit pick a hidden enemy as its target; the refusal names no square."""
    if out_of_sight(battle, target, looker):
        raise IllegalOrderError(f"{target.name} is hidden: {looker.name} cannot pick it as a target until it "
                                "attacks and shows itself. An area attack on its square would still hit it.")


# --- hit location ---------------------------------------------------------------


def reverse_roll(roll: int) -> int:
    """Return a d100 roll with its digits swapped (37 -> 73, 10 -> 01, 100 stays 100)."""
    swapped = int(f"{roll % 100:02d}"[::-1])
    return swapped or 100


def hit_location(roll: int) -> str:
    """Return the location a hit strikes, read from the reversed attack roll (A21)."""
    value = reverse_roll(roll)
    return next(loc for top, loc in LOCATION_TABLE if value <= top)


def parse_location(text: str) -> str:
    """Read a called-shot location such as `head` or `left arm`."""
    key = "_".join(text.strip().lower().replace("-", " ").split())
    if key not in _LOCATION_WORDS:
        raise InvalidOrderError(f"`{text}` is not a hit location; call head, body, r_arm, l_arm, r_leg or l_leg.")
    return _LOCATION_WORDS[key]


# --- what a square gives to attacks against it --------------------------------------


def elevation_mod(battle: Battle, src: Cell, shooter: Unit | None, dst: Cell, target: Unit | None) -> int:
    """Return the Higher Ground modifier between two ground units: +10 higher, -10 lower (A19)."""
    if (shooter is not None and shooter.flying) or (target is not None and target.flying):
        return 0  # flyers use altitude instead (A19, A43)
    mine = ELEVATION_RANK[elevation(battle, shooter, src) or "middle"]
    theirs = ELEVATION_RANK[elevation(battle, target, dst) or "middle"]
    step = int(const_or(battle, "elevation_mod", 0))
    return step if mine > theirs else -step if mine < theirs else 0


def _altitude_ignored(shooter: Unit | None, target: Unit | None) -> int:
    mine = max(0, shooter.altitude) if shooter else 0
    theirs = max(0, target.altitude) if target else 0
    if not theirs:
        return mine
    if not mine:
        return theirs
    return abs(mine - theirs)


def line_of_fire(battle: Battle, src: Cell, dst: Cell, shooter: Unit | None, target: Unit | None,
                 indirect: bool) -> LineOfFire:
    """Sum the Hit Penalties and smoke along the line of fire (A20, A37): shooter out, target in."""
    squares = line_cells(src, dst)[1:] or [dst]  # a target on the shooter's own square still stands on it
    found: list[PenalisedSquare] = []
    if not indirect:
        for cell in squares:
            terrain, smoke = line_penalties(battle, cell)
            if terrain or smoke:
                found.append(PenalisedSquare(cell=str(cell), terrain=terrain, smoke=smoke))
    drop = _altitude_ignored(shooter, target) if const_or(battle, "altitude_ignores_penalties", False) else 0
    # Altitude sees over the worst squares first; ties keep the nearer square ignored.
    ranked = sorted(found, key=lambda s: s.terrain + s.smoke)
    ignored = ranked[:drop]
    kept = [s for s in found if s not in ignored]
    return LineOfFire(
        cells=[str(c) for c in squares], penalised=found, ignored=[s.cell for s in ignored], altitude=drop,
        terrain=sum(s.terrain for s in kept), smoke=sum(s.smoke for s in kept),
        smoke_squares=sum(1 for s in kept if s.smoke), indirect=indirect,
    )


def storm_on_line(battle: Battle, src: Cell, dst: Cell) -> bool:
    """Return whether a shot starts, ends or travels through a storm square (A53)."""
    return any(state_at(battle, c).storm for c in line_cells(src, dst))


# --- breakdowns -------------------------------------------------------------------


def ranged_breakdown(battle: Battle, shooter: Unit | None, src: Cell, dst: Cell, target: Unit | None,
                     weapon: Weapon, band: Band | None, adjust: int = 0, called: str = "",
                     object_target: bool = False) -> tuple[Breakdown, FireNotes]:
    """Build the BS test of a ranged attack and the details of its line of fire."""
    base = shooter.chars.get("bs", 0) if shooter else 0
    bd = Breakdown("Ballistic Skill (BS)", base, cap=int(battle.const("modifier_cap")))
    if band is not None:
        bd.add(f"Range: {band.name}", band.mod, "A04")
    if shooter is not None:
        bd.add("Aim", shooter.aim, "Aim action")
    los = line_of_fire(battle, src, dst, shooter, target, weapon.indirect)
    bd.add("Hit Penalty along the line of fire", los.terrain, "A20")
    n = los.smoke_squares
    bd.add(f"Smoke on the line ({n} square{'' if n == 1 else 's'})", los.smoke, "A37")
    storm = storm_on_line(battle, src, dst)
    negated = storm and shooter is not None and shooter.anti_fog
    if storm and not negated:
        bd.add("Storm", int(const_or(battle, "storm_bs_penalty", 0)), "A53")
    if not object_target:
        bd.add("Hit Bonus of the target's square", hit_bonus(battle, dst, target), "000:L46")
        bd.add("Feature Hit Penalty", feature_hit_penalty(battle, dst, target), "A24")
    bd.add("Elevation", elevation_mod(battle, src, shooter, dst, target), "A19")
    if called:
        bd.add(f"Called shot ({parse_location(called)})", int(battle.const("called_shot_penalty")), "parent")
    bd.add("GM adjustment", check_adjust(adjust), "GM")
    return bd, FireNotes(line_of_fire=los, storm=storm, storm_negated=negated)


def melee_breakdown(battle: Battle, attacker: Unit, target: Unit, adjust: int = 0, called: str = "") -> Breakdown:
    """Build the WS test of a melee attack (DTV, Hit Bonus, elevation, aim, defence)."""
    bd = unit_breakdown(battle, attacker, "ws", "Weapon Skill (WS)", attacker.chars.get("ws", 0))
    bd.add("Aim", attacker.aim, "Aim action")
    bd.add("Hit Bonus of the target's square", hit_bonus(battle, target.cell, target), "000:L46")
    bd.add("Elevation", elevation_mod(battle, attacker.cell, attacker, target.cell, target), "A19")
    if "defending" in target.statuses:
        bd.add(f"{target.name} is defending", int(battle.const("defend_melee_penalty")), "parent")
    if called:
        bd.add(f"Called shot ({parse_location(called)})", int(battle.const("called_shot_penalty")), "parent")
    bd.add("GM adjustment", check_adjust(adjust), "GM")
    return bd


# --- melee reach and engagement ---------------------------------------------------


def melee_distance(a: Unit, b: Unit) -> int:
    """Return the distance between two units in squares, counting altitude as height."""
    return max(a.cell.distance(b.cell), abs(a.altitude - b.altitude))


def melee_reach(battle: Battle, weapon: Weapon | None, target: Unit | None) -> int:
    """Return how many squares a melee attack reaches on this scale (000:L16, A14; 001:L24, A58)."""
    reach = int(battle.const("melee_reach"))
    if reach > 0 and weapon is not None:
        reach = max(reach, weapon.reach)  # P-Scale: some weapons reach farther (A14)
    if target is not None and target.is_horde:
        reach = max(reach, int(battle.const("melee_reach_vs_horde")))
    return reach


def in_reach(battle: Battle, a: Unit, b: Unit, weapon: Weapon | None = None) -> bool:
    """Return whether a can strike b in melee (either way round for Hordes)."""
    return in_reach_from(battle, a, a.cell, b, weapon)


def in_reach_from(battle: Battle, a: Unit, cell: Cell, b: Unit, weapon: Weapon | None = None) -> bool:
    """Return whether a, standing on `cell`, could strike b in melee (a charge's end square, say)."""
    distance = max(cell.distance(b.cell), abs(a.altitude - b.altitude))
    return distance <= max(melee_reach(battle, weapon, b), melee_reach(battle, None, a))


def engage(a: Unit, b: Unit) -> None:
    """Mark two units as engaged in melee with each other (A58)."""
    if b.id not in a.engaged:
        a.engaged.append(b.id)
    if a.id not in b.engaged:
        b.engaged.append(a.id)


def clear_engagement(battle: Battle, unit: Unit) -> list[str]:
    """End every melee engagement of a unit (it left its square or was destroyed); return the partners' names."""
    partners = []
    for uid in unit.engaged:
        other = battle.units.get(uid)
        if other is not None and unit.id in other.engaged:
            other.engaged.remove(unit.id)
        partners.append(other.name if other is not None else uid)
    unit.engaged.clear()
    return partners


def prune_engagement(battle: Battle, unit: Unit) -> list[str]:
    """End the engagements of a unit whose partners are gone or out of melee reach; return their names."""
    dropped = []
    for uid in list(unit.engaged):
        other = battle.units.get(uid)
        if other is None or not in_reach(battle, unit, other):
            unit.engaged.remove(uid)
            if other is not None and unit.id in other.engaged:
                other.engaged.remove(unit.id)
            dropped.append(other.name if other is not None else uid)
    return dropped


# --- preview ------------------------------------------------------------------------


def preview_modifiers(battle: Battle, shooter: Unit | None, src: Cell, dst: Cell, target: Unit | None,
                      weapon: Weapon, band: Band | None) -> dict[str, Any]:
    """Return the modifiers of an attack that need no dice, for a range preview."""
    if weapon.melee:
        reach = melee_reach(battle, weapon, target)
        out: dict[str, Any] = {"reach": reach, "in_reach": src.distance(dst) <= reach}
        if shooter is not None and target is not None:
            out["breakdown"] = melee_breakdown(battle, shooter, target).to_dict()
        return out
    bd, fire = ranged_breakdown(battle, shooter, src, dst, target, weapon, band)
    return {"breakdown": bd.to_dict(), **fire.to_dict()}


def range_preview(battle: Battle, src: Cell | Unit, dst: Cell, weapon: Weapon, target: Unit | None = None) -> dict[str, Any]:
    """Return distance, R, band and every to-hit modifier that needs no dice, for the /range command."""
    shooter = None if isinstance(src, Cell) else src
    origin = src if isinstance(src, Cell) else src.cell
    battle.check_cell(origin)
    battle.check_cell(dst)
    distance = origin.distance(dst)
    r = weapon_range(battle, weapon)
    table = bands(battle, r)
    band = band_for(battle, r, distance)
    if target is None:
        here = battle.units_at(dst)
        foes = [u for u in here if shooter is None or battle.enemies(shooter, u)]
        target = next(iter(foes or here), None)
    out: dict[str, Any] = {
        "from": str(origin), "to": str(dst), "distance": distance, "weapon": weapon.name,
        "range": weapon.range, "range_unit": weapon.range_unit, "R": r, "square_unit": battle.ruleset.square_unit,
        "melee": weapon.melee, "bands": [b.to_dict() for b in table], "max_range": max_range(battle, r),
        "band": band.to_dict() if band else None, "in_range": band is not None,
        "target": target.name if target else None,
    }
    out.update(preview_modifiers(battle, shooter, origin, dst, target, weapon, band))
    if weapon.melee:
        out.update(band=None, in_range=out["in_reach"])  # melee has reach, not range bands
    return out
