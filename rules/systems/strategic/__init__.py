"""The Strategic Combat Rules at 1 km (`strategic-e`) and 1 decametre (`strategic-p`) a square."""

from __future__ import annotations

from rules.plugins import Plugin
from rules.system import System
from rules.systems.strategic import actions
from rules.systems.strategic.actions.move import reach_by_mode
from rules.systems.strategic.battlefield import begin_round
from rules.systems.strategic.details import DETAILS
from rules.systems.strategic.effects import EFFECTS
from rules.systems.strategic.features import hidden_feature_squares, structures
from rules.systems.strategic.featuretable import FEATURES
from rules.systems.strategic.legal import legal_orders
from rules.systems.strategic.mapfile import LAYERS
from rules.systems.strategic.rolltests import ROLLTESTS
from rules.systems.strategic.sides import Side
from rules.systems.strategic.squares import Square
from rules.systems.strategic.statblock_file import parse_statblock_file
from rules.systems.strategic.table import TABLE
from rules.systems.strategic.units import BONUS_TOKENS, Unit
from rules.systems.strategic.weaponline import NOTATION as WEAPON_LINE

SYSTEM = System(
    id="strategic",
    name="Strategic Combat Rules",
    package="rules.systems.strategic",
    ruleset_ids=("strategic-e", "strategic-p"),
    handlers=TABLE,
    unit_type=Unit,
    square_type=Square,
    side_type=Side,
    legal_orders=legal_orders,
    round_start=[begin_round],
    initiative_tokens=frozenset(BONUS_TOKENS),
    map_layers=LAYERS,
    hidden_squares=hidden_feature_squares,
    structures=structures,
    reach=reach_by_mode,
    statblocks=parse_statblock_file,
    weapon_line=WEAPON_LINE,
    homebrew_tables=(FEATURES,),
    describe="Independent Characters and Hordes moving by Agility Bonus, ranged and area attacks, "
             "terrain, artificial features, fire, smoke, storms and traps.",
    effects=EFFECTS,
    details=DETAILS,
    rolltests=ROLLTESTS,
)

# What the `battlepost.systems` entry point names: the system and the extension that plays it on Discord.
PLUGIN = Plugin(system=SYSTEM, front_end="cogs.strategic")

__all__ = ["PLUGIN", "SYSTEM", "actions"]
