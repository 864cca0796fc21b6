"""The Strategic Combat system's own reply pieces: its unit card, its attack options and prompt verbs."""

from __future__ import annotations

import discord

from cogs.common.embeds import safe, signed
from cogs.common.systems import FrontEnd
from cogs.strategic.unit_card import unit_embed
from rules import turns
from rules.battle import Battle
from rules.errors import GameError
from rules.systems.strategic.actions.combat import Attack
from rules.systems.strategic.combat import range_preview
from rules.systems.strategic.units import Unit as StrategicUnit
from rules.units import Unit

MAX_TARGETS = 6
MAX_WEAPONS = 8


def _card(battle: Battle, unit: Unit) -> discord.Embed:
    """Return the full Strategic stat-block card of a unit."""
    assert isinstance(unit, StrategicUnit)
    return unit_embed(unit)


def attack_lines(battle: Battle, unit: StrategicUnit) -> list[str]:
    """List, per weapon, the enemies in range or reach with the band and the number to hit."""
    enemies = [u for u in battle.iter_units() if u.alive and battle.enemies(unit, u)]
    lines: list[str] = []
    for weapon in unit.weapons[:MAX_WEAPONS]:
        found: list[str] = []
        for enemy in enemies:
            try:
                preview = range_preview(battle, unit, enemy.cell, weapon, enemy)
            except GameError:
                continue
            if not preview.get("in_range"):
                continue
            target = preview.get("breakdown", {}).get("target")
            band = preview.get("band")
            where = f"{preview['distance']} sq"
            if band:
                where += f", {band['name']} ({signed(int(band['mod']))})"
            elif weapon.melee:
                where += ", in reach"
            hit = f", hits on {target} or less" if target is not None else ""
            found.append(f"{safe(enemy.name)} ({enemy.cell}): {where}{hit}")
        kind = "melee" if weapon.melee else f"range {weapon.range} {weapon.range_unit}"
        if found:
            shown = found[:MAX_TARGETS] + ([f"and {len(found) - MAX_TARGETS} more"] if len(found) > MAX_TARGETS else [])
            lines.append(f"**{safe(weapon.name)}** ({kind}) \u2192 " + "; ".join(shown))
        else:
            lines.append(f"**{safe(weapon.name)}** ({kind}): no enemy in range")
    return lines


def _option_fields(battle: Battle, unit: Unit) -> list[tuple[str, str]]:
    """Return the attack field of My options: each weapon's targets in range, and what an attack costs."""
    if not isinstance(unit, StrategicUnit) or not unit.weapons:
        return []
    cost = turns.order_cost(battle, Attack(unit=unit.name, weapon=unit.weapons[0].name)).points
    return [(f"Attack (/attack, {cost} AP)", "\n".join(attack_lines(battle, unit)))]


def _prompt_verbs(battle: Battle, unit: Unit, left: int) -> list[str]:
    """Return /attack with its cost and weapons when affordable, and /act."""
    verbs: list[str] = []
    if isinstance(unit, StrategicUnit) and unit.weapons:
        cost = turns.order_cost(battle, Attack(unit=unit.name, weapon=unit.weapons[0].name)).points
        if cost <= left:
            names = ", ".join(safe(w.name) for w in unit.weapons[:4])
            verbs.append(f"/attack {cost} ({names})")
    return [*verbs, "/act"]


FRONT_END = FrontEnd(unit_card=_card, option_fields=_option_fields, prompt_verbs=_prompt_verbs)
