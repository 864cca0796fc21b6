"""Run the stand-in's aiohttp server on 127.0.0.1: REST API, gateway websocket and attachment downloads."""

from __future__ import annotations

import asyncio
import collections
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from aiohttp import web
from aiohttp.web_urldispatcher import MatchInfoError

from loopback.events import Announcer
from loopback.gateway import Gateway
from loopback.responses import DiscordHTTPError, discord_error, json_response
from loopback.rest_core import CoreRoutes
from loopback.rest_messages import MessageRoutes
from loopback.rest_webhooks import WebhookRoutes
from loopback.world import World

log = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

API_PREFIX = "/api/v10"
# Routes Discord serves without the bot token (the interaction token is the credential).
TOKENLESS_PREFIXES = (API_PREFIX + "/interactions/", API_PREFIX + "/webhooks/")


@dataclass(frozen=True)
class RecordedRequest:
    """Remember one request the bot made: method, path (without the API prefix) and status."""

    method: str
    path: str
    status: int


class Activity:
    """Count requests in flight so callers can wait until the bot has gone quiet."""

    def __init__(self) -> None:
        self.in_flight = 0
        self.last_change = 0.0
        self._changed = asyncio.Event()

    def touch(self) -> None:
        """Note that something happened just now."""
        self.last_change = asyncio.get_running_loop().time()
        self._changed.set()

    async def settle(self, quiet: float, limit: float) -> bool:
        """Wait until no request is in flight and none happened for `quiet` seconds; False after `limit`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + limit
        while True:
            now = loop.time()
            idle_for = now - self.last_change
            if self.in_flight == 0 and idle_for >= quiet:
                return True
            if now >= deadline:
                return False
            self._changed.clear()
            wait = quiet - idle_for if self.in_flight == 0 else deadline - now
            try:
                await asyncio.wait_for(self._changed.wait(), timeout=max(0.001, min(wait, deadline - now)))
            except TimeoutError:
                pass


@dataclass
class Fault:
    """Answer the next `times` requests whose method matches and whose path contains `path` with an error."""

    method: str
    path: str
    status: int
    code: int
    message: str
    times: int = 1

    retry_after: float = 1.0  # for a 429: how long Discord asks the bot to wait

    def response(self) -> web.Response:
        """Return the error as Discord sends it; a 429 carries retry_after and the Via header of Discord's edge."""
        if self.status != 429:
            return discord_error(self.status, self.message, self.code)
        body = {"message": self.message, "retry_after": self.retry_after, "global": False, "code": self.code}
        response = json_response(body, status=429)
        response.headers["Via"] = "1.1 google"
        return response

    def matches(self, request: web.Request) -> bool:
        """Return whether this fault applies to a request (the API prefix left out of the path)."""
        return self.times > 0 and request.method == self.method and self.path in request.path.removeprefix(API_PREFIX)


@dataclass
class Hold:
    """Keep the next request whose method matches and whose path contains `path` waiting, then drop it.

    `reached` is set once such a request arrived; after `release()` it is answered 503 without being
    carried out, so a test can kill the bot while its request hangs and know that Discord never took it.
    """

    method: str
    path: str
    reached: asyncio.Event
    released: asyncio.Event
    times: int = 1

    def matches(self, request: web.Request) -> bool:
        """Return whether this hold applies to a request (the API prefix left out of the path)."""
        return self.times > 0 and request.method == self.method and self.path in request.path.removeprefix(API_PREFIX)

    def release(self) -> None:
        """Let the held request end, unanswered by Discord's side (a 503 its sender may no longer read)."""
        self.released.set()


