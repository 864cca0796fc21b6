"""Slash commands of /battle."""

from __future__ import annotations

import io
import json
import re

import discord
from discord import app_commands
from discord.ext import commands

from bot.archive import MAX_IMPORT_BYTES
from bot.stats import battle_stats
from cogs.battle.log import LogPageButton, log_message
from cogs.battle.rules_pages import RulesPageButton, rules_message
from cogs.battle.rules_text import imported_embed
from cogs.battle.setup_buttons import SETUP_ITEMS, check_two_sides
from cogs.battle.web import web_links
from cogs.common.attachments import read_text
from cogs.common.autocomplete import constant_choices, ruleset_choices
from cogs.common.autocomplete_setup import side_choices
from cogs.common.context import actor_of, battle_here, battle_to_read, channel_key, member_check, service_of
from cogs.common.embeds import INFO, outcome_embed, safe
from cogs.common.replies import defer, reply
from cogs.common.secrets import own_sides
from cogs.common.seen import place
from cogs.common.side_threads import SideThreads
from cogs.common.systems import front_end
from cogs.gm.ending import ask_to_end
from cogs.stats.embeds import stats_embed
from cogs.turn.text import turn_embed
from rules import orders as o
from rules.battle import Battle, board_size
from rules.colours import NAMED, hex_of, side_colours
from rules.errors import GameError, IllegalOrderError, NotAllowedError, NotFoundError
from rules.orders import ImportHomebrew
from rules.ruleset import get_ruleset
from rules.scale import MAX_LONG_SIDE, coerce_scale


def rule_overrides(ruleset: str, text: str) -> list[tuple[str, str]]:
    """Read `key=value` rule overrides for a new battle, each checked against the ruleset before anything is made."""
    pairs: list[tuple[str, str]] = []
    if not text.strip():
        return pairs
    found = get_ruleset(ruleset)
    for token in text.replace(",", " ").split():
        key, sep, value = token.partition("=")
        if not sep or not key or not value:
            raise GameError(f"`{token}` is not a rule setting; write `key=value`, like `cm_per_square=10`.")
        if key.strip() == found.scale_key:
            coerce_scale(found, value)
        else:
            found.constant(key.strip()).coerce(value)
        pairs.append((key.strip(), value.strip()))
    return pairs

FIELD_MAX = 1024
BATTLE_ID_MAX = 2**31 - 1  # battles are numbered from 1; Discord wants every number option bounded
INFO_BUDGET = 5600  # of the embed's 6,000 characters, what the description and the sides may take


def fit_lines(lines: list[str], total: int, budget: int) -> str:
    """Join as many lines as fit in `budget` characters, then say how many of `total` are not shown."""
    shown: list[str] = []
    used = 0
    for line in lines:
        more = f"\u2026 and {total - len(shown)} more (/unit info shows any unit)"
        if used + len(line) + 1 + len(more) > budget:
            break
        shown.append(line)
        used += len(line) + 1
    if total > len(shown):
        shown.append(f"\u2026 and {total - len(shown)} more (/unit info shows any unit)")
    return "\n".join(shown)[:budget]


