"""The living battlefield: storms, forest fires, smoke, melting ice and destructible bridges."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.constants import const_or
from rules.coords import Cell
from rules.systems.strategic.combat import roll_test, skill_breakdown
from rules.systems.strategic.damage import apply_damage, apply_magdam, roll_damage
from rules.systems.strategic.details import BridgeHit
from rules.systems.strategic.effects import (
    BridgeDamaged,
    BridgeDestroyed,
    BurntOut,
    CaughtFire,
    Chance,
    Frozen,
    FrozenIn,
    IceMelted,
    Ignited,
    Plunged,
    Smoke,
    SmokeCleared,
    StatusEnded,
    StormsMoved,
    Stunned,
    Sunk,
    TrapRevealed,
    TrapSprung,
)
from rules.systems.strategic.featuretable import features_of
from rules.systems.strategic.rolltests import DeepWaterTest
from rules.systems.strategic.squares import square_at, state_at
from rules.systems.strategic.units import SINKING_CLASSES

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.modifiers import Breakdown
    from rules.outcome import Outcome
    from rules.systems.strategic.board import Battle
    from rules.systems.strategic.units import Unit

# A52: d8 scatter, 1 = North (towards row 1), clockwise.
DIRECTIONS = {1: ("N", 0, -1), 2: ("NE", 1, -1), 3: ("E", 1, 0), 4: ("SE", 1, 1),
              5: ("S", 0, 1), 6: ("SW", -1, 1), 7: ("W", -1, 0), 8: ("NW", -1, -1)}
# Statuses whose number is not a count of rounds (the Bakelite number is the WS/Ag penalty).
UNTIMED = ("bakelite",)
ICE = "ice"
FREEZING = "freezing"  # the weapon quality that turns the water it lands on to ice (A34)
SUNK_ALTITUDE = -1  # A35: a sunk unit is one square below the surface
HEAT_TYPES = ("E", "X")  # Energy or Explosive melt ice and raise smoke (000:L64, L70)


def _mark(outcome: Outcome, cell: Cell, text: str) -> None:
    outcome.highlight.mark(str(cell), text)




def add_status(unit: Unit, status: str, rounds: int | None = None) -> None:
    """Give a unit a status, timed in rounds when `rounds` is given."""
    if status not in unit.statuses:
        unit.statuses.append(status)
    if rounds is not None:
        unit.status_rounds[status] = rounds


def remove_status(unit: Unit, status: str) -> None:
    """Take a status (and its timer) off a unit."""
    if status in unit.statuses:
        unit.statuses.remove(status)
    unit.status_rounds.pop(status, None)


# --- the start of a round (A06) ----------------------------------------------------------


def begin_round(battle: Battle, dice: Dice, outcome: Outcome) -> None:
    """Resolve the map-wide effects at the start of a round: storms, fire, smoke, then timed conditions."""
    move_storms(battle, dice, outcome)
    spread_fire(battle, dice, outcome)
    expire_smoke(battle, outcome)
    count_down_statuses(battle, outcome)
    burn_units(battle, dice, outcome)


def move_storms(battle: Battle, dice: Dice, outcome: Outcome) -> None:
    """Move every storm by one shared d8 direction and 1d5 squares; off-map squares vanish (A52)."""
    storms = battle.squares_with("storm")
    if not storms or not const_or(battle, "storm_moves", False):
        return
    name, dx, dy = DIRECTIONS[dice.d(8, "storm direction")]
    distance = dice.d(5, "storm distance")
    moved = sorted({Cell(c.x + dx * distance, c.y + dy * distance) for c in storms})
    kept = [c for c in moved if battle.on_map(c)]
    for cell in storms:
        battle.clear_square(cell, "storm")
    for cell in kept:
        # A storm over a burning square leaves it burning: a Storm square can burn (A36 as revised).
        square_at(battle, cell).storm = True
    outcome.add(StormsMoved(direction=name, distance=distance, before=[str(c) for c in storms],
                   after=[str(c) for c in kept], dropped=len(moved) - len(kept)))
    outcome.highlight.add_cells(str(c) for c in kept)


def can_burn(battle: Battle, cell: Cell) -> bool:
    """Return whether a square could catch fire now: unburnt Forest, not burning, not under rain (A36).

    A Storm square can burn: its units test to resist catching fire with the Storm's bonus (001:L62).
    """
    if not battle.on_map(cell):
        return False
    state = state_at(battle, cell)
    return battle.terrain_at(cell).flammable and not state.fire and not state.burnt and not state.rain


def fire_trap_held(battle: Battle, cell: Cell) -> bool:
    """Return whether rain or a storm on a square keeps its Fire Trap from going off (000:L109)."""
    state = state_at(battle, cell)
    return bool(state.storm or state.rain)


def spread_fire(battle: Battle, dice: Dice, outcome: Outcome) -> None:
    """Spread every fire to the adjacent Forest, then burn the old fires down a round (A36)."""
    burning = battle.squares_with("fire")
    for cell in burning:
        for near in cell.neighbours():
            if can_burn(battle, near):
                ignite(battle, near, dice, outcome, cause=f"spread from {cell}")
    for cell in burning:
        state = square_at(battle, cell)
        left = state.fire - 1
        if left > 0:
            state.fire = left
            continue
        state.fire = 0
        state.burnt = True
        outcome.add(BurntOut(cell=str(cell)))


def expire_smoke(battle: Battle, outcome: Outcome) -> None:
    """Thin every smoke cloud by a round, clearing the spent ones."""
    for cell in battle.squares_with("smoke"):
        left = square_at(battle, cell).smoke - 1
        if left > 0:
            square_at(battle, cell).smoke = left
        else:
            battle.clear_square(cell, "smoke")
            outcome.add(SmokeCleared(cell=str(cell)))


def count_down_statuses(battle: Battle, outcome: Outcome) -> None:
    """Count timed statuses down; a status with no rounds left ends now."""
    for unit in battle.iter_units():
        for status, left in sorted(unit.status_rounds.items()):
            if status in UNTIMED:
                continue
            if left <= 0:
                remove_status(unit, status)
                outcome.add(StatusEnded(unit=unit.name, status=status))
            else:
                unit.status_rounds[status] = left - 1


def burn_units(battle: Battle, dice: Dice, outcome: Outcome) -> None:
    """Burn every unit that is on fire (parent On Fire: damage that ignores armour, A36)."""
    for unit in list(battle.iter_units()):
        if "on_fire" in unit.statuses:
            apply_damage(battle, unit, dice, outcome, notation=str(battle.const("on_fire_damage")), dtype="E",
                         ignore_armour=True, source="on fire")


# --- fire --------------------------------------------------------------------------------


def resist_fire_line(battle: Battle, bd: Breakdown, unit: Unit) -> None:
    """Add the Storm's bonus to a test to resist catching or keeping fire (001:L62, A53)."""
    if state_at(battle, unit.cell).storm:
        bd.add("Storm", int(const_or(battle, "storm_fire_resist", 0)), "A53")


