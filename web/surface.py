"""A battle without a map (Surface Combat): its forces, which sides have made their plan, and the rounds fought.

A plan's contents are never read here: the page says only whether a side has committed one. The rounds come
from the engagement's logged result, which the whole table reads once it is fought.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
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


def _name(report: Mapping[str, Any], uid: Any, battle: Battle) -> str:
    units = report.get("units") if isinstance(report.get("units"), Mapping) else {}
    entry = units.get(str(uid)) if units else None
    if isinstance(entry, Mapping) and entry.get("name"):
        return str(entry["name"])
    found = battle.units.get(str(uid))
    return found.name if found is not None else str(uid)


def action_line(act: Mapping[str, Any], report: Mapping[str, Any], battle: Battle) -> str:
    """Return one unit's action in a round: its target, its lottery and hit rolls, what got through, the damage."""
    who = _name(report, act.get("unit"), battle)
    if not act.get("target"):
        return f"{who}: {act.get('status', 'does not fire')}"
    parts = [f"{who} fires at {_name(report, act['target'], battle)}"]
    lottery = act.get("lottery")
    if isinstance(lottery, Mapping):
        parts.append(f"target lottery {lottery.get('roll')} of {lottery.get('balls')} balls")
    hits = act.get("hits")
    if isinstance(hits, Mapping):
        parts.append(f"{hits.get('hits', 0)} hits")
    through = [t for t in act.get("through", []) or [] if isinstance(t, Mapping)]
    if through:
        rolls = ", ".join(f"d{t.get('die', 100)} {t.get('roll')} vs {t.get('needed')} "
                          f"{'through' if t.get('success') else 'stopped'}" for t in through)
        parts.append(f"through: {rolls}")
    result = act.get("result")
    if isinstance(result, Mapping):
        parts.append(f"damage {result.get('damage', 0)} ({result.get('before')} \u2192 {result.get('after')})")
    return "; ".join(parts)


def chart_svg(report: Mapping[str, Any]) -> str:
    """Return the losses per side at the end of each round as grouped bars, with a table beside for reading."""
    sides = [str(s) for s in report.get("sides", [])]
    rounds = [r for r in report.get("log", []) or [] if isinstance(r, Mapping)]
    if not sides or not rounds:
        return ""
    top = max([1] + [int(r.get("losses", {}).get(side, 0) or 0) for r in rounds for side in sides])
    bar, gap, height = 14, 12, 120
    width = len(rounds) * (len(sides) * bar + gap) + gap
    colours = ("#285ac8", "#c82828", "#e6aa14", "#823ca0")
    bars = []
    for i, rnd in enumerate(rounds):
        left = gap + i * (len(sides) * bar + gap)
        for j, side in enumerate(sides):
            lost = int(rnd.get("losses", {}).get(side, 0) or 0)
            h = height * lost / top
            bars.append(f'<rect x="{left + j * bar}" y="{height - h:g}" width="{bar - 2}" height="{h:g}" '
                        f'fill="{colours[j % len(colours)]}"><title>{escape(side)}: {lost} after round '
                        f'{escape(str(rnd.get("round")))}</title></rect>')
        bars.append(f'<text x="{left + len(sides) * bar / 2:g}" y="{height + 14}" font-size="11" '
                    f'text-anchor="middle">{escape(str(rnd.get("round")))}</text>')
    key = "".join(f'<li><svg width="12" height="12" aria-hidden="true"><rect width="12" height="12" '
                  f'fill="{colours[j % len(colours)]}"/></svg> {text(side)}</li>' for j, side in enumerate(sides))
    head = "".join(f'<th scope="col">{text(side)}</th>' for side in sides)
    rows = "".join(f'<tr><th scope="row">{text(r.get("round"))}</th>'
                   + "".join(f'<td>{text(r.get("losses", {}).get(side, 0))}</td>' for side in sides) + "</tr>"
                   for r in rounds)
    return (f'<figure class="chart"><svg viewBox="0 0 {width} {height + 20}" width="{width}" height="{height + 20}" '
            f'role="img" aria-label="Losses per side by the end of each round">{"".join(bars)}</svg>'
            f'<figcaption><ul class="key">{key}</ul></figcaption></figure>'
            f'<table class="losses"><caption>Losses by the end of each round</caption><thead><tr><th scope="col">'
            f'Round</th>{head}</tr></thead><tbody>{rows}</tbody></table>')


def rounds_html(logged: Logged, battle: Battle, upto: int | None = None) -> str:
    """Return the last engagement fought (up to log entry `upto`): its verdict, the losses chart, each round."""
    fought = next((e for e in reversed(logged.events) if e.kind == RESOLVE and not e.undone and e.outcome
                   and (upto is None or e.seq <= upto)), None)
    if fought is None:
        return "<p>No engagement has been fought yet.</p>"
    report = (fought.outcome or {}).get("data") or {}
    levels = (report.get("verdict") or {}).get("levels") or {}
    verdict = "; ".join(f"{text(side)}: {text(level)}" for side, level in levels.items())
    out = [f'<p class="verdict">{verdict}</p>' if verdict else "", chart_svg(report)]
    for rnd in report.get("log") or []:
        if not isinstance(rnd, Mapping):
            continue
        actions = "".join(f"<li>{text(action_line(a, report, battle))}</li>"
                          for a in rnd.get("actions", []) if isinstance(a, Mapping))
        out.append(f'<section class="round"><h3>Round {text(rnd.get("round", "?"))}</h3><ul>{actions}</ul></section>')
    return "".join(out)


def surface_board(battle: Battle, logged: Logged, viewer: Viewer, now: Battle, upto: int | None = None) -> str:
    """Return the forces, the plans made and the rounds fought, in place of a map."""
    made = plans_made(battle)
    sides = []
    for side in battle.sides:
        units = [u for u in battle.iter_units() if u.side == side.name and sees(viewer, u)]
        rows = "".join(f"<li>{text(u.name)}: {text(u.health_text() or '')}</li>" for u in units)
        plan = "plan committed" if made.get(side.name) else "no plan yet"
        sides.append(f'<section class="force"><h3>{text(side.name)}</h3><p class="plan">{plan}</p><ul>{rows}</ul></section>')
    return (f'<div class="surface"><h2>Forces</h2>{"".join(sides)}<h2>Rounds fought</h2>'
            f"{rounds_html(logged, now, upto)}</div>")
