"""Orders as players know them: the slash command that gives an order, never its internal kind."""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field

# The command a player types for each order kind every system shares (where it differs from the kind itself).
COMMANDS = {
    "add-unit": "unit add", "edit-unit": "unit edit", "remove-unit": "unit remove", "paint": "map paint",
    "import-map": "map import", "start": "battle start", "end": "battle end", "set-rule": "battle rules set",
    "import-homebrew": "battle rules import", "set-edge": "map edge", "clear-edge": "map edge",
    "end-turn": "turn end", "hold": "turn hold", "skip-turn": "gm skip", "close-round": "turn close-round",
    "set-turn-mode": "turn mode", "standing-order": "turn standing", "side-colour": "battle side colour",
}
# Orders no command gives, as players read them: the bot gives them itself.
INTERNAL = {"standing-turn": "its standing order, at the deadline", "test": "a test"}
# Orders whose fields are no options of their command (a whole file): the command is named alone.
NAMED_ALONE = frozenset({"import-map", "import-homebrew"})
COMMAND_MAX = 160
# Order fields the command names differently; None: the command has no such option (it is left out), and a
# name starting with `!` is a yes/no option meaning the opposite (`on:False` is `remove:True`).
OPTION_NAMES: dict[str, dict[str, str | None]] = {
    "paint": {"frm": "from"}, "standing-order": {"text": "order"}, "roll": {"hidden": None},
}
# Options a command needs to give this kind rather than another of the same command.
FIXED_OPTIONS = {"clear-edge": ("obstacle:none",)}
HIDDEN_OPTIONS = frozenset({"owner"})
# The stats every system's unit commands take as options of their own; any other stat is written in `stats`.
STAT_OPTIONS = {"edit-unit": frozenset({"name", "side"})}  # a user id means nothing to a reader; the answer names the player


@dataclass(frozen=True)
class SystemWords:
    """How one rule system's own order kinds are written as its commands."""

    commands: Mapping[str, str] = field(default_factory=dict)
    option_names: Mapping[str, Mapping[str, str | None]] = field(default_factory=dict)
    fixed_options: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    internal: Mapping[str, str] = field(default_factory=dict)  # the bot's own orders, as players read them
    named_alone: frozenset[str] = frozenset()
    titles: Mapping[str, str] = field(default_factory=dict)  # an action's name on its button, where not the kind's
    # The stats of a unit order (`add-unit`, `edit-unit`) that are options of its command here; others go in `stats`.
    stat_options: Mapping[str, frozenset[str]] = field(default_factory=dict)


_SYSTEMS: dict[str, SystemWords] = {}


def register_words(system_id: str, words: SystemWords) -> None:
    """Say how a rule system's own order kinds are written as the commands that give them."""
    _SYSTEMS[system_id] = words


def _words_for(kind: str, system: str | None) -> SystemWords | None:
    """Return the words of the system whose kind this is: the battle's own, else the one system that has it."""
    if system is not None:
        own = _SYSTEMS.get(system)
        return own if own is not None and (kind in own.commands or kind in own.internal) else None
    having = [w for w in _SYSTEMS.values() if kind in w.commands or kind in w.internal]
    return having[0] if len(having) == 1 else None


def _stats(kind: str, table: dict[str, object], own: SystemWords | None) -> list[str]:
    """Write a unit's stats as its command takes them: each as its own option where there is one, the rest in `stats`."""
    spread = STAT_OPTIONS.get(kind, frozenset()) | (own.stat_options.get(kind, frozenset()) if own else frozenset())
    shown = {k: v for k, v in table.items() if k not in HIDDEN_OPTIONS and not isinstance(v, (dict, list))}
    words = [f"{k}:{v}" if " " not in str(v) else f'{k}:"{v}"' for k, v in shown.items() if k in spread]
    rest = " ".join(f"{k}={v}" for k, v in shown.items() if k not in spread and " " not in str(v))
    return words + ([f'stats:"{rest}"'] if rest else [])


def command_name(kind: str, system: str | None = None) -> str | None:
    """Return the command that gives an order kind (`turn end` for `end-turn`), or None for the bot's own orders."""
    own = _words_for(kind, system)
    if own is not None:
        return None if kind in own.internal else own.commands[kind]
    if kind in INTERNAL:
        return None
    return COMMANDS.get(kind, kind)


