"""Slash commands of /unit."""

from __future__ import annotations

import asyncio
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common.attachments import read_text
from cogs.common.autocomplete import any_unit_choices, unit_choices
from cogs.common.autocomplete_setup import new_side_choices
from cogs.common.context import actor_of, battle_here, member_check, service_of
from cogs.common.embeds import outcome_embed, safe, with_note
from cogs.common.embeds_setup import import_embed, setup_embed
from cogs.common.replies import close_thinking, defer, reply
from cogs.common.systems import require_map, unit_card
from cogs.common.transformers import CellArg
from cogs.unit.importing import (
    STATBLOCK_GUIDE,
    STATBLOCK_SUFFIXES,
    parse_one_unit,
    place_all,
    plan_import,
    without_strangers,
)
from cogs.unit.stats_text import parse_stats, typed_weapons, weapons_note
from rules import orders as o
from rules.errors import GameError
from rules.outcome import Highlight
from rules.systems.m42.units import MAX_LD, MAX_MODELS
from rules.weaponline import MAX_LINE

Char = app_commands.Range[int, 0, 200]
Pool = app_commands.Range[int, 0, 10000]
Trait = app_commands.Range[int, 0, 100]
Leadership = app_commands.Range[int, 1, MAX_LD]
Models = app_commands.Range[int, 1, MAX_MODELS]
UnitClass = Literal["eva", "superheavy", "infantry", "vehicle", "walker", "other"]
FILE_STATS = ("weapons", "skills")  # what a stat-block file attached to /unit edit replaces


def stats_from(**options: Any) -> dict[str, Any]:
    """Keep the stat options the user actually gave."""
    return {k: v for k, v in options.items() if v is not None}


