"""Turn orders: ending, holding and skipping turns, closing rounds, turn modes and standing orders.

They are the turn structure's own orders, the same in every system whose units take turns: a system
builds its table on `TABLE` (`HandlerTable(turnorders.TABLE)`) to play them, and may override a handler
(its own end of a unit's activation, say) by declaring one for the same kind.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from rules import turns
from rules.coords import Cell
from rules.core_effects import (
    Held,
    RoundClosed,
    StandingOrderCleared,
    StandingOrderFollowed,
    StandingOrderSet,
    TurnEnded,
    TurnModeSet,
    TurnSkipped,
)
from rules.errors import GameError, IllegalOrderError, InvalidOrderError, NotFoundError, NotYourTurnError
from rules.orders import Order
from rules.system import HandlerTable

if TYPE_CHECKING:
    from rules.battle import Battle
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.units import Unit

TABLE = HandlerTable()
handles = TABLE.handles
checks = TABLE.checks
_order = TABLE.order

HOLD = "hold"
CLEAR_WORDS = ("none", "clear", "off")
MAX_STANDING_TEXT = 500


@_order("end-turn", "owner")
@dataclass(frozen=True)
class EndTurn(Order):
    """End a unit's turn; without a unit, the turn of the one unit due now."""

    unit: str = ""


@_order("hold", "owner")
@dataclass(frozen=True)
class Hold(Order):
    """Let a unit hold: it spends the rest of its turn doing nothing."""

    unit: str


@_order("skip-turn")
@dataclass(frozen=True)
class SkipTurn(Order):
    """Skip the current unit's turn or the current phase (GM); name a unit to skip only its turn."""

    unit: str = ""


@_order("close-round")
@dataclass(frozen=True)
class CloseRound(Order):
    """End the round now and start the next one (GM)."""


@_order("set-turn-mode")
@dataclass(frozen=True)
class SetTurnMode(Order):
    """Choose how units take turns: initiative, side or free (GM)."""

    mode: str


@_order("standing-order", "owner")
@dataclass(frozen=True)
class StandingOrder(Order):
    """Give a unit the order it follows when its turn's deadline passes (`hold`, `none` to clear)."""

    unit: str
    text: str


@_order("standing-turn", "owner")
@dataclass(frozen=True)
class StandingTurn(Order):
    """Play a unit's turn from its standing order, falling back to hold (on a missed deadline)."""

    unit: str


def pick_unit(battle: Battle[Any], name: str, verb: str) -> str:
    """Return the unit an order names, or the one unit due now, checked to be able to act."""
    if name.strip():
        unit = battle.unit(name)
        why = turns.why_not_now(battle, unit.name)
        if why is not None:
            raise NotYourTurnError(why)
        return turns.due_entry(battle, unit.id)
    now = turns.next_due(battle)
    if not now:
        raise IllegalOrderError("No unit is due to act right now.")
    if len(now) > 1:
        names = ", ".join(turns.names_of(battle, now[:10]))
        raise InvalidOrderError(f"Say which unit should {verb}: {names} can act now.")
    return now[0]


def _close(battle: Battle[Any], name: str, how: str, dice: Dice, outcome: Outcome) -> None:
    """End a unit's turn, pass play on, and say who is due now."""
    turns.finish_turn(battle, name, how)
    turns.settle(battle, dice, outcome)
    outcome.turn.next_due = turns.names_of(battle, turns.next_due(battle))
    outcome.turn.round = battle.round


def _give_up_rest(battle: Battle[Any], name: str, effect: type[TurnEnded | Held], how: str, dice: Dice,
                  outcome: Outcome) -> None:
    """End a checked unit's turn with its unused actions recorded, and pass play on."""
    unused = turns.actions_left(battle, name)
    outcome.actor = turns.name_of(battle, name)
    outcome.add(effect(unit=outcome.actor, unused=unused))
    _close(battle, name, how, dice, outcome)


