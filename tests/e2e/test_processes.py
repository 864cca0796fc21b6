"""Two bot processes share the shards and one PostgreSQL database; one is killed mid-play and restarted.

Each process is a real `python -m bot --shards N --shard-count 2` run against the loopback Discord of
this test. Nothing acknowledged to a player may be lost, no order may land twice, a deadline that comes
due while its shard's process is down fires once, from the other process, and every battle keeps one
status board.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio

from loopback import InteractionError, LoopbackDiscord
from loopback.models import LoopbackChannel, LoopbackGuild, LoopbackUser, StoredMessage
from storage import Database
from tests.e2e.action_helpers import button
from tests.e2e.conftest import text_of
from tests.fleet import TOKEN, BotProcess, errors_in, fired_timers, hurry_turn

SHARDS = 2
ROLLS = 5


class Server:
    """One Discord server of the test: its GM, its player and its battle channel."""

    def __init__(self, discord: LoopbackDiscord, shard: int) -> None:
        self.shard = shard
        self.guild: LoopbackGuild = discord.add_guild(f"Server on shard {shard}", shard=(shard, SHARDS))
        self.gm: LoopbackUser = discord.add_user(f"gm{shard}", guild=self.guild, manage_guild=True)
        self.player: LoopbackUser = discord.add_user(f"player{shard}", guild=self.guild)
        self.channel: LoopbackChannel = self.guild.channel("general")
        self.acked: list[str] = []
        self.unknown: list[str] = []
        self.refused: list[str] = []


@pytest_asyncio.fixture
async def fleet(loopback: LoopbackDiscord, postgres_url: str, tmp_path: Path) -> AsyncIterator[list[BotProcess]]:
    """Start one process for shard 0 and one for shard 1; stop whatever still runs afterwards."""
    processes = [BotProcess(f"bot{s}", str(s), SHARDS, loopback.server.base_url, postgres_url, tmp_path, poll=0.5)
                 for s in range(SHARDS)]
    try:
        yield processes
    finally:
        for process in processes:
            await process.shut_down()


async def roll(discord: LoopbackDiscord, server: Server, purpose: str) -> None:
    """Roll in the server's battle, recording whether the player saw it acknowledged."""
    try:
        reply = await discord.slash("roll", user=server.player, channel=server.channel, dice="1d100",
                                    purpose=purpose, within=15)
    except InteractionError as exc:
        # Never delivered (no process serves the shard), or the process died before answering.
        (server.unknown if "closed before it answered" in str(exc) else server.refused).append(purpose)
        return
    assert not reply.ephemeral, text_of(reply)
    server.acked.append(purpose)


async def setup_battle(discord: LoopbackDiscord, server: Server) -> None:
    """Create and start a battle with the player's unit and a GM unit."""
    async def gm(command: str, **options: object) -> None:
        reply = await discord.slash(command, user=server.gm, channel=server.channel, options=options, within=20)
        assert not reply.ephemeral, text_of(reply)

    await gm("battle new", name=f"Battle {server.shard}", ruleset="strategic-e", width=12, height=10)
    await gm("unit add", name="Eva-01", side="NERV", at="C3", owner=server.player, ag=45)
    await gm("unit add", name="Sachiel", side="Angels", at="J8", ag=38)
    await gm("battle start")


def purpose_of(order_text: str) -> str:
    """Return the purpose of a roll from its text form (`roll dice:1d100 purpose:s0-a4`)."""
    return order_text.rsplit("purpose:", 1)[-1].strip()


async def wait_for(condition: object, what: str, limit: float = 30.0) -> None:
    """Poll until condition() is true."""
    deadline = time.monotonic() + limit
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.1)


def deadline_notices(discord: LoopbackDiscord, channel: LoopbackChannel) -> list[StoredMessage]:
    """Return the messages saying a deadline passed."""
    return [m for m in discord.messages(channel) if "deadline has passed" in m.content]


