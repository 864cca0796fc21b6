"""The attack order: ranged, melee and area attacks, and shots at bridges."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from rules.battle import LastAction
from rules.coords import Cell
from rules.errors import IllegalOrderError, InvalidOrderError
from rules.orders import Order
from rules.systems.strategic.area import (
    AreaHit,
    area_kind,
    choose_targets,
    line_length,
    line_squares,
    line_targets,
    melee_partners,
    target_count,
)
from rules.systems.strategic.battlefield import bridge_at, damage_bridge, on_hit_square, remove_status
from rules.systems.strategic.combat import (
    can_act,
    check_adjust,
    engage,
    hit_location,
    in_reach,
    melee_breakdown,
    melee_distance,
    melee_reach,
    out_of_sight,
    parse_location,
    ranged_breakdown,
    require_in_sight,
    roll_test,
)
from rules.systems.strategic.damage import apply_damage
from rules.systems.strategic.details import AttackDetails, HitDamage
from rules.systems.strategic.effects import Engaged
from rules.systems.strategic.ranges import Band, band_for, bands, max_range, weapon_range
from rules.systems.strategic.table import checks, handles
from rules.systems.strategic.table import order as _order
from rules.turns import require_active

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.systems.strategic.board import Battle
    from rules.systems.strategic.units import Unit, Weapon

BRIDGE = "bridge"


@_order("attack", "owner")
@dataclass(frozen=True)
class Attack(Order):
    """Attack with a weapon: a unit by name, or a square (area weapons, bridges with target:bridge)."""

    gm_options = ("adjust",)

    unit: str
    weapon: str
    target: str = ""
    at: Cell | None = None
    adjust: int = 0
    called: str = ""


@dataclass
class _Aim:
    cell: Cell
    unit: Unit | None = None
    bridge: bool = False


def _resolve(battle: Battle, attacker: Unit, weapon: Weapon, order: Attack) -> _Aim:
    if order.target.strip().lower() == BRIDGE:
        if order.at is None:
            raise InvalidOrderError("Say which bridge to attack: `target:bridge at:<square>`.")
        cell = battle.check_cell(order.at)
        if bridge_at(battle, cell) is None:
            raise IllegalOrderError(f"There is no bridge on {cell} to attack.")
        if weapon.melee:
            raise IllegalOrderError("Bridges are attacked with ranged weapons.")
        return _Aim(cell, bridge=True)
    if order.target:
        target = battle.unit(order.target)
        if target is attacker:
            raise IllegalOrderError(f"{attacker.name} cannot attack itself.")
        if not target.alive:
            raise IllegalOrderError(f"{target.name} is already destroyed.")
        require_in_sight(battle, target, attacker)
        if order.at is not None and battle.check_cell(order.at) != target.cell:
            raise IllegalOrderError(f"{target.name} is on {target.cell}, not on {order.at}.")
        return _Aim(target.cell, target)
    if order.at is None:
        raise InvalidOrderError("Say what to attack: `target:` a unit, or `at:` a square for an area weapon.")
    cell = battle.check_cell(order.at)
    if area_kind(weapon) is not None:
        return _Aim(cell)
    # A single-target weapon aimed at a square finds only the units the attacker can see there.
    here = [u for u in battle.units_at(cell) if u is not attacker and not out_of_sight(battle, u, attacker)]
    if len(here) == 1:
        return _Aim(cell, here[0])
    if not here:
        raise IllegalOrderError(f"There is nobody on {cell} to attack with the {weapon.name}.")
    names = ", ".join(u.name for u in here)
    raise InvalidOrderError(f"{cell} holds {names}; name one with `target:`.")


@dataclass
class _Shot:
    """A checked attack: who attacks with what, at what, and for a ranged weapon its range band and squares."""

    attacker: Unit
    weapon: Weapon
    called: str
    aim: _Aim
    r: int = 0
    band: Band | None = None
    kind: str | None = None
    squares: list[Cell] = field(default_factory=list)


@checks("attack")
def check_attack(battle: Battle, order: Attack) -> _Shot:
    """Check an attack without rolling: an attacker able to act, its weapon, a target in sight and in reach or range."""
    require_active(battle)
    attacker = battle.unit(order.unit)
    can_act(attacker)
    weapon = attacker.require_weapon(order.weapon)
    check_adjust(order.adjust)
    called = parse_location(order.called) if order.called else ""
    aim = _resolve(battle, attacker, weapon, order)
    if weapon.melee:
        assert aim.unit is not None  # _resolve only lets a melee weapon aim at a unit
        target = aim.unit
        if not in_reach(battle, attacker, target, weapon):
            reach = melee_reach(battle, weapon, target)
            where = "on the same square" if reach == 0 else f"within {reach} square{'s' if reach != 1 else ''}"
            raise IllegalOrderError(
                f"The {weapon.name} is a melee weapon: its target must be {where}, and {target.name} is "
                f"{melee_distance(attacker, target)} away. Move closer, or attack with a ranged weapon."
            )
        return _Shot(attacker, weapon, called, aim)
    src, dst = attacker.cell, aim.cell
    r = weapon_range(battle, weapon)
    band = band_for(battle, r, src.distance(dst))
    if band is None:
        raise _out_of_range(battle, attacker, weapon, dst, r)
    kind = None if aim.bridge else area_kind(weapon)
    squares: list[Cell] = []
    if kind == "line":
        length = line_length(battle, weapon)
        squares = line_squares(battle, src, dst, length)
        if dst not in squares:
            raise IllegalOrderError(f"The {weapon.name} reaches {length} squares in a line; {dst} is farther.")
    return _Shot(attacker, weapon, called, aim, r, band, kind, squares)


@handles("attack")
def attack(battle: Battle, order: Attack, dice: Dice, outcome: Outcome) -> None:
    """Resolve an attack: legality, to-hit breakdown, d100, hit location, damage and what the hit sets off."""
    shot = check_attack(battle, order)
    attacker, weapon, called, aim = shot.attacker, shot.weapon, shot.called, shot.aim
    outcome.actor = attacker.name
    outcome.highlight.update(actor=str(attacker.cell), target=str(aim.cell), line=[str(attacker.cell), str(aim.cell)])
    outcome.details = AttackDetails(unit=attacker.name, weapon=weapon.name,
                                    target=aim.unit.name if aim.unit else None, at=str(aim.cell),
                                    distance=attacker.cell.distance(aim.cell))
    if weapon.melee:
        assert aim.unit is not None  # _resolve only lets a melee weapon aim at a unit
        hit = _melee(battle, attacker, weapon, aim.unit, order, called, dice, outcome)
    else:
        hit = _ranged(battle, shot, order, dice, outcome)
    outcome.highlight.hit = hit
    # An attack spends the aim and gives the attacker's position away.
    attacker.aim = 0
    remove_status(attacker, "aiming")
    remove_status(attacker, "hidden")
    battle.last = LastAction(kind="attack", unit=attacker.name, line=tuple(outcome.highlight.line or ()), hit=hit)


def _attack(outcome: Outcome) -> AttackDetails:
    """Return the attack's details so far, to add to as the attack resolves."""
    details = outcome.details_as(AttackDetails)
    assert details is not None  # the attack handler sets them first
    return details


