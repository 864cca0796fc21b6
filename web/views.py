"""Build what a link shows: the frame of the battle now or at a step of its replay, for the link's viewer.

The work that grows with the battle (replaying, drawing the SVG) runs in a worker thread, on the shared
read-only copy of the battle or on a replayed one of its own, so the event loop keeps serving.
"""

from __future__ import annotations

import asyncio
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from bot.service import TableService
from bot.webfront import Access, Logged, MayDo, choices, read_log, title_status
from rules.battle import Battle
from rules.units import Unit
from rules.visibility import HIDDEN, Viewer, sees, unseen_names
from web.frame import (
    Frame,
    board_html,
    cards_html,
    constants_html,
    log_html,
    may_html,
    status_html,
    textmap_html,
)
from web.logview import Entry, acting, visible_entries
from web.replay import Replay, Replays
from web.surface import surface_board

KEPT_FRAMES = 64
MAX_NAME = 100  # characters of a unit's name asked for; longer is no unit's


@dataclass(frozen=True)
class Head:
    """What the page shows around the frame, the same at every step: names, the constants."""

    name: str
    ruleset: str
    audience: str
    constants: str
    since: int | None  # the step to jump to for "since my last turn" (a side's link only)


class Builder:
    """Make frames for links, keeping the latest ones (many pages watch one battle)."""

    def __init__(self, service: TableService, replays: Replays) -> None:
        self.service = service
        self.replays = replays
        self._frames: OrderedDict[tuple[int, int, str, int | None], tuple[Frame, Head]] = OrderedDict()
        self._logs: OrderedDict[tuple[int, int], Logged] = OrderedDict()
        self._texts: OrderedDict[tuple[int, int, str, int | None], str] = OrderedDict()
        self._entries: OrderedDict[tuple[int, int, str], list[Entry]] = OrderedDict()
        self._may: OrderedDict[tuple[int, int], dict[str, list[MayDo]]] = OrderedDict()
        self._may_lock = threading.Lock()

    def may_do(self, record: Any, battle: Battle, unit: Unit) -> list[MayDo]:
        """Return what a unit may still do this turn, from the rules' legal orders; worked out once per battle
        version (in a worker thread: `_build` runs there), whoever asks."""
        with self._may_lock:  # one at a time: the legal orders are generated on the shared copy of the battle
            kept = self._may.get((record.id, record.version))
            if kept is None:
                kept = self._may[(record.id, record.version)] = {}
                while len(self._may) > KEPT_FRAMES:
                    self._may.popitem(last=False)
            if unit.name not in kept:
                kept[unit.name] = choices()(battle, unit)
            return kept[unit.name]

    def entries(self, access: Access, record: Any, battle: Battle, logged: Logged) -> list[Entry]:
        """Return the log as the link's viewer reads it now, worded once per version (every replay step uses it)."""
        key = (record.id, record.version, access.audience)
        found = self._entries.get(key)
        if found is None:
            found = visible_entries(logged.events, battle, access.viewer, self.service.owner_name)
            self._entries[key] = found
            while len(self._entries) > KEPT_FRAMES:
                self._entries.popitem(last=False)
        return found

    async def _now(self, access: Access) -> tuple[Any, Battle]:
        found = await self.service.current(access.record.id)
        if found is None:
            from aiohttp import web

            raise web.HTTPNotFound()
        return found

    async def _log(self, record: Any) -> Logged:
        key = (record.id, record.version)
        found = self._logs.get(key)
        if found is None:
            found = await read_log(self.service, record)
            self._logs[key] = found
            while len(self._logs) > 16:
                self._logs.popitem(last=False)
        return found

    async def may(self, access: Access, name: str) -> str | None:
        """Return what a unit may still do this turn as HTML, or None when the link's viewer may not know it (not
        their side's unit, none they see, or no such unit: all alike)."""
        record, battle = await self._now(access)
        unit = battle.find_unit(name) if 0 < len(name) <= MAX_NAME else None
        viewer = access.viewer
        if unit is None or not sees(viewer, unit) or not (viewer.gm or viewer.is_of(unit.side)) or battle.status != "active":
            return None
        unseen = unseen_names(battle, viewer)
        return await asyncio.to_thread(lambda: may_html(self.may_do(record, battle, unit), unseen))

    async def page(self, access: Access) -> tuple[Frame, Head]:
        """Return the battle now, for the first load of the page."""
        return await self.frame(access, None)

    async def frame(self, access: Access, step: int | None) -> tuple[Frame, Head]:
        """Return the battle at a step of its log (None: now) as the link's viewer sees it."""
        record, battle = await self._now(access)
        logged = await self._log(record)
        replay = self.replays.get(record.id, record.version, logged.initial, logged.as_dicts())
        if step is not None and step >= len(replay.steps):
            step = None
        key = (record.id, record.version, access.audience, step)
        kept = self._frames.get(key)
        if kept is not None:
            self._frames.move_to_end(key)
            return kept
        clock = await self.service.clock_of(record) if step is None else None
        past = await self._past(access, battle, replay, step)
        built = await asyncio.to_thread(self._build, access, record, battle, past, logged, replay, step, clock)
        self._frames[key] = built
        while len(self._frames) > KEPT_FRAMES:
            self._frames.popitem(last=False)
        return built

    async def _past(self, access: Access, battle: Battle, replay: Replay, step: int | None) -> Battle:
        """Return the battle at a step (now: the shared copy), what is hidden from the viewer now hidden in it."""
        if step is None:
            return battle
        past = await asyncio.to_thread(replay.battle_at, step)
        keep_hidden(past, battle, access.viewer)
        return past

    async def text(self, access: Access, step: int | None) -> str:
        """Return the map as text (`/map text`) at a step (None: now), as the link's viewer may read it."""
        record, battle = await self._now(access)
        logged = await self._log(record)
        replay = self.replays.get(record.id, record.version, logged.initial, logged.as_dicts())
        if step is not None and step >= len(replay.steps):
            step = None
        key = (record.id, record.version, access.audience, step)
        kept = self._texts.get(key)
        if kept is not None:
            return kept
        past = await self._past(access, battle, replay, step)
        if not past.system.has_map:
            return "<p>This battle has no map.</p>"
        # The text's heading names who is due, hidden units too: they are taken out like the status line's.
        unseen = unseen_names(battle, access.viewer) | unseen_names(past, access.viewer)
        lines = [without(line, unseen) for line in (await self.service.text_map(past, viewer=access.viewer)).lines()]
        found = textmap_html(lines)
        self._texts[key] = found
        while len(self._texts) > KEPT_FRAMES:
            self._texts.popitem(last=False)
        return found

    def _build(self, access: Access, record: Any, battle: Battle, past: Battle, logged: Logged, replay: Replay,
               step: int | None, clock: Any) -> tuple[Frame, Head]:
        viewer = access.viewer
        entries = self.entries(access, record, battle, logged)
        steps = replay.length
        index = steps if step is None else step
        seq = replay.steps[index - 1].seq if index > 0 and replay.steps else None
        by_seq = {e.seq: e for e in entries}
        shown = by_seq.get(seq) if seq is not None else None
        if step is None:
            shown = next((e for e in reversed(entries) if not e.undone and e.kind not in ("create", "undo")), None)
        highlight = shown.highlight if shown is not None and not shown.secret else None
        status = status_for(past, battle, viewer)
        if past.system.has_map:
            view = self.service.view_of(past, viewer=viewer)
            board = board_html(view, highlight, f"Map of {past.name}")
            cards = cards_html(past, view, viewer, choices=step is None)
        else:
            board = surface_board(past, logged, viewer, battle, seq if step is not None else None)
            cards = ""
        frame = Frame(
            step=index, steps=steps, status=status_html(past, status, clock, live=step is None), board=board,
            cards=cards, log=log_html([e for e in entries if seq is None or e.seq <= seq] if step is not None else entries,
                                      current=seq if step is not None else None),
            data={"version": record.version, "live": step is None, "seq": seq},
        )
        head = Head(name=battle.name, ruleset=battle.ruleset.name, audience=access.audience,
                    constants=constants_html(battle), since=since_last_turn(logged, replay, battle, access.side))
        return frame, head

    async def state(self, access: Access) -> dict[str, Any]:
        """Return the battle now as data: its units, sides and log, as the link's viewer may know them."""
        record, battle = await self._now(access)
        logged = await self._log(record)
        return await asyncio.to_thread(self._state, access, record, battle, logged)

    def _state(self, access: Access, record: Any, battle: Battle, logged: Logged) -> dict[str, Any]:
        viewer = access.viewer
        entries = self.entries(access, record, battle, logged)
        units = [{"name": u.name, "side": u.side, "square": str(u.cell) if battle.system.has_map else None,
                  "health": u.health_text(), "statuses": list(u.statuses)}
                 for u in battle.iter_units() if sees(viewer, u) and (u.on_map or not battle.system.has_map)]
        return {"battle": battle.name, "ruleset": battle.ruleset_id, "status": battle.status, "round": battle.round,
                "turn": status_for(battle, battle, viewer), "version": record.version, "sides": [s.name for s in battle.sides],
                "units": units, "log": [e.to_json() for e in entries]}