@app_commands.guild_only()
class UnitCog(commands.GroupCog, group_name="unit", group_description="Add, import, inspect, edit and remove units"):
    """Add, import, inspect, edit and remove units."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="add", description="Put a unit on the map (GM); M42: its leader, the models around it")
    @app_commands.describe(
        name="Unit name (1-64 characters, unique in this battle)", side="Side it fights for (created if new)",
        at="Square to place it on, like E5", owner="Player who commands it (leave out: the GM)",
        kind="ic: character or E-Scale unit; horde: a Horde", ag="Agility (movement is its bonus)",
        bs="Ballistic Skill", ws="Weapon Skill", s="Strength", t="Toughness", int_="Intelligence",
        wounds="Wounds (characters)", magnitude="Magnitude (Hordes)", ap="Armour on every location",
        flyer="Flyer(X) movement value", hoverer="Hoverer(X) movement value",
        ld="M42: Leadership (Ld); the Command Radius is 2 x Ld inches", models="M42: models in the unit, leader included",
        interlinked="M42: the Interlinked special rule (ignores terrain Command Radius penalties)",
        vehicle="M42: a vehicle, not infantry (impassable terrain and tall walls do not stop it)",
        stats="Any other stats as key=value, like `kind=vehicle pf=6 mv=30` (Combat Action), or a JSON object",
        weapons="Weapons in a line, like `Rifle r10 1d10+2; Knife melee 1d5` (each system's words: /help)",
    )
    @app_commands.rename(int_="int")
    @app_commands.autocomplete(side=new_side_choices)
    async def add(self, interaction: discord.Interaction, name: str, side: str, at: CellArg,
                  owner: discord.User | None = None, kind: Literal["ic", "horde"] | None = None,
                  ag: Char | None = None, bs: Char | None = None, ws: Char | None = None, s: Char | None = None,
                  t: Char | None = None, int_: Char | None = None, wounds: Pool | None = None,
                  magnitude: Pool | None = None, ap: Trait | None = None, flyer: Trait | None = None,
                  hoverer: Trait | None = None, ld: Leadership | None = None, models: Models | None = None,
                  interlinked: bool | None = None, vehicle: bool | None = None, stats: str = "",
                  weapons: app_commands.Range[str, 1, MAX_LINE] | None = None) -> None:
        """Add a unit; an M42 unit's models are placed legally around its leader."""
        record = await battle_here(interaction)
        require_map(record.ruleset, "place a unit `at` a square")
        typed = parse_stats(stats)
        armed = typed_weapons(record.ruleset, weapons, typed)
        if armed is not None:
            typed["weapons"] = armed
        traits = [rule for rule, on in (("interlinked", interlinked), ("vehicle", vehicle)) if on]
        stats_given = stats_from(kind=kind, ag=ag, bs=bs, ws=ws, s=s, t=t, int=int_, wounds=wounds,
                                 magnitude=magnitude, ap=ap, flyer=flyer, hoverer=hoverer, ld=ld, models=models,
                                 traits=traits or None)
        stats_given.update(typed)
        order = o.AddUnit(name=name, side=side, at=at, owner=owner.id if owner else None, stats=stats_given or None)
        await self._run(interaction, order, extra=[weapons_note(armed)] if armed is not None else None)

    @app_commands.command(name="import", description="Place every unit of a stat-block file (.toml), all or none (GM)")
    @app_commands.describe(
        file="A .toml stat-block file: one [[unit]] table per unit (see docs/statblocks.md)",
        side="Put every unit on this side instead of the file's",
        owner="Player who commands every unit, instead of the file's `owner` ids",
        at="Move the whole layout: the top-left corner of the file's units goes to this square",
    )
    @app_commands.autocomplete(side=new_side_choices)
    async def import_(self, interaction: discord.Interaction, file: discord.Attachment, side: str | None = None,
                      owner: discord.User | None = None, at: CellArg | None = None) -> None:
        """Import the units of a stat-block file; if any unit is wrong, none is placed."""
        record = await battle_here(interaction)
        require_map(record.ruleset, "place imported units on squares")
        service = service_of(interaction)
        actor = actor_of(interaction)
        await service.require_gm(actor, record, "import units")
        # Downloading, checking and placing hundreds of units takes seconds. Defer privately: any refusal,
        # including one after a concurrent order made a unit fail and the import was taken back, reaches
        # only the GM, like any other refusal.
        await defer(interaction, ephemeral=True)
        text = await read_text(file, suffixes=STATBLOCK_SUFFIXES, what="a stat-block file", guide=STATBLOCK_GUIDE)
        battle = await service.load(record)
        try:
            # Reading and checking 400 units takes about a second: off the event loop, so every server goes on.
            plan = await asyncio.to_thread(plan_import, text, battle, side=side, owner=owner.id if owner else None,
                                          at=at)
        except GameError as exc:
            raise GameError(f"{exc.message}\nNothing was imported.") from None
        plan, unowned = await without_strangers(plan, member_check(interaction))
        placed = await place_all(service, actor, record, plan)
        battle = await service.load(await service.get_battle(actor.guild_id, record.id))
        png = await service.render(battle, Highlight(cells=[str(order.at) for order in plan.orders]), battle_id=record.id)
        count = f"{len(placed)} unit{'s' if len(placed) != 1 else ''}"
        waiting = (f" {len(unowned)} of them ({', '.join(safe(n) for n in unowned[:10])}"
                   f"{', ...' if len(unowned) > 10 else ''}) have no player: the file's `owner` is not a member of "
                   "this server, so /gm assign them." if unowned else "")
        moved = f" The layout was moved so its top-left corner is on {at}." if at is not None else ""
        await close_thinking(interaction, f"Imported {count} from `{safe(file.filename)}`; the list and the map are "
                                          f"posted for everyone.{moved}{waiting}")
        await reply(interaction, embed=import_embed(file.filename, placed, battle_name=battle.name), png=png)

    @app_commands.command(name="edit", description="Rewrite a unit's stat block: name, side, owner, characteristics, file (GM)")
    @app_commands.describe(
        unit="Unit to edit", name="New name", side="New side (created if new)", owner="New commanding player",
        kind="ic: character or E-Scale unit; horde: a Horde", class_="Class (Evas and Superheavies can sink)",
        ws="Weapon Skill", bs="Ballistic Skill", s="Strength", t="Toughness", ag="Agility",
        int_="Intelligence", per="Perception", wp="Willpower",
        wounds="Current wounds (characters)", max_wounds="Maximum wounds (characters)",
        magnitude="Current Magnitude (Hordes)", max_magnitude="Maximum Magnitude (Hordes)",
        squads="Squads in the Horde", ap="Armour on every location",
        supreme_commander="The side's Supreme Commander: feature points come from its Intelligence Bonus",
        file="A .toml stat-block file of one unit: its weapons and skills replace this unit's",
        stats="Other stats as key=value: `fel=28`, `statuses=pinned pf=3` (Combat Action), `ld=3 models=6` (M42)",
        weapons="New weapons in a line, like `Rifle r10 1d10+2; Knife melee 1d5` (/help), or `none`",
    )
    @app_commands.rename(int_="int", class_="class")
    @app_commands.autocomplete(unit=unit_choices, side=new_side_choices)
    async def edit(self, interaction: discord.Interaction, unit: str, name: str | None = None,
                   side: str | None = None, owner: discord.User | None = None,
                   kind: Literal["ic", "horde"] | None = None, class_: UnitClass | None = None,
                   ws: Char | None = None, bs: Char | None = None, s: Char | None = None, t: Char | None = None,
                   ag: Char | None = None, int_: Char | None = None, per: Char | None = None,
                   wp: Char | None = None, wounds: Pool | None = None,
                   max_wounds: app_commands.Range[int, 1, 10000] | None = None, magnitude: Pool | None = None,
                   max_magnitude: app_commands.Range[int, 1, 10000] | None = None,
                   squads: app_commands.Range[int, 1, 100] | None = None, ap: Trait | None = None,
                   supreme_commander: bool | None = None, file: discord.Attachment | None = None,
                   stats: str = "", weapons: app_commands.Range[str, 1, MAX_LINE] | None = None) -> None:
        """Edit a unit's stat block; a file replaces its weapons and skills, as does a line of weapons."""
        typed = parse_stats(stats)
        extra: list[str] = []
        if weapons is not None:
            armed = typed_weapons((await battle_here(interaction)).ruleset, weapons, typed)
            if armed is not None:
                if file is not None:
                    raise GameError("Give the weapons once: in `weapons` or in the file, not both.")
                typed["weapons"] = armed
                extra.append(weapons_note(armed))
        stats_given = stats_from(name=name, side=side, owner=owner.id if owner else None, kind=kind, ws=ws, bs=bs,
                                 s=s, t=t, ag=ag, int=int_, per=per, wp=wp, wounds=wounds,
                                 max_wounds=max_wounds, magnitude=magnitude, max_magnitude=max_magnitude,
                                 squads=squads, ap=ap, supreme_commander=supreme_commander)
        stats_given.update(typed)
        if class_ is not None:
            stats_given["class"] = class_
        if file is not None:
            record = await battle_here(interaction)
            service = service_of(interaction)
            await service.require_gm(actor_of(interaction), record, "edit units")
            text = await read_text(file, suffixes=STATBLOCK_SUFFIXES, what="a stat-block file", guide=STATBLOCK_GUIDE)
            spec = await asyncio.to_thread(parse_one_unit, await service.load(record), text)
            taken = {k: spec.stats[k] for k in FILE_STATS if k in spec.stats}
            if not taken:
                raise GameError(f"`{safe(file.filename)}` gives no `weapons` or `skills`, so there is nothing to take "
                                "from it; the other fields of a file are set with the options of this command.")
            stats_given.update(taken)
            extra.append(f"From {safe(file.filename)}: " + "; ".join(_describe_taken(taken)) + ".")
        if not stats_given:
            raise GameError("Say what to change: give at least one option (a stat, a new name, side or owner, or a file).")
        await self._run(interaction, o.EditUnit(unit=unit, stats=stats_given), extra=extra)

    @app_commands.command(name="traits", description="Change a unit's movement traits: Flyer, Hoverer, altitude, water (GM)")
    @app_commands.describe(
        unit="Unit to change", flyer="Flyer(X): moves by X while flying (0 removes the trait)",
        hoverer="Hoverer(X): ignores DTV on ice, shallows and water (0 removes the trait)",
        altitude="Squares above the ground (above 0 needs Flyer; -1 is sunk)",
        aquatic="Aquatic: no DTV, Hit Bonus or low elevation in water",
        amphibious="Amphibious: as Aquatic, for units that also walk on land",
        anti_fog="Anti-darkness/fog upgrade: negates the storm penalty",
        mp="A Horde's own movement value (0: use its Agility Bonus)",
    )
    @app_commands.autocomplete(unit=unit_choices)
    async def traits(self, interaction: discord.Interaction, unit: str, flyer: Trait | None = None,
                     hoverer: Trait | None = None, altitude: app_commands.Range[int, -1, 100] | None = None,
                     aquatic: bool | None = None, amphibious: bool | None = None, anti_fog: bool | None = None,
                     mp: Trait | None = None) -> None:
        """Change a unit's movement and environment traits."""
        stats = stats_from(flyer=flyer, hoverer=hoverer, altitude=altitude, aquatic=aquatic, amphibious=amphibious,
                           anti_fog=anti_fog, mp=mp)
        if not stats:
            raise GameError("Say which trait to change, for example `flyer:8` or `aquatic:True`.")
        await self._run(interaction, o.EditUnit(unit=unit, stats=stats))

    @app_commands.command(name="remove", description="Take a unit off the map (GM)")
    @app_commands.describe(unit="Unit to remove")
    @app_commands.autocomplete(unit=unit_choices)
    async def remove(self, interaction: discord.Interaction, unit: str) -> None:
        """Remove a unit."""
        await self._run(interaction, o.RemoveUnit(unit=unit))

    @app_commands.command(name="info", description="Show a unit's stat block")
    @app_commands.describe(unit="Unit to show")
    @app_commands.autocomplete(unit=any_unit_choices)
    async def info(self, interaction: discord.Interaction, unit: str) -> None:
        """Show a unit."""
        record = await battle_here(interaction)
        battle = service_of(interaction).read_only(record)
        await reply(interaction, embed=unit_card(battle, battle.unit(unit)))

    async def _run(self, interaction: discord.Interaction, order: o.Order, extra: list[str] | None = None) -> None:
        record = await battle_here(interaction)
        service = service_of(interaction)
        result = await service.execute(actor_of(interaction), record, order, render=False)
        await defer(interaction)
        assert result.outcome is not None
        png = await service.render(result.battle, outcome=result.outcome, battle_id=record.id)
        if order.kind == "edit-unit":
            embed = setup_embed(result.outcome, battle_name=result.battle.name, system=result.battle.system.id, extra=extra)
        else:
            embed = with_note(outcome_embed(result.outcome, battle_name=result.battle.name,
                                            system=result.battle.system.id), "\n".join(extra or []))
        await reply(interaction, embed=embed, png=png)


def _describe_taken(taken: dict[str, Any]) -> list[str]:
    """Say what a file gave: the weapons by name and the number of skills."""
    parts = []
    if "weapons" in taken:
        names = [safe(w.get("name", "?")) for w in taken["weapons"] if isinstance(w, dict)]
        parts.append(f"weapons {', '.join(names)}" if names else "no weapons")
    if "skills" in taken and isinstance(taken["skills"], dict):
        n = len(taken["skills"])
        parts.append(f"{n} skill{'s' if n != 1 else ''}")
    return parts
