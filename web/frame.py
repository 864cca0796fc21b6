"""The parts of a battle's page that change as it goes on (or as a replay steps): built as escaped HTML.

A frame is what one viewer sees of the battle at one moment: the status line and deadline, the map (or a
Surface battle's forces), the unit cards, the log and the text map. Everything goes through
`rules.visibility` on the way: the map view leaves out what the viewer may not see, the log comes from
`web.logview.visible_entries`, and a map-less battle's secret plans are named, never shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from html import escape
from typing import Any

from bot.webfront import MayDo
from rules import turns
from rules.battle import Battle
from rules.constants import list_constants
from rules.coords import Cell
from rules.outcome import Highlight
from rules.visibility import Viewer, sees
from web.logview import Entry
from web.svg import colour, map_svg, unit_id


def text(value: object) -> str:
    """Return a person's words as HTML text: escaped, and isolated so right-to-left names cannot reorder the line."""
    return f"<bdi>{escape(str(value))}</bdi>"


def when(seconds: float | None, *, relative: bool = False) -> str:
    """Return a moment as a `<time>` the page's script shows in the viewer's own time zone (UTC until then)."""
    if seconds is None:
        return ""
    moment = datetime.fromtimestamp(seconds, UTC)
    kind = ' data-relative="1"' if relative else ""
    return f'<time datetime="{moment.isoformat()}"{kind}>{moment:%Y-%m-%d %H:%M} UTC</time>'


@dataclass
class Frame:
    """One viewer's view of the battle at one step: HTML parts and the numbers the script needs."""

    step: int
    steps: int
    status: str
    board: str
    cards: str
    log: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """Return the frame for the page's script."""
        return {"step": self.step, "steps": self.steps, "status": self.status, "board": self.board,
                "cards": self.cards, "log": self.log, **self.data}


def status_html(battle: Battle, status_line: str, clock: Any | None, *, live: bool) -> str:
    """Return the round, phase, who is due and the deadline."""
    parts = [f'<p class="turn">{text(status_line)}</p>']
    if live and clock is not None and battle.status == "active":
        if getattr(clock, "paused", False):
            parts.append('<p class="deadline">The clock is paused.</p>')
        elif clock.due_at is not None:
            parts.append(f'<p class="deadline">Deadline: {when(clock.due_at)}</p>')
    if not live:
        parts.append('<p class="replaying">Replaying: this is the battle as it stood then.</p>')
    return "".join(parts)


def cards_html(battle: Battle, view: Any, viewer: Viewer, *, choices: bool = False) -> str:
    """Return a card per unit on the map the viewer sees: stat lines, health, statuses, what it may still do.

    What a unit may still do (its legal orders in players' words, for the battle now: `choices`) shows on the
    cards of the viewer's own side's units only, or on every card for the GM. Working it out for every unit
    of a big battle takes a while, so a card holds only a place for it, filled when the card is opened
    (`may_html`, from the page's `may` address).
    """
    states = {u["id"]: u for u in turns.turn_status(battle)["units"]} if battle.status == "active" else {}
    by_name = {u.name: u for u in battle.iter_units()}
    out = []
    for index, token in enumerate(view.units):
        unit = by_name.get(token.key)
        if unit is None or not sees(viewer, unit):
            continue
        rows = [("Side", token.side), ("Square", str(Cell(token.x, token.y))), ("Health", token.health_text)]
        if token.owner:
            rows.append(("Player", token.owner))
        if token.statuses:
            rows.append(("Status", ", ".join(token.statuses)))
        state = states.get(unit.id)
        if state is not None:
            doing = {"acting": "may act now", "waiting": "waits for its turn", "out": "out of the fight",
                     "next_round": "acts next round"}.get(state["state"], turns.DONE_PHRASES.get(state["state"], state["state"]))
            left = state.get("actions_left")
            rows.append(("This turn", doing + (f" ({left} actions left)" if left is not None and state["state"] == "acting" else "")))
        rows += [(k, v) for k, v in unit.stat_lines() if k != "Health"]
        body = "".join(f"<dt>{text(k)}</dt><dd>{text(v)}</dd>" for k, v in rows)
        if choices and state is not None and state["state"] == "acting" and (viewer.gm or viewer.is_of(unit.side)):
            body += f'<dt>May still</dt><dd data-may="{escape(unit.name)}">working it out\u2026</dd>'
        out.append(f'<section class="card" id="card-{unit_id(index)}" hidden aria-label="{escape(token.shown_name)}">'
                   f'<h3>{text(token.shown_name)}</h3><dl>{body}</dl></section>')
    return "".join(out)


MAX_CHOICES = 6  # squares or units named after an action; the rest are counted


def may_do_words(action: MayDo, unseen: set[str]) -> str:
    """Return one action a unit may take as players say it: `Move: half · 1 of 2 AP, to any of 24 squares`."""
    units = [u for u in action.units if u.lower() not in unseen]
    if action.units and not units:
        return ""  # every target on offer is out of the viewer's sight: the action is not theirs to know of
    if action.squares:
        squares = list(action.squares)
        where = ", ".join(squares) if len(squares) <= MAX_CHOICES else f"any of {len(squares)} squares"
        return f"{action.label}, to {where}"
    if units:
        more = f" or {len(units) - MAX_CHOICES} more" if len(units) > MAX_CHOICES else ""
        return f"{action.label}, at {', '.join(units[:MAX_CHOICES])}{more}"
    return action.label


