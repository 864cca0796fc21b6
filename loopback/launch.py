"""Run a program against a loopback Discord in another process: ``python -m <this module> URL MODULE [ARGS...]``.

The stand-in points discord.py at itself by setting two process-wide URLs, which only works inside the
process running the bot. Tests of several bot processes start each one through this launcher: it aims
discord.py at the stand-in listening at URL (``LoopbackDiscord.server.base_url``), then runs MODULE as
``python -m MODULE ARGS...`` would, so the program's own command line is what gets tested.
"""

from __future__ import annotations

import runpy
import sys
from typing import Any

import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route
from discord.shard import AutoShardedClient

from loopback.harness import identify_now

# discord.py waits this long after the last GUILD_CREATE before it calls itself ready (2 s by default).
QUICK_GUILD_READY = 0.05


def aim(base_url: str, *, guild_ready_timeout: float = QUICK_GUILD_READY) -> None:
    """Point every discord.py client of this process at the stand-in at base_url."""
    Route.BASE = base_url.rstrip("/") + "/api/v10"
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(base_url.replace("http", "ws", 1).rstrip("/") + "/gateway")
    # Discord lets a bot identify one shard per 5 s and discord.py waits that long between shards; the
    # stand-in has no such limit, so shards connect at once.
    discord.Client.before_identify_hook = identify_now  # type: ignore[method-assign]
    for cls in (discord.Client, AutoShardedClient):
        original = cls._get_state

        def quick(self: Any, *, _original: Any = original, **options: Any) -> Any:
            options.setdefault("guild_ready_timeout", guild_ready_timeout)
            return _original(self, **options)

        cls._get_state = quick  # type: ignore[method-assign]


def main(argv: list[str]) -> None:
    """Aim discord.py at the stand-in, then run the module with its arguments."""
    if len(argv) < 2:
        raise SystemExit("usage: launch URL MODULE [ARGS...]")
    url, module, *rest = argv
    aim(url)
    sys.argv = [module, *rest]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main(sys.argv[1:])
