"""Pytest fixtures for the loopback stand-in; a conftest pulls them in with a star import.

``logged_errors`` is autouse: any test during which a ``discord``, ``bot`` or ``cogs`` logger logs at
ERROR or above fails, because discord.py only logs exceptions raised in handlers, views and
commands. A test that provokes such an error on purpose calls ``logged_errors.take()`` to claim it.

``loopback`` yields a started ``LoopbackDiscord`` (no bot yet) and closes it afterwards.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio

from loopback.harness import LoopbackDiscord
from loopback.logcapture import ErrorLogCapture

__all__ = ["logged_errors", "loopback"]


@pytest.fixture(autouse=True)
def logged_errors() -> Iterator[ErrorLogCapture]:
    """Fail the test if discord.py, the bot or a cog logged an error while it ran."""
    capture = ErrorLogCapture()
    with capture:
        yield capture
    if capture.records:
        pytest.fail(f"{len(capture.records)} error(s) were logged during the test:\n{capture.report()}")


@pytest_asyncio.fixture
async def loopback(logged_errors: ErrorLogCapture) -> AsyncIterator[LoopbackDiscord]:
    """Yield a running loopback Discord with a default guild; the test starts its own bot."""
    async with LoopbackDiscord() as stand_in:
        yield stand_in
