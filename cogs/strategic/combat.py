"""The /attack command and the /range preview."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common.autocomplete import unit_choices
from cogs.common.confirm import ask
from cogs.common.context import battle_here, service_of
from cogs.common.embeds import safe
from cogs.common.post import post_order
from cogs.common.replies import defer, reply
from cogs.common.systems import front_end
from cogs.common.transformers import CellArg
from cogs.strategic.autocomplete import target_choices, weapon_choices
from cogs.strategic.preview import range_embed
from rules.battle import Battle
from rules.coords import Cell
from rules.errors import GameError, NotFoundError
from rules.outcome import Highlight
from rules.systems.strategic.actions.charge import MODE as CHARGE
from rules.systems.strategic.actions.charge import Charge
from rules.systems.strategic.actions.combat import Attack
from rules.systems.strategic.combat import range_preview
from rules.systems.strategic.units import Unit, Weapon

FireMode = Literal["standard", "sniping", "automatic", "heavy", "grenade"]
LOCATIONS = [
    app_commands.Choice(name="Head", value="head"), app_commands.Choice(name="Body", value="body"),
    app_commands.Choice(name="Right arm", value="r_arm"), app_commands.Choice(name="Left arm", value="l_arm"),
    app_commands.Choice(name="Right leg", value="r_leg"), app_commands.Choice(name="Left leg", value="l_leg"),
]


def allies_hit(battle: Battle, order: Attack) -> list[Unit]:
    """Return the attacker's allies that an attack aims at: the target unit, or the units on the square."""
    attacker = battle.find_unit(order.unit)
    if attacker is None:
        return []  # the rules say which unit is missing
    aimed: list[Unit] = []
    if order.target and order.target.lower() != "bridge":
        found = battle.find_unit(order.target)
        aimed = [found] if found is not None else []
    elif order.at is not None and battle.on_map(order.at):
        aimed = battle.units_at(order.at)
    return [u for u in aimed if u.id != attacker.id and not battle.enemies(attacker, u)]


def any_weapon(battle: Battle, name: str, user_id: int) -> tuple[Unit, Weapon]:
    """Find a weapon by name on the map, the user's own units first, for a preview from a bare square."""
    units = sorted(battle.iter_units(), key=lambda u: u.owner != user_id)
    for unit in units:
        weapon = unit.weapon(name)
        if weapon is not None:
            return unit, weapon
    raise NotFoundError(f"No unit in this battle carries a weapon called `{name}`.")