def _options(kind: str, key: str, value: str, own: SystemWords | None, battle: SystemWords | None) -> list[str]:
    """Return an order field as the command's options: a stat table spread out as `ag:45 bs:50`."""
    names = own.option_names.get(kind, {}) if own is not None else OPTION_NAMES.get(kind, {})
    if key in HIDDEN_OPTIONS or (key in names and names[key] is None):
        return []
    if value.startswith("{"):
        try:
            table = json.loads(value)
        except ValueError:
            table = None
        if isinstance(table, dict):
            if kind == "gm-set" and len(table) == 1:
                [(field, new)] = table.items()
                return [f"field:{field}", f"value:{new}"]
            return _stats(kind, table, battle)
    name = names.get(key, key) or key
    if name.startswith("!"):  # a yes/no option meaning the opposite of the order's field
        return [] if value.lower() == "true" else [f"{name[1:]}:True"]
    return [f"{name}:{value}" if " " not in value else f'{name}:"{value}"']


def action_title(kind: str, system: str | None = None) -> str:
    """Return an action's name as players say it on its button: `End turn`, `Close combat`."""
    own = _SYSTEMS.get(system) if system is not None else None
    title = own.titles.get(kind) if own is not None else None
    return title or kind.replace("-", " ").capitalize()


def command_text(order_text: str, system: str | None = None) -> str:
    """Write an order as the slash command that gives it: `/turn end unit:Eva-01`, not `end-turn unit:Eva-01`.

    `system` is the battle's rule system id (an order kind two systems share may be two commands). An order
    the bot gives itself reads as what it is (`its standing order, at the deadline`), with no command.
    """
    kind, _sep, rest = order_text.strip().partition(" ")
    name = command_name(kind, system)
    own = _words_for(kind, system)
    if name is None:
        said = own.internal.get(kind) if own is not None else INTERNAL.get(kind)
        return said or "an order the bot gave"
    alone = kind in NAMED_ALONE or (own is not None and kind in own.named_alone)
    # Big orders (a map file) are named, not quoted whole.
    if alone or "\n" in rest or len(rest) > COMMAND_MAX:
        return f"/{name}"
    try:
        tokens = shlex.split(rest)
    except ValueError:
        return f"/{name}"
    fixed = own.fixed_options.get(kind, ()) if own is not None else FIXED_OPTIONS.get(kind, ())
    # The battle's system says which stats its unit commands take as options, for the shared unit orders too.
    battle = _SYSTEMS.get(system) if system is not None else own
    words = [w for tok in tokens for w in _options(kind, *tok.partition(":")[::2], own, battle)] + list(fixed)
    return f"/{name}" + (f" {' '.join(words)}" if words else "")


# Back from a command to the order it gives: the command's name to the order's kind, options to fields.
KINDS = {command: kind for kind, command in COMMANDS.items() if kind not in FIXED_OPTIONS}


def order_text(command: str, system: str | None = None) -> str | None:
    """Read a command as `command_text` writes it back into its order's text form; None when it is not one.

    `/turn end unit:"Eva-01"` gives `end-turn unit:"Eva-01"`. Only commands `command_text` writes whole
    (their options one to one with the order's fields) read back; a caller checks the round trip.
    """
    text = command.strip()
    if not text.startswith("/"):
        return None
    try:
        tokens = shlex.split(text[1:])
    except ValueError:
        return None
    names = [t for t in tokens if ":" not in t]
    options = [t for t in tokens if ":" in t]
    name = " ".join(names)
    own = _SYSTEMS.get(system) if system is not None else None
    mine = {command: kind for kind, command in own.commands.items()} if own is not None else {}
    kind = mine.get(name) or KINDS.get(name, name)
    table = own.option_names if own is not None and kind in own.commands else OPTION_NAMES
    renames = {option: field for field, option in table.get(kind, {}).items() if option is not None}
    fields = []
    for option in options:
        key, _sep, value = option.partition(":")
        fields.append(f"{renames.get(key, key)}:{shlex.quote(value)}")
    return " ".join([kind, *fields])


def footer_text(battle_name: str, order_text: str, actor_name: str = "", system: str | None = None) -> str:
    """Return an outcome's footer: who, in which battle, and the command as they would type it."""
    parts = [actor_name, battle_name, command_text(order_text, system)]
    return " \u00b7 ".join(p for p in parts if p)


def plural(count: int, word: str, many: str = "") -> str:
    """Return `1 square`, `2 squares` (or the plural given)."""
    return f"{count} {word if count == 1 else (many or word + 's')}"
