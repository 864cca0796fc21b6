"""Fixtures for the loopback tests: the shared loopback fixtures plus a running demo bot."""

from __future__ import annotations

import pytest_asyncio

from loopback import LoopbackDiscord
from loopback.pytest_fixtures import *  # noqa: F403

from .demo_bot import DemoBot


@pytest_asyncio.fixture
async def running(loopback: LoopbackDiscord) -> LoopbackDiscord:
    """Return the loopback with the demo bot connected and its commands synced globally."""
    await loopback.start_bot(DemoBot())
    return loopback
