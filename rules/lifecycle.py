"""The orders every rule system resolves the same way: start and end a battle, override a rule constant."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules import turns
from rules.errors import IllegalOrderError

if TYPE_CHECKING:
    from rules.battle import Battle
    from rules.dice import Dice
    from rules.orders import End, SetRule, Start
    from rules.outcome import Outcome


def require_not_ended(battle: Battle[Any]) -> None:
    """Refuse any change to a battle that has ended."""
    if battle.status == "ended":
        raise IllegalOrderError("This battle has ended; nothing on it can change any more.")


def start(battle: Battle[Any], order: Start, dice: Dice, outcome: Outcome) -> None:
    """End setup and begin the first round."""
    if battle.status != "setup":
        raise IllegalOrderError(f"The battle is already {battle.status}; only a battle in setup can start.")
    if not battle.units:
        raise IllegalOrderError("Add at least one unit with /unit add before starting the battle.")
    battle.status = "active"
    battle.round = 1
    outcome.effect("battle_started", round=1)
    turns.begin_battle(battle, dice, outcome)


def end(battle: Battle[Any], order: End, dice: Dice, outcome: Outcome) -> None:
    """End the battle."""
    require_not_ended(battle)
    battle.status = "ended"
    outcome.effect("battle_ended", round=battle.round)


def set_rule(battle: Battle[Any], order: SetRule, dice: Dice, outcome: Outcome) -> None:
    """Override a rule constant for this battle, validated against its declared range."""
    require_not_ended(battle)
    const = battle.ruleset.constant(order.key)
    battle.constants[const.key] = const.coerce(order.value)
    outcome.effect("rule_set", key=const.key, value=battle.constants[const.key])
