"""The messages the notifier posts: a turn has begun, a deadline is near, a deadline has passed."""

from __future__ import annotations

from collections.abc import Sequence

import discord

import rules.core_effects as core
from bot.clock import POLICY_NAMES, human_duration, turn_label
from bot.clockhours import relative, stamp, when
from bot.service import ClockRecord
from cogs.common.embeds import INFO, safe
from cogs.common.seen import place
from cogs.common.systems import prompt_verbs
from cogs.turn.text import effect_sentence, join
from rules import turns
from rules.battle import Battle
from rules.orders import Move
from rules.outcome import Outcome
from rules.units import Unit

WARN = discord.Colour.from_rgb(220, 150, 40)
MAX_UNIT_FIELDS = 12
# What a deadline's orders did that its message reports: the holds, the standing orders, where play went.
DEADLINE_NEWS = (core.Held, core.StandingOrderFollowed, core.TurnPassed, core.PhaseChanged, core.RoundStarted)
MOVED = "moved"  # a move a standing order made, in whichever system: each names its move's effect so


def mentions(user_ids: Sequence[int]) -> str:
    """Return user mentions separated by spaces."""
    return " ".join(f"<@{uid}>" for uid in user_ids)


def deadline_words(due_at: float | None, *, paused: bool, remaining: float | None) -> str:
    """Say when a turn ends: a Discord timestamp, or that the clock is paused."""
    if paused:
        left = f" ({human_duration(remaining)} left once it resumes)" if remaining is not None else ""
        return f"The clock is paused{left}."
    if due_at is None:
        return "No deadline."
    return f"Deadline {when(due_at)}."


def can_do(battle: Battle, unit: Unit) -> str:
    """Say what a unit can do with the action points it has left."""
    left = turns.actions_left(battle, unit.name)
    seen = place(battle, unit)  # the prompt is public: a hiding unit's square is left out
    where = f" \u00b7{seen}" if seen else ""
    summary = unit.summary_line()
    lines = [f"**{left}** action point{'s' if left != 1 else ''}{where}" + (f" \u00b7 {summary}" if summary else "")]
    verbs: list[str] = []
    modes = []
    for mode in battle.ruleset.move_modes if battle.system.plays("move") else ():
        cost = turns.order_cost(battle, Move(unit=unit.name, to=unit.cell, mode=mode)).points
        if cost <= left:
            modes.append(f"{mode} {cost}")
    if modes and "immobilised" not in unit.statuses:
        verbs.append(f"/move ({', '.join(modes)})")
    verbs += prompt_verbs(battle, unit, left)
    verbs += ["/turn hold", "/turn end"]
    lines.append(" \u00b7 ".join(verbs))
    return "\n".join(lines)


def turn_prompt(battle: Battle, units: Sequence[Unit], due_at: float | None, *, paused: bool,
                remaining: float | None, owners: dict[str, int]) -> discord.Embed:
    """Build the embed announcing a turn: the units due, what each can do, and the deadline."""
    embed = discord.Embed(title=f"{safe(battle.name)}: {turn_label(battle)}", colour=INFO,
                          description=deadline_words(due_at, paused=paused, remaining=remaining))
    for unit in units[:MAX_UNIT_FIELDS]:
        owner = owners.get(unit.name)
        name = f"{unit.name} ({unit.side})"
        value = can_do(battle, unit) + (f"\nCommanded by <@{owner}>" if owner else "")
        embed.add_field(name=safe(name)[:256], value=value[:1024], inline=False)
    if len(units) > MAX_UNIT_FIELDS:
        embed.add_field(name="\u2026", value=f"and {len(units) - MAX_UNIT_FIELDS} more units", inline=False)
    embed.set_footer(text="Buttons: end a unit's turn, see its options privately, or the whole map.")
    return embed


def turn_content(battle: Battle, user_ids: Sequence[int]) -> str:
    """Return the line that pings the players whose units are due."""
    who = mentions(user_ids)
    return f"\U0001f514 {who + ': ' if who else ''}your turn in **{safe(battle.name)}**, {turn_label(battle)}."


def reminder_content(battle: Battle, units: Sequence[str], user_ids: Sequence[int], clock: ClockRecord) -> str:
    """Return a reminder that the turn's deadline is near."""
    who = mentions(user_ids)
    return (f"\u23f0 {who + ': ' if who else ''}the turn of {join(units)} in **{safe(battle.name)}** ends "
            f"{when(clock.due_at or 0)}. "
            f"Then: {POLICY_NAMES[clock.policy]}.")


def held_turn_content(battle: Battle, units: Sequence[str], user_ids: Sequence[int], clock: ClockRecord) -> str:
    """Return the ping of a turn that began during the battle's quiet hours, sent at their end."""
    who = mentions(user_ids)
    return (f"\U0001f514 {who + ': ' if who else ''}your turn in **{safe(battle.name)}** began in the quiet hours: "
            f"{join(units)} due, the turn ends {when(clock.due_at or 0)}.")


def stall_line(user_id: int, units: Sequence[str], count: int, since: float) -> str:
    """Say that a player let reminders pass without acting, and since when (a timestamp each reader sees locally)."""
    return (f"<@{user_id}> has not acted after {count} reminder{'s' if count != 1 else ''} this turn, the first "
            f"{stamp(since)}; {join(units)} still due.")


def deadline_embed(battle: Battle, units: Sequence[str], clock: ClockRecord, outcomes: Sequence[Outcome],
                   failures: Sequence[tuple[str, str]], *, waiting: bool) -> discord.Embed:
    """Build the message of a passed deadline: what the policy did, or that the GM must decide."""
    embed = discord.Embed(title=f"\u231b Deadline passed: {join(units)}", colour=WARN)
    lines = [f"The turn ended {relative(clock.due_at or 0)} without {join(units)} finishing it. Policy: **{POLICY_NAMES[clock.policy]}**."]
    for outcome in outcomes:
        lines += [effect_sentence(e, outcome) for e in outcome.effects if isinstance(e, DEADLINE_NEWS) or e.kind == MOVED]
    for unit, why in failures:
        lines.append(f"{safe(unit)} could not be moved on: {safe(why)}")
    if waiting:
        lines.append("The battle waits for the GM: /gm skip passes the turn, /gm deadline gives more time, "
                     "/gm policy decides what deadlines do.")
    embed.description = "\n".join(lines)[:4000]
    return embed
