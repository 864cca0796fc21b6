"""M42's own reply pieces: each action's distance in My options, its Command Radius, its verbs in turn prompts."""

from __future__ import annotations

import rules.systems.m42.effects as m42
from cogs.common.embeds import safe, spots, unit_added_line
from cogs.common.embeds_setup import map_line
from cogs.common.systems import FrontEnd
from cogs.common.words import SystemWords, plural
from cogs.m42 import guide
from rules import turns
from rules.battle import Battle
from rules.effects import Effect
from rules.outcome import Outcome
from rules.systems.m42.kinds import actions_of, tables
from rules.systems.m42.orders import Act
from rules.systems.m42.reach import action_reach, command_radius
from rules.systems.m42.units import Unit as M42Unit
from rules.units import Unit


def inches(value: float) -> str:
    """Return a distance in inches as the rules write it: `6"`, `4.5"`."""
    return f"{value:g}\""


def action_lines(battle: Battle, unit: M42Unit) -> list[str]:
    """Describe each action from where the leader stands: its distance, halved, and the squares it reaches."""
    lines = []
    for found in action_reach(battle, unit):
        name = safe(found.name)
        note = " (an assault: it may close within the standoff)" if found.assault else ""
        lines.append(f"**{name}**: {inches(found.inches)}, {inches(found.halved)} through area terrain, over an "
                     f"obstacle or a wall without opening; {len(found.squares)} squares{note}")
    return lines


def _homebrew_sections(battle: Battle) -> list[tuple[str, list[str]]]:
    """Return the GM's homebrew actions, each with its distance now (a GM may have set it) and its flag."""
    builtin = tables(battle.ruleset_id).actions
    lines = []
    for action in actions_of(battle).values():
        if action.key in builtin:
            continue
        note = ", an assault: it may close within the standoff (A93)" if action.assault else ""
        lines.append(f"**{safe(action.title)}** (`{action.key}`): {inches(int(battle.const(action.constant)))}"
                     f"{note}; its distance is `{action.constant}`")
    return [("Homebrew actions", lines)] if lines else []


HALVING_WORDS = {"area": "area terrain", "obstacle": "a linear obstacle", "wall": "a wall without an opening"}


def _action_taken(e: m42.ActionTaken) -> str:
    """Say how far an M42 leader went for its action, what halved it, and where the models stand."""
    action = safe(e.name or e.action.replace("-", " ").title())
    halved = ", ".join(HALVING_WORDS.get(h, h) for h in e.halved)
    why = f", halved once for {halved} (A90)" if halved else ""
    line = f"{safe(e.unit)}: {action} {safe(e.frm)} \u2192 {safe(e.to)}, {e.walked:g}\" of {e.allowance:g}\"{why}"
    return line + (f"; models on {spots(list(e.models))}" if e.models else "")


LINES = {
    m42.UnitAdded: lambda e: unit_added_line(e.unit, e.side, e.at, e.owner, list(e.models)),
    m42.ActionTaken: _action_taken,
    m42.Placed: lambda e: f"{safe(e.unit)}'s models now stand on {spots(list(e.models))}",
    m42.Road: lambda e: f"Road {'laid on' if e.on else 'lifted from'} {plural(e.cells, 'square')}",
    m42.Floors: lambda e: f"{plural(e.cells, 'square')} now {'has' if e.cells == 1 else 'have'} {plural(e.floors, 'floor')}",
}


def _sentence(effect: Effect, battle: Battle | None, outcome: Outcome | None) -> str | None:
    """Return one of M42's own setup effects as a sentence: what a map import laid down."""
    if isinstance(effect, m42.MapImported):
        return map_line(effect.width, effect.height, [(effect.road, "road square", "road squares"),
                                                      (effect.floors, "square of several floors",
                                                       "squares of several floors"),
                                                      (effect.edges, "obstacle on a side", "obstacles on sides")])
    return None


def _option_fields(battle: Battle, unit: Unit) -> list[tuple[str, str]]:
    """Return the actions with their distances and the Command Radius, for My options."""
    if not isinstance(unit, M42Unit):
        return []
    cost = turns.order_cost(battle, Act(unit=unit.name, action="advance", to=unit.cell)).points
    radius = command_radius(battle, unit)
    return [
        (f"Actions (/move or /action, {cost} AP)", "\n".join(action_lines(battle, unit))),
        ("Command Radius (/radius, /place)", f"Ld {unit.ld}: 2 x Ld = {inches(2 * unit.ld)} in the open; "
                                             f"its models may stand on {len(radius)} squares now."),
    ]


def _prompt_verbs(battle: Battle, unit: Unit, left: int) -> list[str]:
    """Return /action (to any floor, models by hand) and /place."""
    return ["/action", "/place"] if isinstance(unit, M42Unit) else []


WORDS = SystemWords(
    commands={"place": "place", "take-action": "action", "set-floors": "map floors", "set-road": "map road"},
    option_names={"take-action": {"level": "floor"}, "set-floors": {"frm": "from"},
                  "set-road": {"frm": "from", "on": "!remove"}},
    titles={"take-action": "Action"},
    stat_options={"add-unit": frozenset({"ld", "models", "interlinked", "vehicle"})},
)

FRONT_END = FrontEnd(words=WORDS, sentence=_sentence, lines=LINES, help_gm=(guide.GM_TITLE, guide.GM_GUIDE),
                     help_player=(guide.PLAYER_TITLE, guide.PLAYER_GUIDE), option_fields=_option_fields, prompt_verbs=_prompt_verbs,
                     homebrew_sections=_homebrew_sections, commands=frozenset({"action", "place", "radius", "map road", "map floors"}),
                     options={"unit add": frozenset({"ld", "models", "interlinked", "vehicle"})},
                     instead={"unit add": "An M42 unit takes `ld` and `models` (its traits in `stats`)."})
