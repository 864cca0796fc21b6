"""Other actions: Aim, Hide, Maneuver, Defend and a GM-adjudicated test."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.coords import Cell, line_cells
from rules.errors import IllegalOrderError, InvalidOrderError
from rules.orders import Order
from rules.systems.strategic.actions.checks import test_breakdown
from rules.systems.strategic.battlefield import add_status, remove_status
from rules.systems.strategic.combat import (
    can_act,
    clear_engagement,
    in_reach,
    melee_breakdown,
    require_in_sight,
    roll_test,
    skill_breakdown,
)
from rules.systems.strategic.details import ManeuverDetails
from rules.systems.strategic.effects import Aiming, Defending, Hidden, Pushed
from rules.systems.strategic.movement import blocker
from rules.systems.strategic.table import checks, handles
from rules.systems.strategic.table import order as _order
from rules.systems.strategic.terrain import is_smoky
from rules.turns import require_active

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.modifiers import Breakdown
    from rules.outcome import Outcome
    from rules.systems.strategic.board import Battle
    from rules.systems.strategic.units import Unit

AIM_MODES = ("half", "full")


@_order("aim", "owner")
@dataclass(frozen=True)
class Aim(Order):
    """Take aim: +10 (half action) or +20 (full action) on the unit's next attack."""

    unit: str
    mode: str = "half"


@_order("hide", "owner")
@dataclass(frozen=True)
class Hide(Order):
    """Test Stealth to hide in the terrain the unit stands on."""

    unit: str


@_order("maneuver", "owner")
@dataclass(frozen=True)
class Maneuver(Order):
    """Force a melee opponent back with an opposed WS test; `to` picks the square when both share one."""

    unit: str
    target: str
    to: Cell | None = None


@_order("defend", "owner")
@dataclass(frozen=True)
class Defend(Order):
    """Take a defensive stance until the next round."""

    unit: str


@_order("act", "owner")
@dataclass(frozen=True)
class Act(Order):
    """Make a test the GM asked for: a characteristic or skill with a modifier and a reason."""

    unit: str
    stat: str
    modifier: int = 0
    reason: str = ""


def _able(battle: Battle, name: str) -> Unit:
    require_active(battle)
    unit = battle.unit(name)
    can_act(unit)
    return unit


@checks("aim")
@checks("defend")
def check_able(battle: Battle, order: Aim | Defend) -> Unit:
    """Check that the order's unit can act (aim and defend need nothing else)."""
    if isinstance(order, Aim) and order.mode.strip().lower() not in AIM_MODES:
        raise InvalidOrderError(f"`{order.mode}` is not an aim; use `half` (+10) or `full` (+20).")
    return _able(battle, order.unit)


@checks("hide")
def check_hide(battle: Battle, order: Hide) -> int:
    """Check that the unit can act and its square can be hidden in; return the terrain's Stealth bonus."""
    return _stealth_bonus(battle, _able(battle, order.unit))


def _actor(battle: Battle, name: str, outcome: Outcome) -> Unit:
    unit = _able(battle, name)
    outcome.actor = unit.name
    outcome.highlight.actor = str(unit.cell)
    return unit


@handles("aim")
def aim(battle: Battle, order: Aim, dice: Dice, outcome: Outcome) -> None:
    """Store the aim bonus on the unit until its next attack."""
    check_able(battle, order)
    mode = order.mode.strip().lower()
    unit = _actor(battle, order.unit, outcome)
    unit.aim = int(battle.const(f"aim_{mode}"))
    add_status(unit, "aiming")
    outcome.add(Aiming(unit=unit.name, mode=mode, bonus=unit.aim))


def _stealth_bonus(battle: Battle, unit: Unit) -> int:
    terrain = battle.terrain_at(unit.cell)
    if unit.flying:
        raise IllegalOrderError(f"{unit.name} is flying and cannot hide in the ground below (A43).")
    if terrain.stealth is not None:
        return terrain.stealth
    if is_smoky(battle, unit.cell):
        return 0  # A37: smoke can be hidden in at +0
    raise IllegalOrderError(
        f"{terrain.name} on {unit.cell} cannot be hidden in (A41). Move to terrain with a Stealth value, like Forest."
    )


@handles("hide")
def hide(battle: Battle, order: Hide, dice: Dice, outcome: Outcome) -> None:
    """Test Stealth with the terrain's bonus; success hides the unit."""
    bonus = check_hide(battle, order)
    unit = _actor(battle, order.unit, outcome)
    bd = skill_breakdown(battle, unit, "stealth")
    bd.add(f"Terrain: {battle.terrain_at(unit.cell).name}", bonus, "000:L52")
    result = roll_test(battle, dice, bd, f"{unit.name} hides")
    outcome.tests.append(result)
    if result.success:
        add_status(unit, "hidden")
        outcome.add(Hidden(unit=unit.name, cell=str(unit.cell)))


