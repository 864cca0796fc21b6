"""The rules engine: grid, terrain, units, orders, dice and resolution. Standard library only."""

from rules.battle import Battle, Side
from rules.coords import Cell, column_label
from rules.dice import Dice, Roll
from rules.errors import (
    ConflictError,
    GameError,
    IllegalOrderError,
    InvalidOrderError,
    NotAllowedError,
    NotFoundError,
    NothingToUndoError,
    NotYourTurnError,
    RulesetError,
)
from rules.orders import Order
from rules.outcome import Outcome
from rules.ruleset import Ruleset, get_ruleset, list_rulesets

__all__ = [
    "Battle", "Cell", "ConflictError", "Dice", "GameError", "IllegalOrderError", "InvalidOrderError",
    "NotAllowedError", "NotFoundError", "NotYourTurnError", "NothingToUndoError", "Order", "Outcome",
    "Roll", "Ruleset", "RulesetError", "Side", "column_label", "get_ruleset", "list_rulesets",
]
