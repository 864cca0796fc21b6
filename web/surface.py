"""A battle without a map (Surface Combat): its forces, which sides have made their plan, and the rounds fought.

A plan's contents are never read here: the page says only whether a side has committed one. The rounds come
from the engagement's logged result, which the whole table reads once it is fought.
"""

from __future__ import annotations

from html import escape

from bot.webfront import Logged
from rules.battle import Battle
from rules.systems.surface.details import SurfaceReport
from rules.systems.surface.rounds import Action
from rules.systems.surface.state import RESOLVE, logged_report, state
from rules.visibility import Viewer, sees
from web.frame import text


def plans_made(battle: Battle) -> dict[str, bool]:
    """Return, for each side, whether it has committed its plan this game turn (never what it is)."""
    plans = state(battle).plans
    return {s.name: s.name.lower() in plans for s in battle.sides}


def _name(report: SurfaceReport, uid: str, battle: Battle) -> str:
    fate = report.units.get(uid)
    if fate is not None and fate.name:
        return fate.name
    found = battle.units.get(uid)
    return found.name if found is not None else uid


def action_line(act: Action, report: SurfaceReport, battle: Battle) -> str:
    """Return one unit's action in a round: its target, its lottery and hit rolls, what got through, the damage."""
    who = _name(report, act.unit, battle)
    if act.target is None:
        return f"{who}: {act.status or 'does not fire'}"
    parts = [f"{who} fires at {_name(report, act.target, battle)}"]
    if act.lottery is not None:
        parts.append(f"target lottery {act.lottery.roll} of {act.lottery.balls} balls")
    if act.hits is not None:
        parts.append(f"{act.hits.hits} hits")
    if act.through:
        rolls = ", ".join(f"d{t.die} {t.roll} vs {t.needed} {'through' if t.success else 'stopped'}"
                          for t in act.through)
        parts.append(f"through: {rolls}")
    if act.result is not None:
        parts.append(f"damage {act.result.damage} ({act.result.before} \u2192 {act.result.after})")
    return "; ".join(parts)


def chart_svg(report: SurfaceReport) -> str:
    """Return the losses per side at the end of each round as grouped bars, with a table beside for reading."""
    sides = list(report.sides)
    rounds = report.rounds
    if not sides or not rounds:
        return ""
    top = max([1] + [r.losses.get(side, 0) for r in rounds for side in sides])
    bar, gap, height = 14, 12, 120
    width = len(rounds) * (len(sides) * bar + gap) + gap
    colours = ("#285ac8", "#c82828", "#e6aa14", "#823ca0")
    bars = []
    for i, rnd in enumerate(rounds):
        left = gap + i * (len(sides) * bar + gap)
        for j, side in enumerate(sides):
            lost = rnd.losses.get(side, 0)
            h = height * lost / top
            bars.append(f'<rect x="{left + j * bar}" y="{height - h:g}" width="{bar - 2}" height="{h:g}" '
                        f'fill="{colours[j % len(colours)]}"><title>{escape(side)}: {lost} after round '
                        f'{rnd.round}</title></rect>')
        bars.append(f'<text x="{left + len(sides) * bar / 2:g}" y="{height + 14}" font-size="11" '
                    f'text-anchor="middle">{rnd.round}</text>')
    key = "".join(f'<li><svg width="12" height="12" aria-hidden="true"><rect width="12" height="12" '
                  f'fill="{colours[j % len(colours)]}"/></svg> {text(side)}</li>' for j, side in enumerate(sides))
    head = "".join(f'<th scope="col">{text(side)}</th>' for side in sides)
    rows = "".join(f'<tr><th scope="row">{text(r.round)}</th>'
                   + "".join(f'<td>{text(r.losses.get(side, 0))}</td>' for side in sides) + "</tr>"
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
    report = logged_report(battle, fought.outcome)
    if report is None:
        return "<p>This engagement was fought in a form this version does not show; its orders are in the log.</p>"
    verdict = "; ".join(f"{text(side)}: {text(level)}" for side, level in report.verdict.levels.items())
    out = [f'<p class="verdict">{verdict}</p>' if verdict else "", chart_svg(report)]
    for rnd in report.rounds:
        actions = "".join(f"<li>{text(action_line(a, report, battle))}</li>" for a in rnd.actions)
        out.append(f'<section class="round"><h3>Round {text(rnd.round)}</h3><ul>{actions}</ul></section>')
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