@checks("end-turn")
def check_end_turn(battle: Battle[Any], order: EndTurn) -> str:
    """Check that the named unit, or the one unit due now, may end its turn; return its id."""
    turns.require_running(battle)
    return pick_unit(battle, order.unit, "end its turn")


@handles("end-turn")
def end_turn(battle: Battle[Any], order: EndTurn, dice: Dice, outcome: Outcome) -> None:
    """End a unit's turn; when nobody else is due, the phase or round moves on at once."""
    _give_up_rest(battle, check_end_turn(battle, order), TurnEnded, "ended", dice, outcome)


@checks("hold")
def check_hold(battle: Battle[Any], order: Hold) -> str:
    """Check that the unit may hold now; return its id."""
    turns.require_running(battle)
    return pick_unit(battle, order.unit, "hold")


@handles("hold")
def hold(battle: Battle[Any], order: Hold, dice: Dice, outcome: Outcome) -> None:
    """Let a unit hold for the rest of its turn."""
    _give_up_rest(battle, check_hold(battle, order), Held, "held", dice, outcome)


@checks("skip-turn")
def check_skip_turn(battle: Battle[Any], order: SkipTurn) -> list[str]:
    """Check that there is a turn to skip; return the ids of the units whose turns it skips."""
    turns.require_running(battle)
    if order.unit.strip():
        unit = battle.unit(order.unit)
        return [turns.due_entry(battle, unit.id)]
    skipped = turns.next_due(battle)
    if not skipped:
        raise IllegalOrderError("No unit is due to act, so there is no turn to skip.")
    return skipped


@handles("skip-turn")
def skip_turn(battle: Battle[Any], order: SkipTurn, dice: Dice, outcome: Outcome) -> None:
    """Skip a unit's turn, or everything due now: the current unit, the phase or the free round."""
    skipped = check_skip_turn(battle, order)
    side = turns.current_side(battle)
    for name in skipped:
        turns.finish_turn(battle, name, "skipped")
    outcome.add(TurnSkipped(units=turns.names_of(battle, skipped), side=side if not order.unit.strip() else None))
    turns.settle(battle, dice, outcome)
    outcome.turn.next_due = turns.names_of(battle, turns.next_due(battle))
    outcome.turn.round = battle.round


@checks("close-round")
def check_close_round(battle: Battle[Any], order: CloseRound) -> None:
    """Check that the battle is active, so it has a round to close."""
    turns.require_active(battle)


@handles("close-round")
def close_round(battle: Battle[Any], order: CloseRound, dice: Dice, outcome: Outcome) -> None:
    """End the round now: whoever was still due loses the rest of the round."""
    # A battle without turn state yet (saved before turns existed) gets its first round here.
    check_close_round(battle, order)
    skipped = turns.names_of(battle, turns.still_due(battle))
    outcome.add(RoundClosed(round=battle.round, skipped=skipped))
    turns.advance_round(battle, dice, outcome)


@checks("set-turn-mode")
def check_set_turn_mode(battle: Battle[Any], order: SetTurnMode) -> str:
    """Check the turn mode named and that it is a change; return the mode."""
    if battle.status == "ended":
        raise IllegalOrderError("This battle has ended; nothing on it can change any more.")
    mode = turns.check_mode(order.mode)
    if mode == turns.mode_of(battle) and battle.turn.mode is not None:
        raise IllegalOrderError(f"The turn mode is already {mode}.")
    return mode


@handles("set-turn-mode")
def set_turn_mode(battle: Battle[Any], order: SetTurnMode, dice: Dice, outcome: Outcome) -> None:
    """Switch the turn mode; in a running round it applies at once and keeps what units have done."""
    mode = check_set_turn_mode(battle, order)
    outcome.add(TurnModeSet(mode=mode, frm=turns.mode_of(battle)))
    turns.set_mode(battle, mode, dice, outcome)


def standing_kinds(battle: Battle[Any]) -> frozenset[str]:
    """Return the order kinds a unit's player may leave as its standing order: its own orders, not turn orders."""
    rules = turns.turn_rules(battle.ruleset_id)
    return frozenset(kind for kind, cls in battle.system.orders.items()
                     if cls.authority == "owner" and kind not in turns.TURN_KINDS and kind not in rules.not_counted)