def may_html(actions: Sequence[MayDo], unseen: set[str]) -> str:
    """Return what a unit may still do as a list (or says it may do nothing more this turn)."""
    words = [w for w in (may_do_words(a, unseen) for a in actions) if w]
    if not words:
        return "nothing more this turn"
    return '<ul class="may">' + "".join(f"<li>{text(w)}</li>" for w in words) + "</ul>"


def units_table(view: Any) -> str:
    """Return every unit the viewer sees as a table, for reading and for screen readers."""
    if not view.units:
        return "<p>No units on the map.</p>"
    rows = "".join(
        f'<tr><th scope="row"><a href="#{unit_id(i)}" class="unit-link" data-unit="{unit_id(i)}">{text(t.shown_name)}</a>'
        f'</th><td>{text(t.side)}</td><td>{Cell(t.x, t.y)}</td><td>{text(t.health_text)}</td>'
        f'<td>{text(", ".join(t.statuses))}</td></tr>'
        for i, t in enumerate(view.units))
    return ('<table class="units"><caption>Units on the map</caption><thead><tr><th scope="col">Unit</th>'
            '<th scope="col">Side</th><th scope="col">Square</th><th scope="col">Health</th><th scope="col">Status</th>'
            f'</tr></thead><tbody>{rows}</tbody></table>')


def swatch(rgb: Sequence[int]) -> str:
    """Return a small square of a colour for a key (drawn as SVG: no inline styles)."""
    return f'<svg class="swatch" width="14" height="14" aria-hidden="true"><rect width="14" height="14" fill="{colour(rgb)}" stroke="#1a1a1e"/></svg>'


def key_html(view: Any) -> str:
    """Return the sides' colours and the terrain key."""
    sides = "".join(f"<li>{swatch(s.color)}{text(s.name)}</li>" for s in view.sides)
    used = sorted(set(view.terrain))
    terrain = "".join(f"<li>{swatch(view.styles[k].color)}{text(view.styles[k].name)}</li>" for k in used if k in view.styles)
    return f'<ul class="key sides" aria-label="Sides">{sides}</ul><ul class="key terrain" aria-label="Terrain">{terrain}</ul>'


def board_html(view: Any, highlight: Highlight | None, title: str) -> str:
    """Return the map and its key."""
    return ('<p class="help">Drag or use the arrow keys to move the map, the wheel or + and - to zoom, 0 to see it '
            'whole. Point at a unit, tap it, or tab to it for its card.</p>'
            f'<div id="map" class="map" tabindex="0" aria-label="Map: drag or use the arrow keys to move, '
            f'+ and - to zoom">{map_svg(view, highlight=highlight, title=title)}</div>{key_html(view)}'
            + units_table(view))


def entry_html(entry: Entry, *, current: bool = False) -> str:
    """Return one log entry as a list item."""
    cls = ["entry"] + (["secret"] if entry.secret else []) + (["undone"] if entry.undone else []) + (
        ["current"] if current else [])
    details = ""
    lines = [*(f'<li class="roll">roll {text(r)}</li>' for r in entry.rolls),
             *(f'<li class="test">{text(t)}</li>' for t in entry.tests),
             *(f'<li class="effect">{text(e)}</li>' for e in entry.effects)]
    if lines:
        details = f'<ul class="breakdown">{"".join(lines)}</ul>'
    undone = " (undone)" if entry.undone else ""
    aria = ' aria-current="step"' if current else ""
    return (f'<li class="{" ".join(cls)}" id="e{entry.seq}" data-seq="{entry.seq}"{aria}><span class="seq">#{entry.seq}</span> '
            f'{when(entry.at)} <span class="who">{text(entry.who)}</span> '
            f'<span class="what">{text(entry.text)}</span>{undone}{details}</li>')


def log_html(entries: Sequence[Entry], current: int | None = None) -> str:
    """Return the log, newest first."""
    if not entries:
        return "<p>No orders yet.</p>"
    return '<ol class="log" reversed>' + "".join(
        entry_html(e, current=e.seq == current) for e in reversed(entries)) + "</ol>"


def textmap_html(lines: Sequence[str]) -> str:
    """Return the text map of `/map text` as preformatted text."""
    return f'<pre class="textmap">{escape(chr(10).join(lines))}</pre>'


def constants_html(battle: Battle) -> str:
    """Return the battle's rule constants, the overridden ones marked."""
    rows = "".join(
        f'<tr><th scope="row"><code>{escape(str(c["key"]))}</code></th><td>{text(c["value"])}'
        + (f' <small>(default {text(c["default"])})</small>' if c["overridden"] else "")
        + f'</td><td>{text(c["doc"])}' + (f' <small>[{text(c["ruling"])}]</small>' if c["ruling"] else "")
        + "</td></tr>"
        for c in list_constants(battle))
    return ('<table class="constants"><thead><tr><th scope="col">Constant</th><th scope="col">Value</th>'
            f'<th scope="col">What it does</th></tr></thead><tbody>{rows}</tbody></table>')
