"""What the cogs add to the generic action buttons: target notes and outcome embeds.

The buttons know only legal orders. A system's cog registers how to say a target's odds ("hits on 45
or less") and how to show the outcome of its own order kinds (the turn cog those of turn orders);
without them a target shows its distance and an outcome its effects.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord

from cogs.common.embeds import outcome_embed
from rules.battle import Battle
from rules.orders import Order
from rules.outcome import Outcome

TargetNote = Callable[[Battle[Any], Order], str | None]
OutcomeEmbed = Callable[[Outcome, Battle[Any], str], discord.Embed]

_TARGET_NOTES: dict[str, TargetNote] = {}
_OUTCOME_EMBEDS: dict[str, OutcomeEmbed] = {}


def note_targets(system_id: str, note: TargetNote) -> None:
    """Say how a system describes an attack's target in a menu: its chance to hit, say."""
    _TARGET_NOTES[system_id] = note


def show_outcomes(kinds: frozenset[str] | set[str], embed: OutcomeEmbed) -> None:
    """Say how the outcomes of these order kinds are shown when a button gave the order."""
    for kind in kinds:
        _OUTCOME_EMBEDS[kind] = embed


def target_note(battle: Battle[Any], order: Order) -> str | None:
    """Return what the battle's system says about an order's target, if it says anything."""
    note = _TARGET_NOTES.get(battle.system.id)
    return note(battle, order) if note is not None else None


def outcome_embed_for(outcome: Outcome, battle: Battle[Any], actor_name: str) -> discord.Embed:
    """Build the embed of an order's outcome, as the command that gives that order would."""
    shown = _OUTCOME_EMBEDS.get(outcome.kind)
    if shown is not None:
        return shown(outcome, battle, actor_name)
    return outcome_embed(outcome, battle_name=battle.name, system=battle.system.id, actor_name=actor_name)
