"""Slash commands of /gm: undo, overrides, hidden rolls, ending the battle and the turn clock.

Discord shows /gm only to members with Manage Server unless a server admin grants it to a role; every
command still checks at run time that the caller is a GM of this battle (GM role, Manage Server, or its
creator), because a server override can open the group to anyone.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.clock import human_duration, parse_duration, parse_reminders, policy_of
from bot.clockhours import (
    DEFAULT_LEAST_TURN,
    DEFAULT_ZONE,
    MAX_VACATION_DAYS,
    clock_text,
    parse_clock_hour,
    parse_quiet,
)
from bot.clockhours import zone as check_zone
from bot.service import MAX_STALL_AFTER, Actor, BattleRecord, TableService
from cogs.common.autocomplete import unit_choices, zone_options
from cogs.common.autocomplete_setup import side_choices
from cogs.common.context import actor_of, battle_here, service_of
from cogs.common.embeds import INFO, safe
from cogs.common.replies import defer, reply
from cogs.common.side_secrets import tell_side
from cogs.common.side_threads import SideThreads, places_text
from cogs.gm.ending import ask_to_end
from cogs.gm.summary import hidden_roll_embed, reveal_embed, undo_embed
from cogs.turn.text import clock_summary, deadline_line, turn_embed
from rules import orders as o
from rules.errors import GameError, NotFoundError
from rules.outcome import Outcome
from rules.turnorders import SkipTurn


async def gm_order(interaction: discord.Interaction, order: o.Order, what: str, *, map_: bool = True) -> None:
    """Give an order as this battle's GM (checked first) and post it as everyone may know it (a rule system's too)."""
    record = await battle_here(interaction)
    service = service_of(interaction)
    actor = actor_of(interaction)
    await service.require_gm(actor, record, what)
    result = await service.execute(actor, record, order, render=False)
    assert result.outcome is not None
    await defer(interaction)
    name = interaction.user.display_name

    def build(shown: Outcome) -> discord.Embed:
        return turn_embed(shown, result.battle, actor_name=name)

    # The GM may move a hidden unit: the channel reads the order as everyone may know it.
    shown = await tell_side(interaction.client, service, result.record, result.battle, result.outcome, build)
    png = await service.render(result.battle, outcome=shown, battle_id=record.id) if map_ else None
    await reply(interaction, embed=build(shown), png=png)


@app_commands.default_permissions(manage_guild=True)
@app_commands.guild_only()
class GmCog(commands.GroupCog, group_name="gm", group_description="GM tools: undo, overrides, hidden rolls, the turn clock"):
    """Referee a battle: take orders back, override the rules, roll in secret, run the clock."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.side_threads = SideThreads(bot)
        super().__init__()

    async def cog_load(self) -> None:
        """Keep side threads' members in step with the battles."""
        self.bot.service.listeners.append(self.side_threads)  # type: ignore[attr-defined]

    async def cog_unload(self) -> None:
        """Stop keeping side threads in step."""
        listeners = self.bot.service.listeners  # type: ignore[attr-defined]
        if self.side_threads in listeners:
            listeners.remove(self.side_threads)

    async def _gm(self, interaction: discord.Interaction, what: str) -> tuple[TableService, Actor, BattleRecord]:
        record = await battle_here(interaction)
        service = service_of(interaction)
        actor = actor_of(interaction)
        await service.require_gm(actor, record, what)
        return service, actor, record

    async def _order(self, interaction: discord.Interaction, order: o.Order, what: str, *, map_: bool = True) -> None:
        await gm_order(interaction, order, what, map_=map_)

    # --- the log ------------------------------------------------------------

    @app_commands.command(name="undo", description="Take back the last orders: the battle returns to before them, dice and all")
    @app_commands.describe(count="How many orders to take back, newest first (1-50)")
    async def undo(self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 50] = 1) -> None:
        """Undo orders."""
        service, actor, record = await self._gm(interaction, "undo orders")
        result = await service.undo(actor, record, count)
        await defer(interaction)
        embed = undo_embed(result.battle, result.extra["seqs"], result.extra["undone"], result.seq)
        await reply(interaction, embed=embed, png=result.png)

    # --- overrides (a rule system may add its own to the group) -------------

    @app_commands.command(name="assign", description="Give a unit to a player (or back to the GM)")
    @app_commands.describe(unit="Unit to hand over", player="The player who commands it from now on")
    @app_commands.autocomplete(unit=unit_choices)
    async def assign(self, interaction: discord.Interaction, unit: str, player: discord.User) -> None:
        """Change a unit's owner."""
        await self._order(interaction, o.EditUnit(unit=unit, stats={"owner": player.id}), "assign units", map_=False)

    @app_commands.command(name="skip", description="Skip a unit's turn, or everyone due now (the current unit or phase)")
    @app_commands.describe(unit="Unit whose turn to skip; leave out to skip whoever is due now")
    @app_commands.autocomplete(unit=unit_choices)
    async def skip(self, interaction: discord.Interaction, unit: str | None = None) -> None:
        """Skip turns."""
        await self._order(interaction, SkipTurn(unit=unit or ""), "skip turns", map_=False)

    # --- dice ---------------------------------------------------------------

    @app_commands.command(name="roll", description="Roll in secret: only you (or one side, in private) see the result")
    @app_commands.describe(dice="Dice notation, like 1d100 or 2d10+5", purpose="What the roll is for (only you see it)",
                           side="Show the roll to this side only: in its private thread, or by DM")
    @app_commands.autocomplete(side=side_choices)
    async def roll(self, interaction: discord.Interaction, dice: app_commands.Range[str, 1, 100],
                   purpose: app_commands.Range[str, 0, 100] = "", side: str | None = None) -> None:
        """Roll hidden dice."""
        service, actor, record = await self._gm(interaction, "roll in secret")
        battle = service.read_only(record)
        known = battle.side(side) if side else None
        if side and known is None:
            names = ", ".join(s.name for s in battle.sides) or "none yet"
            raise NotFoundError(f"There is no side `{side}` in this battle. Sides: {names}.")
        result = await service.execute(actor, record, o.Roll(dice=dice, purpose=purpose, hidden=True), render=False)
        assert result.outcome is not None
        rolls = [r.to_dict() for r in result.outcome.rolls]
        embed = hidden_roll_embed(rolls, result.seq)
        if known is not None:
            where = await self.side_threads.post(record, result.battle, known.name,
                                                 embed=hidden_roll_embed(rolls, result.seq, side=known.name))
            embed.add_field(name="Shown to", value=f"{safe(known.name)} only, {where.mention}", inline=False)
        await reply(interaction, embed=embed, ephemeral=True)

    @app_commands.command(name="side-threads", description="Give each side a private thread for its hidden map and rolls")
    @app_commands.describe(on="True: a private thread per side (its players and you); False: archive and lock them")
    async def side_threads_(self, interaction: discord.Interaction, on: bool) -> None:
        """Turn side threads on or off for this battle."""
        service, _actor, record = await self._gm(interaction, "turn side threads on or off")
        await defer(interaction)
        places = await self.side_threads.turn(record, service.read_only(record), on)
        if not on:
            closed = f"\n{places_text(places)}" if places else ""
            await reply(interaction, "Side threads are off: hidden maps and rolls answer only whoever asks, as before; "
                        f"each side's thread is archived and locked until `/gm side-threads on:True`.{closed}"[:2000])
            return
        embed = discord.Embed(title="Side threads", colour=INFO, description=places_text(places))
        embed.set_footer(text="Players open theirs with /battle side-thread")
        await reply(interaction, embed=embed)

    @app_commands.command(name="reveal", description="Show everyone a hidden roll from the log")
    @app_commands.describe(seq="The roll's number in the log (the hidden roll told you, or see /battle log)")
    async def reveal(self, interaction: discord.Interaction, seq: app_commands.Range[int, 1, 10_000_000]) -> None:
        """Reveal a hidden roll."""
        service, actor, record = await self._gm(interaction, "reveal hidden rolls")
        event = await service.reveal(actor, record, seq)
        await reply(interaction, embed=reveal_embed(event))

    # --- the end ------------------------------------------------------------

    @app_commands.command(name="end", description="The same as /battle end: end the battle, post its summary (asks first)")
    async def end(self, interaction: discord.Interaction) -> None:
        """Ask to end the battle; once confirmed, post its summary (the same as /battle end)."""
        await ask_to_end(interaction)

    # --- the clock ----------------------------------------------------------

    @app_commands.command(name="deadline", description="Set how long each turn lasts (1 minute to 30 days), or the hour it ends")
    @app_commands.describe(hours="Hours per turn (decimals work: 0.5 is half an hour); with `at`, the least a turn gets",
                           minutes="Minutes added to the hours",
                           at="End every turn at this hour of the battle's zone, like 20:00 (right across summer time)",
                           zone="The battle's time zone for `at`, weekends and quiet hours, like Europe/Berlin",
                           weekends="skip: Saturdays and Sundays (in the battle's zone) do not count; count: they do")
    @app_commands.autocomplete(zone=zone_options)
    async def deadline(self, interaction: discord.Interaction,
                       hours: app_commands.Range[float, 0, 720] | None = None,
                       minutes: app_commands.Range[int, 0, 59] = 0,
                       at: app_commands.Range[str, 1, 10] | None = None,
                       zone: app_commands.Range[str, 1, 64] | None = None,
                       weekends: Literal["skip", "count"] | None = None) -> None:
        """Set the turn deadline: a length, and optionally a clock hour in the battle's zone."""
        if hours is None and at is None:
            raise GameError("Give a length (`hours:24`) or an hour every turn ends at (`at:20:00 zone:Europe/Berlin`), "
                            "or both (`hours:12 at:20:00`: at least 12 hours, then 20:00).")
        at_minute = parse_clock_hour(at) if at is not None else None
        if zone is not None:
            check_zone(zone)
        seconds = DEFAULT_LEAST_TURN if hours is None and not minutes else (hours or 0) * 3600 + minutes * 60
        service, actor, record = await self._gm(interaction, "set the deadline")
        clock = await service.set_deadline(actor, record, seconds, at_minute=at_minute, zone=zone,
                                           skip_weekends=None if weekends is None else weekends == "skip")
        battle = service.read_only(record)
        line = deadline_line(clock, battle)
        zone_name = clock.zone or DEFAULT_ZONE
        text = (f"Each turn now lasts **{human_duration(clock.deadline)}**." if clock.at_minute is None else
                f"Each turn now lasts at least **{human_duration(clock.deadline)}** and ends at "
                f"**{clock_text(clock.at_minute)} {zone_name}**.")
        if clock.skip_weekends:
            text += f" Saturdays and Sundays ({zone_name}) do not count."
        text += f"\nThis turn: {line}" if line else ""
        await reply(interaction, embed=discord.Embed(title="Deadline set", colour=INFO, description=text[:4000]))

    @app_commands.command(name="timebank", description="Give each side a time bank instead of a fixed deadline per turn")
    @app_commands.describe(start="What each bank holds at first, like 3d (or `off` for a fixed deadline again)",
                           per_turn="Added to a side's bank as each of its turns begins, like 1d",
                           cap="The most a bank can hold, like 5d")
    @app_commands.rename(per_turn="per-turn")
    async def timebank(self, interaction: discord.Interaction, start: app_commands.Range[str, 1, 20],
                       per_turn: app_commands.Range[str, 1, 20] | None = None,
                       cap: app_commands.Range[str, 1, 20] | None = None) -> None:
        """Set or end the battle's time banks."""
        if start.strip().lower() in ("off", "none"):
            bank = None
        else:
            first = parse_duration(start)
            more = parse_duration(per_turn) if per_turn is not None else 0.0
            bank = (first, more, parse_duration(cap) if cap is not None else max(first, first + more))
        service, actor, record = await self._gm(interaction, "set a time bank")
        clock = await service.set_time_bank(actor, record, bank)
        text = clock_summary(clock, service.read_only(record))
        if bank is not None:
            text += "\nThe banks start with the next turn; this one keeps its deadline."
        await reply(interaction, embed=discord.Embed(title="Time bank", colour=INFO, description=text[:4000]))

    @app_commands.command(name="quiet", description="Hours of the battle's zone in which no reminder is sent")
    @app_commands.describe(hours="Like 22:00-08:00 (over midnight works), or `off`",
                           zone="The battle's time zone, like Europe/Berlin (kept if left out)")
    @app_commands.autocomplete(zone=zone_options)
    async def quiet(self, interaction: discord.Interaction, hours: app_commands.Range[str, 1, 20],
                    zone: app_commands.Range[str, 1, 64] | None = None) -> None:
        """Set or end quiet hours."""
        quiet = parse_quiet(hours)
        if zone is not None:
            check_zone(zone)
        service, actor, record = await self._gm(interaction, "set quiet hours")
        clock = await service.set_quiet_hours(actor, record, quiet, zone)
        text = clock_summary(clock, service.read_only(record))
        await reply(interaction, embed=discord.Embed(title="Quiet hours", colour=INFO, description=text[:4000]))

    @app_commands.command(name="vacation-allowance", description="How far vacations may move each player's deadlines here")
    @app_commands.describe(days=f"Days per player for the whole battle (0 to {MAX_VACATION_DAYS}; 14 unless set)")
    @app_commands.rename(days="days")
    async def vacation_allowance(self, interaction: discord.Interaction,
                                 days: app_commands.Range[int, 0, MAX_VACATION_DAYS]) -> None:
        """Set the vacation allowance."""
        service, actor, record = await self._gm(interaction, "set the vacation allowance")
        clock = await service.set_vacation_allowance(actor, record, days * 86_400.0)
        text = clock_summary(clock, service.read_only(record))
        await reply(interaction, embed=discord.Embed(title="Vacation allowance", colour=INFO, description=text[:4000]))

    @app_commands.command(name="policy", description="Choose what happens when a turn's deadline passes")
    @app_commands.describe(policy="wait: ping the GM; hold: units due hold (surface: fight, default plans); "
                                  "default: standing orders (surface: last turn's plans)")
    async def policy(self, interaction: discord.Interaction, policy: Literal["wait", "hold", "default"]) -> None:
        """Set the deadline policy."""
        service, actor, record = await self._gm(interaction, "choose the deadline policy")
        clock = await service.set_policy(actor, record, policy_of(policy))
        summary = clock_summary(clock, service.read_only(record))
        await reply(interaction, embed=discord.Embed(title="Deadline policy", colour=INFO, description=summary))

    @app_commands.command(name="reminders", description="Choose when players are reminded before a deadline")
    @app_commands.describe(times="Like `half, 1h` (the default), `25%, 6h, 30m`, or `none`")
    async def reminders(self, interaction: discord.Interaction, times: app_commands.Range[str, 1, 100]) -> None:
        """Set reminder times."""
        service, actor, record = await self._gm(interaction, "set reminders")
        clock = await service.set_reminders(actor, record, parse_reminders(times))
        summary = clock_summary(clock, service.read_only(record))
        await reply(interaction, embed=discord.Embed(title="Reminders", colour=INFO, description=summary))

    @app_commands.command(name="stall-after", description="After how many unanswered reminders you hear who is stalling")
    @app_commands.describe(reminders=f"Reminders a player lets pass without acting before you are told, once a turn "
                                     f"(1-{MAX_STALL_AFTER}; 0: never)")
    async def stall_after(self, interaction: discord.Interaction,
                          reminders: app_commands.Range[int, 0, MAX_STALL_AFTER]) -> None:
        """Set the stall report's threshold."""
        service, _actor, record = await self._gm(interaction, "set when you hear who is stalling")
        await service.set_stall_after(record.id, reminders)
        text = (f"After {reminders} reminder{'s' if reminders != 1 else ''} a player lets pass without acting, you are "
                "told who is stalling, once a turn." if reminders else "You are no longer told who is stalling.")
        await reply(interaction, text, ephemeral=True)

    @app_commands.command(name="pause", description="Stop the clock: no deadline passes until /gm resume")
    async def pause(self, interaction: discord.Interaction) -> None:
        """Pause the clock."""
        service, actor, record = await self._gm(interaction, "pause the clock")
        clock = await service.pause_clock(actor, record)
        left = f" This turn keeps {human_duration(clock.remaining)}." if clock.remaining is not None else ""
        await reply(interaction, embed=discord.Embed(title="\u23f8\ufe0f Clock paused", colour=INFO,
                                                     description=f"No deadline passes until /gm resume.{left}"))

    @app_commands.command(name="resume", description="Start the clock again; the turn gets back the time it had left")
    async def resume(self, interaction: discord.Interaction) -> None:
        """Resume the clock."""
        service, actor, record = await self._gm(interaction, "resume the clock")
        clock = await service.resume_clock(actor, record)
        battle = service.read_only(record)
        line = deadline_line(clock, battle) or "No turn is running yet; the next one starts with the full deadline."
        await reply(interaction, embed=discord.Embed(title="\u25b6\ufe0f Clock running", colour=INFO,
                                                     description=line))
