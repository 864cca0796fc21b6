"""Strategic's /charge, and the /range preview of a shot."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common.autocomplete import target_choices, unit_choices
from cogs.common.context import battle_here, service_of
from cogs.common.post import post_order
from cogs.common.replies import defer, reply
from cogs.common.transformers import CellArg
from cogs.strategic.autocomplete import weapon_choices
from cogs.strategic.preview import range_embed
from rules.battle import Battle
from rules.coords import Cell
from rules.errors import GameError, NotFoundError
from rules.outcome import Highlight
from rules.systems.strategic.actions.charge import Charge
from rules.systems.strategic.combat import range_preview
from rules.systems.strategic.units import Unit, Weapon


def any_weapon(battle: Battle, name: str, user_id: int) -> tuple[Unit, Weapon]:
    """Find a weapon by name on the map, the user's own units first, for a preview from a bare square."""
    units = sorted(battle.iter_units(), key=lambda u: u.owner != user_id)
    for unit in units:
        weapon = unit.weapon(name)
        if weapon is not None:
            return unit, weapon
    raise NotFoundError(f"No unit in this battle carries a weapon called `{name}`.")


class CombatCog(commands.Cog):
    """Charge into melee, and preview shots without rolling."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.guild_only()
    @app_commands.command(name="charge", description="Charge an enemy: move up to AB\u00d71.5 and strike it in melee")
    @app_commands.describe(
        unit="Your charging unit",
        target="The enemy to charge (it must be within a Charge's move of melee reach)",
        weapon="The melee weapon to strike with (leave out: its first melee weapon)",
        to="Square to end the charge on (leave out: the cheapest square within reach)",
    )
    @app_commands.autocomplete(unit=unit_choices, weapon=weapon_choices, target=target_choices)
    async def charge(self, interaction: discord.Interaction, unit: str, target: str, weapon: str = "",
                     to: CellArg | None = None) -> None:
        """Move into reach and make the melee attack, as one Full action with one outcome."""
        await post_order(interaction, Charge(unit=unit, target=target.strip(), weapon=weapon.strip(), to=to))

    @app_commands.guild_only()
    @app_commands.command(name="range", description="Preview a shot without rolling: distance, range band, modifiers")
    @app_commands.describe(
        to="Square to aim at, like P10",
        weapon="Weapon to measure with (of `unit`; with only `from`, of any unit)",
        unit="Unit that would fire: measures from its square with its skill",
        from_="Square to measure from instead (only the situational modifiers then)",
    )
    @app_commands.rename(from_="from")
    @app_commands.autocomplete(unit=unit_choices, weapon=weapon_choices)
    async def range_(self, interaction: discord.Interaction, to: CellArg, weapon: str, unit: str | None = None,
                     from_: CellArg | None = None) -> None:
        """Show, only to the user, what a shot would face; nothing is rolled or changed."""
        if not (unit or "").strip() and from_ is None:
            raise GameError("Say where the shot starts: `unit` (from its square) or `from` (any square).")
        record = await battle_here(interaction)
        service = service_of(interaction)
        battle = service.read_only(record)
        if (unit or "").strip():
            owner = battle.unit(unit or "")
            gun = owner.require_weapon(weapon)
        else:
            owner, gun = any_weapon(battle, weapon, interaction.user.id)
        # From a bare square nobody stands there to fire, so the rules count no one's skill or aim.
        origin: Cell | Unit = from_ if from_ is not None else owner
        preview = range_preview(battle, origin, to, gun)
        await defer(interaction, ephemeral=True)
        src = preview["from"]
        highlight = Highlight(actor=src, target=preview["to"], line=[src, preview["to"]])
        png = await service.render(battle, highlight, battle_id=record.id)
        embed = range_embed(preview, battle, owner=owner.name, from_unit=from_ is None)
        await reply(interaction, embed=embed, png=png, ephemeral=True)
