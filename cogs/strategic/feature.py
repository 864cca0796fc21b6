"""Slash commands of /feature: buy and place artificial features, remove them, set and list feature points."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.service import Actor, BattleRecord, TableService
from cogs.common.autocomplete_setup import side_choices
from cogs.common.context import actor_of, battle_here, service_of
from cogs.common.embeds import INFO, safe
from cogs.common.embeds_setup import setup_embed
from cogs.common.replies import defer, reply
from cogs.common.side_threads import SideThreads
from cogs.common.transformers import CellArg, cells_from_text
from cogs.strategic.autocomplete import feature_choices
from cogs.strategic.homebrew_text import homebrew_features
from rules.battle import Battle
from rules.coords import Cell
from rules.errors import GameError, IllegalOrderError
from rules.orders import Order
from rules.systems.strategic.actions.features import PlaceFeature, RemoveFeature, SetFp, require_features
from rules.systems.strategic.effects import FeaturePlaced, FeatureRemoved, FpSet
from rules.systems.strategic.features import FeatureView, can_see, feature_at, fp_status, visible_features
from rules.visibility import Viewer

MAX_LIST = 30
FEATURE_TITLES = {"place-feature": "Feature placed", "remove-feature": "Feature removed", "set-fp": "Feature points"}


def own_sides(battle: Battle, user_id: int) -> set[str]:
    """Return the lower-case names of the sides whose units a user commands."""
    return {u.side.lower() for u in battle.iter_units() if u.owner == user_id}


def feature_line(view: FeatureView) -> str:
    """Describe one feature a viewer can see: square, type, side and its current state."""
    parts = [f"**{view.cell}** {safe(view.name)} ({safe(view.side)})"]
    if view.hidden:
        seen_by = ", ".join(safe(s) for s in view.revealed_to)
        parts.append("hidden" + (f", detected by {seen_by}" if seen_by else ""))
    if view.cover_ap is not None:
        parts.append(f"cover AP {view.cover_ap}")
    if view.triggers_left is not None:
        parts.append(f"{view.triggers_left} trigger{'s' if view.triggers_left != 1 else ''} left")
    if view.bridge_wounds_lost is not None:
        parts.append(f"{view.bridge_wounds_lost} wounds lost")
    return " \u00b7 ".join(parts)


@app_commands.guild_only()
class FeatureCog(commands.GroupCog, group_name="feature",
                 group_description="Artificial features: walls, trenches, minefields, bridges and traps"):
    """Buy, place, remove and list artificial features, and set feature point pools."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="place", description="Buy a feature with your side's feature points and place it (setup)")
    @app_commands.describe(
        type_="Feature to buy (the list shows its cost and the ground it stands on)",
        at="Square to place it on, like E5",
        side="Side that buys it (its players or the GM)",
        cells="More squares of the same purchase, for walls and trenches: like `E6 E7`",
    )
    @app_commands.rename(type_="type")
    @app_commands.autocomplete(type_=feature_choices, side=side_choices)
    async def place(self, interaction: discord.Interaction, type_: str, at: CellArg, side: str,
                    cells: str | None = None) -> None:
        """Place a feature; a hidden one (a trap) is answered only to you."""
        order = PlaceFeature(feature=type_, side=side, at=at, cells=cells_from_text(cells) if cells else ())
        await self._run(interaction, order)

    @app_commands.command(name="remove", description="Take a feature off a square (setup refunds its points)")
    @app_commands.describe(at="Square of the feature, like E5")
    async def remove(self, interaction: discord.Interaction, at: CellArg) -> None:
        """Remove a feature your side placed (or any, for the GM)."""
        record = await battle_here(interaction)
        service = service_of(interaction)
        actor = actor_of(interaction)
        battle = service.read_only(record)
        require_features(battle)
        battle.check_cell(at)
        # A trap you cannot see gets the same answer as an empty square, so the refusal gives nothing away.
        if feature_at(battle, at) is None or not await self._sees(service, actor, record, battle, at):
            raise IllegalOrderError(f"There is no feature on {at}.")
        await self._run(interaction, RemoveFeature(at=at))

    @app_commands.command(name="points", description="Set a side's feature point pool or mission adjustment (GM)")
    @app_commands.describe(
        side="Side whose feature points to set",
        value="A fixed pool for this battle, instead of 2 x the Supreme Commander's Intelligence Bonus",
        adjust="Mission adjustment added to the usual pool (adjust:0 alone restores the usual pool)",
    )
    @app_commands.autocomplete(side=side_choices)
    async def points(self, interaction: discord.Interaction, side: str,
                     value: app_commands.Range[int, 0, 1000] | None = None,
                     adjust: app_commands.Range[int, -1000, 1000] | None = None) -> None:
        """Set a side's feature point rule."""
        if value is None and adjust is None:
            raise GameError("Give `value` (a fixed pool) or `adjust` (added to the usual pool); "
                            "`adjust:0` alone restores the usual pool.")
        await self._run(interaction, SetFp(side=side, value=value, adjust=adjust or 0), show_map=False)

    @app_commands.command(name="list", description="List the features you can see and your sides' feature points")
    async def list_(self, interaction: discord.Interaction) -> None:
        """List visible features and feature points, only to you."""
        record = await battle_here(interaction)
        service = service_of(interaction)
        actor = actor_of(interaction)
        battle = service.read_only(record)
        require_features(battle)
        gm = await service.is_gm(actor, record)
        mine = own_sides(battle, actor.user_id)
        views = visible_features(battle, mine, gm)
        lines = [feature_line(v) for v in views[:MAX_LIST]]
        if len(views) > MAX_LIST:
            lines.append(f"\u2026 and {len(views) - MAX_LIST} more")
        embed = discord.Embed(title=f"Features: {safe(battle.name)}", colour=INFO)
        embed.description = "\n".join(lines) or "No features you can see yet. Buy one with /feature place."
        for name, fp in fp_status(battle).items():
            # A side's points tell how much it could have hidden, so only its players and the GM see them.
            if gm or name.lower() in mine:
                value = f"pool **{fp['pool']}** \u00b7 spent {fp['spent']} \u00b7 left **{fp['left']}**"
                embed.add_field(name=f"{safe(name)} feature points", value=value, inline=False)
        homebrew = homebrew_features(battle)
        if homebrew:
            # The battle's own features are bought like the built-in ones; say what they are and cost.
            text = ", ".join(f"{safe(f.name)} ({safe(f.label)}, {f.cost} FP)" for f in homebrew)
            embed.add_field(name="Homebrew features of this battle", inline=False,
                            value=(text if len(text) <= 1000 else text[:996] + " \u2026") + "\n/battle rules show "
                                  "gives their values")
        status = "placement phase" if battle.status == "setup" else f"battle {battle.status}: no more purchases"
        embed.set_footer(text=f"{battle.ruleset.name} \u00b7 {status} \u00b7 only you see this list"[:2048])
        await reply(interaction, embed=embed, ephemeral=True)

    async def _sees(self, service: TableService, actor: Actor, record: BattleRecord, battle: Battle, at: Cell) -> bool:
        """Return whether the actor can see the feature on a square."""
        if await service.is_gm(actor, record):
            return True
        return can_see(battle, at, own_sides(battle, actor.user_id), False)

    async def _run(self, interaction: discord.Interaction, order: Order, *, show_map: bool = True) -> None:
        record = await battle_here(interaction)
        service = service_of(interaction)
        result = await service.execute(actor_of(interaction), record, order, render=False)
        outcome = result.outcome
        assert outcome is not None
        # A trap's placement or removal, and a side's points, are answered only to the one who gave the order (A28, A29).
        await defer(interaction, ephemeral=outcome.hidden)
        png = None
        sides = [e.side for e in outcome.effects
                 if isinstance(e, (FeaturePlaced, FeatureRemoved, FpSet)) and e.side] if outcome.hidden else []
        if show_map:
            png = await service.render(result.battle, outcome=outcome, viewer=Viewer.of(sides), battle_id=record.id)
        embed = setup_embed(outcome, battle_name=result.battle.name, system=result.battle.system.id)
        embed.title = FEATURE_TITLES.get(outcome.kind, embed.title)
        threads = SideThreads(self.bot)
        if outcome.kind != "set-fp" and len(set(sides)) == 1 and await threads.enabled(record.id):
            # A hidden trap is its side's secret: all its players find it in the side's thread.
            embed.set_footer(text=f"Only {sides[0]} and the GM see this: the other sides do not know it is there.")
            where = await threads.post(record, result.battle, sides[0], embed=embed, png=png)
            await reply(interaction, f"Done: posted for {safe(sides[0])} alone, {where.mention}.", ephemeral=True)
            return
        if outcome.kind == "set-fp":
            embed.set_footer(text="Only you see this: each side's players see their own points with /feature list.")
        elif outcome.hidden:
            embed.set_footer(text="Only you see this: the other sides do not know it is there.")
        await reply(interaction, embed=embed, png=png, ephemeral=outcome.hidden)
