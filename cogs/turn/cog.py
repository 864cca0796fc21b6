"""Slash commands of /turn: the state of the round, ending and holding turns, standing orders, turn modes."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.clock import MAX_EVERY_HOURS, MIN_EVERY_HOURS, parse_remind
from bot.service import BattleRecord, Listener
from cogs.common.autocomplete import unit_choices
from cogs.common.autocomplete_squares import standing_choices
from cogs.common.confirm import asked_to_end_turns
from cogs.common.context import actor_of, battle_here, service_of
from cogs.common.embeds import INFO, safe
from cogs.common.replies import reply
from cogs.common.undo import undo_view
from cogs.turn.board import board_embed
from cogs.turn.buttons import DYNAMIC_ITEMS
from cogs.turn.notifier import Notifier
from cogs.turn.over import BattleOver
from cogs.turn.players import mute_turn, set_reminding
from cogs.turn.text import clock_summary, outcome_lines, turn_embed, vacation_lines
from rules import turns
from rules.errors import IllegalOrderError
from rules.orders import Order
from rules.turnorders import CloseRound, Hold, SetTurnMode, StandingOrder


def service_listeners(bot: commands.Bot) -> list[Listener]:
    """Return the table service's listeners of a bot."""
    return bot.service.listeners  # type: ignore[attr-defined,no-any-return]