def since_last_turn(logged: Logged, replay: Replay, battle: Battle, side: str | None) -> int | None:
    """Return the step just after the last order given for the viewer's side (a side's link only), or None."""
    if side is None:
        return None
    events = {e.seq: e for e in logged.events}
    last = 0
    for index, step in enumerate(replay.steps[: replay.length]):
        event = events.get(step.seq)
        if event is not None and acting(event, battle)[1] == side:
            last = index + 1
    return min(last + 1, replay.length)


def keep_hidden(past: Battle, now: Battle, viewer: Viewer) -> None:
    """Hide in a replayed battle (a copy of our own) every unit hidden from the viewer now: what a unit hidden
    today was and did, before it hid too, stays out of a replay until it shows itself."""
    unseen = unseen_names(now, viewer)
    for unit in past.iter_units():
        if unit.name.lower() in unseen and HIDDEN not in unit.statuses:
            unit.statuses = [*unit.statuses, HIDDEN]  # a new list: the replay's checkpoints may share the old one


def status_for(battle: Battle, now: Battle, viewer: Viewer) -> str:
    """Return the round, phase and who acts, with no name of a unit hidden from the viewer in it."""
    return without(title_status(battle), unseen_names(now, viewer) | unseen_names(battle, viewer))


def without(line: str, unseen: set[str]) -> str:
    """Return a line with each name of a unit hidden from the viewer put as `a hidden unit`."""
    for name in sorted(unseen, key=len, reverse=True):
        line = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", "a hidden unit", line, flags=re.IGNORECASE)
    return line
