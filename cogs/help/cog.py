"""A short guide per role: GM setup in five steps, and the player commands."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common.embeds import INFO
from cogs.common.replies import reply

GM_GUIDE = (
    "1. `/battle new name:… ruleset:strategic-e width:30 height:20` here (or `thread:True`).\n"
    "2. Lay out the ground: `/map paint terrain:forest from:C3 to:F8`, `/map generate style:river-valley seed:7`, "
    "or `/map import` a text grid, a Tiled map or a colour picture with its legend.\n"
    "3. Add units: `/unit add name:Eva-01 side:NERV at:E5 owner:@player ag:45`, or `/unit import` a stat-block file.\n"
    "4. P-Scale: sides buy features with `/feature place`; check everything with `/battle info` and `/map show full:True`.\n"
    "5. `/battle start`. Then `/gm deadline`, `/gm policy`, `/turn mode`; `/gm undo`, `/gm roll` (hidden) and "
    "`/gm end` when it is over. `/battle rules show` lists the rulings you can change; "
    "`/battle rules import` brings in homebrew terrain and features (a TOML table; M42: actions)."
)
SURFACE_GUIDE = (
    "Army against army, no map: `/battle new name:… ruleset:surface` (no width or height), then "
    "`/surface add name side type [owner] [ratings] [flags]` per unit (Grunts, Space Marines, Mobile Infantry, "
    "Powered Armor, Armor, Battleoids, Rebels, Partisans, Special Forces) or `/surface import` a forces file, and "
    "`/surface side` for leaders. `/gm deadline` and `/gm policy` set the planning clock; `/battle start` opens "
    "the plans. Each side's player commits `/surface plan side intensity daring [dropped] [besieged]` in secret; "
    "the battle is fought when both are in or the deadline passes (wait: the GM decides; hold: missing plans "
    "take the default; default: last turn's plan), or at `/surface resolve force:True`. `/surface status` shows "
    "who has planned, `/surface report page` every roll, `/surface export` the survivors, "
    "`/surface next-turn` the next game turn, `/battle end` the end."
)
COMBAT_ACTION_GM = (
    "1. `/battle new name:… ruleset:combat-action width:20 height:16 rules:\"cm_per_square=5 large_scale=false "
    "speed_modifier=true\"`: distances are table cm, 5 cm a square unless you say.\n"
    "2. Cover and obstacles: `/map paint terrain:partial` (+2 PF), `slit` (+3), `rock`, `woods`, `concrete`...\n"
    "3. Units: `/unit import file:` a stat-block file (see `examples/combat-action/`: kind infantry, character, "
    "vehicle, robot or building; SS, PF, MV in cm, size, squad, weapons with class and Pen, locations, crew, "
    "capacity, `inside` a vehicle), or `/unit add … stats:\"kind=vehicle pf=6 mv=30 facing=N\"`.\n"
    "4. `/turn mode` (initiative, side or free), then `/battle start`. Pinned and Routing are yours to give: "
    "`/unit edit unit:… stats:\"statuses=pinned\"`.\n"
    "5. `/battle rules show` lists every ruling (A72-A88: AP per model, max bands, cover stacking, damage...) "
    "to change with `/battle rules set`; `/gm end` closes the battle with its casualties."
)
COMBAT_ACTION_PLAYER = (
    "An activation: the Discipline Phase (`/ca activate`, or your first action opens it; a machine out of control "
    "acts by its table), 2 AP of actions, then `/turn end` (End Phase). `/ca options` or My options lists every "
    "action you can take with its AP.\n"
    "`/move unit to mode:walk` (1 AP, MV) or `charge` (2 AP). `/attack unit weapon target [mode]` or `/ca fire`: "
    "standard 1 AP; sniping, automatic, heavy 2 AP; a grenade is `/ca prime` then `mode:grenade`. Close combat in "
    "base contact (the same square): `/ca close-combat` (2 AP; `hatch:True` breaks jammed hatches).\n"
    "`/ca posture` (flat down, get up, aim), `/ca hatch`, `/ca embark`, `/ca disembark`, `/ca reload`, "
    "`/ca unjam`, `/ca action` (hide, jump, climb, impart an order, open a door, pilot, control a robot)."
)
M42_GM_GUIDE = (
    "Units of a leader and models, in inches: `/battle new name:… ruleset:m42 width:34 height:20` "
    "(1 square = 1 inch; `/battle rules set key:inches_per_square value:2` changes it). Paint woods, fields, "
    "marsh, rocky ground, hills, ruins, buildings and lava with `/map paint`; walls, hedges, fences, creeks and "
    "lava channels go on square sides: `/map edge edges:L1-L9:e obstacle:wall height:2` (over 3\" stops "
    "infantry; `opening:1` makes a door, `openable:False` keeps models outside). `/map road from:A15 to:Z15`, "
    "`/map floors from:AA12 to:AE17 floors:2`; or `/map import` a file with `[road]`, `[floors]` and `[edges]`. "
    "`/unit add name side at ld:3 models:5 [interlinked]` places the leader and the bot the models (or "
    "`/unit import`). Action distances and every ruling are in `/battle rules show`; `/battle rules import` "
    "adds actions of your own (`[[action]]` key, name, inches, assault; docs/homebrew.md)."
)
M42_PLAYER_GUIDE = (
    "M42: `/move unit:… to:J5 mode:advance` moves the leader (advance, shooting-advance 6\"; fall-back, "
    "at-the-double 12\"; assault), halved once through area terrain, over an obstacle or a wall without opening; "
    "+2\" along one road. `/action … floor:1 models:\"I5 J4^1\"` climbs and places models by hand; "
    "`/place unit models` re-places them; `/radius unit` shows where they may stand. The GM's own actions are "
    "offered beside these, with their distance. A refusal names the rule and shows the legal squares."
)
PLAYER_GUIDE = (
    "When it is your turn you are pinged with the map and buttons (End turn, My options, Show map).\n"
    "`/move unit:… to:E5 mode:full` moves along the cheapest legal path; leave out `to` to see your reach.\n"
    "`/attack unit:… weapon:… target:…` shoots or strikes with the full breakdown; `/range` previews a shot.\n"
    "`/charge unit:… target:…` moves up to AB×1.5 into reach and strikes in melee, one Full action.\n"
    "`/aim`, `/hide`, `/maneuver`, `/defend`, `/act` (a test), `/extinguish`, `/trap`.\n"
    "`/turn status` shows whose turn it is and your actions left; `/turn end` passes; "
    "`/turn standing` sets what your unit does if the deadline passes.\n"
    "`/map show` zooms (`at:G10 radius:5`), shows your side's view, the previous turn, `reach:` or `range:`; "
    "`/map text` reads the map aloud for screen readers.\n"
    "`/roll dice:2d10+5` rolls in the open; `/settings notify dm` pings you by DM instead; `/turn mute` "
    "quiets one turn, `/turn reminders how:every hours:6` sets how often you are reminded; "
    "`/battle side-thread` opens your side's private thread."
)

TABLE_GUIDE = (
    "`/undo` (or a move's Undo button) takes back your own last order: at once if it rolled no die, showed "
    "nothing hidden and nobody acted since; otherwise the other side's players get Approve and Refuse buttons, "
    "and one approval (or the GM) carries it. Every takeback is in `/battle log`.\n"
    "`/battles` (here or in a DM with the bot) lists the battles waiting for you on every server, with deadlines; "
    "`/settings digest on` sends that list by DM once a day.\n"
    "`/seat release` frees your seat for a substitute, who takes it with the post's Take seat button. Miss "
    "2 deadlines in a row (GM: `/seat disorder`) and your units play their standing orders until you act.\n"
    "`/battle stats` and `/stats me`: times to act, missed deadlines, orders, takebacks, losses."
)


class HelpCog(commands.Cog):
    """Explain battlepost to GMs and players."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="How to run a battle (GM) or play in one (player)")
    @app_commands.describe(role="Which guide to show")
    async def help(self, interaction: discord.Interaction, role: Literal["gm", "player"] | None = None) -> None:
        """Show the guides: the GM's and the players', each its own message (together they pass an embed's room)."""
        pages: list[discord.Embed] = []
        if role in (None, "gm"):
            gm = discord.Embed(title="battlepost: running a battle", colour=INFO,
                               description="Play-by-post battles on a grid: the bot checks orders, rolls in the "
                                           "open and posts the map.")
            gm.add_field(name="GM: set up a battle in five steps", value=GM_GUIDE, inline=False)
            gm.add_field(name="Surface Combat (no map)", value=SURFACE_GUIDE, inline=False)
            gm.add_field(name="Combat Action (squads, vehicles, robots): the GM", value=COMBAT_ACTION_GM, inline=False)
            gm.add_field(name="M42: leaders, models and Command Radius", value=M42_GM_GUIDE, inline=False)
            pages.append(gm)
        if role in (None, "player"):
            player = discord.Embed(title="battlepost: playing", colour=INFO,
                                   description="Your units' next actions come as buttons on your turn ping and "
                                               "under every order; the commands below do the same by typing.")
            player.add_field(name="Players", value=PLAYER_GUIDE, inline=False)
            player.add_field(name="Takebacks, your battles, substitutes", value=TABLE_GUIDE, inline=False)
            player.add_field(name="Combat Action players", value=COMBAT_ACTION_PLAYER, inline=False)
            player.add_field(name="Players in M42", value=M42_PLAYER_GUIDE, inline=False)
            pages.append(player)
        await reply(interaction, embed=pages[0], ephemeral=True)
        for page in pages[1:]:
            await interaction.followup.send(embed=page, ephemeral=True)