def _melee(battle: Battle, attacker: Unit, weapon: Weapon, target: Unit, order: Attack, called: str,
           dice: Dice, outcome: Outcome) -> bool:
    bd = melee_breakdown(battle, attacker, target, order.adjust, called)
    result = roll_test(battle, dice, bd, f"{attacker.name} strikes with {weapon.name}")
    outcome.tests.append(result)
    engage(attacker, target)  # A58: a melee attack, hit or miss, engages the pair
    outcome.add(Engaged(units=[attacker.name, target.name]))
    outcome.details = replace(_attack(outcome), form="melee", reach=melee_reach(battle, weapon, target))
    if not result.success:
        return False
    location = called or hit_location(result.roll)
    notation = weapon.damage
    sb = attacker.bonus("s")
    if battle.const("melee_strength_bonus") and sb:
        notation = f"{notation}+{sb}"
    outcome.details = replace(_attack(outcome), damage=[apply_damage(
        battle, target, dice, outcome, notation=notation, pen=weapon.pen, tearing=weapon.tearing, melee=True,
        location=location, dtype=weapon.dtype, qualities=weapon.qualities, source=weapon.name)])
    return True


def _out_of_range(battle: Battle, attacker: Unit, weapon: Weapon, cell: Cell, r: int) -> IllegalOrderError:
    distance = attacker.cell.distance(cell)
    farthest = max_range(battle, r)
    last = next((b.name for b in reversed(bands(battle, r)) if b.high is not None), "")
    unit = battle.ruleset.square_unit
    return IllegalOrderError(
        f"{cell} is {distance} squares from {attacker.name}, but the {weapon.name} (range {r} {unit}) "
        f"reaches at most {farthest} squares ({last} range). Move closer or pick another weapon."
    )


