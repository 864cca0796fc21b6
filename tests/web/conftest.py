"""The web view over the real bot: a played battle on the loopback Discord, its links, the app on a free port."""

from __future__ import annotations

import re
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp
import pytest_asyncio
from playwright.async_api import Browser, async_playwright

from loopback.models import LoopbackUser
from tests.e2e.conftest import Table, last_message, table, text_of  # noqa: F401  (the `table` fixture)
from web.server import RateLimit, start

LINK_RE = re.compile(r"\*\*([^*\n]+)\*\*\n<(http://127\.0\.0\.1:\d+/b/[A-Za-z0-9_-]{43})>")


def free_port() -> int:
    """Return a TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Site:
    """The web view of the table's bot, listening on 127.0.0.1."""

    table: Table
    base: str
    http: aiohttp.ClientSession

    async def links(self, user: LoopbackUser | None = None, *, reset: bool = False) -> dict[str, str]:
        """Ask /battle web links (or, with reset, /battle web reset) as a user (the GM by default); return the links
        by their label's first word."""
        reply = await self.table.slash("battle web reset" if reset else "battle web links", user=user)
        message = last_message(reply)
        assert message.ephemeral, text_of(reply)
        return {label.split()[0].strip(","): url for label, url in LINK_RE.findall(text_of(reply))}

    async def get(self, url: str) -> tuple[int, str, dict[str, str]]:
        """Fetch an address; return its status, body and headers."""
        async with self.http.get(url) as response:
            return response.status, await response.text(), dict(response.headers)


@pytest_asyncio.fixture
async def site(table: Table) -> AsyncIterator[Site]:  # noqa: F811  (the e2e fixture, imported above)
    """Serve the web view of the table's bot on a free port; the bot's links point there."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    # The tests read every step of a replay from one address: far more than a person would, so no limit here
    # (the limit has a test of its own).
    stop = await start(table.service, host="127.0.0.1", port=port, base_url=base, rate=RateLimit(rate=1e9))
    table.discord.bot.web_url = base  # type: ignore[union-attr]
    async with aiohttp.ClientSession() as http:
        try:
            yield Site(table, base, http)
        finally:
            await stop()


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


@pytest_asyncio.fixture
async def browser() -> AsyncIterator[Browser]:
    """Start Debian's Chromium, headless, driven by Playwright."""
    async with async_playwright() as driver:
        launched = await driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            await launched.close()
