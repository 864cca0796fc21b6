"""Slash commands of /settings."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.clockhours import local_time
from bot.mybattles import reschedule_digest, turn_off_digest, turn_on_digest
from bot.vacations import set_zone
from cogs.common.autocomplete import zone_options
from cogs.common.context import actor_of, service_of
from cogs.common.replies import reply
from rules.errors import GameError, NotAllowedError


class SettingsCog(commands.GroupCog, group_name="settings", group_description="Server and player settings"):
    """Server and player settings."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="gm-role", description="Choose the role whose members referee battles (Manage Server)")
    @app_commands.describe(role="The GM role; its members can set up and referee every battle on this server")
    async def gm_role(self, interaction: discord.Interaction, role: discord.Role) -> None:
        """Set the server's GM role."""
        actor = actor_of(interaction)
        if not actor.manage_guild:
            raise NotAllowedError("Only members with Manage Server can choose the GM role.")
        if role.is_default():
            raise GameError("@everyone cannot be the GM role: every member would referee every battle. "
                            "Make a role for your GMs and choose it.")
        await service_of(interaction).set_gm_role(actor.guild_id, role.id)
        await reply(interaction, f"Members of {role.mention} are now GMs of every battle on this server.",
                    ephemeral=True)

    @app_commands.command(name="notify", description="Hear that it is your turn in the battle's channel or by direct message")
    @app_commands.describe(mode="channel: a mention in the battle's channel (default); dm: a direct message instead")
    async def notify(self, interaction: discord.Interaction, mode: Literal["channel", "dm"]) -> None:
        """Choose how you are told that it is your turn (for every battle you play)."""
        await service_of(interaction).set_notify_mode(interaction.user.id, mode)
        text = ("From now on your turns reach you by direct message, with the same buttons; if your DMs are closed "
                "you are mentioned in the channel instead." if mode == "dm"
                else "From now on you are mentioned in the battle's channel when it is your turn.")
        await reply(interaction, text, ephemeral=True)

    @app_commands.command(name="timezone", description="Your time zone, for the days of /vacation and the hour of your daily digest")
    @app_commands.describe(zone="An IANA time zone like Europe/Berlin or America/New_York (the list narrows as you type)")
    @app_commands.autocomplete(zone=zone_options)
    async def timezone(self, interaction: discord.Interaction, zone: app_commands.Range[str, 1, 64]) -> None:
        """Set your time zone."""
        service = service_of(interaction)
        stored = await set_zone(service, interaction.user.id, zone)
        digest = await reschedule_digest(service, interaction.user.id)
        now = service.clock()
        text = (f"Your time zone is now **{stored}** (it is {local_time(now, stored)} there). Dates you give "
                "`/vacation` are read in it; every time the bot writes shows in your own Discord zone.")
        if digest is not None:
            text += f" Your daily digest comes at {digest.clock}, the next <t:{int(digest.next_at)}:R>."
        await reply(interaction, text, ephemeral=True)

    @app_commands.command(name="digest", description="A daily direct message listing the battles waiting for you")
    @app_commands.describe(mode="on: one direct message a day listing your battles waiting for you; off: none",
                           at="The hour it comes, like 08:00, in your /settings timezone (08:00 unless chosen)")
    async def digest(self, interaction: discord.Interaction, mode: Literal["on", "off"],
                     at: app_commands.Range[str, 1, 10] | None = None) -> None:
        """Turn your daily digest on or off (for every battle you play), at a local hour of your choice."""
        service = service_of(interaction)
        if mode == "off":
            await turn_off_digest(service, interaction.user.id)
            await reply(interaction, "Your daily digest is off; `/battles` still lists your battles when you ask.",
                        ephemeral=True)
            return
        digest = await turn_on_digest(service, interaction.user.id, at)
        await reply(interaction, "Your daily digest is on: one direct message a day at "
                                 f"**{digest.clock}** listing every battle waiting for you (none on a day when "
                                 f"nothing is), the next <t:{int(digest.next_at)}:R>. `/settings timezone` sets "
                                 "your zone. Keep your direct messages open to the bot.",
                    ephemeral=True)