async def test_two_processes_lose_and_double_nothing_across_a_kill(
    loopback: LoopbackDiscord, fleet: list[BotProcess], postgres_url: str
) -> None:
    zero, one = Server(loopback, 0), Server(loopback, 1)
    for process in fleet:
        process.start()
    await loopback.serve_processes(TOKEN, SHARDS)
    # The player of shard 1 hears of turns by DM; a DM button goes to shard 0's process, which finds the battle.
    notify = await loopback.slash("settings notify", user=one.player, channel=one.channel, mode="dm")
    assert "direct message" in text_of(notify)
    await asyncio.gather(setup_battle(loopback, zero), setup_battle(loopback, one))
    async with await Database.open(postgres_url) as db:
        battle_one = await db.battles.in_channel(one.guild.id, one.channel.id)
        battle_zero = await db.battles.in_channel(zero.guild.id, zero.channel.id)
    assert battle_one is not None and battle_zero is not None

    async def keep_rolling(server: Server, prefix: str, count: int) -> None:
        for n in range(count):
            await roll(loopback, server, f"{prefix}{n}")

    # Shard 0's player keeps rolling while its process is killed: the roll in flight then has no answer.
    rolling = asyncio.create_task(keep_rolling(zero, "s0-a", 2 * ROLLS))
    await asyncio.gather(*(roll(loopback, one, f"s1-a{n}") for n in range(ROLLS)))
    await wait_for(lambda: len(zero.acked) >= ROLLS // 2, "shard 0's first rolls")
    fleet[0].kill()
    await rolling
    await wait_for(lambda: not loopback.server.gateway.sessions_for(zero.guild.id), "the killed process's session to close")
    assert zero.refused, "rolls sent while no process serves shard 0 fail"
    async with await Database.open(postgres_url) as db:
        timer_ids = await hurry_turn(db, battle_zero.id, span=1.0, now=time.time())
    # Shard 0's process is dead; the other one claims the deadline and posts in shard 0's server.
    await wait_for(lambda: deadline_notices(loopback, zero.channel), "the deadline notice from the other process")
    await asyncio.gather(*(roll(loopback, one, f"s1-b{n}") for n in range(ROLLS)))

    fleet[0].start()
    await loopback.wait_for_shards({0})
    await asyncio.gather(*(roll(loopback, s, f"s{s.shard}-c{n}") for s in (zero, one) for n in range(ROLLS)))

    dms = loopback.dm_messages(one.player)
    [prompt] = [m for m in dms if "Your turn in **Battle 1**" in m.content]
    end_turn = button(prompt, "End turn")["custom_id"]  # its one unit due: the DM offers that unit's actions
    assert end_turn.startswith(f"bp:do:{battle_one.id}:")
    asked = await loopback.click(prompt, end_turn, user=one.player)
    assert "Eva-01 has **2 AP** left" in text_of(asked), "ending with points left asks first"
    ended = await loopback.click(asked.message or prompt, f"bp:ok:{battle_one.id}:orders", user=one.player)
    assert "Eva-01 ends its turn" in text_of(ended)
    await loopback.settle()

    for process in fleet:
        assert await process.shut_down() == 0
    async with await Database.open(postgres_url) as db:
        for server, battle_id in ((zero, battle_zero.id), (one, battle_one.id)):
            events = await db.events.list(battle_id, limit=1000, newest_first=False)
            landed = Counter(purpose_of(e.order_text) for e in events if e.kind == "roll")
            assert {p: landed[p] for p in server.acked} == dict.fromkeys(server.acked, 1), "lost or doubled"
            assert all(landed[p] <= 1 for p in server.unknown)
            assert not any(landed[p] for p in server.refused)
            boards = [m for m in loopback.messages(server.channel) if m.pinned]
            assert len(boards) == 1, f"{len(boards)} status boards in {server.guild.name}"
        [last] = await db.events.list(battle_one.id, limit=1)
        assert (last.kind, last.actor_id) == ("end-turn", one.player.id)
    assert len(one.acked) == 3 * ROLLS and len(zero.acked) + len(zero.unknown) + len(zero.refused) == 3 * ROLLS
    assert len(deadline_notices(loopback, zero.channel)) == 1
    # One turn ping for the one turn shard 0's battle had (shard 1's player heard by DM, once).
    assert len([m for m in loopback.messages(zero.channel) if "your turn in" in m.content.lower()]) == 1
    fired = fired_timers(fleet)
    assert all(fired[t] == 1 for t in timer_ids) and set(fired.values()) == {1}
    assert errors_in(fleet) == []
