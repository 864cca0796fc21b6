"""Slash commands of /ca: open an activation and take the actions of the Combat Action AP table."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.service import BattleRecord
from cogs.combat_action.autocomplete import target_choices, weapon_choices
from cogs.combat_action.embeds import outcome_embed
from cogs.combat_action.options import options_embed
from cogs.common.autocomplete import unit_choices
from cogs.common.context import actor_of, battle_here, service_of
from cogs.common.replies import defer, reply
from cogs.common.transformers import CellArg
from cogs.common.undo import undo_view
from rules.errors import IllegalOrderError, NotAllowedError
from rules.orders import Order
from rules.systems.combat_action.actions.close import CloseCombat
from rules.systems.combat_action.actions.fire import Fire, weapon_of
from rules.systems.combat_action.actions.other import Act
from rules.systems.combat_action.actions.play import Activate, Aim, FlatDown, GetUp
from rules.systems.combat_action.actions.transport import Disembark, Embark, Hatch
from rules.systems.combat_action.actions.weapons import Prime, Reload, Unjam
from rules.systems.combat_action.shooting import CLASS_MODES
from rules.systems.combat_action.units import Unit

RULESET = "combat-action"
# Highlight keys that draw something on the map; an outcome marking nothing needs no picture.
DRAWN = ("line", "target", "path", "landed")
FireMode = Literal["standard", "sniping", "automatic", "heavy", "grenade"]
Posture = Literal["flat-down", "get-up", "aim"]
ActionKey = Literal["hide", "impart_order", "open_door", "jump", "climb", "pilot", "control_robot"]


def require_combat_action(record: BattleRecord) -> None:
    """Refuse a /ca command in a battle of another ruleset, saying how to start a Combat Action battle."""
    if record.ruleset != RULESET:
        raise IllegalOrderError(f"This battle plays `{record.ruleset}`; /ca commands are for Combat Action battles "
                                f"(`/battle new ruleset:{RULESET}`).")


async def post(interaction: discord.Interaction, order: Order) -> None:
    """Apply a Combat Action order for the user and post its outcome; refusals stay private and change nothing."""
    record = await battle_here(interaction)
    require_combat_action(record)
    service = service_of(interaction)
    result = await service.execute(actor_of(interaction), record, order, render=False)
    outcome = result.outcome
    assert outcome is not None  # execute returns the outcome of the order it applied
    await defer(interaction)
    png = None
    if any(getattr(outcome.highlight, key) for key in DRAWN):
        png = await service.render(result.battle, outcome=outcome, battle_id=record.id)
    embed = outcome_embed(outcome, battle_name=result.battle.name, actor_name=interaction.user.display_name)
    await reply(interaction, embed=embed, png=png, view=await undo_view(interaction, result))


@app_commands.guild_only()
class CombatActionCog(commands.GroupCog, group_name="ca",
                      group_description="Combat Action: activations and the actions of the AP table"):
    """Take a Combat Action unit's actions, each costing its AP."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="activate", description="Open your unit's activation: the Discipline Phase (free)")
    @app_commands.describe(unit="Your unit")
    @app_commands.autocomplete(unit=unit_choices)
    async def activate(self, interaction: discord.Interaction, unit: str) -> None:
        """Open the activation; a pinned unit tests Discipline, a machine out of control rolls its table."""
        await post(interaction, Activate(unit=unit))

    @app_commands.command(name="fire", description="Fire a weapon: standard 1 AP; sniping, automatic, heavy 2 AP")
    @app_commands.describe(unit="Your unit", weapon="One of its weapons", target="Unit to shoot at",
                           mode="standard, sniping, automatic, heavy or grenade (default: the weapon's first mode)")
    @app_commands.autocomplete(unit=unit_choices, weapon=weapon_choices, target=target_choices)
    async def fire(self, interaction: discord.Interaction, unit: str, weapon: str, target: str,
                   mode: FireMode | None = None) -> None:
        """Shoot with every to-hit term and die shown; area weapons deviate on a miss."""
        if mode is None:
            record = await battle_here(interaction)
            require_combat_action(record)
            shooter = service_of(interaction).read_only(record).unit(unit)
            if isinstance(shooter, Unit):
                modes = CLASS_MODES.get(weapon_of(shooter, weapon).wclass, ("standard",))
                mode = modes[0] if modes else "standard"  # type: ignore[assignment]
        await post(interaction, Fire(unit=unit, weapon=weapon, target=target, mode=mode or "standard"))

    @app_commands.command(name="close-combat", description="Attack in close combat, in base contact (2 AP)")
    @app_commands.describe(unit="Your unit", target="Unit in base contact (or the vehicle whose jammed hatch to break)",
                           weapon="A Close Combat weapon (leave out: bare hands)",
                           hatch="Strike the target vehicle's jammed hatches instead (hits automatically)")
    @app_commands.autocomplete(unit=unit_choices, weapon=weapon_choices, target=target_choices)
    async def close_combat(self, interaction: discord.Interaction, unit: str, target: str, weapon: str = "",
                           hatch: bool = False) -> None:
        """Strike in close combat; the defender strikes back unless routing."""
        await post(interaction, CloseCombat(unit=unit, target=target, weapon=weapon, hatch=hatch))

    @app_commands.command(name="posture", description="Go flat down, get up, or aim with a targeting device (1 AP)")
    @app_commands.describe(unit="Your unit", posture="flat-down (+1 PF), get-up, or aim (next shot +1)")
    @app_commands.autocomplete(unit=unit_choices)
    async def posture(self, interaction: discord.Interaction, unit: str, posture: Posture) -> None:
        """Change posture or aim."""
        cls = {"flat-down": FlatDown, "get-up": GetUp, "aim": Aim}[posture]
        await post(interaction, cls(unit=unit))

    @app_commands.command(name="hatch", description="Open or close a vehicle's hold hatches (1 AP)")
    @app_commands.describe(unit="The vehicle, or a model inside or next to it",
                           action="open or close", vehicle="The vehicle, when `unit` is a model next to it")
    @app_commands.autocomplete(unit=unit_choices, vehicle=target_choices)
    async def hatch(self, interaction: discord.Interaction, unit: str, action: Literal["open", "close"] = "open",
                    vehicle: str = "") -> None:
        """Work the hold's hatches."""
        await post(interaction, Hatch(unit=unit, action=action, vehicle=vehicle))

    @app_commands.command(name="embark", description="Climb into a friendly vehicle next to you through open hatches (1 AP)")
    @app_commands.describe(unit="Your model", vehicle="The vehicle")
    @app_commands.autocomplete(unit=unit_choices, vehicle=target_choices)
    async def embark(self, interaction: discord.Interaction, unit: str, vehicle: str) -> None:
        """Embark."""
        await post(interaction, Embark(unit=unit, vehicle=vehicle))

    @app_commands.command(name="disembark", description="Leave your vehicle to a square next to it (1 AP)")
    @app_commands.describe(unit="Your model inside a vehicle", to="A square next to the vehicle, like E5")
    @app_commands.autocomplete(unit=unit_choices)
    async def disembark(self, interaction: discord.Interaction, unit: str, to: CellArg) -> None:
        """Disembark."""
        await post(interaction, Disembark(unit=unit, to=to))

    @app_commands.command(name="reload", description="Reload a weapon (1 AP)")
    @app_commands.describe(unit="Your unit", weapon="The weapon")
    @app_commands.autocomplete(unit=unit_choices, weapon=weapon_choices)
    async def reload(self, interaction: discord.Interaction, unit: str, weapon: str) -> None:
        """Reload."""
        await post(interaction, Reload(unit=unit, weapon=weapon))

    @app_commands.command(name="unjam", description="Unjam a weapon (2 AP)")
    @app_commands.describe(unit="Your unit", weapon="The jammed weapon")
    @app_commands.autocomplete(unit=unit_choices, weapon=weapon_choices)
    async def unjam(self, interaction: discord.Interaction, unit: str, weapon: str) -> None:
        """Unjam."""
        await post(interaction, Unjam(unit=unit, weapon=weapon))

    @app_commands.command(name="prime", description="Prime a grenade (1 AP); throw it with /ca fire mode:grenade (1 AP)")
    @app_commands.describe(unit="Your unit", weapon="The grenade")
    @app_commands.autocomplete(unit=unit_choices, weapon=weapon_choices)
    async def prime(self, interaction: discord.Interaction, unit: str, weapon: str) -> None:
        """Prime a grenade."""
        await post(interaction, Prime(unit=unit, weapon=weapon))

    @app_commands.command(name="action", description="Another AP action: hide, order, open a door, jump (1 AP); "
                                                       "climb, pilot, control a robot (2 AP)")
    @app_commands.describe(unit="Your unit", action="The action of the AP table",
                           target="Unit it is for (impart_order, pilot, control_robot)",
                           to="Square (open_door; jump and climb: a square next to the model)")
    @app_commands.autocomplete(unit=unit_choices, target=target_choices)
    async def action(self, interaction: discord.Interaction, unit: str, action: ActionKey, target: str = "",
                     to: CellArg | None = None) -> None:
        """Take another action of the AP table."""
        await post(interaction, Act(unit=unit, action=action, target=target, to=to))

    @app_commands.command(name="options", description="What your unit can do now, each action with its AP (private)")
    @app_commands.describe(unit="Your unit")
    @app_commands.autocomplete(unit=unit_choices)
    async def options(self, interaction: discord.Interaction, unit: str) -> None:
        """List the unit's legal actions with their AP cost, only to its player or the GM."""
        record = await battle_here(interaction)
        require_combat_action(record)
        service = service_of(interaction)
        actor = actor_of(interaction)
        battle = service.read_only(record)
        found = battle.unit(unit)
        if found.owner != actor.user_id and not await service.is_gm(actor, record):
            raise NotAllowedError(f"{found.name} is not yours; only its player or the GM can see its options.")
        assert isinstance(found, Unit)
        await reply(interaction, embed=options_embed(battle, found), ephemeral=True)
