"""Surface Combat (`surface`): army against army on a planet, no map, resolved round by round."""

from __future__ import annotations

from rules.plugins import Plugin
from rules.system import System
from rules.systems.surface import actions
from rules.systems.surface.details import DETAILS
from rules.systems.surface.effects import EFFECTS
from rules.systems.surface.legal import legal_orders
from rules.systems.surface.phases import PHASES
from rules.systems.surface.rolltests import ROLLTESTS
from rules.systems.surface.table import TABLE
from rules.systems.surface.units import Unit
from rules.systems.surface.victory import battle_over

SYSTEM = System(
    id="surface",
    name="Surface Combat",
    package="rules.systems.surface",
    ruleset_ids=("surface",),
    handlers=TABLE,
    unit_type=Unit,
    legal_orders=legal_orders,
    has_map=False,
    phases=PHASES,
    describe="Two forces of Grunts, Special Forces, Armor and Battleoids fight rounds set by each side's "
             "secret Pre-Battle Plan: initiative, morale, the target lottery, hits and deflections, then "
             "rally, victory level, retreat, escape and collateral damage.",
    effects=EFFECTS,
    details=DETAILS,
    rolltests=ROLLTESTS,
    battle_over=battle_over,
)

# What the `battlepost.systems` entry point names: the system and the extension that plays it on Discord.
PLUGIN = Plugin(system=SYSTEM, front_end="cogs.surface")

__all__ = ["PLUGIN", "SYSTEM", "actions"]
