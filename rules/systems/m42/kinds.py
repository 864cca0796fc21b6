"""What each terrain and action means to M42, read from the `[m42]` tables of the ruleset document."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from rules.errors import RulesetError
from rules.system import system_of

if TYPE_CHECKING:
    from rules.battle import Battle


@dataclass(frozen=True, slots=True)
class Kind:
    """How a terrain plays: area terrain, a building, floors (buildings and ruins), impassable."""

    key: str
    area: bool = False
    building: bool = False
    floors: bool = False
    impassable: bool = False


ACTION_FIELDS = frozenset({"name", "assault"})  # what an `[m42.actions]` row may say; the distance is a constant


@dataclass(frozen=True, slots=True)
class Action:
    """An action a unit takes: the constant holding how far its leader moves, and whether it is an assault."""

    key: str  # as commands write it: `at-the-double`
    assault: bool = False
    name: str = ""

    @property
    def constant(self) -> str:
        """Return the rule constant of the action's distance in inches, like `at_the_double_inches`."""
        return constant_of(self.key)

    @property
    def title(self) -> str:
        """Return the name players read: the row's own, or the key written as words."""
        return self.name or self.key.replace("-", " ").title()


def action_key(key: str) -> str:
    """Return an action's key as commands write it: lower case, words joined by `-` (`At the double` -> `at-the-double`)."""
    return key.strip().lower().replace(" ", "-").replace("_", "-")


def constant_of(key: str) -> str:
    """Return the rule constant holding an action's distance in inches, like `at_the_double_inches`."""
    return f"{action_key(key).replace('-', '_')}_inches"


def read_action(key: str, spec: dict[str, Any]) -> Action:
    """Build an action from its row; the caller has checked the fields."""
    return Action(action_key(key), bool(spec.get("assault", False)), str(spec.get("name", "")).strip())


@dataclass(frozen=True, slots=True)
class Tables:
    """The M42 tables of one ruleset."""

    kinds: dict[str, Kind]
    actions: dict[str, Action]


def parse_tables(doc: dict[str, Any], terrain_keys: set[str], where: str, constants: set[str]) -> Tables:
    """Validate the `[m42]` tables of a ruleset document against its terrain table and constants."""
    table = doc.get("m42")
    if not isinstance(table, dict):
        raise RulesetError(f"{where}: missing the `[m42]` table")
    kinds: dict[str, Kind] = {}
    raw_kinds = table.get("kinds", {})
    for key in sorted(terrain_keys):
        spec = raw_kinds.get(key)
        if not isinstance(spec, dict):
            raise RulesetError(f"{where} [m42.kinds]: terrain `{key}` needs a row (use `{key} = {{}}` for open ground)")
        unknown = set(spec) - {"area", "building", "floors", "impassable"}
        if unknown:
            raise RulesetError(f"{where} [m42.kinds.{key}]: unknown field `{sorted(unknown)[0]}`")
        kinds[key] = Kind(key, **{k: bool(v) for k, v in spec.items()})
    extra = set(raw_kinds) - terrain_keys
    if extra:
        raise RulesetError(f"{where} [m42.kinds]: `{sorted(extra)[0]}` is not in the terrain table")
    actions: dict[str, Action] = {}
    for key, spec in table.get("actions", {}).items():
        if not isinstance(spec, dict) or set(spec) - ACTION_FIELDS:
            raise RulesetError(f"{where} [m42.actions.{key}]: an action row holds only `name` and `assault` "
                               "(true or false)")
        action = read_action(key, spec)
        if action.constant not in constants:
            raise RulesetError(f"{where} [m42.actions.{key}]: its distance needs a constant `{action.constant}`")
        actions[key] = action
    if not actions:
        raise RulesetError(f"{where} [m42.actions]: list at least one action")
    return Tables(kinds, actions)


def actions_of(battle: Battle[Any]) -> dict[str, Action]:
    """Return the actions of a battle: its ruleset's, then the GM's homebrew `[[action]]` rows, by key."""
    brewed = (read_action(str(row["key"]), row) for row in battle.homebrew.get("action", []))
    return {**tables(battle.ruleset_id).actions, **{a.key: a for a in brewed}}


@cache
def tables(ruleset_id: str) -> Tables:
    """Return the M42 tables of a ruleset, validated once."""
    from rules.ruleset import get_ruleset

    doc = system_of(ruleset_id).document(ruleset_id)
    ruleset = get_ruleset(ruleset_id)
    return parse_tables(doc, set(ruleset.terrain), f"{ruleset_id}.toml", set(ruleset.constants))
