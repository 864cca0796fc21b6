"""M42's own map layers, under /map: roads and the floors of buildings and ruins."""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.common.transformers import CellArg
from cogs.map.cog import change_map
from rules.systems.m42.actions import MAX_FLOORS
from rules.systems.m42.orders import SetFloors, SetRoad


def map_commands() -> list[app_commands.Command]:
    """Build /map road and /map floors anew for one bot's /map group (a command belongs to one group at a time)."""

    @app_commands.command(name="road", description="Lay a road over a rectangle of squares, or lift it (GM)")
    @app_commands.describe(from_="First corner, like A15", to="Opposite corner, like Z15 (leave out for one square)",
                           remove="Lift the road from these squares instead")
    @app_commands.rename(from_="from")
    async def road(interaction: discord.Interaction, from_: CellArg, to: CellArg | None = None,
                   remove: bool = False) -> None:
        """Lay or lift a road; road squares side by side are one connected road."""
        await change_map(interaction, SetRoad(frm=from_, to=to, on=not remove))

    @app_commands.command(name="floors", description="Give building or ruin squares their number of floors (GM)")
    @app_commands.describe(from_="First corner, like AA12", floors="Floors, 1 for the ground floor alone",
                           to="Opposite corner (leave out for one square)")
    @app_commands.rename(from_="from")
    async def floors(interaction: discord.Interaction, from_: CellArg,
                     floors: app_commands.Range[int, 1, MAX_FLOORS], to: CellArg | None = None) -> None:
        """Set the floors of building or ruin squares."""
        await change_map(interaction, SetFloors(frm=from_, floors=floors, to=to))

    return [road, floors]