class CombatCog(commands.Cog):
    """Attack with a unit's weapons, and preview shots without rolling."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.guild_only()
    @app_commands.command(name="attack", description="Attack with one of your unit's weapons: a unit, or a square")
    @app_commands.describe(
        unit="Your attacking unit",
        weapon="One of its weapons (range and damage shown)",
        target="Unit to attack (enemies first), or `bridge` with the bridge's square in `at`",
        at="Square to attack: for area weapons, a bridge, or the lone unit on it",
        adjust="GM only: a situational modifier to the to-hit test, -100 to +100",
        called="Called shot at one hit location (a penalty to hit)",
        mode="Combat Action fire mode: standard, sniping, automatic, heavy or grenade (default: the weapon's first)",
    )
    @app_commands.autocomplete(unit=unit_choices, weapon=weapon_choices, target=target_choices)
    @app_commands.choices(called=LOCATIONS)
    async def attack(self, interaction: discord.Interaction, unit: str, weapon: str, target: str | None = None,
                     at: CellArg | None = None, adjust: app_commands.Range[int, -100, 100] = 0,
                     called: app_commands.Choice[str] | None = None, mode: FireMode | None = None) -> None:
        """Resolve an attack and post the breakdown, the dice, the damage and the map."""
        if not (target or "").strip() and at is None:
            raise GameError("Say what to attack: `target` (a unit, or `bridge`) or `at` (a square, for area weapons).")
        record = await battle_here(interaction)
        battle = service_of(interaction).read_only(record)  # read only: which front end attacks
        own = front_end(battle).attack_order
        if own is not None:
            unused = [name for name, given in (("at", at is not None), ("adjust", adjust != 0),
                                               ("called", called is not None)) if given]
            if unused:
                raise GameError(f"{battle.system.name} attacks take no {', '.join(f'`{n}`' for n in unused)}; "
                                "name the unit, the weapon, the target and, to fire, a `mode`.")
            await post_order(interaction, own(battle, unit, weapon, (target or "").strip(), mode))
            return
        if mode is not None:
            raise GameError(f"`mode` is for Combat Action fire; {battle.system.name} attacks take none.")
        order = Attack(unit=unit, weapon=weapon, target=(target or "").strip(), at=at, adjust=adjust,
                       called=called.value if called else "")
        record = await battle_here(interaction)
        battle = await service_of(interaction).load(record)
        friends = allies_hit(battle, order)
        if friends:
            names = ", ".join(f"**{safe(u.name)}**" for u in friends[:10])
            await ask(interaction, record.id, "orders", "Attack your own side?",
                      f"This attack aims at {names}, on {safe(friends[0].side)}'s side like "
                      f"{safe(battle.unit(unit).name)}. Go ahead only if you mean it.", [order], "Attack anyway")
            return
        await post_order(interaction, order)

    @app_commands.guild_only()
    @app_commands.command(name="charge", description="Charge an enemy: move up to AB\u00d71.5 and strike it in melee")
    @app_commands.describe(
        unit="Your charging unit",
        target="The enemy to charge (it must be within a Charge's move of melee reach)",
        weapon="The melee weapon to strike with (leave out: its first melee weapon)",
        to="Square to end the charge on (leave out: the cheapest square within reach)",
    )
    @app_commands.autocomplete(unit=unit_choices, weapon=weapon_choices, target=target_choices)
    async def charge(self, interaction: discord.Interaction, unit: str, target: str, weapon: str = "",
                     to: CellArg | None = None) -> None:
        """Move into reach and make the melee attack, as one Full action with one outcome."""
        record = await battle_here(interaction)
        battle = await service_of(interaction).load(record)
        if not battle.system.plays(CHARGE):
            raise GameError(f"{battle.system.name} has no charge with an attack of its own: a charge there is a "
                            "move (`/move mode:charge`), and the attack is its own order.")
        await post_order(interaction, Charge(unit=unit, target=target.strip(), weapon=weapon.strip(), to=to))

    @app_commands.guild_only()
    @app_commands.command(name="range", description="Preview a shot without rolling: distance, range band, modifiers")
    @app_commands.describe(
        to="Square to aim at, like P10",
        weapon="Weapon to measure with (of `unit`; with only `from`, of any unit)",
        unit="Unit that would fire: measures from its square with its skill",
        from_="Square to measure from instead (only the situational modifiers then)",
    )
    @app_commands.rename(from_="from")
    @app_commands.autocomplete(unit=unit_choices, weapon=weapon_choices)
    async def range_(self, interaction: discord.Interaction, to: CellArg, weapon: str, unit: str | None = None,
                     from_: CellArg | None = None) -> None:
        """Show, only to the user, what a shot would face; nothing is rolled or changed."""
        if not (unit or "").strip() and from_ is None:
            raise GameError("Say where the shot starts: `unit` (from its square) or `from` (any square).")
        record = await battle_here(interaction)
        service = service_of(interaction)
        battle = await service.load(record)
        if not battle.system.plays("attack"):
            raise GameError(f"/range previews Strategic shots, not {battle.system.name} ones; see /help for this "
                            "ruleset's commands (Combat Action: `/ca options` gives each target's band and roll).")
        if (unit or "").strip():
            owner = battle.unit(unit or "")
            gun = owner.require_weapon(weapon)
        else:
            owner, gun = any_weapon(battle, weapon, interaction.user.id)
        # From a bare square nobody stands there to fire, so the rules count no one's skill or aim.
        origin: Cell | Unit = from_ if from_ is not None else owner
        preview = range_preview(battle, origin, to, gun)
        await defer(interaction, ephemeral=True)
        src = preview["from"]
        highlight = Highlight(actor=src, target=preview["to"], line=[src, preview["to"]])
        png = await service.render(battle, highlight, battle_id=record.id)
        embed = range_embed(preview, battle, owner=owner.name, from_unit=from_ is None)
        await reply(interaction, embed=embed, png=png, ephemeral=True)
