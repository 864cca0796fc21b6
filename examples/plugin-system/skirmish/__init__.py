"""Pit Skirmish: a small rule system for battlepost, found through its `battlepost.systems` entry point."""

from __future__ import annotations

from rules.plugins import Plugin
from rules.system import System

from skirmish.legal import legal_orders
from skirmish.orders import EFFECTS, TABLE
from skirmish.units import Fighter

SYSTEM = System(
    id="skirmish",
    name="Pit Skirmish",
    package="skirmish",
    ruleset_ids=("skirmish",),
    handlers=TABLE,
    unit_type=Fighter,
    legal_orders=legal_orders,
    describe="Fighters in a sand pit: each turn a fighter steps and strikes the enemy next to it; "
             "the last side on its feet wins.",
    effects=EFFECTS,
)

# What the entry point names: the system, and the discord.py extension that plays it.
PLUGIN = Plugin(system=SYSTEM, front_end="skirmish_discord")

__all__ = ["PLUGIN", "SYSTEM"]