def ignite(battle: Battle, cell: Cell, dice: Dice, outcome: Outcome, *, test_mod: int | None = None,
           cause: str = "") -> None:
    """Set a square ablaze for 1d3 rounds; the units on it test Agility or catch fire (A36)."""
    rounds = dice.d(int(battle.const("fire_rounds_die")), f"fire duration on {cell}")
    square_at(battle, cell).fire = rounds
    outcome.add(Ignited(cell=str(cell), rounds=rounds, cause=cause))
    _mark(outcome, cell, "fire")
    trap = state_at(battle, cell).feature == "fire_trap" and not fire_trap_held(battle, cell)
    if test_mod is None:
        # A29: a Fire Trap square that catches fire by any means sets the trap off, with its harder test.
        test_mod = int(const_or(battle, "fire_trap_test_mod", 0) if trap else battle.const("fire_catch_test_mod"))
    mod = test_mod
    for unit in battle.units_at(cell):
        if unit.flying or "on_fire" in unit.statuses:
            continue
        bd = skill_breakdown(battle, unit, "ag", mod, "Catching fire")
        resist_fire_line(battle, bd, unit)
        result = roll_test(battle, dice, bd, f"{unit.name} avoids catching fire")
        outcome.tests.append(result)
        if not result.success:
            add_status(unit, "on_fire")
            outcome.add(CaughtFire(unit=unit.name, cell=str(cell)))
    if trap:
        spring_fire_trap(battle, cell, dice, outcome, cause="premature")


def spring_fire_trap(battle: Battle, cell: Cell, dice: Dice, outcome: Outcome, cause: str) -> None:
    """Set off a Fire Trap: its square and every adjacent Forest burn; those caught test Agility -20."""
    battle.clear_square(cell, "feature", "feature_side", "feature_ap", "revealed")
    outcome.add(TrapSprung(feature="fire_trap", cell=str(cell), cause=cause))
    mod = int(battle.const("fire_trap_test_mod"))
    if not state_at(battle, cell).fire and can_burn(battle, cell):
        ignite(battle, cell, dice, outcome, test_mod=mod, cause="Fire Trap")
    for near in cell.neighbours():
        if can_burn(battle, near):
            ignite(battle, near, dice, outcome, test_mod=mod, cause="Fire Trap")


# --- what a hit does to the square it lands on ---------------------------------------------------


