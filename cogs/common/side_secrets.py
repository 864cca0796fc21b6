"""What an order tells one side alone: with side threads on, it goes to that side's thread, not the channel.

A search that finds (or fails to find) an enemy trap tells the searching side where the traps are; a unit
that hides tells its own side where it lies. With side threads on, the whole result goes to that side's
thread (or its players' DMs where threads cannot be made, or are off) and the channel reads what everyone may know:
that the search or the hiding happened, its test, and that the rest went to the side. A hidden unit's move
goes to its side whole; the channel reads only that it moved out of sight. What the channel reads is always
the outcome as `rules.visibility.redact` leaves it for the public.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, cast

import discord
from discord.ext import commands

from bot.service import BattleRecord, TableService
from cogs.common.mapfiles import draws_something
from cogs.common.side_threads import SideThreads
from rules.battle import Battle
from rules.effects import Effect
from rules.outcome import Outcome
from rules.rolltests import D100Test
from rules.systems.strategic.effects import Hidden, TrapRevealed
from rules.units import Unit
from rules.visibility import PUBLIC, Viewer, is_hidden, redact


def _side_of(effect: Effect, battle: Battle[Any]) -> str | None:
    """Return the side an effect tells something only it may know, or None if everyone may read it."""
    if isinstance(effect, TrapRevealed):
        return effect.side
    if isinstance(effect, Hidden):
        unit = battle.find_unit(effect.unit)
        return str(unit.side) if unit is not None else None
    return None


def secret_side(outcome: Outcome, battle: Battle[Any]) -> str | None:
    """Return the side an outcome tells a secret, if any.

    A search that succeeds is the searching side's secret even when it finds nothing: were only finds kept
    private, the channel would learn that there was something to find.
    """
    for effect in outcome.effects:
        side = _side_of(effect, battle)
        if side is not None:
            return side
    if outcome.kind == "detect-traps" and outcome.actor:
        tests = outcome.tests_of(D100Test)
        unit = battle.find_unit(outcome.actor)
        if tests and tests[0].success and unit is not None:
            return str(unit.side)
    unseen = _unseen_actor(outcome, battle)
    return str(unseen.side) if unseen is not None else None


def _unseen_actor(outcome: Outcome, battle: Battle[Any]) -> Unit | None:
    """Return the unit of an order made out of sight (it is hidden after it), else None."""
    if not outcome.actor:
        return None
    unit = battle.find_unit(outcome.actor)
    return unit if unit is not None and is_hidden(unit) else None


def public_part(outcome: Outcome, battle: Battle[Any], side: str) -> Outcome:
    """Return the outcome as everyone may read it (`rules.visibility.redact`), saying its secrets went to the side."""
    return replace(redact(outcome, battle, PUBLIC), told=side)


async def tell_side(bot: discord.Client, service: TableService, record: BattleRecord, battle: Battle[Any],
                    outcome: Outcome, build: Callable[[Outcome], discord.Embed]) -> Outcome:
    """Post an outcome's secrets to their side privately; return what the channel shows (redacted for everyone).

    With side threads on they go to the side's thread; with them off, to its players (and the GM) by direct
    message.
    """
    side = secret_side(outcome, battle)
    if side is None:
        return redact(outcome, battle, PUBLIC)
    private = redact(outcome, battle, Viewer.of([side]))
    threads = SideThreads(cast(commands.Bot, bot))
    png = None
    if draws_something(private.highlight):
        png = await service.render(battle, outcome=private, viewer=Viewer.of([side]), battle_id=record.id)
    embed = build(private)
    embed.title = f"\U0001f512 {side} only: {embed.title or ''}"[:256]
    if await threads.enabled(record.id):
        await threads.post(record, battle, side, embed=embed, png=png)
    else:
        await threads.dm_side(record, battle, side, embed=embed, png=png)
    return public_part(outcome, battle, side)
