"""A short guide per role: what every battle shares, and each rule system's own part (its front end's)."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common.context import service_of
from cogs.common.embeds import INFO, safe
from cogs.common.replies import reply
from cogs.common.systems import guides
from rules.system import registered

GM_GUIDE = (
    "1. `/battle new name:… ruleset:…` here (or `thread:True`); `ruleset` offers every rule system's rulesets.\n"
    "2. Set the battle up as its rule system's part below says: the ground and the forces.\n"
    "3. `/battle start`. Then `/gm deadline` and `/gm policy` set the clock; `/gm undo`, `/gm roll` (hidden) and "
    "`/gm end` when it is over.\n"
    "4. `/battle rules show` lists the rulings you can change, `/battle rules set` changes one."
)
CLOCK_GUIDE = (
    "`/gm deadline hours:24`, or `at:20:00 zone:Europe/Berlin` (every turn ends at 20:00 there, right across "
    "summer time; `hours` is then the least a turn gets), `weekends:skip`. `/gm timebank start:3d per-turn:1d "
    "cap:5d` gives each side a bank that runs only while it is due. `/gm quiet hours:22:00-08:00` holds "
    "reminders until morning. `/gm vacation-allowance days:14` caps how far a player's vacations move their "
    "deadlines. `/gm pause` and `/gm resume` stop the clock."
)
TIME_GUIDE = (
    "Every time the bot writes shows in your own zone. `/settings timezone Europe/Berlin` sets the zone your "
    "`/vacation` days and your daily digest's hour are read in. `/vacation start from:2026-12-24 to:2027-01-02` marks you away from every "
    "battle here: your deadlines move by the time away (up to each battle's allowance) and the others are told "
    "once; `/vacation end` comes back early, `/vacation show` lists yours; `/turn status` shows the time used."
)
PLAYER_GUIDE = (
    "When it is your turn you are pinged with the buttons of what your units can do (End turn, My options, "
    "Show map).\n"
    "`/turn status` shows whose turn it is and your actions left; `/turn end` passes; "
    "`/turn standing` sets what your unit does if the deadline passes.\n"
    "`/map show` zooms (`at:G10 radius:5`), shows your side's view, the previous turn or `reach:`; "
    "`/map text` reads the map aloud for screen readers.\n"
    "`/roll dice:2d10+5` rolls in the open; `/settings notify dm` pings you by DM instead; `/turn mute` "
    "quiets one turn, `/turn reminders how:every hours:6` sets how often you are reminded; "
    "`/battle side-thread` opens your side's private thread."
)

TABLE_GUIDE = (
    "`/undo` (or the Undo button on an order's reply) takes back your own last order: at once if it rolled no die, showed "
    "nothing hidden and nobody acted since; otherwise the other side's players get Approve and Refuse buttons, "
    "and one approval (or the GM) carries it. Every takeback is in `/battle log`.\n"
    "`/battles` (here or in a DM with the bot) lists the battles waiting for you on every server, with deadlines; "
    "`/settings digest on` sends that list by DM once a day, at 08:00 in your zone (`at:` another hour).\n"
    "`/seat release` frees your seat for a substitute, who takes it with the post's Take seat button (GM: "
    "`/seat approval on` to approve each one). Miss 2 deadlines in a row (GM: `/seat disorder`) and your side "
    "falls into civil disorder: your units play their standing orders until you act.\n"
    "`/battle stats` and `/stats me`: times to act, missed deadlines, orders, takebacks, losses."
)


class HelpCog(commands.Cog):
    """Explain battlepost to GMs and players."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="How to run a battle (GM) or play in one (player)")
    @app_commands.describe(role="Which guide to show")
    async def help(self, interaction: discord.Interaction, role: Literal["gm", "player"] | None = None) -> None:
        """Show the guides, each its own message: in a battle's channel only its rule system's part."""
        battle = None
        if interaction.guild_id is not None and interaction.channel_id is not None:
            found = await service_of(interaction).peek(interaction.guild_id, interaction.channel_id)
            battle = found[1] if found is not None else None
        gm_parts, player_parts = guides(battle)
        pages: list[discord.Embed] = []
        if role in (None, "gm"):
            gm = discord.Embed(title="battlepost: running a battle", colour=INFO,
                               description="Play-by-post battles: the bot checks orders, rolls in the open and "
                                           "posts the map.")
            gm.add_field(name="GM: set up a battle in four steps", value=GM_GUIDE, inline=False)
            for title, text in gm_parts:
                gm.add_field(name=title, value=text, inline=False)
            notations = [f"**{safe(system.name)}**: `weapons:\"{system.weapon_line.example}\"`. "
                         f"{system.weapon_line.guide}"
                         for system in ((battle.system,) if battle is not None else registered())
                         if system.weapon_line is not None]
            if notations:
                gm.add_field(name="Weapons typed in /unit add and /unit edit", value="\n".join(notations)[:1024],
                             inline=False)
            gm.add_field(name="The clock: deadlines, clock hours, time banks, quiet hours", value=CLOCK_GUIDE,
                         inline=False)
            pages.append(gm)
        if role in (None, "player"):
            player = discord.Embed(title="battlepost: playing", colour=INFO,
                                   description="Your units' next actions come as buttons on your turn ping and "
                                               "under every order; the commands below do the same by typing.")
            player.add_field(name="Players", value=PLAYER_GUIDE, inline=False)
            player.add_field(name="Takebacks, your battles, substitutes", value=TABLE_GUIDE, inline=False)
            for title, text in player_parts:
                player.add_field(name=title, value=text, inline=False)
            player.add_field(name="Time zones and vacations", value=TIME_GUIDE, inline=False)
            pages.append(player)
        await reply(interaction, embed=pages[0], ephemeral=True)
        for page in pages[1:]:
            await interaction.followup.send(embed=page, ephemeral=True)
