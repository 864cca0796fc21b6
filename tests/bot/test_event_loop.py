"""The bot runs on uvloop where it is installed, and on asyncio's own loop otherwise."""

from __future__ import annotations

import asyncio
import importlib.util

from bot.runner import event_loop_policy


def test_the_loop_is_uvloop_exactly_when_it_is_installed() -> None:
    policy = event_loop_policy()
    loop = policy.new_event_loop()
    try:
        # The loop runs a coroutine, timers and a thread hop as the bot's would.
        async def work() -> int:
            await asyncio.sleep(0.001)
            return await asyncio.get_running_loop().run_in_executor(None, sum, [1, 2, 3])

        assert loop.run_until_complete(work()) == 6
        installed = importlib.util.find_spec("uvloop") is not None
        assert type(loop).__module__.startswith("uvloop") == installed
    finally:
        loop.close()
