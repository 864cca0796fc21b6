"""Autocomplete for squares and standing orders, from the chosen unit's legal orders.

A square option (`to`, `at`) offers the squares the chosen unit may give this command's order for now
(a move's reachable squares in the chosen mode, say), else the squares of the units it could aim at,
enemies and the nearest first. A standing order offers `hold`, `none` and the orders the unit could give on a
turn of its own, as text. Always within Discord's 25 choices of at most 100 characters.
"""

from __future__ import annotations

import shlex
from typing import Any

import discord
from discord import app_commands

from cogs.common.autocomplete import LIMIT
from cogs.common.context import actor_of, service_of
from rules.battle import Battle
from rules.coords import Cell
from rules.orders import Order
from rules.turnorders import CLEAR_WORDS, HOLD, standing_options
from rules.units import Unit
from rules.visibility import Viewer, sees

Choice = app_commands.Choice
TEXT_MAX = 100


def focused_option(interaction: discord.Interaction) -> str:
    """Return the name of the option being typed in (Discord marks it `focused`), or ''."""
    data: dict[str, Any] = dict(interaction.data or {})
    stack: list[Any] = list(data.get("options", []))
    while stack:
        option = stack.pop()
        if option.get("focused"):
            return str(option.get("name", ""))
        stack.extend(option.get("options", []))
    return ""


async def _battle(interaction: discord.Interaction) -> Battle[Any] | None:
    if interaction.guild_id is None or interaction.channel_id is None:
        return None
    found = await service_of(interaction).peek(interaction.guild_id, interaction.channel_id)
    return None if found is None else found[1]


def _chosen(interaction: discord.Interaction, battle: Battle[Any]) -> Unit | None:
    name = getattr(interaction.namespace, "unit", None)
    return battle.find_unit(name) if isinstance(name, str) and name.strip() else None


def _legal(battle: Battle[Any], unit: Unit) -> list[Order]:
    return list(battle.legal_orders(unit))


def _order_squares(orders: list[Order], kind: str, option: str, mode: object) -> list[tuple[Cell, str]]:
    """Return the squares of the orders of this kind that fill `option`, for the chosen mode if one is set."""
    out: list[tuple[Cell, str]] = []
    for order in orders:
        cell = getattr(order, option, None)
        if order.kind != kind or not isinstance(cell, Cell):
            continue
        order_mode = getattr(order, "mode", None)
        if isinstance(mode, str) and mode and isinstance(order_mode, str) and order_mode != mode:
            continue
        out.append((cell, f"{kind} {order_mode}".strip() if isinstance(order_mode, str) else kind))
    return out


def _unit_squares(interaction: discord.Interaction, battle: Battle[Any], origin: Unit | None) -> list[tuple[Cell, str]]:
    """Return the squares of the units one could aim at: enemies of the chosen unit first, nearest first."""
    mine = {origin.side.lower()} if origin is not None else {
        u.side.lower() for u in battle.iter_units() if u.owner == interaction.user.id}
    viewer = Viewer.of(mine)
    seen = [u for u in battle.iter_units() if u is not origin and sees(viewer, u)]

    def rank(u: Unit) -> tuple[bool, int, str]:
        return (u.side.lower() in mine, origin.cell.distance(u.cell) if origin is not None else 0, u.name.lower())

    return [(u.cell, u.name) for u in sorted(seen, key=rank)]


async def square_choices(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """Offer squares for a square option: where the chosen unit may go or aim now, else where units stand."""
    battle = await _battle(interaction)
    if battle is None or not battle.system.has_map:
        return []
    origin = _chosen(interaction, battle)
    kind = interaction.command.name if interaction.command is not None else ""
    option = focused_option(interaction)
    found: list[tuple[Cell, str]] = []
    if origin is not None and option:
        found = _order_squares(_legal(battle, origin), kind, option, getattr(interaction.namespace, "mode", None))
    if not found:
        found = _unit_squares(interaction, battle, origin)
    needle = current.strip().upper()
    out: list[Choice[str]] = []
    shown: set[str] = set()
    for cell, why in found:
        name = str(cell)
        if name in shown or not name.startswith(needle):
            continue
        shown.add(name)
        out.append(Choice(name=f"{name} ({why})"[:TEXT_MAX], value=name))
        if len(out) == LIMIT:
            break
    return out


async def _commands(interaction: discord.Interaction, unit: Unit) -> bool:
    """Return whether the caller commands the unit: its owner, or a GM (whose plans stay the GM's)."""
    if unit.owner == interaction.user.id:
        return True
    assert interaction.guild_id is not None and interaction.channel_id is not None  # _battle found a battle here
    service = service_of(interaction)
    found = await service.peek(interaction.guild_id, interaction.channel_id)
    return found is not None and await service.is_gm(actor_of(interaction), found[0])


def order_text(order: Order) -> str:
    """Return an order as a standing order reads it: its text without the unit it belongs to."""
    text = str(order)
    unit = getattr(order, "unit", "")
    return text.replace(f" unit:{shlex.quote(unit)}", "", 1) if isinstance(unit, str) and unit else text


async def standing_choices(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """Offer standing orders: `hold`, `none` (clear it) and the orders the unit could give on a turn of its own."""
    battle = await _battle(interaction)
    texts = [HOLD, CLEAR_WORDS[0]]
    unit = _chosen(interaction, battle) if battle is not None else None
    if battle is not None and unit is not None and await _commands(interaction, unit):
        # A hundred moves would hide the rest: each kind's first order comes before any kind's second.
        seen: dict[str, int] = {}
        ranked = []
        for order in standing_options(battle, unit.name):
            seen[order.kind] = seen.get(order.kind, 0) + 1
            ranked.append((seen[order.kind], order_text(order)))
        texts += [text for _, text in sorted(ranked, key=lambda pair: pair[0])]
    needle = current.strip().lower()
    picked = [t for t in texts if len(t) <= TEXT_MAX and (not needle or needle in t.lower())]
    return [Choice(name=t, value=t) for t in picked[:LIMIT]]


