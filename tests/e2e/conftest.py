"""The real bot against the loopback Discord, over a real SQLite file."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest_asyncio

from bot.client import BattleBot
from bot.service import TableService
from loopback import LoopbackDiscord
from loopback.models import LoopbackChannel, LoopbackUser, StoredMessage
from loopback.replies import Reply
from storage import Database

START_TIME = 1_750_000_000.0  # a fixed moment, so deadlines read the same in every run


class FakeClock:
    """A clock that only moves when a test moves it: deadlines are tested without waiting."""

    def __init__(self, now: float = START_TIME) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float = 0.0, *, minutes: float = 0.0, hours: float = 0.0, days: float = 0.0) -> float:
        """Move time forward and return the new time."""
        self.now += seconds + minutes * 60 + hours * 3600 + days * 86_400
        return self.now


@dataclass
class Table:
    """A running bot with a GM, two players, an outsider and a battle channel."""

    discord: LoopbackDiscord
    db: Database
    service: TableService
    db_path: Path
    gm: LoopbackUser
    alice: LoopbackUser
    bob: LoopbackUser
    carol: LoopbackUser
    channel: LoopbackChannel
    clock: FakeClock = field(default_factory=FakeClock)

    async def slash(self, command: str, user: LoopbackUser | None = None, channel: LoopbackChannel | None = None,
                    **options: Any) -> Reply:
        """Run a slash command as a user (the GM by default) in the battle channel; wait for its notices."""
        reply = await self.discord.slash(command, user=user or self.gm, channel=channel or self.channel,
                                         options=options)
        await self.settle()
        return reply

    async def gm_slash(self, command: str, user: LoopbackUser | None = None, **options: Any) -> Reply:
        """Run a /gm command; for anyone without Manage Server, as if an admin had opened /gm to them."""
        reply = await self.discord.slash(command, user=user or self.gm, channel=self.channel, options=options,
                                         bypass_permissions=True)
        await self.settle()
        return reply

    async def click(self, message: StoredMessage | Reply, custom_id: str, user: LoopbackUser | None = None) -> Reply:
        """Press a button as a user (the GM by default); wait for its notices."""
        reply = await self.discord.click(message, custom_id, user=user or self.gm)
        await self.settle()
        return reply

    async def settle(self) -> None:
        """Wait until the bot has posted everything the last change called for (board, pings)."""
        await self.service.drain()
        await self.discord.settle()

    async def tick(self, **advance: float) -> list[Any]:
        """Move the clock forward, then run the scheduler once as its loop would."""
        if advance:
            self.clock.advance(**advance)
        fired = await self.service.scheduler.tick()
        await self.discord.settle()
        return fired

    async def restart(self) -> None:
        """Stop the bot and start a new one (with a fresh scheduler) over the same database file."""
        await self.discord.stop_bot()
        await self.db.close()
        self.db = await Database.open(self.db_path)
        self.service = TableService(self.db, clock=self.clock, rng_factory=rng_factory(11))
        await self.discord.start_bot(make_bot(self.service))

    async def setup_battle(self, ruleset: str = "strategic-e", width: int = 20, height: int = 15) -> None:
        """Create a battle with two NERV units for alice and bob and one Angel."""
        await self.slash("battle new", name="Test Battle", ruleset=ruleset, width=width, height=height)
        await self.slash("unit add", name="Eva-01", side="NERV", at="C3", owner=self.alice, ag=45)
        await self.slash("unit add", name="Eva-02", side="NERV", at="C5", owner=self.bob, ag=52)
        await self.slash("unit add", name="Sachiel", side="Angels", at="P10", ag=38)


def rng_factory(seed: int) -> Any:
    """Return a reproducible factory of dice sources."""
    master = random.Random(seed)
    return lambda: random.Random(master.getrandbits(64))


def make_bot(service: TableService) -> BattleBot:
    """Build the real bot for the loopback; tests run its scheduler themselves, with a fake clock."""
    # Every change's board edit at once, so each test reads the board its last change left.
    return BattleBot(service, guild_ready_timeout=0.05, scheduler_poll=None, board_spacing=0.0)


def text_of(reply: Reply) -> str:
    """Return everything a reply said: contents, embed titles, descriptions and fields."""
    parts: list[str] = []
    for message in reply.messages:
        parts.append(message.content)
        parts += [embed_text(e) for e in message.embeds]
    return "\n".join(p for p in parts if p)


def embed_text(embed: dict[str, Any]) -> str:
    """Return the text of one embed."""
    parts = [embed.get("title", ""), embed.get("description", "")]
    for f in embed.get("fields", []):
        parts += [f["name"], f["value"]]
    parts.append(embed.get("footer", {}).get("text", ""))
    return "\n".join(p for p in parts if p)


def last_message(reply: Reply) -> StoredMessage:
    """Return the last message of a reply (the followup after a defer)."""
    messages = reply.messages
    assert messages, f"the bot sent nothing: {reply!r}"
    return messages[-1]


@pytest_asyncio.fixture
async def table(loopback: LoopbackDiscord, tmp_path: Path) -> AsyncIterator[Table]:
    """Yield the running bot with its users and a battle channel."""
    db_path = tmp_path / "battlepost.sqlite3"
    db = await Database.open(db_path)
    clock = FakeClock()
    service = TableService(db, clock=clock, rng_factory=rng_factory(7))
    gm = loopback.add_user("gm", manage_guild=True)
    alice = loopback.add_user("alice")
    bob = loopback.add_user("bob")
    carol = loopback.add_user("carol")
    channel = loopback.add_channel(loopback.guild, "battle")
    await loopback.start_bot(make_bot(service))
    t = Table(loopback, db, service, db_path, gm, alice, bob, carol, channel, clock)
    try:
        yield t
    finally:
        await loopback.stop_bot()
        await t.db.close()
