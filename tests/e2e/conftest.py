"""The real bot against the loopback Discord, over a real SQLite file."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest_asyncio

from bot.client import BattleBot
from bot.loopback import LoopbackDiscord
from bot.loopback.models import LoopbackChannel, LoopbackUser, StoredMessage
from bot.loopback.replies import Reply
from bot.service import TableService
from storage import Database


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

    async def slash(self, command: str, user: LoopbackUser | None = None, channel: LoopbackChannel | None = None,
                    **options: Any) -> Reply:
        """Run a slash command as a user (the GM by default) in the battle channel."""
        return await self.discord.slash(command, user=user or self.gm, channel=channel or self.channel,
                                        options=options)

    async def restart(self) -> None:
        """Stop the bot and start a new one over the same database file."""
        await self.discord.stop_bot()
        await self.db.close()
        self.db = await Database.open(self.db_path)
        self.service = TableService(self.db, rng_factory=rng_factory(11))
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
    """Build the real bot for the loopback."""
    return BattleBot(service, guild_ready_timeout=0.05)


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
    service = TableService(db, rng_factory=rng_factory(7))
    gm = loopback.add_user("gm", manage_guild=True)
    alice = loopback.add_user("alice")
    bob = loopback.add_user("bob")
    carol = loopback.add_user("carol")
    channel = loopback.add_channel(loopback.guild, "battle")
    await loopback.start_bot(make_bot(service))
    t = Table(loopback, db, service, db_path, gm, alice, bob, carol, channel)
    try:
        yield t
    finally:
        await loopback.stop_bot()
        await t.db.close()
