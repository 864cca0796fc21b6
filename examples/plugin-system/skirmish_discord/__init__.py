"""Pit Skirmish on Discord: its `/strike` command and the sentences of its outcomes.

battlepost loads this extension by the name the system's `Plugin` gives (`skirmish_discord`), after the
commands every system shares (`/battle`, `/unit`, `/move`, `/turn`), which play Pit Skirmish as they
play any other system.
"""

from __future__ import annotations

from typing import Any

import discord
from cogs.common.autocomplete import any_unit_choices, unit_choices
from cogs.common.context import actor_of, battle_here, service_of
from cogs.common.embeds import outcome_embed, safe
from cogs.common.replies import defer, reply
from cogs.common.systems import FrontEnd, register_front_end
from discord import app_commands
from discord.ext import commands
from rules.battle import Battle
from rules.outcome import Outcome

from skirmish.orders import Entered, Stepped, Strike, Struck


def sentences(outcome: Outcome) -> list[str]:
    """Say what each of the system's own effects did, the die and the number it needed included."""
    lines: list[str] = []
    for fx in outcome.effects:
        if isinstance(fx, Entered):
            lines.append(f"{safe(fx.unit)} of {safe(fx.side)} enters the pit on **{fx.at}** with {fx.hp} HP.")
        elif isinstance(fx, Stepped):
            lines.append(f"{safe(fx.unit)} steps from {fx.frm} to **{fx.to}**.")
        elif isinstance(fx, Struck):
            verdict = (f"a hit: {safe(fx.target)} has {fx.hp_left} HP left" if fx.hit and fx.hp_left
                       else f"a hit: **{safe(fx.target)} is down**" if fx.hit else "a miss")
            lines.append(f"{safe(fx.unit)} strikes at {safe(fx.target)}: d6 **{fx.roll}** "
                         f"(needs {fx.needed}+), {verdict}.")
    return lines


def skirmish_embed(outcome: Outcome, battle: Battle[Any], actor_name: str) -> discord.Embed:
    """Return the shared reply to an outcome with the system's own sentences first."""
    embed = outcome_embed(outcome, battle_name=battle.name, actor_name=actor_name)
    own = sentences(outcome)
    if own:
        embed.description = "\n".join([*own, embed.description or ""]).strip()
    return embed


# /strike is this system's alone: other battles refuse it, naming Pit Skirmish.
FRONT_END = FrontEnd(outcome_embed=skirmish_embed, commands=frozenset({"strike"}))


class SkirmishCog(commands.Cog):
    """Pit Skirmish's own command: strike the enemy next to your fighter."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.guild_only()
    @app_commands.command(name="strike", description="Pit Skirmish: strike at an enemy fighter next to yours (d6)")
    @app_commands.describe(unit="Your fighter", target="The enemy fighter on a square next to it")
    @app_commands.autocomplete(unit=unit_choices, target=any_unit_choices)
    async def strike(self, interaction: discord.Interaction, unit: str, target: str) -> None:
        """Strike an adjacent enemy; a refusal says why and changes nothing."""
        record = await battle_here(interaction)
        service = service_of(interaction)
        result = await service.execute(actor_of(interaction), record, Strike(unit=unit, target=target), render=False)
        await defer(interaction)
        assert result.outcome is not None
        await reply(interaction, embed=skirmish_embed(result.outcome, result.battle, interaction.user.display_name))


async def setup(bot: commands.Bot) -> None:
    """Register Pit Skirmish's reply pieces and add its command."""
    register_front_end("skirmish", FRONT_END)
    await bot.add_cog(SkirmishCog(bot))
