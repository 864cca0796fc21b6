"""A battle without a map (Surface Combat): its forces, which sides have made their plan, and the rounds fought.

A plan's contents are never read here: the page says only whether a side has committed one. The rounds come
from the engagement's logged result, which the whole table reads once it is fought.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.webfront import Logged
from rules.battle import Battle
from rules.visibility import Viewer, sees
from web.frame import text

RESOLVE = "surface-resolve"


def _state(battle: Battle) -> Mapping[str, Any]:
    found = battle.turn.systems.get("surface", {})
    return found if isinstance(found, Mapping) else {}


def plans_made(battle: Battle) -> dict[str, bool]:
    """Return, for each side, whether it has committed its plan this game turn (never what it is)."""
    plans = _state(battle).get("plans") or {}
    return {s.name: s.name.lower() in plans for s in battle.sides}


def _line(row: Mapping[str, Any], names: Mapping[str, str]) -> str:
    parts = []
    for key, value in row.items():
        if isinstance(value, str | int | float) and not isinstance(value, bool):
            shown = names.get(str(value), value) if key in ("unit", "target", "attacker") else value
            parts.append(f"{key.replace('_', ' ')} {shown}")
    return ", ".join(parts)


def rounds_html(logged: Logged, battle: Battle) -> str:
    """Return the last engagement's rounds, each unit's action on a line."""
    fought = next((e for e in reversed(logged.events) if e.kind == RESOLVE and not e.undone and e.outcome), None)
    if fought is None:
        return "<p>No engagement has been fought yet.</p>"
    data = (fought.outcome or {}).get("data") or {}
    names = {u.id: u.name for u in battle.iter_units()}
    names.update({str(k): str(v) for k, v in (data.get("names") or {}).items()} if isinstance(data.get("names"), Mapping) else {})
    out = []
    for rnd in data.get("log") or []:
        if not isinstance(rnd, Mapping):
            continue
        actions = "".join(f"<li>{text(_line(a, names))}</li>" for a in rnd.get("actions", []) if isinstance(a, Mapping))
        out.append(f'<section class="round"><h4>Round {text(rnd.get("round", "?"))}</h4><ul>{actions}</ul></section>')
    return "".join(out) or "<p>The engagement's rounds are not in the log.</p>"


def surface_board(battle: Battle, logged: Logged, viewer: Viewer, now: Battle) -> str:
    """Return the forces, the plans made and the rounds fought, in place of a map."""
    made = plans_made(battle)
    sides = []
    for side in battle.sides:
        units = [u for u in battle.iter_units() if u.side == side.name and sees(viewer, u)]
        rows = "".join(f"<li>{text(u.name)}: {text(u.health_text() or '')}</li>" for u in units)
        plan = "plan committed" if made.get(side.name) else "no plan yet"
        sides.append(f'<section class="force"><h3>{text(side.name)}</h3><p class="plan">{plan}</p><ul>{rows}</ul></section>')
    return (f'<div class="surface"><h2>Forces</h2>{"".join(sides)}<h2>Rounds fought</h2>'
            f"{rounds_html(logged, now)}</div>")
