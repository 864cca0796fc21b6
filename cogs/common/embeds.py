"""Format outcomes as embeds a player can check line by line."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

import discord

import rules.core_effects as core
from cogs.common.words import footer_text, plural
from rules.effects import Effect
from rules.outcome import Outcome
from rules.rolltests import D100Test

OK = discord.Colour.from_rgb(60, 140, 80)
FAIL = discord.Colour.from_rgb(190, 60, 50)
INFO = discord.Colour.from_rgb(70, 110, 170)
MAX_LINES = 25

TITLES = {
    "paint": "Terrain painted", "add-unit": "Unit added", "edit-unit": "Unit edited", "remove-unit": "Unit removed",
    "start": "Battle started", "end": "Battle ended", "set-rule": "Rule changed", "move": "Move",
    "test": "Test", "roll": "Roll", "set-edge": "Obstacles set", "clear-edge": "Obstacles cleared",
    "set-road": "Road", "set-floors": "Floors", "place": "Models placed", "take-action": "Action",
}


def signed(value: int) -> str:
    """Return a number with its sign (+10, −5, +0)."""
    return f"+{value}" if value >= 0 else f"\u2212{abs(value)}"


# Discord draws `<@1234>`, `<@!1234>`, `<@&1234>` and `<#1234>` as mentions whatever the id's length, while
# `discord.utils.escape_mentions` only defuses ids of 17 to 20 digits.
_MENTION_FORM = re.compile(r"<(@[!&]?|#)(\d)")


def safe(text: object) -> str:
    """Return user-supplied text with markdown and mentions defused for embeds."""
    escaped = discord.utils.escape_mentions(discord.utils.escape_markdown(str(text)))
    return _MENTION_FORM.sub("<\\1\u200b\\2", escaped)


def test_lines(test: D100Test) -> list[str]:
    """Return the lines of one d100 test: base, each modifier, cap, target, roll and result."""
    bd = test.breakdown
    lines = [f"{safe(bd.base_label)} **{bd.base}**"]
    for m in bd.modifiers:
        lines.append(f"{signed(m.value)} {safe(m.label)}")
    if bd.raw_total != bd.total_modifier:
        lines.append(f"modifiers {signed(bd.raw_total)} capped at {signed(bd.total_modifier)} (limit \u00b1{bd.cap})")
    verdict = "success" if test.success else "failure"
    degrees = f"{test.degrees} degree{'s' if test.degrees != 1 else ''} of {verdict}"
    mark = "\u2705" if test.success else "\u274c"
    lines.append(f"Target **{test.target}** \u00b7 d100 **{test.roll}** \u2192 {mark} {verdict}, {degrees}")
    return lines


def roll_line(roll: dict[str, Any]) -> str:
    """Return one roll as `2d6+3: [4, 2] = 9 (damage)`, or each die in place when some was dropped or rerolled."""
    why = f" ({safe(roll['purpose'])})" if roll.get("purpose") else ""
    manual = " \u270d manual" if roll.get("manual") else ""
    if roll.get("shown"):
        # `4d6kh3 (2, 5, ~~1~~, 6) + 3`: struck dice were dropped or rerolled, `6!` exploded, `1→3` was set.
        return f"\U0001f3b2 `{roll['notation']}`: {roll['shown']} = **{roll['total']}**{why}{manual}"
    faces = ", ".join(str(f) for f in roll["faces"])
    return f"\U0001f3b2 `{roll['notation']}`: [{faces}] = **{roll['total']}**{why}{manual}"


_SYSTEM_LINES: dict[type[Effect], Callable[[Any], str]] = {}
_DETAIL_LINES: dict[str, Callable[[Outcome], list[str]]] = {}
PATH = "Path: "


def register_detail_lines(system_id: str, words: Callable[[Outcome], list[str]]) -> None:
    """Say what a rule system's order details add to the shared reply (a move's allowance, a roll's total)."""
    _DETAIL_LINES[system_id] = words


def register_lines(lines: Mapping[type[Effect], Callable[[Any], str]]) -> None:
    """Give a rule system's own effects their short sentences (its front end does, when its extension loads)."""
    _SYSTEM_LINES.update(lines)


def effect_line(effect: Effect) -> str:
    """Return one effect as a short sentence."""
    words = LINES.get(type(effect)) or _SYSTEM_LINES.get(type(effect))
    if words is not None:
        return words(effect)
    return plain_line(effect)


def plain_line(effect: Effect) -> str:
    """Return an effect no sentence words as its kind, who and where (`Eva-01: frozen in on C3`)."""
    # An effect without its own sentence still reads as words: its kind, then who and where.
    fields = effect.to_dict()
    who = safe(fields.get("unit") or fields.get("side") or "")
    where = safe(fields.get("cell") or fields.get("at") or fields.get("to") or "")
    text = effect.kind.replace("_", " ")
    on = f" on {where}" if where else ""
    return f"{who}: {text}{on}" if who else f"{text.capitalize()}{on}"


