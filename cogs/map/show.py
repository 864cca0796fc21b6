"""/map show: the whole map, a zoom, a side's view, the previous turn, a unit's reach or a weapon's range."""

from __future__ import annotations

from dataclasses import dataclass

import discord

from bot.history import has_previous_turn
from bot.mapview import last_action
from bot.service import Actor, BattleRecord, MapImage, TableService
from cogs.common.embeds import INFO, safe
from cogs.common.secrets import own_sides, secret_sides
from rules.battle import Battle
from rules.coords import Cell
from rules.errors import GameError, NoMapError, NotAllowedError, NotFoundError
from rules.outcome import Highlight
from rules.visibility import GM, PUBLIC, Viewer

DEFAULT_RADIUS = 6


@dataclass(frozen=True)
class ShowRequest:
    """What /map show was asked for."""

    full: bool = False
    at: Cell | None = None
    radius: int | None = None
    side: str | None = None
    previous: bool = False
    reach: str | None = None
    range_of: str | None = None
    weapon: str | None = None
    hidden: bool = False
    greyscale: bool = False

    def check(self) -> None:
        """Refuse options that do not go together, saying which to keep."""
        extras = [name for name, on in (("previous", self.previous), ("reach", self.reach), ("range", self.range_of))
                  if on]
        if len(extras) > 1:
            raise GameError(f"Choose one of `previous`, `reach` or `range` at a time, not {' and '.join(extras)}.")
        if self.radius is not None and self.at is None:
            raise GameError("`radius` goes with `at`: say which square to zoom on, like `at:G10 radius:5`.")
        if self.at is not None and self.full:
            raise GameError("Give either `full` (the whole map) or `at` (a zoom on a square), not both.")
        if self.weapon and not self.range_of:
            raise GameError("`weapon` goes with `range`: say whose weapon, like `range:Eva-01 weapon:Pallet Rifle`.")
        if self.hidden and self.side:
            raise GameError("Give either `hidden` (every hidden feature) or `side` (one side's view), not both.")


@dataclass(frozen=True)
class Shown:
    """A map answer: its image, its title and footer notes, and whether only the asker sees it."""

    image: MapImage
    title: str
    notes: tuple[str, ...]
    private: bool


@dataclass(frozen=True)
class Access:
    """Who the map is drawn for (what hidden things it shows), whether only the asker sees it, and a note saying so."""

    viewer: Viewer
    private: bool
    note: str


async def access(service: TableService, actor: Actor, record: BattleRecord, battle: Battle,
                 request: ShowRequest) -> Access:
    """Decide what the asker may see, refusing a side view or a reach that is not theirs."""
    request.check()
    if request.reach:
        unit = battle.unit(request.reach)
        if unit.owner != actor.user_id and not await service.is_gm(actor, record):
            raise NotAllowedError(f"{unit.name} is not yours; you can see the reach of your own units only.")
    if request.range_of:
        battle.unit(request.range_of)
    if request.at is not None:
        battle.check_cell(request.at)
    if request.previous and not has_previous_turn(battle):
        raise GameError("No turn has finished yet in this battle; /map show shows the map as it is now.")
    private_extra = bool(request.reach or request.range_of)
    if request.hidden:
        await service.require_gm(actor, record, "see every hidden feature")
        return Access(GM, True, "GM view: every hidden unit and feature shown, only to you")
    if request.side:
        side = battle.side(request.side)
        if side is None:
            known = ", ".join(s.name for s in battle.sides) or "none yet"
            raise NotFoundError(f"There is no side `{request.side}` in this battle. Sides: {known}.")
        if side.name not in own_sides(battle, actor.user_id) and not await service.is_gm(actor, record):
            raise NotAllowedError(f"You command no unit of {side.name}, so you cannot see its view; only its "
                                  "players and the GM can.")
        return Access(Viewer.of([side.name]), True,
                      f"{side.name}'s view, with its hidden units and features: only you see it")
    sides = secret_sides(battle, actor.user_id)
    if sides:
        return Access(Viewer.of(sides), True,
                      f"only you see this map: it shows the hidden units and hidden features of {', '.join(sides)}")
    return Access(PUBLIC, private_extra, "only you see this" if private_extra else "")


async def render_request(service: TableService, record: BattleRecord, battle: Battle, request: ShowRequest,
                         seen: Access) -> Shown:
    """Render what was asked for (after `access` allowed it) and say what it shows."""
    palette = "grey" if request.greyscale else "colour"
    notes = (seen.note,) if seen.note else ()
    title = f"{safe(battle.name)}: map"
    if request.previous:
        label, image = await service.previous_turn_map(record, viewer=seen.viewer, full=request.full, palette=palette)
        return Shown(image, f"{title}, previous turn ({safe(label)})", notes, seen.private)
    if request.reach:
        unit = battle.unit(request.reach)
        _reach, image = await service.reach_map(battle, unit.name, battle_id=record.id, full=request.full)
        return Shown(image, f"{title}, where {safe(unit.name)} can move", notes, seen.private)
    if request.range_of:
        unit = battle.unit(request.range_of)
        image = await service.range_map(battle, unit.name, request.weapon, battle_id=record.id, full=request.full,
                                           viewer=seen.viewer)
        return Shown(image, f"{title}, range bands of {safe(unit.name)}", notes, seen.private)
    focus = None
    if request.at is not None:
        focus = (request.at.x, request.at.y)
        title += f", around {request.at}"
    highlight = Highlight() if request.full or focus else last_action(battle, seen.viewer)
    drawn = await service.render(battle, highlight, full=request.full, viewer=seen.viewer,
                                 battle_id=record.id, focus=focus,
                                 radius=request.radius or DEFAULT_RADIUS, palette=palette)
    if drawn is None:
        raise NoMapError(f"{battle.system.name} has no map to show.")
    return Shown(drawn, title, notes, seen.private)


def shown_embed(battle: Battle, shown: Shown) -> discord.Embed:
    """Return the embed of a map answer: its title, and a footer with the scale, round and privacy notes."""
    embed = discord.Embed(title=shown.title[:256], colour=INFO)
    parts = [battle.scale_text()]
    if battle.round:
        parts.append(f"round {battle.round}")
    parts += list(shown.notes)
    parts.append("as text: /map text")
    embed.set_footer(text=" \u00b7 ".join(parts)[:2048])
    return embed
