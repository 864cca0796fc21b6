"""Slash commands players use on their turn."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common.action_panel import next_step
from cogs.common.autocomplete import move_mode_choices, unit_choices
from cogs.common.context import actor_of, battle_here, channel_key, service_of
from cogs.common.embeds import INFO, outcome_embed, roll_line, safe, with_note
from cogs.common.replies import defer, reply
from cogs.common.side_secrets import tell_side
from cogs.common.systems import move_mode, require_map, system_embed
from cogs.common.transformers import CellArg
from cogs.common.undo import Seen, undo_view
from rules import orders as o
from rules.dice import split_notation
from rules.errors import NotAllowedError
from rules.outcome import Outcome


class PlayCog(commands.Cog):
    """Move units and roll dice."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.guild_only()
    @app_commands.command(name="move", description="Move your unit; leave out `to` to see where it can go")
    @app_commands.describe(unit="Your unit", to="Destination square, like E5",
                           mode="How to move (the battle's rule system offers its modes); left out, the cheapest that reaches the square")
    @app_commands.autocomplete(unit=unit_choices, mode=move_mode_choices)
    async def move(self, interaction: discord.Interaction, unit: str, to: CellArg | None = None,
                   mode: str | None = None) -> None:
        """Move a unit along the cheapest legal path (by the cheapest mode, unless told), or show its reach."""
        record = await battle_here(interaction)
        require_map(record.ruleset, "move a unit to a square")
        service = service_of(interaction)
        actor = actor_of(interaction)
        # Read only (the mode, the unit's reach): the shared copy, not a fresh decode per order.
        battle = service.read_only(record)
        chosen = move_mode(battle, mode)
        if to is None:
            target = battle.unit(unit)
            if target.owner != actor.user_id and not await service.is_gm(actor, record):
                raise NotAllowedError(f"{target.name} is not yours; you can only plan moves for your own units.")
            await defer(interaction, ephemeral=True)
            reach, png = await service.reach_map(battle, target.name, battle_id=record.id)
            if mode is not None:
                reach = {m: cells for m, cells in reach.items() if m == chosen}
            lines = [f"**{m.title()}**: {len(cells)} squares" for m, cells in reach.items()]
            embed = discord.Embed(title=f"Where {safe(target.name)} can go", description="\n".join(lines), colour=INFO)
            await reply(interaction, embed=embed, png=png, ephemeral=True)
            return
        order: o.Order = o.Move(unit=unit, to=to, mode=chosen)
        # Left out, the mode is the cheapest that reaches the square: the service picks it in the order's own trip.
        result = await service.execute(actor, record, order, render=False, follow=unit, cheapest=mode is None)
        cheapest = result.cheapest
        await defer(interaction, when_slow=True)
        assert result.outcome is not None
        name = interaction.user.display_name

        def build(shown: Outcome) -> discord.Embed:
            return system_embed(shown, result.battle, name) or outcome_embed(
                shown, battle_name=result.battle.name, system=result.battle.system.id, actor_name=name)

        # A hidden unit's move is its side's secret: with side threads on, the channel reads only that it moved.
        shown = await tell_side(interaction.client, service, result.record, result.battle, result.outcome, build)
        moved = await service.render(result.battle, outcome=shown, battle_id=record.id)
        embed = build(shown)
        after, note = await next_step(result, unit, name)
        with_note(embed, note)
        if cheapest is not None:
            note = f"*{str(getattr(cheapest, 'mode', '')).title()}: the cheapest move that reaches {to}.*"
            embed.description = f"{note}\n{embed.description or ''}"[:4096]
        await reply(interaction, embed=embed, png=moved,
                    view=await undo_view(interaction, result, after, Seen(record.version, battle)))

    @app_commands.command(name="roll", description="Roll dice in the open, like 2d10+5, d%, 4d6kh3 or 1d20 adv")
    @app_commands.describe(dice="Dice and a comment: 2d10+5, d%, 4d6kh3, 2d20kl1, `1d20+5 adv to hit`",
                           purpose="What the roll is for (or write it after the dice)")
    async def roll(self, interaction: discord.Interaction, dice: str, purpose: str = "") -> None:
        """Roll dice; logged in the battle when the channel has one."""
        notation, comment = split_notation(dice)
        if notation:  # text with no dice in front stays whole, so the refusal names what was typed
            dice, purpose = notation, purpose or comment
        service = service_of(interaction)
        # In a direct message there is no battle: the roll is only shown.
        found = None
        if interaction.guild_id is not None:
            actor = actor_of(interaction)
            found = await service.battle_in(actor.guild_id, channel_key(interaction))
        if found is not None:
            result = await service.execute(actor, found, o.Roll(dice=dice, purpose=purpose[:100]), render=False)
            assert result.outcome is not None
            line = roll_line(result.outcome.rolls[0].to_dict())
        else:
            rolled = service.roll_aside(dice, purpose[:100])
            line = roll_line(rolled.to_dict())
        who = safe(interaction.user.display_name)
        await reply(interaction, embed=discord.Embed(description=f"{who} rolls {line}", colour=INFO))
