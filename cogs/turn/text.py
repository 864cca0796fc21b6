"""Sentences for turn and GM outcomes, deadlines and clocks (other effects read as the shared embeds say)."""

from __future__ import annotations

from collections.abc import Sequence

import discord

import rules.core_effects as core
from bot.clock import POLICY_NAMES, describe_reminders, human_duration, policy_name
from bot.clockhours import DEFAULT_ZONE, clock_text, relative, when
from bot.service import ClockRecord
from cogs.common.embeds import INFO, effect_line, roll_line, safe
from cogs.common.systems import system_embed, system_sentence
from cogs.common.words import footer_text
from rules.battle import Battle
from rules.details import TurnNotes
from rules.effects import Effect
from rules.outcome import Outcome

TURN_TITLES = {
    "end-turn": "Turn ended", "hold": "Hold", "skip-turn": "Turn skipped", "close-round": "Round closed",
    "set-turn-mode": "Turn mode", "standing-order": "Standing order", "standing-turn": "Deadline",
    "gm-place": "GM: unit placed", "gm-set": "GM: unit changed", "start": "Battle started", "end": "Battle ended",
}
MAX_LINES = 20


def join(names: Sequence[str]) -> str:
    """Join names as `A`, `A and B`, `A, B and C`."""
    shown = [safe(n) for n in names]
    if len(shown) <= 1:
        return "".join(shown)
    return f"{', '.join(shown[:-1])} and {shown[-1]}"


def plural(count: int, word: str) -> str:
    """Return `1 action point` or `2 action points`."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def effect_sentence(effect: Effect, outcome: Outcome | None = None, battle: Battle | None = None) -> str:
    """Return any effect as a sentence: turn effects here, a system's own as its front end words them."""
    unit = safe(getattr(effect, "unit", ""))
    unused = effect.unused if isinstance(effect, (core.TurnEnded, core.Held)) else 0
    spare = f" ({plural(unused, 'action point')} unused)" if unused else ""
    match effect:
        case core.TurnEnded():
            return f"{unit} ends its turn{spare}."
        case core.Held(reason="fallback"):
            turn = outcome.turn if outcome is not None else TurnNotes()
            why = safe((turn.fallback or "it is not legal now").rstrip("."))
            order = safe(turn.standing_order or "")
            return f"{unit} could not follow its standing order `{order}` ({why}), so it holds instead."
        case core.Held(reason="no_standing_order"):
            return f"{unit} had no standing order, so it holds."
        case core.Held():
            return f"{unit} holds{spare}."
        case core.TurnSkipped(side=side, units=units):
            who = f"the {safe(side)} phase ({join(units)})" if side else join(units)
            return f"The GM skipped {who}."
        case core.RoundClosed(round=number, skipped=skipped):
            rest = f"; {join(skipped)} lost the rest of the round" if skipped else ""
            return f"Round {number} closed{rest}."
        case core.BattleStarted():
            return "The battle begins."
        case core.RoundStarted():
            return f"**Round {effect.round}** begins ({effect.mode} mode)."
        case core.PhaseChanged():
            return f"Now the **{safe(effect.side)}** phase."
        case core.TurnPassed():
            return f"Now **{safe(effect.to)}**'s turn (initiative {effect.initiative})."
        case core.TurnLost():
            return f"{unit} is {safe(effect.reason)} and loses its turn."
        case core.StandingOrderFollowed():
            return f"{unit} follows its standing order `{safe(effect.order)}`."
        case core.StandingOrderSet():
            return f"{unit} has a standing order for missed deadlines: `{safe(effect.order)}`."
        case core.StandingOrderCleared():
            return f"{unit} no longer has a standing order; it holds if its deadline passes."
        case core.TurnModeSet():
            return f"Turn mode: {safe(effect.frm)} \u2192 **{safe(effect.mode)}**."
    return system_sentence(effect, battle, outcome) or effect_line(effect)


def outcome_lines(outcome: Outcome) -> list[str]:
    """Return every effect of an outcome as a sentence."""
    return [effect_sentence(e, outcome) for e in outcome.effects][:MAX_LINES]


