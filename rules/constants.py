"""Rule constants as the GM sees them: each value, its default, whether it was overridden, and its ruling."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rules.battle import Battle


def const_or(battle: Battle[Any], key: str, default: Any) -> Any:
    """Return a rule constant, or the default where this battle's scale has no such rule."""
    if key in battle.constants or key in battle.ruleset.constants:
        return battle.const(key)
    return default


def list_constants(battle: Battle[Any]) -> list[dict[str, Any]]:
    """List every rule constant of the battle's ruleset with its value, default, ruling and explanation."""
    out: list[dict[str, Any]] = []
    for key in sorted(battle.ruleset.constants):
        const = battle.ruleset.constants[key]
        value = battle.const(key)
        out.append({
            "key": key, "value": value, "default": const.value, "overridden": key in battle.constants,
            "ruling": const.ruling, "doc": const.doc, "min": const.min, "max": const.max,
        })
    return out
