"""A GM's own M42 actions: homebrew `[[action]]` rows, each a distance constant and the flags of the built-ins.

An `[[action]]` row is played exactly as an `[m42.actions]` row of the ruleset: it becomes an `Action`
(`kinds.actions_of`) whose distance is the rule constant `<key>_inches`, added to the battle's ruleset with the
row's `inches` as its default, so movement, reach, My options and `/battle rules set` read it as they read
Advance's.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rules import lifecycle
from rules.errors import RulesetError
from rules.homebrew import Homebrew, install, read_homebrew
from rules.orders import ImportHomebrew
from rules.ruleset import Constant, Ruleset, get_ruleset
from rules.system import HomebrewTable
from rules.systems.m42.effects import HomebrewImported
from rules.systems.m42.kinds import ACTION_FIELDS, action_key, constant_of, read_action, tables
from rules.systems.m42.table import checks, handles

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.systems.m42.board import Battle

FIELDS = frozenset({"key", "inches", *ACTION_FIELDS})


def _limits(base: Ruleset) -> tuple[int, int]:
    """Return the least and most inches a built-in action's distance may be set to; a homebrew one keeps to them."""
    found = [base.constants[a.constant] for a in tables(base.id).actions.values()]
    return (min(int(c.min) if c.min is not None else 1 for c in found),
            max(int(c.max) if c.max is not None else 1 for c in found))


def builtin_keys(base: Ruleset) -> dict[str, str]:
    """Return the ruleset's own actions by the key a homebrew file would write (`at_the_double`), with their names."""
    return {a.key.replace("-", "_"): a.title for a in tables(base.id).actions.values()}


def check_action(base: Ruleset, row: dict[str, Any]) -> None:
    """Refuse an action row whose distance is missing, not whole, negative or absurd, or whose flags are not true/false."""
    low, high = _limits(base)
    inches = row.get("inches")
    if inches is None:
        raise RulesetError(f"`inches`: missing; say how far the action takes the leader, like `inches = 8` "
                           f"({low} to {high}).")
    if isinstance(inches, bool) or not isinstance(inches, int):
        raise RulesetError(f"`inches`: `{inches}` is not a whole number of inches; write {low} to {high}.")
    if inches < 0:
        raise RulesetError(f"`inches`: {inches} is negative; an action moves the leader {low} to {high} inches.")
    if not low <= inches <= high:
        raise RulesetError(f"`inches`: {inches} is outside {low} to {high}, the distances a built-in action may "
                           "be set to.")
    assault = row.get("assault", False)
    if not isinstance(assault, bool):
        raise RulesetError(f"`assault`: `{assault}` is not true or false; `true` lets the action close within "
                           "the standoff (A93), like Assault.")
    constant = constant_of(str(row["key"]))
    if constant in base.constants:
        raise RulesetError(f"`key`: its distance would be the constant `{constant}`, which {base.id} already has; "
                           "choose another key.")


def merge_actions(base: Ruleset, rows: list[dict[str, Any]]) -> Ruleset:
    """Return the ruleset with each action's distance constant and its key among the move modes."""
    low, high = _limits(base)
    constants = dict(base.constants)
    modes = list(base.move_modes)
    for row in rows:
        action = read_action(str(row["key"]), row)
        constants[action.constant] = Constant(
            action.constant, int(row["inches"]), f"How far {action.title} takes the leader, in inches (homebrew "
            "action" + (", an assault: it may close within the standoff" if action.assault else "") + ").",
            "homebrew", low, high)
        modes.append(action.key)
    return replace(base, constants=constants, move_modes=tuple(modes), _by_char={})


ACTIONS = HomebrewTable("action", FIELDS, check_action, merge_actions, builtin_keys)


@checks("import-homebrew")
def check_import_homebrew(battle: Battle, order: ImportHomebrew) -> Homebrew:
    """Check a homebrew table line by line; return it."""
    lifecycle.require_not_ended(battle)
    return read_homebrew(order.text, get_ruleset(battle.ruleset_id))


@handles("import-homebrew")
def import_homebrew(battle: Battle, order: ImportHomebrew, dice: Dice, outcome: Outcome) -> None:
    """Make a checked homebrew table's actions the battle's, beside the built-in ones."""
    brew = check_import_homebrew(battle, order)
    install(battle, brew)
    outcome.add(HomebrewImported(terrain=[], features=[],
                   actions=[action_key(k) for k in brew.keys("action")]))
