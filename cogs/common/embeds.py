"""Format outcomes as embeds a player can check line by line."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord

from cogs.common.words import footer_text
from rules.outcome import Outcome

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


def safe(text: object) -> str:
    """Return user-supplied text with markdown and mentions defused for embeds."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(str(text)))


def test_lines(test: dict[str, Any]) -> list[str]:
    """Return the lines of one d100 test: base, each modifier, cap, target, roll and result."""
    bd = test["breakdown"]
    lines = [f"{safe(bd['base_label'])} **{bd['base']}**"]
    for m in bd["modifiers"]:
        lines.append(f"{signed(m['value'])} {safe(m['label'])}")
    if bd["raw_total"] != bd["total_modifier"]:
        lines.append(f"modifiers {signed(bd['raw_total'])} capped at {signed(bd['total_modifier'])} (limit \u00b1{bd['cap']})")
    verdict = "success" if test["success"] else "failure"
    degrees = f"{test['degrees']} degree{'s' if test['degrees'] != 1 else ''} of {verdict}"
    mark = "\u2705" if test["success"] else "\u274c"
    lines.append(f"Target **{test['target']}** \u00b7 d100 **{test['roll']}** \u2192 {mark} {verdict}, {degrees}")
    return lines


def roll_line(roll: dict[str, Any]) -> str:
    """Return one roll as `2d6+3: [4, 2] = 9 (damage)`."""
    faces = ", ".join(str(f) for f in roll["faces"])
    why = f" ({safe(roll['purpose'])})" if roll.get("purpose") else ""
    manual = " \u270d manual" if roll.get("manual") else ""
    return f"\U0001f3b2 `{roll['notation']}`: [{faces}] = **{roll['total']}**{why}{manual}"


def effect_line(effect: dict[str, Any]) -> str:
    """Return one effect as a short sentence."""
    kind = effect.get("type", "")
    e = {k: safe(v) for k, v in effect.items()}
    if kind == "moved":
        spent = f"cost {e['cost']}" if "cost" in e else f"{e['cm']} cm" if "cm" in e else e.get("mode", "")
        return f"{e['unit']} moved {e['frm']} \u2192 {e['to']}" + (f" ({spent})" if spent else "")
    if kind == "painted":
        count = int(effect.get("cells", 0) or 0)
        return f"{count} square{'' if count == 1 else 's'} painted {e['terrain']}"
    if kind == "unit_added" and "at" not in e:  # a system without a map
        return f"{e['unit']} joins {e['side']}"
    if kind == "unit_added":
        owner = f" for <@{effect['owner']}>" if effect.get("owner") else ""
        models = effect.get("models")
        around = f"; its other models on {spots(models)}" if models else ""
        return f"{e['unit']} ({e['side']}) placed on {e['at']}{owner}{around}"
    if kind == "unit_removed" and "at" not in e:
        return f"{e['unit']} removed"
    if kind == "unit_removed":
        return f"{e['unit']} removed from {e['at']}"
    if kind == "resolved":
        levels = ", ".join(f"{safe(side)} {level}" for side, level in effect["levels"].items())
        return f"The engagement is fought over {e['rounds']} round(s): {levels}"
    if kind == "unit_edited":
        fields = effect.get("fields")
        changed = ", ".join(str(f) for f in fields) if isinstance(fields, list) else str(fields)
        return f"{e['unit']}: {safe(changed)} changed"
    if kind in M42_LINES:
        return M42_LINES[kind](effect)
    if kind == "battle_started" and "turn" in e:  # Surface Combat: game turns of secret plans, not rounds
        return f"Game turn {e['turn']} begins: each side commits its secret pre-battle plan with /surface plan."
    if kind == "battle_started":
        return f"Round {e['round']} begins."
    if kind == "battle_ended" and "turn" in e:
        return f"The battle ended in game turn {e['turn']}."
    if kind == "battle_ended":
        return f"The battle ended in round {e['round']}."
    if kind == "rule_set":
        return f"`{e['key']}`: {e['old']} \u2192 {e['new']} (default {e['default']})"
    # An effect without its own sentence still reads as words: its kind, then who and where.
    who = e.get("unit") or e.get("side") or ""
    where = e.get("cell") or e.get("at") or e.get("to") or ""
    text = kind.replace("_", " ").capitalize()
    return f"{who}: {text.lower()}" + (f" on {where}" if where else "") if who else text + (f" on {where}" if where else "")


MAX_SPOTS = 12


