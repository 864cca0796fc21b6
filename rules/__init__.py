"""The rules engine: a shared core (board, orders, dice, outcomes, turns) and rule systems. Standard library only.

Register the installed rule systems (found through their `battlepost.systems` entry points) once with
`rules.systems.install()` before creating or loading battles.
"""

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
from rules.system import System, register, system_of
from rules.units import Unit

__all__ = [
    "Battle", "Cell", "ConflictError", "Dice", "GameError", "IllegalOrderError", "InvalidOrderError",
    "NotAllowedError", "NotFoundError", "NotYourTurnError", "NothingToUndoError", "Order", "Outcome",
    "Roll", "Ruleset", "RulesetError", "Side", "System", "Unit", "column_label", "get_ruleset", "list_rulesets",
    "register", "system_of",
]