def _chance(battle: Battle, dice: Dice, outcome: Outcome, key: str, purpose: str, cell: Cell) -> bool:
    chance = int(const_or(battle, key, 0))
    if chance <= 0:
        return False
    roll = dice.d100(purpose)  # A07: the event happens on d100 <= chance
    outcome.add(Chance(what=purpose, cell=str(cell), chance=chance, roll=roll, happened=roll <= chance))
    return roll <= chance


def freezing(qualities: tuple[str, ...] | list[str]) -> bool:
    """Return whether a weapon's qualities include Freezing."""
    return any(q.strip().lower().startswith(FREEZING) for q in qualities)


def freeze(battle: Battle, cell: Cell, outcome: Outcome, cause: str) -> bool:
    """Turn a Water square to Ice; every unit standing in it is immobilised until it breaks free (000:L74, A34)."""
    terrain = battle.terrain_at(cell)
    if not terrain.water or ICE not in battle.ruleset.terrain:
        return False
    square_at(battle, cell).underlying = terrain.key  # A33: the ice melts back into this water
    battle.set_terrain(cell, ICE)
    battle.map_version += 1
    outcome.add(Frozen(cell=str(cell), cause=cause))
    _mark(outcome, cell, "ice")
    for unit in battle.units_at(cell):
        if unit.flying or unit.hovering:
            continue  # A34: only the units standing in the water are caught
        add_status(unit, "immobilised")
        outcome.add(FrozenIn(unit=unit.name, cell=str(cell)))
    return True


def on_hit_square(battle: Battle, cell: Cell, dtype: str, dice: Dice, outcome: Outcome,
                  qualities: tuple[str, ...] = ()) -> None:
    """Roll what a hit of this damage type does to the square it lands on: fire, melt, smoke, ice (1.8, 2.6)."""
    if freezing(qualities) and freeze(battle, cell, outcome, cause="freezing hit"):
        return
    terrain = battle.terrain_at(cell)
    fire_types = ("E", "X") if battle.const("fire_on_explosive") else ("E",)  # A55: E-Scale burns on Energy only
    if dtype in fire_types and can_burn(battle, cell):
        if _chance(battle, dice, outcome, "fire_chance", f"forest fire on {cell}", cell):
            ignite(battle, cell, dice, outcome, cause="hit")
    if dtype not in HEAT_TYPES:
        return
    if terrain.key == "ice":
        if _chance(battle, dice, outcome, "ice_melt_chance", f"ice melting on {cell}", cell):
            melt_ice(battle, cell, dice, outcome)
    elif terrain.key == "shallows" or terrain.water:
        if _chance(battle, dice, outcome, "water_smoke_chance", f"smoke on {cell}", cell):
            state = square_at(battle, cell)
            state.smoke = max(state.smoke, int(const_or(battle, "water_smoke_rounds", 1)))
            outcome.add(Smoke(cell=str(cell), rounds=state.smoke))
            _mark(outcome, cell, "smoke")


def _revert(battle: Battle, cell: Cell) -> str:
    key = state_at(battle, cell).underlying or "water"
    if key not in battle.ruleset.terrain:
        key = "water"
    battle.set_terrain(cell, key)
    battle.map_version += 1
    battle.clear_square(cell, "underlying")
    return key


def melt_ice(battle: Battle, cell: Cell, dice: Dice, outcome: Outcome) -> None:
    """Turn Ice into the water under it; the units on it plunge (000:L64, A33, A34)."""
    new = _revert(battle, cell)
    outcome.add(IceMelted(cell=str(cell), terrain=new))
    _mark(outcome, cell, "ice melted")
    for unit in battle.units_at(cell):
        remove_status(unit, "immobilised")  # A34: frozen-in units go free when the ice melts
        plunge(battle, unit, cell, dice, outcome)


def plunge(battle: Battle, unit: Unit, cell: Cell, dice: Dice, outcome: Outcome) -> None:
    """Drop a unit into the water: a Horde takes 1d5 magdam per Squad and tests Toughness (A31, A40)."""
    if unit.flying or unit.hoverer:
        return
    outcome.add(Plunged(unit=unit.name, cell=str(cell)))
    if unit.is_horde:
        die = int(const_or(battle, "plunge_magdam_die", 5))
        magdam = sum(dice.d(die, f"magdam to {unit.name}") for _ in range(max(1, unit.squads)))
        if apply_magdam(battle, unit, magdam, outcome, source="plunge")["destroyed"]:
            return
        result = roll_test(battle, dice, skill_breakdown(battle, unit, "t"), f"{unit.name} resists the plunge")
        outcome.tests.append(result)
        if not result.success:
            add_status(unit, "stunned", int(const_or(battle, "plunge_stun_rounds", 1)))
            outcome.add(Stunned(unit=unit.name, rounds=unit.status_rounds["stunned"]))
    elif unit.sinks_in_deep_water and state_at(battle, cell).deep:
        resist_sinking(battle, unit, cell, dice, outcome)