def _ranged(battle: Battle, shot: _Shot, order: Attack, dice: Dice, outcome: Outcome) -> bool:
    attacker, weapon, aim, called = shot.attacker, shot.weapon, shot.aim, shot.called
    src, dst = attacker.cell, aim.cell
    r, band, kind, squares = shot.r, shot.band, shot.kind, shot.squares
    assert band is not None  # the check found the band of every ranged shot
    if kind == "line":
        outcome.highlight.line = [str(src), str(squares[-1])]
        outcome.highlight.cells = [str(c) for c in squares]
    bd, fire = ranged_breakdown(battle, attacker, src, dst, aim.unit, weapon, band, order.adjust, called,
                                object_target=aim.bridge)
    result = roll_test(battle, dice, bd, f"{attacker.name} fires {weapon.name}")
    outcome.tests.append(result)
    outcome.details = replace(_attack(outcome), form=kind or ("bridge" if aim.bridge else "ranged"), R=r, band=band.note(),
            line_of_fire=fire.line_of_fire, storm=fire.storm, storm_negated=fire.storm_negated)
    if not result.success:
        return False  # a miss lands nowhere that matters on this scale (no scatter)
    if aim.bridge:
        outcome.details = replace(_attack(outcome), bridge=damage_bridge(battle, dst, dice, outcome, notation=weapon.damage, pen=weapon.pen,
                                              tearing=weapon.tearing))
        return True
    hits = _area_hits(battle, dice, weapon, kind, aim, squares)
    outcome.details = replace(_attack(outcome), hits=[h.note() for h in hits])
    damage: list[HitDamage] = []
    for hit in hits:
        if battle.units.get(hit.unit.id) is not hit.unit:
            continue  # destroyed by an earlier hit of the same attack
        if hit.why == "aimed" or kind is None:
            location = called or hit_location(result.roll)
        else:
            location = hit_location(dice.d100(f"hit location for {hit.unit.name}"))
        damage.append(apply_damage(
            battle, hit.unit, dice, outcome, notation=weapon.damage, pen=weapon.pen, tearing=weapon.tearing,
            area=kind is not None, location=location, dtype=weapon.dtype, qualities=weapon.qualities,
            source=weapon.name))
    outcome.details = replace(_attack(outcome), damage=damage)
    for cell in squares or [dst]:
        on_hit_square(battle, cell, weapon.dtype, dice, outcome, weapon.qualities)
    return True


def _area_hits(battle: Battle, dice: Dice, weapon: Weapon, kind: str | None, aim: _Aim,
               squares: list[Cell]) -> list[AreaHit]:
    if kind is None:
        assert aim.unit is not None  # a single-target weapon always names its unit
        return [AreaHit(aim.unit, "aimed", aim.cell)]
    if kind == "line":
        return line_targets(battle, dice, squares, aim.unit)
    count = target_count(battle, weapon)
    hits = choose_targets(battle, dice, aim.cell, count, aim.unit)
    return hits + melee_partners(battle, hits)
