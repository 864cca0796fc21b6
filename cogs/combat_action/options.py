"""My options for a Combat Action unit: every legal action now, grouped, each with its AP cost."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import discord

from cogs.combat_action.text import FIRE_MODES, band_name
from cogs.common.embeds import INFO, safe
from cogs.common.fields import EmbedFields
from rules import turns
from rules.battle import Battle
from rules.orders import Order
from rules.ruleset import fraction_text
from rules.scale import square_size
from rules.systems.combat_action.actions.other import action_name
from rules.systems.combat_action.shooting import band_to, to_hit_modifiers
from rules.systems.combat_action.units import Unit

MAX_PER_LINE = 6
MOVE_GROUP = "Move (`/move`)"


def _ap(battle: Battle, order: Order) -> str:
    points = turns.order_cost(battle, order).points
    return "free" if points == 0 else f"{points} AP"


def _names(items: list[str]) -> str:
    shown = items[:MAX_PER_LINE]
    more = f" and {len(items) - MAX_PER_LINE} more" if len(items) > MAX_PER_LINE else ""
    return ", ".join(shown) + more


def need_to_hit(battle: Battle, unit: Unit, weapon_name: str, target: Unit, mode: str) -> int:
    """Return the d6 a shot needs now: SS less every modifier (A73)."""
    weapon = unit.weapon(weapon_name)
    mods = to_hit_modifiers(battle, unit, weapon, target, mode)
    return unit.ss - sum(m.value for m in mods)


def _need_text(need: int) -> str:
    if need <= 1:
        return "hits on any roll"
    if need > 6:
        return "cannot hit"
    return f"needs {need}+"


def option_groups(battle: Battle, unit: Unit) -> list[tuple[str, list[str]]]:
    """Return the unit's legal orders as named groups of lines, each line with its cost."""
    orders = battle.legal_orders(unit)
    by_kind: dict[str, list[Any]] = defaultdict(list)
    for order in orders:
        by_kind[order.kind].append(order)
    groups: list[tuple[str, list[str]]] = []
    if by_kind.get("activate"):
        groups.append(("Discipline Phase", [f"`/ca activate` ({_ap(battle, by_kind['activate'][0])}): open the "
                                            "activation now (Discipline test, out-of-control table); any action "
                                            "opens it too"]))
    moves: list[str] = []
    for mode in ("walk", "charge"):
        cells = [o for o in by_kind.get("move", []) if o.mode == mode]
        if cells:
            far = fraction_text(max(unit.cell.distance(o.to) for o in cells) * square_size(battle))
            moves.append(f"**{mode.title()}** ({_ap(battle, cells[0])}): {len(cells)} squares, up to {far} cm")
    if moves:
        groups.append((MOVE_GROUP, moves))
    jumps = [o for o in by_kind.get("action", []) if o.action in ("jump", "climb")]
    over: list[str] = []
    for key in ("jump", "climb"):
        some = [o for o in jumps if o.action == key]
        if some:
            over.append(f"**{action_name(key)}** ({_ap(battle, some[0])}): {_names([str(o.to) for o in some])}")
    if over:
        groups.append(("Over an obstacle (`/ca action`)", over))
    shots: list[str] = []
    by_gun: dict[tuple[str, str], list[Any]] = defaultdict(list)
    for order in by_kind.get("fire", []):
        by_gun[(order.weapon, order.mode)].append(order)
    for (weapon, mode), found in by_gun.items():
        targets = []
        for order in found:
            target = battle.unit(order.target)
            band = band_to(battle, unit, target)
            need = _need_text(need_to_hit(battle, unit, weapon, target, mode))
            targets.append(f"{safe(target.name)} ({band_name(band.key)}, {need})")
        shots.append(f"**{safe(weapon)}**, {FIRE_MODES.get(mode, mode)} ({_ap(battle, found[0])}) \u2192 {_names(targets)}")
    if shots:
        groups.append(("Fire (`/ca fire`)", shots))
    blows = by_kind.get("close-combat", [])
    if blows:
        names = [safe(o.target) + (" (its jammed hatch)" if o.hatch else "") for o in blows]
        groups.append(("Close combat (`/ca close-combat`)", [f"({_ap(battle, blows[0])}) \u2192 {_names(names)}"]))
    hold: list[str] = []
    for order in by_kind.get("hatch", []):
        hold.append(f"{order.action.title()} the hatches ({_ap(battle, order)})")
    for order in by_kind.get("embark", []):
        hold.append(f"Embark into {safe(order.vehicle)} ({_ap(battle, order)})")
    out = by_kind.get("disembark", [])
    if out:
        hold.append(f"Disembark ({_ap(battle, out[0])}) to {_names([str(o.to) for o in out])}")
    if hold:
        groups.append(("Hold (`/ca hatch`, `/ca embark`, `/ca disembark`)", hold))
    upkeep = [f"{o.kind.title()} {safe(o.weapon)} ({_ap(battle, o)})" for kind in ("reload", "unjam", "prime")
              for o in by_kind.get(kind, [])]
    if upkeep:
        groups.append(("Weapons (`/ca reload`, `/ca unjam`, `/ca prime`)", upkeep))
    other = [f"{o.kind.replace('-', ' ').title()} ({_ap(battle, o)})" for kind in ("flat-down", "get-up", "aim")
             for o in by_kind.get(kind, [])]
    by_action: dict[str, list[Any]] = defaultdict(list)
    for order in by_kind.get("action", []):
        if order.action not in ("jump", "climb"):
            by_action[order.action].append(order)
    for key, found in by_action.items():
        targets = [safe(o.target) for o in found if o.target]
        other.append(f"{action_name(key)} ({_ap(battle, found[0])})" + (f" \u2192 {_names(targets)}" if targets else ""))
    if other:
        other.append(f"{action_name('open_door')} (1 AP): `/ca action action:open_door to:`")
        groups.append(("Posture and other actions (`/ca posture`, `/ca action`)", other))
    if by_kind.get("end-turn"):
        groups.append(("End Phase", ["`/turn end` (free): end the activation; an unused aim is lost"]))
    return groups


def options_embed(battle: Battle, unit: Unit) -> discord.Embed:
    """Build the private answer of My options for a Combat Action unit."""
    embed = discord.Embed(title=f"What {safe(unit.name)} can do"[:256], colour=INFO)
    if battle.status != "active":
        embed.description = "The battle has not started; orders wait for /battle start." if battle.status == "setup" \
            else "The battle has ended."
        return embed
    why = turns.why_not_now(battle, unit.id) if turns.engaged(battle) else None
    if why is not None:
        embed.description = why
        return embed
    left = turns.actions_left(battle, unit.id)
    embed.description = f"**{left} AP** left this activation (the AP of each action in brackets)."
    fields = EmbedFields(embed)
    groups = option_groups(battle, unit)
    for name, lines in groups:
        fields.add(name, lines)
    if not groups:
        embed.description += "\nNothing is possible now."
    return embed