def resist_sinking(battle: Battle, unit: Unit, cell: Cell, dice: Dice, outcome: Outcome) -> DeepWaterTest:
    """Test an Eva (Athletics) or a Superheavy (Pilot) against sinking in deep water; failure sinks it (A35)."""
    default = SINKING_CLASSES[unit.unit_class]
    skill = str(const_or(battle, f"{unit.unit_class}_sink_skill", default))
    bd = skill_breakdown(battle, unit, skill, int(const_or(battle, "deep_water_test_mod", 0)), "Deep water")
    rolled = roll_test(battle, dice, bd, f"{unit.name} keeps afloat on {cell}")
    result = DeepWaterTest(*rolled.terms(), unit=unit.name, cell=str(cell), skill=skill)
    outcome.tests.append(result)
    if not result.success:
        unit.altitude = SUNK_ALTITUDE
        add_status(unit, "sunk")
        outcome.add(Sunk(unit=unit.name, cell=str(cell), altitude=unit.altitude))
    return result


# --- bridges ---------------------------------------------------------------------------------


def bridge_at(battle: Battle, cell: Cell) -> dict[str, Any] | None:
    """Return the kind, TB, AP and Wounds of the bridge on a square, if one stands there (000:L60, L111)."""
    state = state_at(battle, cell)
    ftype = features_of(battle.ruleset).get(state.feature or "")
    if ftype is not None and ftype.bridge:
        prefix, kind = "temp_bridge", "temporary"
    elif battle.terrain_at(cell).key == "bridge":
        prefix, kind = "bridge", "bridge"
    else:
        return None
    wounds = int(battle.const(f"{prefix}_wounds"))
    return {"kind": kind, "tb": int(battle.const(f"{prefix}_tb")), "ap": int(battle.const(f"{prefix}_ap")),
            "wounds": wounds, "lost": state.bridge_wounds or 0}


def damage_bridge(battle: Battle, cell: Cell, dice: Dice, outcome: Outcome, *, notation: str, pen: int = 0,
                  tearing: bool = False) -> BridgeHit:
    """Damage a bridge as an object (A32); at its Wounds it falls and the units on it plunge (A31)."""
    bridge = bridge_at(battle, cell)
    if bridge is None:
        raise ValueError(f"no bridge on {cell}")
    rolled = roll_damage(dice, notation, tearing, f"damage to the bridge on {cell}")
    armour = max(0, bridge["ap"] - pen)
    lost = max(0, rolled.total - armour - bridge["tb"])
    total = bridge["lost"] + lost
    square_at(battle, cell).bridge_wounds = total
    hit = BridgeDamaged(cell=str(cell), bridge=bridge["kind"], damage=rolled.total, armour=armour, tb=bridge["tb"],
                        wounds_lost=lost, total_lost=total, wounds=bridge["wounds"], destroyed=total >= bridge["wounds"])
    outcome.add(hit)
    result = BridgeHit(hit=hit, roll=rolled)
    if hit.destroyed:
        if bridge["kind"] == "temporary":
            battle.clear_square(cell, "feature", "feature_side", "feature_ap", "revealed", "bridge_wounds")
            terrain = battle.terrain_at(cell).key
        else:
            battle.clear_square(cell, "bridge_wounds")
            terrain = _revert(battle, cell)
        outcome.add(BridgeDestroyed(cell=str(cell), bridge=bridge["kind"], terrain=terrain))
        _mark(outcome, cell, "bridge down")
        for unit in battle.units_at(cell):
            plunge(battle, unit, cell, dice, outcome)
    return result


# --- traps -------------------------------------------------------------------------------------


def search_for_traps(battle: Battle, unit: Unit, dice: Dice, outcome: Outcome) -> list[str]:
    """Test Awareness once against the hidden enemy traps on or next to a unit; return the squares revealed (A29)."""
    # One roll for the whole search, so the number of rolls never tells how many traps lie near.
    bd = skill_breakdown(battle, unit, "awareness", int(const_or(battle, "trap_detect_mod", -20)), "Hidden trap")
    result = roll_test(battle, dice, bd, f"{unit.name} searches for traps")
    outcome.tests.append(result)
    if not result.success:
        return []
    found = []
    for cell in [unit.cell, *unit.cell.neighbours()]:
        state = state_at(battle, cell)
        ftype = features_of(battle.ruleset).get(state.feature or "")
        if ftype is None or not ftype.hidden or (state.feature_side or "").lower() == unit.side.lower():
            continue
        square = square_at(battle, cell)
        revealed = square.revealed if square.revealed is not None else []
        square.revealed = revealed
        if unit.side not in revealed:
            revealed.append(unit.side)
            found.append(str(cell))
            outcome.add(TrapRevealed(cell=str(cell), feature=ftype.key, side=unit.side))
            _mark(outcome, cell, ftype.label)
    return found
