"""The Discord front end's words for the web view: what an order did, and what a unit may still do.

`bot.webfront` finds this module by name (the bot's layer sits below the cogs), so the web view words a
battle as the Discord replies do, each system's own words through its front end, in the bot's process or
running alone.
"""

from __future__ import annotations

from typing import Any

from bot.webfront import MayDo, Said
from cogs.common.actions import action_groups
from cogs.common.embeds import detail_lines, roll_line, test_lines
from cogs.common.systems import front_end
from cogs.common.words import command_text
from cogs.turn.text import effect_sentence
from rules.battle import Battle
from rules.outcome import Outcome
from rules.rolltests import D100Test
from rules.units import Unit


def said(outcome: Outcome, battle: Battle) -> Said:
    """Return what an order did as the Discord replies word it: its command, its system's log line, what its details add,
    a sentence per effect, each test with every modifier, and each roll (`outcome` already redacted)."""
    own = front_end(battle).log_line  # registers the system's front end first, loaded as an extension or not
    lines = [own(outcome)] if own is not None else []
    lines += detail_lines(outcome)
    lines += [effect_sentence(e, outcome, battle) for e in outcome.effects]
    tests = [(t.purpose or f"Test {i + 1}", tuple(test_lines(t))) for i, t in enumerate(outcome.tests_of(D100Test))]
    rolls = [roll_line(r.to_dict()) for r in outcome.rolls]
    return Said(command_text(outcome.order, battle.system.id), tuple(line for line in lines if line), tuple(tests),
                tuple(rolls))


def may_do(battle: Battle[Any], unit: Unit) -> list[MayDo]:
    """Return what a unit may still do now, as its action buttons on Discord name it, from its legal orders."""
    front_end(battle)  # its system's words for its actions, loaded as an extension or not
    found = []
    for group in action_groups(battle, unit):
        squares = tuple(str(c) for c in group.squares()) if group.choosing == "square" else ()
        units = tuple(group.targets()) if group.choosing == "unit" else ()
        found.append(MayDo(group.label, squares, units))
    return found
