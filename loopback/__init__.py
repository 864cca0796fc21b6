"""A loopback Discord: an aiohttp REST API and gateway on 127.0.0.1 that the real discord.py client talks to.

Tests and the local console run the real bot against it::

    async with LoopbackDiscord() as stand_in:
        alice = stand_in.add_user("alice")
        gm = stand_in.add_user("gm", manage_guild=True)
        await stand_in.start_bot(make_bot(guild_ready_timeout=0.05))
        reply = await stand_in.slash("move", unit="Eva-01", to="E5", user=alice)
        reply.content, reply.embeds, reply.files, reply.ephemeral, reply.followups
        await stand_in.click(reply.message, "battle:end-turn:7", user=alice)
        stand_in.messages(stand_in.general)

Interactions are built from the commands the bot synced, so calling a command, option or value
Discord would not offer raises ``InteractionError``. Every message keeps the ``allowed_mentions``
it was sent with and ``pings``, who it actually notified. Pytest fixtures live in
``loopback.pytest_fixtures``.

Sharded bots work as on Discord: ``add_guild(name, shard=(id, count))`` puts a guild on a shard, a
session hears only its shards' guilds (direct messages: shard 0), and an interaction goes to the one
session serving it. Bots in other processes are started with ``python -m loopback.launch URL MODULE
ARGS...`` and awaited with ``serve_processes(token, shard_count)``.
"""

from loopback.errors import InteractionError
from loopback.harness import LoopbackDiscord
from loopback.logcapture import ErrorLogCapture
from loopback.models import (
    Attachment,
    LoopbackChannel,
    LoopbackGuild,
    LoopbackRole,
    LoopbackUser,
    Pings,
    StoredFile,
    StoredMessage,
)
from loopback.replies import Reply
from loopback.server import RecordedRequest

__all__ = [
    "Attachment",
    "ErrorLogCapture",
    "InteractionError",
    "LoopbackChannel",
    "LoopbackDiscord",
    "LoopbackGuild",
    "LoopbackRole",
    "LoopbackUser",
    "Pings",
    "RecordedRequest",
    "Reply",
    "StoredFile",
    "StoredMessage",
]
