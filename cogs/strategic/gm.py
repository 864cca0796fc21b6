"""Strategic's GM overrides, under /gm: put a unit down, freeze water, edit or set a unit's stat block."""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.common.autocomplete import unit_choices
from cogs.common.transformers import CellArg
from cogs.gm.cog import gm_order
from rules.systems.strategic.actions.battlefield import Freeze
from rules.systems.strategic.actions.gm import GmPlace, GmSet
from rules.systems.strategic.statblock import STAT_FIELDS, STATUSES

STATUS_CHOICES = [app_commands.Choice(name=s.replace("_", " "), value=s) for s in STATUSES]
# Fields /gm set offers first; any stat-block field works.
SET_FIELDS = (
    "wounds", "magnitude", "actions", "add_status", "remove_status", "statuses", "owner", "side", "name",
    "armour.head", "armour.body", "skills.", *(f for f in STAT_FIELDS if f not in ("wounds", "magnitude", "statuses")),
)


async def field_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Offer the fields /gm set understands."""
    needle = current.strip().lower()
    return [app_commands.Choice(name=f, value=f) for f in SET_FIELDS if needle in f][:25]


def gm_commands() -> list[app_commands.Command]:
    """Build the overrides anew for one bot's /gm group (a command belongs to one group at a time)."""

    @app_commands.command(name="move", description="Put a unit on a square, ignoring movement and turns")
    @app_commands.describe(unit="Unit to put down", to="Square, like E5")
    @app_commands.autocomplete(unit=unit_choices)
    async def gm_move(interaction: discord.Interaction, unit: str, to: CellArg) -> None:
        """Place a unit."""
        await gm_order(interaction, GmPlace(target=unit, at=to), "put units on the map")

    @app_commands.command(name="freeze", description="Turn a Water square to Ice; units in it are frozen in place")
    @app_commands.describe(at="Water square to freeze, like E5")
    async def gm_freeze(interaction: discord.Interaction, at: CellArg) -> None:
        """Freeze water."""
        await gm_order(interaction, Freeze(at=at), "freeze water")

    @app_commands.command(name="edit", description="Adjust a unit mid-battle: wounds, magnitude, statuses, actions left (logged)")
    @app_commands.describe(unit="Unit to change", wounds="Current wounds", magnitude="Current magnitude (Hordes)",
                           add_status="Status to put on", remove_status="Status to take off",
                           actions="Action points left this turn")
    @app_commands.autocomplete(unit=unit_choices)
    @app_commands.choices(add_status=STATUS_CHOICES, remove_status=STATUS_CHOICES)
    async def gm_edit(interaction: discord.Interaction, unit: str,
                      wounds: app_commands.Range[int, 0, 10000] | None = None,
                      magnitude: app_commands.Range[int, 0, 10000] | None = None,
                      add_status: str | None = None, remove_status: str | None = None,
                      actions: app_commands.Range[int, 0, 20] | None = None) -> None:
        """Edit a unit's state."""
        given = {"wounds": wounds, "magnitude": magnitude, "add_status": add_status,
                 "remove_status": remove_status, "actions": actions}
        changes = {k: v for k, v in given.items() if v is not None}
        await gm_order(interaction, GmSet(target=unit, changes=changes), "edit units", map_=False)

    @app_commands.command(name="set", description="Set one field of a unit by its path: ag, armour.head, skills.dodge... (logged)")
    @app_commands.describe(unit="Unit to change", field="Field, like ag, wounds, armour.body, skills.pilot, statuses",
                           value="New value (numbers, true/false, a list like `pinned, prone`, or `none`)")
    @app_commands.autocomplete(unit=unit_choices, field=field_choices)
    async def gm_set(interaction: discord.Interaction, unit: str, field: app_commands.Range[str, 1, 40],
                     value: app_commands.Range[str, 0, 1000]) -> None:
        """Set one field."""
        await gm_order(interaction, GmSet(target=unit, changes={field.strip(): value}), "set unit fields", map_=False)

    return [gm_move, gm_freeze, gm_edit, gm_set]
