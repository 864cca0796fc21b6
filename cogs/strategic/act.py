"""Strategic's /act: a d100 test of a characteristic or a skill, with the unit's conditions and terrain."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common.action_panel import next_step
from cogs.common.autocomplete import unit_choices
from cogs.common.context import actor_of, battle_here, service_of
from cogs.common.embeds import with_note
from cogs.common.replies import reply
from cogs.common.side_secrets import tell_side
from cogs.common.undo import undo_view
from cogs.strategic.autocomplete import stat_choices
from cogs.strategic.embeds_combat import combat_embed
from rules import orders as o
from rules.outcome import Outcome
from rules.systems.strategic.actions.other import Act


class ActCog(commands.Cog):
    """Make tests for a unit."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.guild_only()
    @app_commands.command(name="act", description="Make a d100 test for your unit: a characteristic or a skill")
    @app_commands.describe(unit="Your unit", stat="Characteristic or skill to test (the unit's skills are offered)",
                           modifier="Modifier the GM allowed, -100 to +100", reason="What the test is for")
    @app_commands.autocomplete(unit=unit_choices, stat=stat_choices)
    async def act(self, interaction: discord.Interaction, unit: str, stat: str,
                  modifier: app_commands.Range[int, -100, 100] = 0, reason: str = "") -> None:
        """Make a test with the unit's conditions and terrain applied."""
        record = await battle_here(interaction)
        service = service_of(interaction)
        # Skills are stored as `tech_use`; let a player type `Tech Use`.
        key = "_".join(stat.strip().lower().split())
        order: o.Order = Act(unit=unit, stat=key, modifier=modifier, reason=reason[:100])
        if record.status == "setup":
            # Before the battle starts there are no turns or conditions; the plain test lets a GM roll in setup.
            order = o.SkillTest(unit=unit, stat=key, modifier=modifier, reason=reason[:100])
        actor = actor_of(interaction)
        result = await service.execute(actor, record, order, render=False, follow=unit)
        assert result.outcome is not None
        name = interaction.user.display_name

        def build(shown: Outcome) -> discord.Embed:
            return combat_embed(shown, result.battle, battle_name=result.battle.name, actor_name=name)

        # A hidden unit's test is its side's: the terrain it is tested in would tell where it lies.
        embed = build(await tell_side(interaction.client, service, result.record, result.battle, result.outcome, build))
        after, note = await next_step(result, unit, interaction.user.display_name)
        with_note(embed, note)
        await reply(interaction, embed=embed, view=await undo_view(interaction, result, after))
