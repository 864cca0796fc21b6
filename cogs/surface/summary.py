"""The summary of an ended Surface Combat battle, told from the reports of the engagements it fought.

A Surface battle keeps only its survivors, their damage cleared by the recovery after each engagement, and
only the last game turn's result; so the summary reads every engagement's report back from the log: the
rounds fought, each unit's fate and the damage it took, and each side's losses and result.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import discord

from bot.service import BattleRecord, TableService
from cogs.common.embeds import INFO, safe
from cogs.surface.report import FATE_WORDS, fate_words
from rules.battle import Battle
from rules.systems.surface.details import Fate, SurfaceReport
from rules.systems.surface.state import RESOLVE, logged_report

FIELD_CHARS = 1024
FALLEN = frozenset({"destroyed", "disintegrates", "lost", "disappears"})


async def logged_outcomes(service: TableService, record: BattleRecord) -> list[dict[str, Any]]:
    """Return the logged outcome of every engagement the battle fought (undone ones left out), oldest first."""
    return await service.outcomes_of(record, RESOLVE)


def reports_of(battle: Battle, outcomes: list[dict[str, Any]]) -> list[SurfaceReport]:
    """Return the reports the logged outcomes hold, with their rounds (an unreadable one left out)."""
    return [r for r in (logged_report(battle, o) for o in outcomes) if r is not None]


def damage_taken(reports: list[SurfaceReport]) -> Counter[str]:
    """Return the damage points each unit took over every round of every engagement, by unit id."""
    taken: Counter[str] = Counter()
    for report in reports:
        for rnd in report.rounds:
            for act in rnd.actions:
                if act.target is not None and act.result is not None:
                    taken[act.target] += act.result.damage
    return taken


def _unit_words(uid: str, unit: Fate, taken: Counter[str]) -> str:
    points = taken[uid]
    return (f"{safe(unit.name)} ({FATE_WORDS.get(unit.fate, unit.fate)}, took {points} damage "
            f"point{'s' if points != 1 else ''})")


def surface_end_embed(battle: Battle, reports: list[SurfaceReport], orders: int) -> discord.Embed:
    """Sum up an ended Surface battle from its engagements' reports: rounds, each side's result, units, losses."""
    embed = discord.Embed(title=f"Battle over: {safe(battle.name)}"[:256], colour=INFO)
    rounds = sum(r.rounds_fought for r in reports)
    turns = len(reports)
    embed.description = (f"Fought over **{rounds} round{'s' if rounds != 1 else ''}** in {turns} engagement"
                         f"{'s' if turns != 1 else ''}, {orders} orders in the log. /battle export keeps the whole "
                         "battle as a file.")
    units: dict[str, Fate] = {}
    for report in reports:
        units.update(report.units)  # a unit's fate in its last engagement is its fate in the battle
    taken = damage_taken(reports)
    last = reports[-1] if reports else None
    totals = []
    for side in battle.sides:
        mine = {uid: u for uid, u in units.items() if u.side == side.name}
        alive = [_unit_words(uid, u, taken) for uid, u in mine.items() if u.fate not in FALLEN]
        fallen = [_unit_words(uid, u, taken) for uid, u in mine.items() if u.fate in FALLEN]
        lost = sum(r.lost_points.get(side.name, 0) for r in reports)
        lines = []
        level = last.verdict.levels.get(side.name) if last is not None else None
        if level:
            lines.append(f"**{str(level).title()}** in the last engagement \u00b7 lost {lost} damage point"
                         f"{'s' if lost != 1 else ''} in all")
        if mine:
            lines.append(f"Units: {fate_words(mine.values(), side.name)}")
        lines.append(f"Survivors ({len(alive)}): " + (", ".join(alive) or "none"))
        lines.append(f"Casualties ({len(fallen)}): " + (", ".join(fallen) or "none"))
        totals.append(f"{safe(side.name)} {len(alive)}/{len(mine)}")
        embed.add_field(name=safe(side.name)[:256], value="\n".join(lines)[:FIELD_CHARS], inline=False)
    if totals:
        embed.set_footer(text="Still standing: " + " \u00b7 ".join(totals))
    return embed


async def end_summary(service: TableService, record: BattleRecord, battle: Battle, orders: int) -> discord.Embed:
    """Return the summary of an ended Surface battle, read from the reports of its engagements."""
    outcomes = await logged_outcomes(service, record)
    # Every roll of every engagement is read back: off the event loop, as a long campaign has thousands.
    return await asyncio.to_thread(lambda: surface_end_embed(battle, reports_of(battle, outcomes), orders))