def _push_path(battle: Battle, attacker: Unit, target: Unit, to: Cell | None) -> list[Cell]:
    push = int(battle.const("maneuver_push"))
    start = target.cell
    if to is not None:
        dest = battle.check_cell(to)
        if start.distance(dest) != push or attacker.cell.distance(dest) <= attacker.cell.distance(start):
            raise IllegalOrderError(f"{dest} is not {push} square{'s' if push != 1 else ''} away from "
                                    f"{attacker.name} beyond {target.name}; pick a square directly behind it.")
        path = line_cells(start, dest)[1:]
    elif start == attacker.cell:
        raise InvalidOrderError(f"{target.name} shares {attacker.name}'s square; say where to push it with `to:`.")
    else:
        dx = (start.x > attacker.x) - (start.x < attacker.x)
        dy = (start.y > attacker.y) - (start.y < attacker.y)
        path = [Cell(start.x + dx * i, start.y + dy * i) for i in range(1, push + 1)]
    for cell in path:
        if not battle.on_map(cell):
            raise IllegalOrderError(f"{target.name} cannot be pushed off the map.")
        why = blocker(battle, target, cell)
        if why:
            raise IllegalOrderError(f"{target.name} cannot be pushed onto {cell}: {why}.")
    return path


@checks("maneuver")
def check_maneuver(battle: Battle, order: Maneuver) -> tuple[Unit, Unit, list[Cell]]:
    """Check a maneuver: a melee opponent in sight and a square to push it to; return both units and the path."""
    unit = _able(battle, order.unit)
    target = battle.unit(order.target)
    require_in_sight(battle, target, unit)
    if target is unit:
        raise IllegalOrderError(f"{unit.name} cannot maneuver itself.")
    if not in_reach(battle, unit, target):
        raise IllegalOrderError(f"{target.name} is not in melee reach of {unit.name}; Maneuver needs a melee opponent.")
    return unit, target, _push_path(battle, unit, target, order.to)


@handles("maneuver")
def maneuver(battle: Battle, order: Maneuver, dice: Dice, outcome: Outcome) -> None:
    """Opposed WS test; if the attacker wins, push the target away (000:L7, 001:L11)."""
    unit, target, path = check_maneuver(battle, order)
    _actor(battle, order.unit, outcome)
    mine = roll_test(battle, dice, melee_breakdown(battle, unit, target), f"{unit.name} maneuvers")
    theirs = roll_test(battle, dice, skill_breakdown(battle, target, "ws"), f"{target.name} holds its ground")
    outcome.tests.extend([mine, theirs])
    # Parent opposed test: the attacker wins by succeeding with more degrees than the defender.
    won = mine.success and (not theirs.success or mine.degrees > theirs.degrees)
    outcome.details = ManeuverDetails(won=won, path=[str(c) for c in path])
    outcome.highlight.update(target=str(target.cell), line=[str(unit.cell), str(target.cell)], hit=won)
    unit.aim = 0  # the test used the aim, as an attack would
    remove_status(unit, "aiming")
    if not won or not path:
        return  # a GM's maneuver_push of 0 makes a won Maneuver push nobody
    start = target.cell
    end = path[-1]
    target.x, target.y = end.x, end.y
    partners = clear_engagement(battle, target)  # A58: leaving the square ends the engagement
    outcome.add(Pushed(unit=target.name, frm=str(start), to=str(end), engagement_ended=partners))
    outcome.highlight.path = [str(start), *(str(c) for c in path)]
    outcome.highlight.mark(str(end), f"{target.name} pushed")


@handles("defend")
def defend(battle: Battle, order: Defend, dice: Dice, outcome: Outcome) -> None:
    """Stand on guard until the next round: melee attacks against the unit are harder."""
    check_able(battle, order)
    unit = _actor(battle, order.unit, outcome)
    add_status(unit, "defending", 0)  # a timer of 0 ends at the start of the next round
    outcome.add(Defending(unit=unit.name, penalty=int(battle.const("defend_melee_penalty"))))


@checks("act")
def check_act(battle: Battle, order: Act) -> tuple[Unit, Breakdown]:
    """Check a GM-adjudicated test: an active battle, the unit, the stat; return the unit and its target number."""
    require_active(battle)
    unit = battle.unit(order.unit)
    bd = test_breakdown(battle, unit, order.stat, order.modifier, order.reason)  # conditions and DTV included
    return unit, bd


@handles("act")
def act(battle: Battle, order: Act, dice: Dice, outcome: Outcome) -> None:
    """Make a GM-adjudicated test, with the unit's conditions and DTV applied."""
    unit, bd = check_act(battle, order)
    result = roll_test(battle, dice, bd, order.reason or f"{order.stat.upper()} test")
    outcome.actor = unit.name
    outcome.highlight.actor = str(unit.cell)
    outcome.tests.append(result)
