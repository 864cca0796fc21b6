"""Pit Skirmish's orders: a check phase for each, apart from how it resolves.

Setup (adding fighters, painting rock, starting) and the turn orders are the core's; stepping and
striking are the system's own. Every number comes from the ruleset's data table (`data/skirmish.toml`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules import lifecycle, turnorders
from rules.battle import Battle
from rules.coords import Cell
from rules.dice import Dice
from rules.effects import Effect, effect, table
from rules.errors import IllegalOrderError, InvalidOrderError
from rules.orders import AddUnit, Move, Order
from rules.outcome import Outcome
from rules.system import HandlerTable

from skirmish.units import Fighter

TABLE = HandlerTable(turnorders.TABLE)
handles, checks, order = TABLE.handles, TABLE.checks, TABLE.order
ROCK = "rock"

handles("paint")(lifecycle.paint)
handles("set-rule")(lifecycle.set_rule)
handles("start")(lifecycle.start)
handles("end")(lifecycle.end)
handles("remove-unit")(lifecycle.remove_unit)


@order("strike", "owner")
@dataclass(frozen=True)
class Strike(Order):
    """Strike at an enemy fighter on a square next to this one."""

    unit: str
    target: str


@effect("entered")
@dataclass(frozen=True, slots=True)
class Entered(Effect):
    """A fighter entered the pit."""

    unit: str
    side: str
    at: str
    hp: int


@effect("stepped")
@dataclass(frozen=True, slots=True)
class Stepped(Effect):
    """A fighter stepped from one square to another."""

    unit: str
    frm: str
    to: str


@effect("struck")
@dataclass(frozen=True, slots=True)
class Struck(Effect):
    """A strike: the die, the number it needed, and the target's hit points after it."""

    unit: str
    target: str
    roll: int
    needed: int
    hit: bool
    hp_left: int


EFFECTS = table(Entered, Stepped, Struck)


def _fighter(battle: Battle[Any], name: str) -> Fighter:
    """Return a fighter still on its feet, or refuse naming who is down."""
    unit = battle.unit(name)
    if not isinstance(unit, Fighter):
        raise IllegalOrderError(f"{unit.name} is not a fighter of the pit.")
    if not unit.alive:
        raise IllegalOrderError(f"{unit.name} is down and out of the fight.")
    return unit


def _free(battle: Battle[Any], cell: Cell) -> bool:
    """Return whether a fighter may stand on a square: on the map, not rock, nobody on its feet there."""
    return (battle.on_map(cell) and battle.terrain_at(cell).key != ROCK
            and not any(u.alive for u in battle.units_at(cell)))


@handles("add-unit")
def add_fighter(battle: Battle[Any], order: AddUnit, dice: Dice, outcome: Outcome) -> None:
    """Put a fighter in the pit; its stats may give `hp`, else the ruleset's `fighter_hp`."""
    name = lifecycle.new_unit_name(battle, order.name)
    cell = battle.check_cell(order.at)
    if not _free(battle, cell):
        raise IllegalOrderError(f"{cell} is rock or taken; put the fighter on an open square of sand.")
    stats = dict(order.stats or {})
    hp = stats.pop("hp", battle.const("fighter_hp"))
    if stats:
        raise InvalidOrderError(f"A fighter has one stat, `hp`; `{sorted(stats)[0]}` is not one of Pit Skirmish's.")
    if not isinstance(hp, int) or isinstance(hp, bool) or not 1 <= hp <= 20:
        raise InvalidOrderError("`hp` is a whole number from 1 to 20, like `hp=3`.")
    side = battle.ensure_side(order.side)
    unit = battle.add_unit(Fighter(name=name, side=side.name, x=cell.x, y=cell.y, owner=order.owner, hp=hp, max_hp=hp))
    outcome.actor = unit.name
    outcome.add(Entered(unit=unit.name, side=side.name, at=str(cell), hp=hp))


@checks("move")
def check_step(battle: Battle[Any], order: Move) -> Fighter:
    """Refuse a step that is too long, onto rock, or onto another fighter."""
    unit = _fighter(battle, order.unit)
    reach = int(battle.const("step_squares"))
    if unit.cell.distance(order.to) > reach:
        raise IllegalOrderError(f"{unit.name} steps at most {reach} squares; {order.to} is "
                                f"{unit.cell.distance(order.to)} away.")
    if order.to == unit.cell or not _free(battle, order.to):
        raise IllegalOrderError(f"{order.to} is not an open square of sand {unit.name} can step onto.")
    return unit


@handles("move")
def step(battle: Battle[Any], order: Move, dice: Dice, outcome: Outcome) -> None:
    """Step a fighter to a square within reach."""
    unit = check_step(battle, order)
    frm = unit.cell
    unit.x, unit.y = order.to.x, order.to.y
    outcome.actor = unit.name
    outcome.add(Stepped(unit=unit.name, frm=str(frm), to=str(order.to)))


@checks("strike")
def check_strike(battle: Battle[Any], order: Strike) -> tuple[Fighter, Fighter]:
    """Refuse a strike at a friend, at someone down, or at someone not next to the striker."""
    unit = _fighter(battle, order.unit)
    target = _fighter(battle, order.target)
    if not battle.enemies(unit, target):
        raise IllegalOrderError(f"{target.name} fights on {unit.name}'s side.")
    if unit.cell.distance(target.cell) != 1:
        raise IllegalOrderError(f"{target.name} is not next to {unit.name}; step closer first.")
    return unit, target


@handles("strike")
def strike(battle: Battle[Any], order: Strike, dice: Dice, outcome: Outcome) -> None:
    """Roll a d6: on `hit_on` or more the target loses `strike_damage` hit points."""
    unit, target = check_strike(battle, order)
    needed = int(battle.const("hit_on"))
    roll = dice.roll("1d6", f"{unit.name} strikes {target.name}").total
    hit = roll >= needed
    if hit:
        target.hp = max(0, target.hp - int(battle.const("strike_damage")))
    outcome.actor = unit.name
    outcome.add(Struck(unit=unit.name, target=target.name, roll=roll, needed=needed, hit=hit, hp_left=target.hp))
