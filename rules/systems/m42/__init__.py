"""M42: units of a leader and models in its Command Radius, area terrain, obstacles on edges, roads and buildings."""

from __future__ import annotations

from rules.plugins import Plugin
from rules.system import System
from rules.systems.m42 import actions, homebrew
from rules.systems.m42.board import structures
from rules.systems.m42.details import DETAILS
from rules.systems.m42.effects import EFFECTS
from rules.systems.m42.legal import legal_orders
from rules.systems.m42.mapfile import LAYERS
from rules.systems.m42.reach import reach_by_action
from rules.systems.m42.squares import Square
from rules.systems.m42.statfile import parse_m42_file
from rules.systems.m42.table import TABLE
from rules.systems.m42.units import Unit

SYSTEM = System(
    id="m42",
    name="M42 Movement & Terrain",
    package="rules.systems.m42",
    ruleset_ids=("m42",),
    handlers=TABLE,
    unit_type=Unit,
    square_type=Square,
    legal_orders=legal_orders,
    ends_idle_turns=False,
    map_layers=LAYERS,
    statblocks=parse_m42_file,
    map_edges=True,
    structures=structures,
    reach=reach_by_action,
    homebrew_tables=(homebrew.ACTIONS,),
    homebrew_terrain=False,  # M42 terrain needs its kind (area, building...), which a homebrew row cannot say yet
    describe="A unit is a leader and its models placed within its Command Radius (2 x Ld); area terrain, "
             "walls and hedges on square edges, roads and buildings change how far the leader moves and "
             "where the models may stand.",
    effects=EFFECTS,
    details=DETAILS,
)

# What the `battlepost.systems` entry point names: the system and the extension that plays it on Discord.
PLUGIN = Plugin(system=SYSTEM, front_end="cogs.m42")

__all__ = ["PLUGIN", "SYSTEM", "actions", "homebrew"]