def turn_embed(outcome: Outcome, battle: Battle, *, actor_name: str = "") -> discord.Embed:
    """Build the embed of a turn or GM order: what happened and who acts now."""
    own = system_embed(outcome, battle, actor_name)
    if own is not None:
        return own
    title = TURN_TITLES.get(outcome.kind, outcome.kind.replace("-", " ").title())
    if outcome.actor:
        title = f"{title}: {safe(outcome.actor)}"
    embed = discord.Embed(title=title, colour=INFO, description="\n".join(outcome_lines(outcome)) or None)
    if outcome.rolls:
        embed.add_field(name="Dice", value="\n".join(roll_line(r.to_dict()) for r in outcome.rolls[:15])[:1024],
                        inline=False)
    embed.set_footer(text=footer_text(battle.name, outcome.order, actor_name, battle.system.id)[:2048])
    return embed


def turn_outcome(outcome: Outcome, battle: Battle, actor_name: str) -> discord.Embed:
    """Build the embed of a turn order given by a button, as /turn would answer it."""
    return turn_embed(outcome, battle, actor_name=actor_name)


def deadline_line(clock: ClockRecord, battle: Battle) -> str:
    """Say where the current turn's deadline stands, with Discord timestamps."""
    if battle.status != "active" or clock.turn_key is None:
        if clock.paused:
            return "\u23f8\ufe0f The clock is paused."
        return ""
    if clock.paused:
        left = clock.remaining if clock.remaining is not None else clock.deadline
        return f"\u23f8\ufe0f Clock paused by the GM \u00b7 {human_duration(left)} left on this turn."
    if clock.due_at is None:
        return ""
    if clock.expired_at is not None:
        return f"\u231b Deadline passed {relative(clock.due_at)}; waiting for the GM."
    line = f"\u23f0 Deadline {when(clock.due_at)} \u00b7 then: {policy_name(battle, clock.policy)}."
    if clock.bank is not None and clock.bank_due:
        line += f"\n\U0001f3e6 {bank_line(clock)}"
    if clock.vacation_shift:
        line += f"\n\U0001f3d6\ufe0f Vacation moved this deadline by {human_duration(clock.vacation_shift)}."
    return line


def bank_line(clock: ClockRecord) -> str:
    """Say what each side has left in its time bank; the banks of the sides due run out at the deadline."""
    due = set(clock.bank_due)
    parts = []
    for side, seconds in sorted(clock.banks.items()):
        if side in due and clock.due_at is not None and not clock.paused:
            parts.append(f"{safe(side)}: runs out {relative(clock.due_at)}")
        else:
            parts.append(f"{safe(side)}: {human_duration(seconds)}")
    return "Time banks \u00b7 " + " \u00b7 ".join(parts) if parts else "Time banks start with the next turn."


def clock_summary(clock: ClockRecord, battle: Battle | None = None) -> str:
    """Describe a battle's clock settings for its GM and players."""
    state = "paused" if clock.paused else "running"
    then = policy_name(battle, clock.policy) if battle is not None else POLICY_NAMES[clock.policy]
    zone = clock.zone or DEFAULT_ZONE
    if clock.bank is not None:
        start, per_turn, cap = clock.bank
        length = (f"Each side has a **time bank**: {human_duration(start)} to start, {human_duration(per_turn)} more "
                  f"each turn, at most {human_duration(cap)}; it runs only while the side is due")
    elif clock.at_minute is not None:
        length = (f"Each turn lasts at least **{human_duration(clock.deadline)}** and ends at "
                  f"**{clock_text(clock.at_minute)} {zone}**")
    else:
        length = f"Each turn lasts **{human_duration(clock.deadline)}**"
    extras = []
    if clock.skip_weekends and clock.bank is None:
        extras.append(f"weekends ({zone}) do not count")
    if clock.quiet is not None:
        extras.append(f"quiet hours {clock_text(clock.quiet[0])}\u2013{clock_text(clock.quiet[1])} {zone} "
                      "(reminders wait for their end)")
    extras.append(f"vacations may move each player's deadlines by up to {human_duration(clock.vacation_allowance)}")
    return (f"{length}; when it passes: **{then}**; reminders {describe_reminders(clock.reminders)}; "
            f"{'; '.join(extras)}. The clock is {state}.")


def vacation_lines(clock: ClockRecord, players: Sequence[int]) -> str:
    """Say how much of the battle's vacation allowance each player has used."""
    return "\n".join(f"<@{user}>: {human_duration(clock.vacation_total(user))} of "
                      f"{human_duration(clock.vacation_allowance)}" for user in players
                      if clock.vacation_total(user) > 0)