def parse_standing(battle: Battle[Any], unit_name: str, text: str) -> Order:
    """Parse a standing order's text as one of the unit's own orders (its unit may be left out)."""
    try:
        tokens = shlex.split(text)
    except ValueError as exc:
        raise InvalidOrderError(f"Cannot read that standing order: {exc}.") from None
    rules = turns.turn_rules(battle.ruleset_id)
    allowed = standing_kinds(battle)
    kind = tokens[0].lower() if tokens else ""
    if kind and kind != HOLD and kind not in allowed:
        # Only the orders a player gives a unit on its turn: no GM or side order, nothing the bot gives itself.
        what = "cannot be a standing order" if kind in battle.system.orders else "is not an order"
        raise InvalidOrderError(f"`{tokens[0]}` {what}; {standing_hint(battle, unit_name)}.")
    if tokens and not any(t.lower().startswith("unit:") for t in tokens[1:]):
        text = f"{text} unit:{shlex.quote(unit_name)}"
    order = battle.parse_order(text)
    owner = getattr(order, "unit", None)
    if not isinstance(owner, str) or owner.strip().lower() != unit_name.lower():
        raise InvalidOrderError(
            f"A standing order for {unit_name} must be one of its own orders, like `move to:E5` or `hold`."
        )
    if order.kind in turns.TURN_KINDS - {HOLD} or order.kind in rules.not_counted:
        raise InvalidOrderError(
            f"`{order.kind}` cannot be a standing order; use `hold` or an order {unit_name} takes on its turn."
        )
    return order


def own_turn(battle: Battle[Any], unit_name: str) -> Battle[Any]:
    """Return a copy of the battle in which it is this unit's turn alone, with its whole budget, now."""
    trial = type(battle).from_dict(battle.to_dict())
    unit = trial.unit(unit_name)
    trial.status = "active"
    trial.round = max(trial.round, 1)
    turn = trial.turn
    turn.mode, turn.round, turn.units = "free", trial.round, [unit.id]
    turn.left = {unit.id: turns.turn_rules(trial.ruleset_id).budget}
    turn.done, turn.initiative, turn.at = {}, [], None
    return trial


def standing_options(battle: Battle[Any], unit_name: str) -> list[Order]:
    """Return the orders a unit could leave as its standing order: those it could give on a turn of its own now."""
    allowed = standing_kinds(battle)
    try:
        trial = own_turn(battle, unit_name)
        orders = trial.legal_orders(unit_name)
    except GameError:
        return []  # a unit out of the fight, or a system without turns of units: only `hold` is left
    return [order for order in orders if order.kind in allowed]


def standing_hint(battle: Battle[Any], unit_name: str) -> str:
    """Say which standing orders a unit may have: `hold` and the kinds of order it could give on its turn."""
    kinds = sorted({order.kind for order in standing_options(battle, unit_name)})
    if not kinds:
        return f"{unit_name} can only `hold` at a missed deadline"
    return f"use `hold` or one of the orders {unit_name} can give on its turn: {', '.join(kinds)} (like `move to:E5`)"


def check_standing_form(battle: Battle[Any], unit_name: str, order: Order) -> None:
    """Refuse a standing order that could never be followed: a square off the map, a name or value it cannot have.

    What depends on the moment (a target out of range now, a square taken now) is left to the deadline.
    """
    for field in fields(order):
        name, value = field.name, getattr(order, field.name)
        if isinstance(value, Cell):
            try:
                battle.check_cell(value)
            except IllegalOrderError as exc:
                raise InvalidOrderError(f"`{name}:{value}`: {exc.message} Nothing was set.") from None
    check = battle.system.handlers.check(order.kind)
    if check is None:
        return
    try:
        check(own_turn(battle, unit_name), order)
    except (InvalidOrderError, NotFoundError) as exc:
        raise InvalidOrderError(f"{exc.message} Nothing was set.") from None
    except GameError:
        pass  # illegal now, perhaps not at the deadline: the deadline checks it again


