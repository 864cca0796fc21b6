"""The table service's maps: a battle drawn for a viewer, its reach, range bands, past turns, charts and text."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Mapping, Sequence

from bot.history import previous_turn
from bot.maps import MapImage, action_crop, chart_alt, map_text, steady_crop, zoom_crop
from bot.mapview import action_cells, build_view, overlays_for, range_overlay, reach_measure, reach_overlays
from bot.service.core import ServiceCore
from render import Crop, MapView, Overlay
from render.describe import MapText
from render.surface_chart import render_surface_chart
from rules.battle import Battle
from rules.colours import side_colours
from rules.errors import IllegalOrderError, NoMapError, NotFoundError, shorten
from rules.outcome import Highlight, Outcome
from rules.systems.surface.details import SurfaceReport
from rules.visibility import PUBLIC, Viewer, sees
from storage import BattleRecord

KEPT_WINDOWS = 1024  # battles whose last action window is kept, so their next map can stay in it


class MapsJob(ServiceCore):
    """Draw battles: every image and text map the front ends post."""

    def view_of(self, battle: Battle, *, viewer: Viewer = PUBLIC) -> MapView:
        """Return the renderer's view of a battle, with the hidden units and features the viewer may see."""
        return build_view(battle, viewer=viewer, owner_names=self.owner_name)

    async def render(self, battle: Battle, highlight: Highlight | None = None, *, outcome: Outcome | None = None,
                     full: bool = False, overlays: Sequence[Overlay] = (), viewer: Viewer = PUBLIC,
                     battle_id: int | None = None, focus: tuple[int, int] | None = None,
                     radius: int = 0, palette: str = "colour",
                     around: Sequence[tuple[int, int]] = (), status: str | None = None) -> MapImage | None:
        """Render the map in a worker thread, with its alt text.

        A big map is cropped around the action (and the squares `around`) unless `full`; `focus` and
        `radius` zoom on a square instead. `status` replaces the title's line about the turn.
        The outcome, when given, marks its path, shot, area and landing (its highlight unless one is given).
        A battle whose rule system has no map gets no image (None): its replies go without one.
        """
        if not battle.system.has_map:
            return None
        view = self.view_of(battle, viewer=viewer)
        if status is not None:
            view = dataclasses.replace(view, status=status)
        marks_of = highlight if highlight is not None else (outcome.highlight if outcome is not None else Highlight())
        marks = [*overlays_for(marks_of, outcome.details if outcome is not None else None), *overlays]
        crop: Crop | None
        if focus is not None:
            crop = zoom_crop(view, focus, radius)
        else:
            cells = [*action_cells(marks_of), *around]
            crop = action_crop(view, cells, full=full)
            if battle_id is not None and crop is not None:
                crop = steady_crop(self.windows.get(battle_id), crop, cells) or crop
                self.windows[battle_id] = crop
                self.windows.move_to_end(battle_id)
                while len(self.windows) > KEPT_WINDOWS:
                    self.windows.popitem(last=False)
        return await self.maps.draw(view, marks, crop, battle_id=battle_id, palette=palette)

    async def surface_chart(self, report: SurfaceReport, battle: Battle | None = None) -> MapImage:
        """Draw a Surface Combat report's losses per side per round, in a worker thread, with its alt text.

        With the battle, each side is drawn in its own colour (rules.colours), as everywhere else.
        """
        colours = side_colours(battle) if battle is not None else None
        png = await asyncio.to_thread(render_surface_chart, report, colours)
        return MapImage(png=png, alt=chart_alt(report))

    async def reach_map(self, battle: Battle, unit_name: str, *, battle_id: int | None = None,
                        full: bool = False) -> tuple[Mapping[str, Mapping[str, float]], MapImage]:
        """Return where a unit can go in each move mode, and the map tinted with it, as the unit's side sees it.

        A reach is shown only to the unit's player and the GM, so its hidden units and features show.
        """
        if not battle.system.has_map:
            raise NoMapError(f"{battle.system.name} has no map, so there is no reach to draw.")
        reach = await asyncio.to_thread(battle.system.reach_of, battle, unit_name)  # seconds on a fine grid
        unit = battle.unit(unit_name)
        view = self.view_of(battle, viewer=Viewer.of([unit.side]))
        cells = [(unit.x, unit.y)] + [c for m in reach.values() for c in action_cells(Highlight(cells=list(m)), cap=None)]
        crop = action_crop(view, cells, full=full, margin=1)
        marks = [*overlays_for(Highlight(actor=str(unit.cell))), *reach_overlays(reach, reach_measure(battle))]
        image = await self.maps.draw(view, marks, crop, battle_id=battle_id)
        return reach, image

    async def range_map(self, battle: Battle, unit_name: str, weapon_name: str | None, *,
                        battle_id: int | None = None, full: bool = False, viewer: Viewer = PUBLIC) -> MapImage:
        """Return the map ringed with a weapon's range bands around its unit (its first ranged weapon by default).

        A unit hidden from the viewer has no range to show: drawing it would give its square away.
        """
        unit = battle.unit(unit_name)
        if not sees(viewer, unit):
            raise IllegalOrderError(f"{unit.name} is hidden, so its range bands cannot be shown until it attacks.")
        ranged = [w for w in unit.weapons if not w.melee]
        if weapon_name:
            weapon = unit.weapon(weapon_name)
            if weapon is None:
                names = ", ".join(w.name for w in unit.weapons) or "none"
                raise NotFoundError(f"{unit.name} has no weapon `{shorten(weapon_name)}`. Its weapons: {names}.")
        elif ranged:
            weapon = ranged[0]
        else:
            raise IllegalOrderError(f"{unit.name} has no ranged weapon, so it has no range bands to show.")
        if weapon.melee:
            raise IllegalOrderError(f"The {weapon.name} is a melee weapon; range bands are for ranged weapons.")
        bands = range_overlay(battle, unit, weapon)
        view = self.view_of(battle, viewer=viewer)
        reach = max((b.high or 0 for b in bands.bands), default=0)
        cells = [(unit.x, unit.y), (unit.x - reach, unit.y - reach), (unit.x + reach, unit.y + reach)]
        crop = action_crop(view, [(x, y) for x, y in cells if 0 <= x < view.width and 0 <= y < view.height],
                           full=full, margin=1)
        return await self.maps.draw(view, [bands], crop, battle_id=battle_id)

    async def previous_turn_map(self, record: BattleRecord, *, viewer: Viewer = PUBLIC, full: bool = False,
                                palette: str = "colour") -> tuple[str, MapImage]:
        """Return the previous turn's label and its map: the battle as that turn left it, its moves and shots drawn."""
        events = await self.all_events(record)
        initial = await self.db.events.initial_state(record.id) or record.state
        logged = [{"seq": e.seq, "kind": e.kind, "order": e.order_text, "outcome": e.outcome, "undone": e.undone,
                   "hidden": e.hidden} for e in events]
        past = await asyncio.to_thread(previous_turn, initial, logged)
        marks = [o for h, d in past.highlights for o in overlays_for(h, d)]
        cells = [c for h, _ in past.highlights for c in action_cells(h)]
        image = await self.render(past.battle, Highlight(), overlays=marks, viewer=viewer,
                                  battle_id=record.id, full=full, palette=palette,
                                  around=cells, status=f"The previous turn as it ended: {past.label}")
        if image is None:
            raise NoMapError(f"{past.battle.system.name} has no map, so there is no previous turn to draw.")
        return past.label, image

    async def text_map(self, battle: Battle, *, viewer: Viewer = PUBLIC,
                       highlight: Highlight | None = None) -> MapText:
        """Return the whole map as text for screen readers, with the last action when a highlight is given."""
        view = self.view_of(battle, viewer=viewer)
        return await asyncio.to_thread(map_text, view, overlays_for(highlight or Highlight()))