@app_commands.guild_only()
class TurnCog(commands.GroupCog, group_name="turn", group_description="Rounds, turns, deadlines and standing orders"):
    """See and play the turn order."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.notifier = Notifier(bot)
        self.over = BattleOver(bot)
        super().__init__()

    async def cog_load(self) -> None:
        """Start listening to the table service and accept the persistent turn buttons."""
        self.notifier.attach()
        service_listeners(self.bot).append(self.notifier)
        service_listeners(self.bot).append(self.over)  # a battle over by its rules: its GM is asked to end it
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)

    async def cog_unload(self) -> None:
        """Stop listening, drop the retries still waiting, and forget the buttons."""
        self.notifier.retries.cancel()
        self.notifier.boards.cancel()
        self.notifier.detach()
        listeners = service_listeners(self.bot)
        for listener in (self.notifier, self.over):
            if listener in listeners:
                listeners.remove(listener)
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)

    @app_commands.command(name="status", description="Round, turn mode, whose turn, the deadline and every unit's actions left")
    async def status(self, interaction: discord.Interaction) -> None:
        """Show the turn state of this channel's battle, privately."""
        record = await battle_here(interaction)
        service = service_of(interaction)
        actor = actor_of(interaction)
        # Read only: the shared copy kept at this version, so nothing is decoded again.
        battle = service.read_only(record)
        if battle.system.phases is not None:
            raise IllegalOrderError(f"{battle.system.name} has no turns of units; `/surface status` shows the game "
                                    "turn, whose plan is in and the deadline.")
        clock = await service.clock_of(record)
        embed = board_embed(record, battle, clock)
        embed.title = f"Turn status: {safe(battle.name)}"
        gm = await service.is_gm(actor, record)
        state = turns.turn_status(battle)
        if state["initiative"]:
            order = [f"{safe(r['unit'])} {r['total']}" for r in state["initiative"][:20]]
            embed.add_field(name="Initiative", value=" \u00b7 ".join(order)[:1024], inline=False)
        # Standing orders are plans: each player sees their own, the GM sees all.
        standing = [
            f"{safe(u['unit'])}: `{safe(u['standing_order'])}`" for u in state["units"]
            if u["standing_order"] and (gm or u["owner"] == actor.user_id)
        ]
        if standing:
            embed.add_field(name="Standing orders", value="\n".join(standing)[:1024], inline=False)
        embed.add_field(name="Clock", value=clock_summary(clock)[:1024], inline=False)
        away = vacation_lines(clock, sorted({u.owner for u in battle.iter_units() if u.owner}))
        if away:
            embed.add_field(name="Vacation used", value=away[:1024], inline=False)
        embed.set_footer(text=f"battle #{record.id}")
        await reply(interaction, embed=embed, ephemeral=True)

    @app_commands.command(name="end", description="End your unit's turn (leave out the unit to end all your units due now)")
    @app_commands.describe(unit="The unit whose turn ends; without it, every unit of yours that is due now")
    @app_commands.autocomplete(unit=unit_choices)
    async def end(self, interaction: discord.Interaction, unit: str | None = None) -> None:
        """End one or more turns and pass play on."""
        record = await battle_here(interaction)
        service = service_of(interaction)
        actor = actor_of(interaction)
        orders = await service.turn_ends(actor, record, unit)
        # Read only, to ask about unused points: the orders are resolved on a fresh copy by the service.
        if await asked_to_end_turns(interaction, record, actor, service.read_only(record), orders):
            return
        await self._run(interaction, orders, record)

    @app_commands.command(name="hold", description="Let your unit hold: it does nothing more this turn")
    @app_commands.describe(unit="The unit that holds")
    @app_commands.autocomplete(unit=unit_choices)
    async def hold(self, interaction: discord.Interaction, unit: str) -> None:
        """Hold for the rest of the turn."""
        await self._run(interaction, [Hold(unit=unit)])

    @app_commands.command(name="standing", description="Set what your unit does if its turn's deadline passes")
    @app_commands.describe(unit="Your unit",
                           order="`hold`, an order like `move to:E5 mode:half` or `attack weapon:\"Pallet Rifle\" target:Sachiel`, or `none`")
    @app_commands.autocomplete(unit=unit_choices, order=standing_choices)
    async def standing(self, interaction: discord.Interaction, unit: str,
                       order: app_commands.Range[str, 1, 500]) -> None:
        """Store a standing order, privately: the other side should not read your plans."""
        record = await battle_here(interaction)
        service = service_of(interaction)
        result = await service.execute(actor_of(interaction), record, StandingOrder(unit=unit, text=order), render=False)
        assert result.outcome is not None
        clock = await service.clock_of(record)
        note = ("" if clock.policy == "default" else
                "\nThe GM's deadline policy is not `default` yet, so standing orders are kept but not used until it is.")
        embed = discord.Embed(title=f"Standing order: {safe(result.outcome.actor or unit)}", colour=INFO,
                              description="\n".join(outcome_lines(result.outcome)) + note)
        await reply(interaction, embed=embed, ephemeral=True)

    @app_commands.command(name="mute", description="No ping or reminders for your turn now (or your next turn)")
    @app_commands.describe(off="True: take the mute back")
    async def mute(self, interaction: discord.Interaction, off: bool = False) -> None:
        """Mute your own pings for one turn in this channel's battle."""
        record = await battle_here(interaction)
        text = await mute_turn(service_of(interaction), record.id, interaction.user.id, undo=off)
        await reply(interaction, text, ephemeral=True)

    @app_commands.command(name="reminders", description="How often you are reminded before a deadline in this battle")
    @app_commands.describe(how="battle: the GM's reminder times; once: only the first; every: every few hours; off: none",
                           hours=f"With every: the hours between reminders ({MIN_EVERY_HOURS}-{MAX_EVERY_HOURS})")
    async def reminders(self, interaction: discord.Interaction, how: Literal["battle", "once", "every", "off"],
                        hours: app_commands.Range[int, MIN_EVERY_HOURS, MAX_EVERY_HOURS] | None = None) -> None:
        """Choose your own reminders in this channel's battle."""
        record = await battle_here(interaction)
        spec = parse_remind(how, hours)
        text = await set_reminding(service_of(interaction), record.id, interaction.user.id, spec)
        await reply(interaction, text, ephemeral=True)

    @app_commands.command(name="mode", description="Choose how units take turns: initiative, side phases or free (GM)")
    @app_commands.describe(mode="initiative: one unit at a time by d10+AB; side: sides alternate; free: any order, the GM closes the round")
    async def mode(self, interaction: discord.Interaction, mode: Literal["initiative", "side", "free"]) -> None:
        """Set the turn mode."""
        await self._run(interaction, [SetTurnMode(mode=mode)])

    @app_commands.command(name="close-round", description="End the round now and start the next one (GM)")
    async def close_round(self, interaction: discord.Interaction) -> None:
        """Close the round."""
        await self._run(interaction, [CloseRound()])

    async def _run(self, interaction: discord.Interaction, orders: list[Order], record: BattleRecord | None = None) -> None:
        """Give the orders in turn and post what they did; `record` is the channel's battle when already looked up."""
        record = record if record is not None else await battle_here(interaction)
        service = service_of(interaction)
        actor = actor_of(interaction)
        results = [await service.execute(actor, record, order, render=False) for order in orders]
        last = results[-1]
        assert last.outcome is not None
        embed = turn_embed(last.outcome, last.battle, actor_name=interaction.user.display_name)
        if len(results) > 1:
            lines = [line for r in results if r.outcome is not None for line in outcome_lines(r.outcome)]
            embed.title = "Turns ended"
            embed.description = "\n".join(lines)[:4000]
        await reply(interaction, embed=embed, view=await undo_view(interaction, last))
