"""The /attack command every system with attacks shares: its system says what order an attack gives."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common.autocomplete import target_choices, unit_choices, weapon_choices
from cogs.common.confirm import ask
from cogs.common.context import battle_here, service_of
from cogs.common.embeds import safe
from cogs.common.post import post_order
from cogs.common.systems import front_end, refuse_unoffered
from cogs.common.transformers import CellArg
from rules.errors import GameError

FireMode = Literal["standard", "sniping", "automatic", "heavy", "grenade"]
LOCATIONS = [
    app_commands.Choice(name="Head", value="head"), app_commands.Choice(name="Body", value="body"),
    app_commands.Choice(name="Right arm", value="r_arm"), app_commands.Choice(name="Left arm", value="l_arm"),
    app_commands.Choice(name="Right leg", value="r_leg"), app_commands.Choice(name="Left leg", value="l_leg"),
]


class AttackCog(commands.Cog):
    """Attack with a unit's weapons, in whatever way the battle's rule system attacks."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.guild_only()
    @app_commands.command(name="attack", description="Attack with one of your unit's weapons: a unit, or a square")
    @app_commands.describe(
        unit="Your attacking unit",
        weapon="One of its weapons (range and damage shown)",
        target="Unit to attack (enemies first), or `bridge` with the bridge's square in `at`",
        at="Strategic: square to attack, for area weapons, a bridge, or the lone unit on it",
        adjust="Strategic, GM only: a situational modifier to the to-hit test, -100 to +100",
        called="Strategic: called shot at one hit location (a penalty to hit)",
        mode="Combat Action fire mode: standard, sniping, automatic, heavy or grenade (default: the weapon's first)",
    )
    @app_commands.autocomplete(unit=unit_choices, weapon=weapon_choices, target=target_choices)
    @app_commands.choices(called=LOCATIONS)
    async def attack(self, interaction: discord.Interaction, unit: str, weapon: str, target: str | None = None,
                     at: CellArg | None = None, adjust: app_commands.Range[int, -100, 100] = 0,
                     called: app_commands.Choice[str] | None = None, mode: FireMode | None = None) -> None:
        """Resolve an attack and post the breakdown, the dice, the damage and the map."""
        record = await battle_here(interaction)
        battle = service_of(interaction).read_only(record)  # read only: which front end attacks
        given = [name for name, used in (("at", at is not None), ("adjust", adjust != 0),
                                         ("called", called is not None), ("mode", mode is not None)) if used]
        refuse_unoffered(battle, "attack", given)
        own = front_end(battle)
        if own.attack_order is None:
            raise GameError(f"{battle.system.name} has no /attack; see /help for its commands.")
        if not (target or "").strip() and at is None:
            raise GameError("Say what to attack: `target` (a unit, or `bridge`) or `at` (a square, for area weapons).")
        order = own.attack_order(battle, unit, weapon, (target or "").strip(), mode, at, adjust,
                                 called.value if called else "")
        friends = own.friends_hit(battle, order) if own.friends_hit is not None else []
        if friends:
            names = ", ".join(f"**{safe(u.name)}**" for u in friends[:10])
            await ask(interaction, record.id, "orders", "Attack your own side?",
                      f"This attack aims at {names}, on {safe(friends[0].side)}'s side like "
                      f"{safe(battle.unit(unit).name)}. Go ahead only if you mean it.", [order], "Attack anyway")
            return
        await post_order(interaction, order, record)
