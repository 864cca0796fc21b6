"""The web view's aiohttp application: a battle's page, its frames (live or replayed), its event stream.

Read-only: only GET and HEAD are answered, and nothing here calls anything of the table service that changes
a battle. Every link's token is checked by `bot.webfront.open_link`; an unknown, revoked or malformed one
gets the same short 404 as any other path. No access log is written, since the links carry their tokens.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any

from aiohttp import web

from bot.service import TableService
from bot.webfront import Access, Listening, battle_version, listen_changes, open_link
from web.live import POLL, SLOW_POLL, Hub
from web.pages import NOT_FOUND, index_page, message_page, page_html
from web.replay import Replays
from web.views import Builder

log = logging.getLogger(__name__)

MAX_QUERY = 256  # characters of a query string; the page's own never pass 20
MAX_PATH = 200
RATE = 40.0  # requests per address per RATE_WINDOW seconds
RATE_WINDOW = 10.0
MAX_STREAMS_PER_ADDRESS = 8
MAX_STREAMS = 4000
KEEPALIVE = 15.0
COMPRESS_FROM = 1024  # bytes of a response's body from which it is sent compressed (pages, frames, JSON)
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
STATIC = {"view.js": "application/javascript", "view.css": "text/css"}

HUB_KEY: web.AppKey[Hub] = web.AppKey("hub", Hub)
BUILDER_KEY: web.AppKey[Builder] = web.AppKey("builder", Builder)
SERVICE_KEY: web.AppKey[TableService] = web.AppKey("service", TableService)


class RateLimit:
    """Count each address's requests in a sliding window; refuse past the limit."""

    def __init__(self, rate: float = RATE, window: float = RATE_WINDOW, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.window = window
        self.clock = clock
        self._seen: OrderedDict[str, tuple[float, float]] = OrderedDict()  # address -> (allowance, at)

    def allow(self, address: str) -> bool:
        """Return whether this address may make one more request now (a token bucket per address)."""
        now = self.clock()
        allowance, at = self._seen.pop(address, (self.rate, now))
        allowance = min(self.rate, allowance + (now - at) * self.rate / self.window)
        ok = allowance >= 1.0
        self._seen[address] = (allowance - 1.0 if ok else allowance, now)
        while len(self._seen) > 50_000:  # forget the addresses seen longest ago
            self._seen.popitem(last=False)
        return ok


def _address(request: web.Request) -> str:
    peer = request.transport.get_extra_info("peername") if request.transport is not None else None
    return str(peer[0]) if peer else "unknown"


def _secure(response: web.StreamResponse) -> None:
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Frame-Options"] = "DENY"
    response.headers.setdefault("Cache-Control", "no-store")


def safe_json(data: Any) -> str:
    """Return JSON with <, > and & escaped, so no name in it can ever read as markup, whatever sniffs it."""
    return json.dumps(data).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def not_found() -> web.Response:
    """Return the one 404 every unknown path, token or battle gets."""
    return web.Response(status=404, text=NOT_FOUND, content_type="text/html")


def make_app(service: TableService, *, base_url: str = "", rate: RateLimit | None = None, poll: float = POLL,
             slow_poll: float = SLOW_POLL) -> web.Application:
    """Build the web view's application over a table service (`poll`: seconds between looks at a watched
    battle's version when the database sends no notices; `slow_poll`: while it does)."""
    limiter = rate or RateLimit()
    streams: dict[str, int] = {}

    @web.middleware
    async def guard(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        if request.method not in ("GET", "HEAD"):
            response: web.StreamResponse = message_response(405, "This page is read-only: only GET is answered.")
            response.headers["Allow"] = "GET, HEAD"
        elif len(request.rel_url.raw_query_string) > MAX_QUERY or len(request.rel_url.raw_path) > MAX_PATH:
            response = message_response(414, "That address is too long.")
        elif not limiter.allow(_address(request)):
            response = message_response(429, "Too many requests from your address; wait a few seconds.")
            response.headers["Retry-After"] = str(int(RATE_WINDOW))
        else:
            try:
                response = await handler(request)
            except web.HTTPException as exc:
                response = not_found() if exc.status == 404 else message_response(exc.status, exc.reason)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("web view: %s failed", request.rel_url.path[:40])
                response = message_response(500, "Something went wrong on our side; reload in a moment.")
        if not response.prepared:
            _secure(response)
            body = response.body if isinstance(response, web.Response) else None
            if isinstance(body, bytes | bytearray) and len(body) > COMPRESS_FROM:
                response.enable_compression()  # gzip or deflate, as the browser accepts
        return response

    app = web.Application(middlewares=[guard], client_max_size=1024)
    hub = Hub(lambda battle_id, known: battle_version(service, battle_id, known), poll=poll, slow_poll=slow_poll)
    listening: list[Listening] = []
    app[HUB_KEY] = hub
    app[SERVICE_KEY] = service
    builder = Builder(service, Replays())
    app[BUILDER_KEY] = builder

    async def on_notice(notice: Any) -> None:
        hub.changed(notice.record.id, notice.record.version)

    async def attach(_app: web.Application) -> None:
        service.listeners.append(on_notice)
        found = await listen_changes(service, hub.changed)
        if found is not None:
            listening.append(found)
            hub.pushed = lambda: found.alive

    async def detach(_app: web.Application) -> None:
        if on_notice in service.listeners:
            service.listeners.remove(on_notice)
        for found in listening:
            await found.close()
        await hub.close()

    app.on_startup.append(attach)
    app.on_cleanup.append(detach)

    async def access_of(request: web.Request) -> Access:
        access = await open_link(service, request.match_info["token"])
        if access is None:
            raise web.HTTPNotFound()
        return access

    def step_of(request: web.Request) -> int | None:
        raw = request.query.get("step")
        if raw is None or raw == "":
            return None
        if not raw.isdigit() or len(raw) > 7:
            raise web.HTTPBadRequest(reason="step must be a whole number of orders, like step=12")
        return int(raw)

    async def index(_request: web.Request) -> web.Response:
        return web.Response(text=index_page(), content_type="text/html")

    async def page(request: web.Request) -> web.Response:
        access = await access_of(request)
        frame, head = await builder.page(access)
        return web.Response(text=page_html(access, frame, head, request.match_info["token"]), content_type="text/html")

    async def frame(request: web.Request) -> web.Response:
        access = await access_of(request)
        step = step_of(request)
        cut = request.query.get("log")
        if cut not in (None, "0"):
            raise web.HTTPBadRequest(reason="log may only be 0 (a replay step without the log the page holds)")
        built, _head = await builder.frame(access, step)
        data = built.to_json()
        if cut == "0" and not data["live"]:
            del data["log"]  # the page cuts the log it holds at this step's order itself
        return web.json_response(data, dumps=safe_json)

    async def may(request: web.Request) -> web.Response:
        access = await access_of(request)
        found = await builder.may(access, request.query.get("unit", ""))
        if found is None:
            raise web.HTTPNotFound()
        return web.json_response({"may": found}, dumps=safe_json)

    async def text(request: web.Request) -> web.Response:
        access = await access_of(request)
        return web.json_response({"textmap": await builder.text(access, step_of(request))}, dumps=safe_json)

    async def state(request: web.Request) -> web.Response:
        access = await access_of(request)
        return web.json_response(await builder.state(access), dumps=safe_json)

    async def events(request: web.Request) -> web.StreamResponse:
        access = await access_of(request)
        address = _address(request)
        if streams.get(address, 0) >= MAX_STREAMS_PER_ADDRESS or hub.watching >= MAX_STREAMS:
            return message_response(429, "Too many live pages open from your address; close some.")
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store",
                                               "X-Accel-Buffering": "no"})
        _secure(response)
        await response.prepare(request)
        battle_id = access.record.id
        watch = hub.watch(battle_id, access.record.version)
        streams[address] = streams.get(address, 0) + 1
        try:
            await response.write(f"retry: 2000\nevent: hello\ndata: {json.dumps({'version': access.record.version})}\n\n"
                                 .encode())
            while True:
                try:
                    version = await asyncio.wait_for(watch.queue.get(), KEEPALIVE)
                except TimeoutError:
                    await response.write(b": still here\n\n")
                    continue
                await response.write(f"event: change\ndata: {json.dumps({'version': version})}\n\n".encode())
        except (ConnectionResetError, ConnectionError):
            pass
        finally:
            hub.leave(battle_id, watch)
            streams[address] -= 1
            if not streams[address]:
                del streams[address]
        return response

    async def static(request: web.Request) -> web.Response:
        name = request.match_info["name"]
        kind = STATIC.get(name)
        if kind is None:
            raise web.HTTPNotFound()
        body = resources.files("web").joinpath("static", name).read_bytes()
        response = web.Response(body=body, content_type=kind)
        response.headers["Cache-Control"] = "public, max-age=300"
        return response

    async def missing(_request: web.Request) -> web.Response:
        raise web.HTTPNotFound()

    app.router.add_get("/", index)
    app.router.add_get("/b/{token}", page)
    app.router.add_get("/b/{token}/frame.json", frame)
    app.router.add_get("/b/{token}/state.json", state)
    app.router.add_get("/b/{token}/text", text)
    app.router.add_get("/b/{token}/may", may)
    app.router.add_get("/b/{token}/events", events)
    app.router.add_get("/static/{name}", static)
    app.router.add_get("/{tail:.*}", missing)
    return app


def message_response(status: int, message: str) -> web.Response:
    """Return a short page saying what was wrong."""
    return web.Response(status=status, text=message_page(status, message), content_type="text/html")


async def start(service: TableService, *, host: str, port: int, base_url: str = "", rate: RateLimit | None = None,
                poll: float = POLL, slow_poll: float = SLOW_POLL) -> Callable[[], Awaitable[None]]:
    """Serve the web view on host:port until the returned function is awaited."""
    app = make_app(service, base_url=base_url, rate=rate, poll=poll, slow_poll=slow_poll)
    runner = web.AppRunner(app, access_log=None, handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()

    async def stop() -> None:
        # Open event streams never end by themselves: close them with the server.
        await runner.cleanup()

    return stop
