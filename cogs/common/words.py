"""Orders as players know them: the slash command that gives an order, never its internal kind."""

from __future__ import annotations

import json
import shlex

# The command a player types for each order kind (where it differs from the kind itself).
COMMANDS = {
    "add-unit": "unit add", "edit-unit": "unit edit", "remove-unit": "unit remove", "paint": "map paint",
    "import-map": "map import", "start": "battle start", "end": "battle end", "set-rule": "battle rules set",
    "test": "act", "end-turn": "turn end", "hold": "turn hold", "skip-turn": "gm skip",
    "close-round": "turn close-round", "set-turn-mode": "turn mode", "standing-order": "turn standing",
    "standing-turn": "deadline (standing orders)", "gm-place": "gm move", "gm-set": "gm set", "freeze": "gm freeze",
    "place-feature": "feature place", "remove-feature": "feature remove", "set-fp": "feature points",
    "trigger-trap": "trap trigger", "detect-traps": "trap detect", "next-round": "round start",
    "surface-side": "surface side", "surface-plan": "surface plan", "surface-resolve": "surface resolve",
    "surface-next-turn": "surface next-turn",
}
COMMAND_MAX = 160
# Order fields the command names differently.
OPTION_NAMES = {"gm-place": {"target": "unit", "at": "to"}, "gm-set": {"target": "unit"}}
HIDDEN_OPTIONS = frozenset({"owner"})  # a user id means nothing to a reader; the answer names the player


def _options(kind: str, key: str, value: str) -> list[str]:
    """Return an order field as the command's options: a stat table spread out as `ag:45 bs:50`."""
    if key in HIDDEN_OPTIONS:
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
            return [f"{k}:{v}" for k, v in table.items() if not isinstance(v, (dict, list))]
    name = OPTION_NAMES.get(kind, {}).get(key, key)
    return [f"{name}:{value}" if " " not in value else f'{name}:"{value}"']


def command_text(order_text: str) -> str:
    """Write an order as the slash command that gives it: `/turn end unit:Eva-01`, not `end-turn unit:Eva-01`."""
    kind, _sep, rest = order_text.strip().partition(" ")
    name = COMMANDS.get(kind, kind)
    # Big orders (a map file) are named, not quoted whole.
    if "\n" in rest or len(rest) > COMMAND_MAX:
        return f"/{name}"
    try:
        tokens = shlex.split(rest)
    except ValueError:
        return f"/{name}"
    words = [w for tok in tokens for w in _options(kind, *tok.partition(":")[::2])]
    return f"/{name}" + (f" {' '.join(words)}" if words else "")


# Back from a command to the order it gives: the command's name to the order's kind, options to fields.
KINDS = {command: kind for kind, command in COMMANDS.items()}
FIELD_NAMES = {kind: {option: name for name, option in names.items()} for kind, names in OPTION_NAMES.items()}


def order_text(command: str) -> str | None:
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
    kind = KINDS.get(name, name)
    renames = FIELD_NAMES.get(kind, {})
    fields = []
    for option in options:
        key, _sep, value = option.partition(":")
        fields.append(f"{renames.get(key, key)}:{shlex.quote(value)}")
    return " ".join([kind, *fields])


def footer_text(battle_name: str, order_text: str, actor_name: str = "") -> str:
    """Return an outcome's footer: who, in which battle, and the command as they would type it."""
    parts = [actor_name, battle_name, command_text(order_text)]
    return " \u00b7 ".join(p for p in parts if p)


def plural(count: int, word: str, many: str = "") -> str:
    """Return `1 square`, `2 squares` (or the plural given)."""
    return f"{count} {word if count == 1 else (many or word + 's')}"