@dataclass(frozen=True)
class _Standing:
    """A checked standing order: its unit, and the text to store (None clears it)."""

    unit: Unit
    stored: str | None


@checks("standing-order")
def check_standing_order(battle: Battle[Any], order: StandingOrder) -> _Standing:
    """Check a standing order now, so it cannot be garbage; return what to store."""
    if battle.status == "ended":
        raise IllegalOrderError("This battle has ended; nothing on it can change any more.")
    unit = battle.unit(order.unit)
    text = order.text.strip()
    if len(text) > MAX_STANDING_TEXT:
        raise InvalidOrderError(f"Keep a standing order under {MAX_STANDING_TEXT} characters.")
    if text.lower() in (*CLEAR_WORDS, ""):
        return _Standing(unit, None)
    parsed = None if text.lower() == HOLD else parse_standing(battle, unit.name, text)
    if parsed is not None and not isinstance(parsed, Hold):
        check_standing_form(battle, unit.name, parsed)
    return _Standing(unit, HOLD if parsed is None or isinstance(parsed, Hold) else str(parsed))


@handles("standing-order")
def standing_order(battle: Battle[Any], order: StandingOrder, dice: Dice, outcome: Outcome) -> None:
    """Store the order a unit follows when its deadline passes."""
    checked = check_standing_order(battle, order)
    unit, stored = checked.unit, checked.stored
    standing = battle.turn.standing
    standing.pop(unit.id, None)
    outcome.actor = unit.name
    if stored is None:
        outcome.add(StandingOrderCleared(unit=unit.name))
        return
    standing[unit.id] = stored
    outcome.turn.standing_order = stored
    outcome.add(StandingOrderSet(unit=unit.name, order=stored))


@checks("standing-turn")
def check_standing_turn(battle: Battle[Any], order: StandingTurn) -> str:
    """Check that the unit is due now, so its standing order can play its turn; return its id."""
    turns.require_running(battle)
    unit = battle.unit(order.unit)
    why = turns.why_not_now(battle, unit.id)
    if why is not None:
        raise NotYourTurnError(why)
    return turns.due_entry(battle, unit.id)


@handles("standing-turn")
def standing_turn(battle: Battle[Any], order: StandingTurn, dice: Dice, outcome: Outcome) -> None:
    """Play a unit's turn from its standing order and end it; an illegal order becomes a hold."""
    uid = check_standing_turn(battle, order)
    name = battle.units[uid].name
    stored = turns.standing_order_of(battle, uid)
    text = stored or HOLD
    outcome.actor = name
    outcome.turn.standing_order = text
    followed = False
    if text != HOLD:
        try:
            inner = parse_standing(battle, name, text)
            result = battle.apply(inner, dice)
        except GameError as exc:
            outcome.turn.fallback = exc.message
        else:
            followed = True
            # The inner apply handed its rolls to its own outcome; this order is what the log keeps.
            dice.rolls.extend(result.rolls)
            # The inner step is part of this order, so one undo must take back both.
            del battle._history[-1]
            outcome.tests.extend(result.tests)
            outcome.effects.extend(result.effects)
            outcome.highlight.merge(result.highlight)
            outcome.details = result.details
            outcome.turn.merge(result.turn)
            outcome.turn.standing_order = text
            outcome.hidden = result.hidden
    if followed:
        outcome.add(StandingOrderFollowed(unit=name, order=text))
    else:
        reason = "fallback" if outcome.turn.fallback is not None else "standing_order" if stored else "no_standing_order"
        outcome.add(Held(unit=name, unused=turns.actions_left(battle, uid), reason=reason))
    _close(battle, uid, "standing" if followed else "held", dice, outcome)


def apply_standing_order(battle: Battle[Any], unit_name: str, dice: Dice) -> Outcome:
    """Play a unit's standing order when its deadline passes, or hold if that order is illegal now."""
    return battle.apply(StandingTurn(unit=unit_name), dice)
