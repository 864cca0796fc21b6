"""How Strategic Combat attacks read on the action buttons: the number to hit, and the outcome embeds."""

from __future__ import annotations

from typing import Any

import discord

from cogs.strategic.embeds_combat import COMBAT_KINDS, combat_embed
from rules.battle import Battle
from rules.errors import GameError
from rules.orders import Order
from rules.outcome import Outcome
from rules.systems.strategic.actions.combat import Attack
from rules.systems.strategic.combat import range_preview
from rules.systems.strategic.units import Unit


def attack_odds(battle: Battle[Any], order: Order) -> str | None:
    """Say an attack's chance to hit its target: the d100 roll it needs, before any reaction."""
    if not isinstance(order, Attack) or not order.target:
        return None
    unit, target = battle.find_unit(order.unit), battle.find_unit(order.target)
    if not isinstance(unit, Unit) or not isinstance(target, Unit):
        return None
    weapon = unit.weapon(order.weapon)
    if weapon is None:
        return None
    try:
        preview = range_preview(battle, unit, target.cell, weapon, target)
    except GameError:
        return None
    need = preview.get("breakdown", {}).get("target")
    if need is None:
        return None
    chance = max(0, min(100, int(need)))
    band = preview.get("band")
    where = f"{band['name']}, " if band else ""
    return f"{where}{chance}% to hit (d100 \u2264 {need})"


def combat_outcome(outcome: Outcome, battle: Battle[Any], actor_name: str) -> discord.Embed:
    """Build the embed of a combat order given by a button, as its slash command would."""
    return combat_embed(outcome, battle, battle_name=battle.name, actor_name=actor_name)


OUTCOME_KINDS = frozenset(COMBAT_KINDS)