def unit_added_line(unit: str, side: str, at: str, owner: int | None, models: list[str] | None = None) -> str:
    """Say a unit was placed: its side, its square, its player and, for a unit of models, where they stand."""
    whose = f" for <@{owner}>" if owner else ""
    around = f"; its other models on {spots(models)}" if models else ""
    return f"{safe(unit)} ({safe(side)}) placed on {safe(at)}{whose}{around}"


def moved_line(unit: str, frm: str, to: str, spent: str) -> str:
    """Say a unit moved from one square to another, and what it spent (`cost 2`, `5 cm`)."""
    return f"{safe(unit)} moved {safe(frm)} \u2192 {safe(to)} ({spent})"


def _fields(fields: object) -> str:
    return safe(list(fields) if isinstance(fields, tuple) else fields)


MAX_SPOTS = 12


def spots(names: list[str]) -> str:
    """Return a list of squares or sides (the rules' own labels, like `C4^1` or `C3|C4`), cut after a dozen."""
    shown = ", ".join(str(n) for n in names[:MAX_SPOTS])
    return shown + (f" and {len(names) - MAX_SPOTS} more" if len(names) > MAX_SPOTS else "")


def _edges_set(e: core.EdgesSet) -> str:
    kind = e.obstacle.replace("lava", "lava channel").capitalize()
    tall = f" {e.height:g}\" tall" if e.height else ""
    door = f", with an opening {e.opening:g}\" wide" if e.opening else ""
    return f"{kind}{tall}{door} on {e.count} side{'s' if e.count != 1 else ''}: {spots(list(e.edges))}"


# One sentence per effect class; an effect of a kind not here reads as its kind and fields.
LINES: dict[type[Effect], Callable[[Any], str]] = {
    core.Painted: lambda e: f"{plural(e.cells, 'square')} painted {safe(e.terrain)}",
    core.UnitRemoved: lambda e: f"{safe(e.unit)} removed from {safe(e.at)}",
    core.UnitEdited: lambda e: f"{safe(e.unit)}: changed {_fields(e.fields)}",
    core.EdgesSet: _edges_set,
    core.EdgesCleared: lambda e: f"Obstacles taken off {plural(e.count, 'side')}: {spots(list(e.edges))}",
    core.BattleStarted: lambda e: f"Round {e.round} begins.",
    core.BattleEnded: lambda e: f"The battle ended in round {e.round}.",
    core.RuleSet: lambda e: f"`{safe(e.key)}`: {safe(e.old)} \u2192 {safe(e.new)} (default {safe(e.default)})",
}


def detail_lines(outcome: Outcome) -> list[str]:
    """Return what an order's details add to its reply (a move's allowance and cost, a roll's total, its path)."""
    # A system says what its details add; every move names its path.
    lines = [line for words in _DETAIL_LINES.values() for line in words(outcome)]
    if outcome.kind == "move" and outcome.highlight.path and not any(line.startswith(PATH) for line in lines):
        lines.append(PATH + " \u2192 ".join(outcome.highlight.path))
    return lines


def outcome_embed(outcome: Outcome, *, battle_name: str, actor_name: str = "", system: str | None = None) -> discord.Embed:
    """Build the embed of an outcome: what happened, the breakdowns, every roll and effect (`system`: its system id)."""
    title = TITLES.get(outcome.kind, outcome.kind.replace("-", " ").title())
    if outcome.actor:
        title = f"{title}: {safe(outcome.actor)}"
    colour = INFO
    tests = outcome.tests_of(D100Test)
    if tests:
        colour = OK if tests[-1].success else FAIL
    embed = discord.Embed(title=title, colour=colour)
    lines = detail_lines(outcome)
    if outcome.told and outcome.kind == "move":  # a hidden unit's move: where it went is its side's secret
        lines.append(f"{safe(outcome.actor or 'A unit')} moves out of sight; where, only {safe(outcome.told)} "
                     f"is told, in private.")
    lines += [effect_line(e) for e in outcome.effects]
    embed.description = "\n".join(lines[:MAX_LINES]) or None
    for i, test in enumerate(tests[:10]):
        name = safe(test.purpose or f"Test {i + 1}")
        embed.add_field(name=name, value="\n".join(test_lines(test))[:1024], inline=False)
    if outcome.rolls:
        rolls = "\n".join(roll_line(r.to_dict()) for r in outcome.rolls[:15])
        embed.add_field(name="Dice", value=rolls[:1024], inline=False)
    embed.set_footer(text=footer_text(battle_name, outcome.order, actor_name, system)[:2048])
    return embed


def with_note(embed: discord.Embed, note: str) -> discord.Embed:
    """Add a note under an embed's description (what followed the order), within Discord's 4,096 characters."""
    if note:
        text = f"{embed.description}\n\n{note}" if embed.description else note
        embed.description = text if len(text) <= 4096 else text[:4095] + "\u2026"
    return embed