def spots(names: list[str]) -> str:
    """Return a list of squares or sides (the rules' own labels, like `C4^1` or `C3|C4`), cut after a dozen."""
    shown = ", ".join(str(n) for n in names[:MAX_SPOTS])
    return shown + (f" and {len(names) - MAX_SPOTS} more" if len(names) > MAX_SPOTS else "")


HALVING_WORDS = {"area": "area terrain", "obstacle": "a linear obstacle", "wall": "a wall without an opening"}


def _action_taken(effect: dict[str, Any]) -> str:
    """Say how far an M42 leader went for its action, what halved it, and where the models stand."""
    action = safe(str(effect.get("name") or str(effect["action"]).replace("-", " ").title()))
    halved = ", ".join(HALVING_WORDS.get(h, h) for h in effect.get("halved", []))
    why = f", halved once for {halved} (A90)" if halved else ""
    line = (f"{safe(effect['unit'])}: {action} {safe(effect['frm'])} \u2192 {safe(effect['to'])}, "
            f"{effect['walked']:g}\" of {effect['allowance']:g}\"{why}")
    models = effect.get("models")
    return line + (f"; models on {spots(models)}" if models else "")


def _edges_set(effect: dict[str, Any]) -> str:
    kind = str(effect["obstacle"]).replace("lava", "lava channel").capitalize()
    tall = f" {effect['height']:g}\" tall" if effect.get("height") else ""
    door = f", with an opening {effect['opening']:g}\" wide" if effect.get("opening") else ""
    count = int(effect["count"])
    return f"{kind}{tall}{door} on {count} side{'s' if count != 1 else ''}: {spots(list(effect['edges']))}"


M42_LINES: dict[str, Callable[[dict[str, Any]], str]] = {
    "action_taken": _action_taken,
    "placed": lambda e: f"{safe(e['unit'])}'s models now stand on {spots(list(e['models']))}",
    "edges_set": _edges_set,
    "edges_cleared": lambda e: f"Obstacles taken off {e['count']} side(s): {spots(list(e['edges']))}",
    "road": lambda e: (f"Road laid on {e['cells']} square(s)" if e["on"] else f"Road lifted from {e['cells']} square(s)"),
    "floors": lambda e: f"{e['cells']} square(s) now have {e['floors']} floor(s)",
}


def outcome_embed(outcome: Outcome, *, battle_name: str, actor_name: str = "") -> discord.Embed:
    """Build the embed of an outcome: what happened, the breakdowns, every roll and effect."""
    title = TITLES.get(outcome.kind, outcome.kind.replace("-", " ").title())
    if outcome.actor:
        title = f"{title}: {safe(outcome.actor)}"
    colour = INFO
    if outcome.tests:
        colour = OK if outcome.tests[-1]["success"] else FAIL
    embed = discord.Embed(title=title, colour=colour)
    lines: list[str] = []
    data = outcome.data
    # A system that measures a move by an allowance and a path cost says so; every move names its path.
    if outcome.kind == "move" and "base_label" in data:
        lines.append(
            f"{data['base_label']} \u2192 {data['mode'].title()} allows **{data['allowance']}** {data['spent_unit']}; "
            f"path cost **{data['cost']}**"
        )
    if outcome.kind == "move" and outcome.highlight.get("path"):
        lines.append("Path: " + " \u2192 ".join(data.get("path") or outcome.highlight["path"]))
    if outcome.kind == "roll":
        lines.append(f"**{data['total']}**")
    lines += [effect_line(e) for e in outcome.effects]
    embed.description = "\n".join(lines[:MAX_LINES]) or None
    for i, test in enumerate(outcome.tests[:10]):
        name = safe(test.get("purpose") or f"Test {i + 1}")
        embed.add_field(name=name, value="\n".join(test_lines(test))[:1024], inline=False)
    if outcome.rolls:
        rolls = "\n".join(roll_line(r.to_dict()) for r in outcome.rolls[:15])
        embed.add_field(name="Dice", value=rolls[:1024], inline=False)
    embed.set_footer(text=footer_text(battle_name, outcome.order, actor_name)[:2048])
    return embed


def with_note(embed: discord.Embed, note: str) -> discord.Embed:
    """Add a note under an embed's description (what followed the order), within Discord's 4,096 characters."""
    if note:
        text = f"{embed.description}\n\n{note}" if embed.description else note
        embed.description = text if len(text) <= 4096 else text[:4095] + "\u2026"
    return embed
