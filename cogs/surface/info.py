"""Describe a Surface Combat battle's forces for `/battle info` and `/surface status`, within Discord's limits."""

from __future__ import annotations

from typing import Any

from cogs.common.embeds import safe
from cogs.surface.report import paginate
from rules.battle import Battle
from rules.systems.surface.state import state
from rules.systems.surface.unittypes import unit_types

# What a GM does next after /battle new.
SETUP_STEPS = ("Add each side's units with `/surface add` and its leader with `/surface side`, then `/battle start` "
               "opens the secret pre-battle plans (see `/help`). The pinned panel is your setup panel, with what is "
               "still missing and buttons for each step.")
FIELD_LIMIT = 1024
MAX_FIELDS = 20  # of the 25 Discord allows: room for the plans, the clock and a "more" line
EMBED_BUDGET = 5000  # of the 6,000 characters an embed may hold, the rest for its title and description


def unit_line(unit: Any) -> str:
    """Return one unit as `Hammer · Space Marines · damage 1/4 · disrupted · @owner`."""
    kind = unit_types().get(unit.utype)
    parts = [f"**{safe(unit.name)}**", kind.name if kind else safe(unit.utype),
             f"damage {unit.damage}/{unit.capacity}"]
    if unit.state != "active":
        parts.append(unit.state)
    if unit.flags:
        parts.append(", ".join(f.replace("_", " ") for f in unit.flags))
    if unit.owner:
        parts.append(f"<@{unit.owner}>")
    return " \u00b7 ".join(parts)


def plan_word(battle: Battle, side: str) -> str:
    """Say whether a side has committed its plan this game turn (never what it is)."""
    now = state(battle)
    if battle.status != "active" or now.resolved:
        return ""
    return "plan committed" if now.plan(side) is not None else "no plan yet"


def surface_stage(battle: Battle) -> str:
    """Say where the engagement stands: setting up, waiting for plans, fought, or ended."""
    now = state(battle)
    turn = now.turn
    if battle.status == "setup":
        return "setting up the forces"
    if battle.status == "ended":
        return f"ended in game turn {turn}"
    if now.resolved:
        return f"game turn {turn} fought: `/surface report`; the GM opens the next with `/surface next-turn`"
    due = [s.name for s in battle.sides if plan_word(battle, s.name) == "no plan yet"
           and any(u.side == s.name for u in battle.iter_units())]
    waiting = f"waiting for the plan of {' and '.join(safe(d) for d in due)}" if due else "both plans in"
    return f"game turn {turn}: {waiting}"


def side_header(battle: Battle, side: str) -> str:
    """Return a side's leader, situation and plan status on one line."""
    record = state(battle).standing_of(side)
    parts = [f"Leader {safe(record.leader)} (Ability {record.ability})" if record.leader else f"Ability {record.ability}"]
    if record.blockaded:
        parts.append("blockaded")
    if record.last_ground:
        parts.append("on its last ground")
    word = plan_word(battle, side)
    if word:
        parts.append(f"**{word}**")
    return " \u00b7 ".join(parts)


def force_fields(battle: Battle, budget: int = EMBED_BUDGET, max_fields: int = MAX_FIELDS) -> list[tuple[str, str]]:
    """Return each side's leader and units as embed fields, as many units as Discord lets one embed show (in
    `budget` characters and `max_fields` fields; the embed's other parts take the rest)."""
    fields: list[tuple[str, str]] = []
    left_out = 0
    for side in battle.sides:
        units = [u for u in battle.iter_units() if u.side == side.name]
        lines = [side_header(battle, side.name)] + [unit_line(u) for u in units] if units else [
            side_header(battle, side.name), "no units yet: `/surface add`"]
        chunks = paginate(lines, FIELD_LIMIT)
        for i, chunk in enumerate(chunks):
            name = (safe(side.name) if i == 0 else f"{safe(side.name)} (cont.)")[:256]
            if len(fields) >= max_fields or len(name) + len(chunk) > budget:
                left_out += sum(chunk.count("\n") + 1 for chunk in chunks[i:]) - (1 if i == 0 else 0)
                break
            fields.append((name, chunk))
            budget -= len(name) + len(chunk)
    if left_out:
        fields.append(("\u2026", f"{left_out} more units; `/surface export` lists every one."))
    return fields
