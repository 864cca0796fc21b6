"""What the web view asks of the table service: its links and who they open it for, the log to replay, the
battle's version, and starting the web front end beside the bot (or alone).

A link carries a random token; only its SHA-256 is stored, so the database never holds a working link. Each
link opens one battle for one audience: the public, one side, or the GM. The web front end (`web/`) is found
by name, as the cogs are, since the bot's own layer sits below it.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib
import logging
import re
import secrets
import signal
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from bot.app import StartupError, open_services
from bot.config import Settings
from bot.mapview import status_line
from bot.service import Actor, BattleRecord, EventRecord, MapText, TableService
from rules.battle import Battle
from rules.outcome import Outcome
from rules.units import Unit
from rules.visibility import GM, PUBLIC, Viewer

log = logging.getLogger(__name__)

PUBLIC_AUDIENCE = "public"
GM_AUDIENCE = "gm"
SIDE_PREFIX = "side:"
# What secrets.token_urlsafe(32) gives: 43 characters of the URL-safe alphabet. Anything else is no token.
TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{43}")
WEB_MODULE = "web.server"
# The module whose `said` and `may_do` word an order and a unit's choices as the Discord replies do, through
# each system's front end. Found by
# name, as the cogs are, so a web view running alone (`python -m bot web`) words the log the same way.
WORDS_MODULE = "cogs.battle.webwords"


@dataclass(frozen=True)
class Said:
    """What an order did, in the words of its Discord reply (Discord's markdown and all): the command that gave
    it, its sentences, each test's lines with every modifier, and its rolls."""

    command: str = ""
    lines: tuple[str, ...] = ()
    tests: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (what the test was for, its lines)
    rolls: tuple[str, ...] = ()


@dataclass(frozen=True)
class MayDo:
    """One action a unit may still take this turn, as players name it, with the squares or units it may aim at."""

    label: str
    squares: tuple[str, ...] = ()
    units: tuple[str, ...] = ()


Saying = Callable[[Outcome, Battle], Said]
Choices = Callable[[Battle, Unit], list[MayDo]]


def _words() -> Any:
    return importlib.import_module(WORDS_MODULE)


def saying() -> Saying:
    """Return the function that words an order's outcome as the Discord front end does."""
    found: Saying = _words().said
    return found


def choices() -> Choices:
    """Return the function that lists what a unit may still do, from the rules' legal orders, in players' words."""
    found: Choices = _words().may_do
    return found


@dataclass(frozen=True)
class WebLink:
    """One link to a battle's web view: who it is for, in words, and the address."""

    audience: str
    label: str
    url: str


@dataclass(frozen=True)
class Access:
    """What a link opens: a battle, for whom, and as which viewer of `rules.visibility`."""

    record: BattleRecord
    audience: str
    viewer: Viewer

    @property
    def side(self) -> str | None:
        """Return the lower-case side a side's link is for (None for the public and the GM)."""
        return self.audience[len(SIDE_PREFIX):] if self.audience.startswith(SIDE_PREFIX) else None


def token_hash(token: str) -> str:
    """Return the stored form of a token: its SHA-256 in hex."""
    return hashlib.sha256(token.encode("ascii", "replace")).hexdigest()


def viewer_of(audience: str) -> Viewer:
    """Return the viewer an audience is: the GM, one side, or the public."""
    if audience == GM_AUDIENCE:
        return GM
    if audience.startswith(SIDE_PREFIX):
        return Viewer.of([audience[len(SIDE_PREFIX):]])
    return PUBLIC


def player_sides(battle: Battle, user_id: int) -> list[str]:
    """Return the sides whose units a user commands, in the battle's order."""
    mine = {u.side.lower() for u in battle.iter_units() if u.owner == user_id}
    return [s.name for s in battle.sides if s.name.lower() in mine]


async def issue_links(service: TableService, actor: Actor, record: BattleRecord, base_url: str) -> list[WebLink]:
    """Make new links for the asker: the public one, one per side they command, and the GM's if they referee."""
    battle = service.read_only(record)
    wanted: list[tuple[str, str]] = [(PUBLIC_AUDIENCE, "Spectators (anyone may have it)")]
    wanted += [(SIDE_PREFIX + side.lower(), f"Your side, {side} (its hidden units and secrets: keep it to your side)")
               for side in player_sides(battle, actor.user_id)]
    if await service.is_gm(actor, record):
        wanted.append((GM_AUDIENCE, "GM (everything: keep it to yourself)"))
    links = []
    for audience, label in wanted:
        token = secrets.token_urlsafe(32)
        await service.db.web_links.add(record.id, audience, token_hash(token), service.clock())
        links.append(WebLink(audience, label, f"{base_url.rstrip('/')}/b/{token}"))
    return links


async def reset_links(service: TableService, actor: Actor, record: BattleRecord) -> int:
    """Make every link of a battle stop working (GM); return how many stopped."""
    await service.require_gm(actor, record, "revoke the web view's links")
    revoked = await service.db.web_links.revoke(record.id)
    log.info("battle %s: GM %s revoked %s web links", record.id, actor.user_id, revoked)
    return revoked


async def open_link(service: TableService, token: str) -> Access | None:
    """Return what a token opens, or None for a malformed, unknown or revoked one (all alike)."""
    if not TOKEN_RE.fullmatch(token):
        return None
    found = await service.db.web_links.find(token_hash(token))
    if found is None:
        return None
    battle_id, audience = found
    record = await service.db.battles.get(battle_id)
    if record is None:
        return None
    return Access(record, audience, viewer_of(audience))


async def battle_version(service: TableService, battle_id: int, known: int | None) -> int | None:
    """Return a battle's stored version (None once it is gone), reading its state only when it changed."""
    found = await service.db.battles.get_unless(battle_id, known)
    return None if found is None else int(found.version)


class Listening(Protocol):
    """A subscription to the changes every process commits: whether it hears them now, and how to end it."""

    alive: bool

    async def close(self) -> None:
        """Stop listening."""
        ...


async def listen_changes(service: TableService, on_change: Callable[[int, int], None]) -> Listening | None:
    """Hear (battle id, version) of every change committed over the database by any process (PostgreSQL's
    LISTEN/NOTIFY); None on SQLite, where only this process's own changes are heard (the service's listeners)."""
    return await service.db.listen(on_change)


@dataclass(frozen=True)
class Logged:
    """A battle's log as the web view reads it: the state it began in and every entry, oldest first."""

    initial: dict[str, Any]
    events: list[EventRecord]

    def as_dicts(self) -> list[dict[str, Any]]:
        """Return the entries in the shape `rules.replay.steps_from_log` reads."""
        return [{"seq": e.seq, "kind": e.kind, "order": e.order_text, "outcome": e.outcome, "undone": e.undone,
                 "hidden": e.hidden} for e in self.events]


async def read_log(service: TableService, record: BattleRecord) -> Logged:
    """Return a battle's initial state and its whole log."""
    events = await service.all_events(record)
    initial = await service.db.events.initial_state(record.id) or record.state
    return Logged(dict(initial), events)


def title_status(battle: Battle) -> str:
    """Return the round, the phase and who acts now, as the map's title says it."""
    return status_line(battle)


async def text_map(service: TableService, battle: Battle, viewer: Viewer) -> MapText:
    """Return the map as text (`/map text`) for a viewer."""
    return await service.text_map(battle, viewer=viewer)


Stopper = Callable[[], Awaitable[None]]


async def start_web(service: TableService, settings: Settings) -> Stopper | None:
    """Start the web view on the address the settings name (None when it is off); return how to stop it."""
    if settings.web is None:
        return None
    host, port = settings.web
    server = importlib.import_module(WEB_MODULE)
    try:
        stop: Stopper = await server.start(service, host=host, port=port, base_url=settings.web_url)
    except OSError as exc:
        raise StartupError(f"the web view cannot listen on {host}:{port} ({exc.strerror or exc}); set BATTLEPOST_WEB "
                           "to another host:port, or to off") from None
    log.info("web view on http://%s:%s (links start with %s)", host, port, settings.web_url)
    return stop


async def run_web(settings: Settings) -> int:
    """Serve the web view alone over the bot's database until stopped (Ctrl-C or SIGTERM)."""
    if settings.web is None:
        raise StartupError("BATTLEPOST_WEB is off, so there is no web view to run; set it to host:port")
    async with open_services(settings) as service:
        stop = await start_web(service, settings)
        assert stop is not None
        done = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, done.set)
        try:
            await done.wait()
        finally:
            await stop()
    return 0
