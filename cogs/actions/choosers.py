"""The private second step of an action: pick a square (an area first, past one menu) or a target.

Each answer is an embed, a map naming only the squares on offer, and one menu.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.service import MapImage, TableService
from cogs.actions.areas import MENU, Area, split, within
from cogs.common.action_hooks import target_note
from cogs.common.action_items import OPTION_TEXT_MAX, AreaMenu, Ref, SquareMenu, TargetMenu, short
from cogs.common.actions import ActionGroup
from cogs.common.embeds import INFO, safe
from rules.battle import Battle
from rules.outcome import Highlight
from rules.units import Unit
from rules.visibility import Viewer, sees

Chooser = tuple[discord.Embed, MapImage | None, discord.ui.View]


def plural(count: int, word: str) -> str:
    """Return `1 square`, `2 squares`."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def _title(group: ActionGroup, unit: Unit) -> str:
    what = group.verb + (f" ({group.detail})" if group.detail else "")
    return short(f"{what}: {unit.name}", 256)


def _cost_line(group: ActionGroup) -> str:
    if group.cost is None or group.left is None:
        return ""
    cost = "free" if group.cost == 0 else f"{group.cost} AP"
    return f" It costs {cost} of the {group.left} AP left."


async def square_chooser(service: TableService, battle: Battle[Any], ref: Ref, unit: Unit, group: ActionGroup,
                         area: Area | None = None) -> Chooser:
    """Offer the squares an action may go to (inside `area`), or the areas to narrow them to first."""
    cells = within(group.squares(), area)
    view = discord.ui.View(timeout=None)
    embed = discord.Embed(title=_title(group, unit), colour=INFO)
    place = f" in {area.name}" if area is not None else ""
    if len(cells) > MENU:
        areas = split(cells)
        options = [discord.SelectOption(label=f"{a.name} ({plural(len(a.cells), 'square')})", value=a.token)
                   for a in areas]
        view.add_item(AreaMenu(ref, options, "Narrow down: pick an area"))
        embed.description = (f"{safe(unit.name)} can go to {plural(len(cells), 'square')}{place}, more than one menu "
                             f"holds. Pick the area first; the squares on offer are outlined on the map."
                             + _cost_line(group))
    else:
        options = []
        seer = Viewer.of([unit.side])
        for cell in cells:
            far = unit.cell.distance(cell)
            terrain = battle.terrain_at(cell).name
            here = ", ".join(u.name for u in battle.units_at(cell) if sees(seer, u))
            note = f"{plural(far, 'square')} away \u00b7 {terrain}" + (f" \u00b7 with {here}" if here else "")
            options.append(discord.SelectOption(label=str(cell), value=str(cell),
                                                description=short(note, OPTION_TEXT_MAX)))
        view.add_item(SquareMenu(ref, options, "Pick the square"))
        embed.description = (f"Pick the square for {safe(unit.name)} (on {unit.cell}) in the menu: "
                             f"{plural(len(cells), 'square')}{place}, outlined and named on the map." + _cost_line(group))
    highlight = Highlight(actor=str(unit.cell), choices=[str(c) for c in cells])
    png = await service.render(battle, highlight, battle_id=ref.battle, viewer=Viewer.of([unit.side]))
    return embed, png, view


async def target_chooser(service: TableService, battle: Battle[Any], ref: Ref, unit: Unit,
                         group: ActionGroup) -> Chooser:
    """Offer the units an action may be aimed at, nearest first, with the distance and what the rules say of the odds."""
    targets = [t for t in (battle.find_unit(name) for name in group.targets()) if t is not None]
    targets.sort(key=lambda t: (unit.cell.distance(t.cell), t.name.lower()))
    shown = targets[:MENU]
    options = []
    lines = []
    for target in shown:
        order = group.order_for(target.name)
        note = target_note(battle, order) if order is not None else None
        far = plural(unit.cell.distance(target.cell), "square")
        text = f"{far} away" + (f" \u00b7 {note}" if note else "")
        options.append(discord.SelectOption(label=short(f"{target.name} ({target.cell})", OPTION_TEXT_MAX),
                                            value=target.id, description=short(text, OPTION_TEXT_MAX)))
        lines.append(f"**{safe(target.name)}** ({target.cell}): {safe(text)}")
    more = f"\nThe {len(shown)} nearest of {len(targets)} are listed; give the order with the slash command " \
           f"for the others." if len(targets) > len(shown) else ""
    embed = discord.Embed(title=_title(group, unit), colour=INFO,
                          description=short("Pick the target in the menu." + _cost_line(group) + more + "\n"
                                            + "\n".join(lines), 4096))
    view = discord.ui.View(timeout=None)
    view.add_item(TargetMenu(ref, options, "Pick the target"))
    highlight = Highlight(actor=str(unit.cell), choices=[str(t.cell) for t in shown])
    png = await service.render(battle, highlight, battle_id=ref.battle, viewer=Viewer.of([unit.side]))
    return embed, png, view
