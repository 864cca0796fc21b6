"""Combat Action (`combat-action`): squads, vehicles and robots spending action points on a d6 skirmish table."""

from __future__ import annotations

from rules.plugins import Plugin
from rules.system import System
from rules.systems.combat_action import actions
from rules.systems.combat_action.actions.setup import refresh_budgets
from rules.systems.combat_action.details import DETAILS
from rules.systems.combat_action.effects import EFFECTS
from rules.systems.combat_action.legal import legal_orders
from rules.systems.combat_action.rolltests import ROLLTESTS
from rules.systems.combat_action.statblock import parse_statblock_file
from rules.systems.combat_action.table import TABLE
from rules.systems.combat_action.units import Unit
from rules.systems.combat_action.weaponline import NOTATION as WEAPON_LINE

SYSTEM = System(
    id="combat_action",
    name="Combat Action",
    package="rules.systems.combat_action",
    ruleset_ids=("combat-action",),
    handlers=TABLE,
    unit_type=Unit,
    legal_orders=legal_orders,
    round_start=[refresh_budgets],
    statblocks=parse_statblock_file,
    weapon_line=WEAPON_LINE,
    describe="Squads, characters, vehicles and robots: 2 AP per model, d6 to hit against SS with range, "
             "size, flying, speed and cover modifiers, area weapons that deviate, vehicle damage by location.",
    effects=EFFECTS,
    details=DETAILS,
    rolltests=ROLLTESTS,
)

# What the `battlepost.systems` entry point names: the system and the extension that plays it on Discord.
PLUGIN = Plugin(system=SYSTEM, front_end="cogs.combat_action")

__all__ = ["PLUGIN", "SYSTEM", "actions"]
