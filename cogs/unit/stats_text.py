"""Stats typed in one option: `key=value` pairs, or a JSON object for lists such as weapons."""

from __future__ import annotations

import json
import shlex
from typing import Any

from rules.errors import InvalidOrderError, shorten
from rules.filelimits import TYPED_JSON, load_json, whole

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
