"""Stats typed in one option: `key=value` pairs, or a JSON object for lists such as weapons."""

from __future__ import annotations

import json
import shlex
from typing import Any

from cogs.common.embeds import safe
from rules.errors import InvalidOrderError, shorten
from rules.filelimits import TYPED_JSON, load_json, whole
from rules.system import system_of
from rules.weaponline import read_weapon_line

GUIDE = "write `key=value` pairs, like `kind=vehicle pf=6 mv=30 facing=N`, or a JSON object for weapons"


def _value(raw: str, key: str) -> Any:
    if raw.lower() in ("true", "false"):
        return raw.lower() == "true"
    if raw.lstrip("-").isdigit():
        return whole(raw, key)
    if raw.startswith(("[", "{")):
        try:
            return load_json(raw, TYPED_JSON)
        except json.JSONDecodeError:
            raise InvalidOrderError(f"`{raw}` is not valid JSON; {GUIDE}.") from None
    if "," in raw:
        return [part.strip() for part in raw.split(",") if part.strip()]
    return raw


def parse_stats(text: str) -> dict[str, Any]:
    """Read the `stats` option: `kind=vehicle pf=6 statuses=pinned,flat_down`, or `{"weapons": [...]}`."""
    clean = text.strip()
    if not clean:
        return {}
    if clean.startswith("{"):
        try:
            found = load_json(clean, TYPED_JSON)
        except json.JSONDecodeError as exc:
            raise InvalidOrderError(f"`stats` is not valid JSON ({exc.msg}); {GUIDE}.") from None
        if not isinstance(found, dict):
            raise InvalidOrderError(f"`stats` must be an object; {GUIDE}.")
        return found
    try:
        tokens = shlex.split(clean)
    except ValueError as exc:
        raise InvalidOrderError(f"Cannot read `stats`: {exc}; {GUIDE}.") from None
    out: dict[str, Any] = {}
    for token in tokens:
        key, sep, raw = token.partition("=")
        if not sep or not key.strip() or not raw.strip():
            raise InvalidOrderError(f"`{shorten(token)}` is not a stat; {GUIDE}.")
        out[key.strip().lower()] = _value(raw.strip(), key.strip().lower())
    return out


def typed_weapons(ruleset_id: str, text: str | None, stats: dict[str, Any]) -> list[dict[str, Any]] | None:
    """Read the `weapons` option in the notation of the battle's rule system (None: the option was left out)."""
    if text is None or not text.strip():
        return None
    system = system_of(ruleset_id)
    if system.weapon_line is None:
        raise InvalidOrderError(f"{system.name} units carry no weapons to write; leave `weapons` out.")
    if "weapons" in stats:
        raise InvalidOrderError("Weapons are given twice, in `weapons` and in `stats`; give them once, in `weapons`.")
    return read_weapon_line(system.weapon_line, text)


def weapons_note(weapons: list[dict[str, Any]]) -> str:
    """Say which weapons a unit now carries, as names."""
    if not weapons:
        return "Weapons: none."
    return "Weapons: " + ", ".join(safe(w.get("name", "?")) for w in weapons) + "."