async def colour_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Offer the colour names a side may wear (a `#rrggbb` typed is taken as it is)."""
    typed = current.strip().lower()
    return [app_commands.Choice(name=name, value=name) for name in sorted(NAMED) if typed in name][:25]


@app_commands.guild_only()
class BattleCog(commands.GroupCog, group_name="battle", group_description="Create and run battles"):
    """Create, list, inspect, start and end battles."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        """Accept the log's page buttons, also on messages older than this process."""
        self.bot.add_dynamic_items(LogPageButton, RulesPageButton, *SETUP_ITEMS)

    async def cog_unload(self) -> None:
        """Forget the log's page buttons."""
        self.bot.remove_dynamic_items(LogPageButton, RulesPageButton, *SETUP_ITEMS)

    @app_commands.command(name="new", description="Start a new battle in this channel (you become its GM)")
    @app_commands.describe(
        name="Name of the battle (1-64 characters)",
        ruleset="Rule system: strategic-e (1 km squares), strategic-p (1 dam), combat-action (5 cm), m42 (1 inch), surface...",
        width="Map width in squares (1-100); leave out for a ruleset with no map (surface)",
        height="Map height in squares (1-100); leave out for a ruleset with no map (surface)",
        thread="Open a thread for this battle instead of using the channel",
        rules="Rule constants to set now, like `cm_per_square=10 large_scale=true` (see /battle rules show)",
    )
    @app_commands.autocomplete(ruleset=ruleset_choices)
    async def new(self, interaction: discord.Interaction, name: str, ruleset: str,
                  width: app_commands.Range[int, 1, MAX_LONG_SIDE] | None = None,
                  height: app_commands.Range[int, 1, MAX_LONG_SIDE] | None = None, thread: bool = False, rules: str = "") -> None:
        """Create a battle here or in a new thread."""
        overrides = rule_overrides(ruleset, rules)
        service = service_of(interaction)
        actor = actor_of(interaction)
        if not await service.may_start_battles(actor):
            raise NotAllowedError("On this server only members with the GM role (or Manage Server) can create battles.")
        channel_id = channel_key(interaction)
        thread_id = None
        if thread:
            channel = interaction.channel
            if not isinstance(channel, discord.TextChannel):
                raise GameError("A thread can only be opened from a text channel; run this in a text channel.")
            # Validate before creating anything on Discord, so a bad name leaves no orphan thread.
            Battle.new(ruleset, *board_size(ruleset, width, height), name, overrides)
            await defer(interaction)
            created = await channel.create_thread(name=name[:100], type=discord.ChannelType.public_thread)
            thread_id = created.id
        result = await service.create_battle(actor, channel_id=channel_id, thread_id=thread_id, name=name,
                                             ruleset=ruleset, width=width, height=height, rules=overrides)
        for key, value in overrides:
            result = await service.execute(actor, result.record, o.SetRule(key=key, value=value), render=False)
        rec = result.record
        battle = result.battle
        png = result.png
        if overrides and service.render_enabled:
            # A rule set now (the table's scale, say) may change how the map is drawn: draw it as it now stands.
            png = await service.render(battle, battle_id=rec.id)
        if battle.system.has_map:
            where = f", map {battle.width}\u00d7{battle.height}"
            steps = ("Set it up with /map paint and /unit add, then /battle start; the pinned board is your setup "
                     "panel, with what is still missing and buttons for each step.")
        else:
            where = ""
            steps = front_end(battle).setup_steps or "Add units with /unit add, then /battle start."
        embed = discord.Embed(
            title=f"New battle: {safe(rec.name)}", colour=INFO,
            description=(
                f"Ruleset **{rec.ruleset}** ({battle.scale_text()}){where}.\n"
                f"GM: {interaction.user.mention}. {steps}"
            ),
        )
        if overrides:
            embed.add_field(name="Rules set", value="\n".join(f"`{k}` = {result.battle.const(k)}" for k, _ in overrides)[:1024],
                            inline=False)
        embed.set_footer(text=f"battle #{rec.id}")
        if thread_id is not None:
            embed.description = (embed.description or "") + f"\nPlay happens in <#{thread_id}>."
        await reply(interaction, embed=embed, png=png)

    @app_commands.command(name="list", description="List the battles on this server")
    @app_commands.describe(ended="Also list ended battles")
    async def list_(self, interaction: discord.Interaction, ended: bool = False) -> None:
        """List this server's battles."""
        actor = actor_of(interaction)
        battles = await service_of(interaction).list_battles(actor.guild_id, include_ended=ended)
        if not battles:
            await reply(interaction, "No battles on this server yet. Start one with /battle new.", ephemeral=True)
            return
        lines = [
            f"#{b.id} **{safe(b.name)}** \u00b7 {b.ruleset} \u00b7 {b.status} \u00b7 <#{b.thread_id or b.channel_id}>"
            for b in battles[:40]
        ]
        await reply(interaction, embed=discord.Embed(title="Battles", description="\n".join(lines), colour=INFO),
                    ephemeral=True)

    @app_commands.command(name="side-thread", description="Open your side's private thread: its hidden map and rolls")
    @app_commands.describe(side="GM: which side's thread (players get their own side's)")
    @app_commands.autocomplete(side=side_choices)
    async def side_thread(self, interaction: discord.Interaction, side: str | None = None) -> None:
        """Answer a player with a link to their side's private thread, making it or adding them if needed."""
        record = await battle_here(interaction)
        service = service_of(interaction)
        actor = actor_of(interaction)
        battle = service.read_only(record)
        threads = SideThreads(self.bot)
        if not await threads.enabled(record.id):
            raise IllegalOrderError("This battle has no side threads: its hidden maps and rolls answer whoever asks. "
                                    "The GM turns them on with `/gm side-threads on:True`.")
        mine = own_sides(battle, actor.user_id)
        gm = await service.is_gm(actor, record)
        if side is not None:
            found = battle.side(side)
            if found is None:
                names = ", ".join(s.name for s in battle.sides) or "none yet"
                raise NotFoundError(f"There is no side `{side}` in this battle. Sides: {names}.")
            if found.name not in mine and not gm:
                raise NotAllowedError(f"You command no unit of {found.name}, so its thread is not yours; your side: "
                                      f"{', '.join(mine) or 'none'}.")
            sides = [found.name]
        else:
            sides = mine
        if not sides:
            raise NotAllowedError("You command no unit in this battle, so you have no side's thread. "
                                  + ("As GM, name one: `/battle side-thread side:NAME`." if gm else
                                     "The GM gives you a unit with `/gm assign`."))
        lines = []
        for name in sides:
            where = await threads.place(record, battle, name)
            note = f" (threads cannot be made: {where.why_not}; its posts reach you by DM)" if where.why_not else ""
            lines.append(f"{safe(name)}: {where.mention}{note}")
        await reply(interaction, "\n".join(lines), ephemeral=True)

    @app_commands.command(name="info", description="Show this channel's battle: ruleset, round, sides and units")
    @app_commands.describe(battle_id="A battle's number from /battle list (an ended one too); default: this channel's")
    @app_commands.rename(battle_id="battle")
    async def info(self, interaction: discord.Interaction, battle_id: app_commands.Range[int, 1, BATTLE_ID_MAX] | None = None) -> None:
        """Describe the battle of this channel (or the last that ended here, or one by number)."""
        record = await battle_to_read(interaction, battle_id)
        battle = service_of(interaction).read_only(record)
        embed = discord.Embed(title=safe(battle.name), colour=INFO)
        own = front_end(battle)
        stage = own.info_stage(battle) if own.info_stage else (f"round {battle.round}" if battle.round else "")
        embed.description = (
            f"Ruleset **{battle.ruleset_id}** ({battle.scale_text()})"
            + (f" \u00b7 map {battle.width}\u00d7{battle.height}" if battle.system.has_map else "") + "\n"
            f"Status **{battle.status}**" + (f" \u00b7 {stage}" if stage else "")
            + f"\nGM: <@{record.created_by}>"
        )
        if own.info_fields is not None:
            for name, value in own.info_fields(battle):
                embed.add_field(name=name, value=value, inline=False)
        else:
            # Each side gets an equal share of the embed's 6,000 characters, and at most a field's 1,024.
            share = min(FIELD_MAX, (INFO_BUDGET - len(embed.description or "")) // max(1, len(battle.sides)))
            for name, lines, total in side_lines(battle):
                embed.add_field(name=name[:256], value=fit_lines(lines, total, share) or "no units", inline=False)
        embed.set_footer(text=f"battle #{record.id} \u00b7 version {record.version}")
        await reply(interaction, embed=embed)

    @app_commands.command(name="start", description="End setup and begin round 1 (GM)")
    async def start(self, interaction: discord.Interaction) -> None:
        """Start the battle of this channel, once two sides have units."""
        record = await battle_here(interaction)
        service = service_of(interaction)
        await service.require_gm(actor_of(interaction), record, "start the battle")
        battle = service.read_only(record)
        if battle.status == "setup":
            check_two_sides(battle)  # a battle of one side would be over before it began
        await self._gm_order(interaction, o.Start())

    @app_commands.command(name="end", description="End the battle in this channel and post its summary (GM; asks first)")
    async def end(self, interaction: discord.Interaction) -> None:
        """Ask to end the battle of this channel; once confirmed, post its summary (the same as /gm end)."""
        await ask_to_end(interaction)

    @app_commands.command(name="log", description="Read the battle's orders, newest first, with their dice and effects")
    @app_commands.describe(page="Page to open (1 is the newest orders)",
                           battle="A battle's number from /battle list (an ended one too); default: this channel's")
    async def log(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 100_000] = 1,
                  battle: app_commands.Range[int, 1, BATTLE_ID_MAX] | None = None) -> None:
        """Show one page of the log, privately (hidden rolls only to the GM); ended battles stay readable."""
        record = await battle_to_read(interaction, battle)
        service = service_of(interaction)
        actor = actor_of(interaction)
        gm = await service.is_gm(actor, record)
        embed, view = await log_message(interaction, record, page, actor.user_id, gm)
        await reply(interaction, embed=embed, view=view, ephemeral=True)

    web = app_commands.Group(name="web", description="The battle's live web view: the map to zoom, the log, replay")

    @web.command(name="links", description="Get private links to this battle's live web view: map, log, replay")
    async def web_open(self, interaction: discord.Interaction) -> None:
        """Answer privately with a spectator link, the asker's side's link and, for the GM, the GM's."""
        await web_links(interaction, reset=False)

    @web.command(name="reset", description="Make every earlier link of this battle stop working, then get new ones (GM)")
    async def web_reset(self, interaction: discord.Interaction) -> None:
        """Revoke every link of the battle (GM), then answer privately with new ones."""
        await web_links(interaction, reset=True)

    @app_commands.command(name="stats", description="Per player time to act, missed deadlines, orders, takebacks; per side losses")
    @app_commands.describe(battle="A battle's number from /battle list (an ended one too); default: this channel's")
    async def stats(self, interaction: discord.Interaction,
                    battle: app_commands.Range[int, 1, BATTLE_ID_MAX] | None = None) -> None:
        """Show a battle's statistics with its losses chart, privately."""
        record = await battle_to_read(interaction, battle)
        await defer(interaction, ephemeral=True)
        found = await battle_stats(service_of(interaction), record)
        await reply(interaction, embed=stats_embed(record.name, found), png=found.chart, ephemeral=True)

    @app_commands.command(name="export", description="Get the whole battle as a JSON file: setup, every order and its dice (GM)")
    @app_commands.describe(battle="A battle's number from /battle list (an ended one too); default: this channel's")
    async def export(self, interaction: discord.Interaction, battle: app_commands.Range[int, 1, BATTLE_ID_MAX] | None = None) -> None:
        """Send the GM the battle's export file, privately (it holds hidden rolls); ended battles too."""
        record = await battle_to_read(interaction, battle)
        service = service_of(interaction)
        document = await service.export_battle(actor_of(interaction), record)
        await defer(interaction, ephemeral=True)
        data = json.dumps(document, ensure_ascii=False, indent=1).encode()
        slug = re.sub(r"[^a-z0-9]+", "-", record.name.lower()).strip("-")[:40] or "battle"
        file = discord.File(io.BytesIO(data), filename=f"battle-{record.id}-{slug}.json")
        orders = sum(1 for e in document["orders"] if e["kind"] not in ("create", "undo"))
        await interaction.followup.send(
            f"**{safe(record.name)}**: {orders} orders with their dice. Bring it back with /battle import "
            "in any channel of any server.", file=file, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="import", description="Recreate an exported battle in this channel (you become its GM)")
    @app_commands.describe(file="The .json file /battle export gave you")
    async def import_(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        """Import a battle from its export file, after checking that its log rebuilds its state."""
        service = service_of(interaction)
        actor = actor_of(interaction)
        if not await service.may_start_battles(actor):
            raise NotAllowedError("On this server only members with the GM role (or Manage Server) can import battles.")
        if file.size > MAX_IMPORT_BYTES:
            raise GameError(f"That file is {file.size // 1024} KiB; an export can be at most "
                            f"{MAX_IMPORT_BYTES // 1024 // 1024} MiB.")
        # Replaying a long log takes a while: answer within Discord's 3 seconds, privately, so a
        # refusal reaches only the one who tried.
        await defer(interaction, ephemeral=True)
        raw = await file.read()
        result = await service.import_battle(actor, channel_id=channel_key(interaction), thread_id=None, raw=raw,
                                             is_member=member_check(interaction))
        battle = result.battle
        left_out = result.extra["left_out"]
        skipped = f" ({left_out} undone order{'s' if left_out != 1 else ''} left out)" if left_out else ""
        unassigned = result.extra["unassigned"]
        owners = ("Units keep their players; /gm assign hands them over." if not unassigned else
                  f"{len(unassigned)} unit{'s' if len(unassigned) != 1 else ''} whose player is not on this server "
                  f"wait{'s' if len(unassigned) == 1 else ''} for the GM to /gm assign them: "
                  + ", ".join(safe(n) for n in unassigned[:20]) + ("…" if len(unassigned) > 20 else "") + ".")
        embed = discord.Embed(
            title=f"Imported: {safe(battle.name)}", colour=INFO,
            description=(f"{result.extra['orders']} orders replayed with their recorded dice{skipped}; the battle is "
                         f"**{battle.status}**" + (f", round {battle.round}" if battle.round else "") + ".\n"
                         f"GM: {interaction.user.mention}. {owners}"),
        )
        embed.set_footer(text=f"battle #{result.record.id}")
        await reply(interaction, embed=embed, png=result.png)

    side = app_commands.Group(name="side", description="A side's look on the map, its legend and the charts")

    @side.command(name="colour", description="Give a side its colour: a colour's name or #rrggbb (GM)")
    @app_commands.describe(side="The side", colour="A colour's name (red, blue, teal...) or #rrggbb, like #c82828")
    @app_commands.autocomplete(side=side_choices, colour=colour_choices)
    async def side_colour(self, interaction: discord.Interaction, side: str, colour: str) -> None:
        """Paint a side in the colour the GM chose; the map, its legend and the charts follow."""
        record = await battle_here(interaction)
        service = service_of(interaction)
        result = await service.execute(actor_of(interaction), record, o.SetSideColour(side=side, colour=colour),
                                       render=False)
        await defer(interaction)
        found = result.battle.side(side)
        name = found.name if found is not None else side
        shown = hex_of(side_colours(result.battle)[name])
        png = await service.render(result.battle, full=True, battle_id=record.id) if result.battle.system.has_map else None
        await reply(interaction, f"{safe(name)} now wears `{shown}` on the map, its legend and the charts.", png=png)

    rules = app_commands.Group(name="rules", description="The rule constants and homebrew tables of this battle")

    @rules.command(name="show", description="List this battle's rule constants and homebrew rows (terrain, features, M42 actions)")
    @app_commands.describe(page="Page to open (the list is long; buttons turn the pages)")
    async def rules_show(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 100] = 1) -> None:
        """List the homebrew rows and the rule constants, with the GM's overrides, only to you."""
        record = await battle_here(interaction)
        battle = await service_of(interaction).load(record)
        embed, view = rules_message(battle, record.id, page)
        await reply(interaction, embed=embed, view=view, ephemeral=True)

    @rules.command(name="import", description="Bring in homebrew terrain, features or M42 actions from a TOML table (GM)")
    @app_commands.describe(file="[[terrain]], [[feature]] or M42 [[action]] tables (docs/homebrew.md); replaces the "
                                "earlier table")
    async def rules_import(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        """Import a homebrew table; nothing changes if any line of it is wrong."""
        record = await battle_here(interaction)
        service = service_of(interaction)
        actor = actor_of(interaction)
        await service.require_gm(actor, record, "import homebrew rows")
        text = await read_text(file, suffixes=(".toml",), what="a homebrew table",
                               guide="[[terrain]], [[feature]] or [[action]] tables, as in docs/homebrew.md")
        result = await service.execute(actor, record, ImportHomebrew(text=text), render=False)
        await reply(interaction, embed=imported_embed(result.battle, file.filename))

    @rules.command(name="set", description="Override a rule constant for this battle (GM)")
    @app_commands.describe(key="Constant to change (see /battle rules show)", value="New value")
    @app_commands.autocomplete(key=constant_choices)
    async def rules_set(self, interaction: discord.Interaction, key: str, value: str) -> None:
        """Override a rule constant."""
        await self._gm_order(interaction, o.SetRule(key=key, value=value), render_map=False)

    async def _gm_order(self, interaction: discord.Interaction, order: o.Order, render_map: bool = True) -> None:
        record = await battle_here(interaction)
        service = service_of(interaction)
        result = await service.execute(actor_of(interaction), record, order, render=False)
        await defer(interaction)
        png = await service.render(result.battle, full=True, battle_id=record.id) if render_map else None
        assert result.outcome is not None
        # Starting the battle rolls initiative and calls the first turn: the turn words say so.
        embed = (turn_embed(result.outcome, result.battle, actor_name=interaction.user.display_name)
                 if order.kind == "start" else outcome_embed(result.outcome, battle_name=result.battle.name, system=result.battle.system.id))
        await reply(interaction, embed=embed, png=png)


def side_lines(battle: Battle) -> list[tuple[str, list[str], int]]:
    """Return each side's units for /battle info: its name, a line per unit (square on a map, summary, owner), and how many."""
    out = []
    for side in battle.sides:
        units = [u for u in battle.iter_units() if u.side == side.name]
        lines = []
        for u in units[:15]:
            where = place(battle, u)  # /battle info is public: a hiding unit's square is left out
            summary = u.summary_line()
            owner = f" <@{u.owner}>" if u.owner else ""
            lines.append(f"{safe(u.name)}{where}" + (f" \u00b7 {safe(summary)}" if summary else "") + owner)
        out.append((safe(side.name), lines, len(units)))
    return out