class LoopbackServer:
    """Serve the REST API under /api/v10, the gateway at /gateway and files at /attachments."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.gateway = Gateway(world)
        self.announce = Announcer(world, self.gateway)
        self.activity = Activity()
        self.token: str | None = None
        self.requests: collections.deque[RecordedRequest] = collections.deque(maxlen=5000)
        self.unknown_routes: list[str] = []
        self.server_errors: list[str] = []
        self.rejections: list[str] = []
        self.faults: list[Fault] = []
        self.holds: list[Hold] = []
        self.port = 0
        self._runner: web.AppRunner | None = None

    @property
    def base_url(self) -> str:
        """Return http://127.0.0.1:PORT."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def gateway_url(self) -> str:
        """Return the websocket URL of the gateway."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> None:
        """Bind a free port on 127.0.0.1 and start serving."""
        api = web.Application()
        for group in (
            CoreRoutes(self.world, self.announce),
            MessageRoutes(self.world, self.announce),
            WebhookRoutes(self.world, self.announce),
        ):
            api.add_routes(group.routes())
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/gateway/", self.gateway.handle)
        app.router.add_get("/attachments/{channel_id}/{file_id}/{filename}", self._download)
        app.add_subapp(API_PREFIX, api)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        # Port 0 lets the OS pick a free port, so parallel runs never collide.
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        self.world.base_url = self.base_url
        self.gateway.url = self.gateway_url
        log.info("loopback Discord listening on %s", self.base_url)

    async def close(self) -> None:
        """Close gateway connections and stop serving."""
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _download(self, request: web.Request) -> web.Response:
        file = self.world.files.get(int(request.match_info["file_id"]))
        if file is None:
            return web.Response(status=404, text="asset not found")
        return web.Response(
            body=file.data, headers={"Content-Type": file.content_type or "application/octet-stream"}
        )

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path.startswith("/gateway"):
            return await handler(request)
        self.activity.in_flight += 1
        self.activity.touch()
        response: web.StreamResponse
        try:
            response = await self._handle(request, handler)
        finally:
            self.activity.in_flight -= 1
            self.activity.touch()
        path = request.path.removeprefix(API_PREFIX)
        self.requests.append(RecordedRequest(request.method, path, response.status))
        return response

    async def _handle(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if isinstance(request.match_info, MatchInfoError):
            return self._unknown_route(request)
        held = next((h for h in self.holds if h.matches(request)), None)
        if held is not None:
            held.times -= 1
            held.reached.set()
            log.info("holding %s %s as asked", request.method, request.path)
            await held.released.wait()
            return discord_error(503, "Service Unavailable", 0)
        fault = next((f for f in self.faults if f.matches(request)), None)
        if fault is not None:
            fault.times -= 1
            log.info("failing %s %s with %s as asked", request.method, request.path, fault.status)
            return fault.response()
        if request.path.startswith(API_PREFIX) and not request.path.startswith(TOKENLESS_PREFIXES):
            if self.token is not None and request.headers.get("Authorization") != f"Bot {self.token}":
                return discord_error(401, "401: Unauthorized", 0)
        try:
            return await handler(request)
        except DiscordHTTPError as exc:
            if exc.status in (400, 403, 413):
                # The bot may handle these itself, so warn rather than fail; tests can assert on rejections.
                log.warning("rejected %s %s: %s", request.method, request.path, exc)
                self.rejections.append(
                    f"{request.method} {request.path.removeprefix(API_PREFIX)}: {exc.message}"
                )
            else:
                log.debug("%s %s -> %s", request.method, request.path, exc)
            return exc.response()
        except web.HTTPException as exc:
            if exc.status in (404, 405):
                return self._unknown_route(request)
            raise
        except Exception as exc:
            # A 500 would make discord.py retry for ~25 s; answer 400 and log loudly instead.
            log.exception("loopback handler failed for %s %s", request.method, request.path)
            self.server_errors.append(f"{request.method} {request.path}: {exc!r}")
            return discord_error(400, f"Loopback server error: {exc!r}", 0)

    def _unknown_route(self, request: web.Request) -> web.Response:
        route = f"{request.method} {request.path.removeprefix(API_PREFIX)}"
        self.unknown_routes.append(route)
        log.error("loopback Discord has no route for %s", route)
        return discord_error(404, "404: Not Found", 0)
