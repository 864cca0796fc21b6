"""Shared steps of the turn, deadline, GM and log tests: stored state, posted messages, pings."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from loopback.models import LoopbackChannel, LoopbackUser, StoredMessage
from loopback.replies import Reply
from rules.battle import Battle
from storage import BattleRecord, ClockRecord
from tests.e2e.conftest import Table, embed_text, last_message

HOUR = 3600.0
DAY = 86_400.0


def at(zone: str, *parts: int) -> float:
    """Return unix seconds of a wall-clock time in a zone."""
    return datetime(*parts, tzinfo=ZoneInfo(zone)).timestamp()  # type: ignore[misc]


def local(moment: float, zone: str) -> datetime:
    """Return a moment's wall-clock time in a zone."""
    return datetime.fromtimestamp(moment, tz=ZoneInfo(zone))


async def stored(table: Table, channel: LoopbackChannel | None = None) -> BattleRecord:
    """Return the stored record of the channel's battle."""
    record = await table.db.battles.in_channel(table.discord.guild.id, (channel or table.channel).id)
    assert record is not None, "no battle in that channel"
    return record


async def stored_battle(table: Table) -> Battle:
    """Return the channel's battle as the database holds it."""
    return Battle.from_dict((await stored(table)).state)


async def clock(table: Table) -> ClockRecord:
    """Return the channel's battle's clock."""
    return await table.db.clocks.get((await stored(table)).id)


def message_text(message: StoredMessage) -> str:
    """Return a posted message's content and embeds as text."""
    return "\n".join([message.content, *(embed_text(e) for e in message.embeds)])


def posted(table: Table, channel: LoopbackChannel | None = None) -> list[StoredMessage]:
    """Return what is in the channel now, oldest first."""
    return table.discord.messages(channel or table.channel)


def new_since(table: Table, before: list[StoredMessage], channel: LoopbackChannel | None = None) -> list[StoredMessage]:
    """Return the messages posted in the channel after a snapshot taken with posted()."""
    seen = {m.id for m in before}
    return [m for m in posted(table, channel) if m.id not in seen]


def prompts(messages: list[StoredMessage]) -> list[StoredMessage]:
    """Return the turn prompts among messages."""
    return [m for m in messages if "your turn in" in m.content.lower()]


def pinged(messages: list[StoredMessage]) -> set[int]:
    """Return every user the messages pinged."""
    return {uid for m in messages for uid in m.pings.users}


def board(table: Table, channel: LoopbackChannel | None = None) -> StoredMessage:
    """Return the battle's pinned status board."""
    boards = [m for m in posted(table, channel) if m.pinned]
    assert len(boards) == 1, f"expected one pinned board, found {len(boards)}"
    return boards[0]


async def event_kinds(table: Table) -> list[tuple[str, bool]]:
    """Return the battle's log as (kind, undone), oldest first."""
    record = await stored(table)
    events = await table.db.events.list(record.id, limit=1000, newest_first=False)
    return [(e.kind, e.undone) for e in events]


async def start_side_battle(table: Table, **setup: Any) -> None:
    """Set up the standard battle (alice: Eva-01, bob: Eva-02, GM: Sachiel) and start it in side mode."""
    await table.setup_battle(**setup)
    await table.slash("battle start")


async def confirmed(table: Table, reply: Reply, user: LoopbackUser | None = None) -> Reply:
    """Press Confirm on the question a command asked, if it asked one, and return the final answer."""
    message = last_message(reply)
    ok = [c for c in message.custom_ids() if c.startswith("bp:ok:")]
    if not message.ephemeral or not ok:
        return reply
    return await table.click(message, ok[0], user=user or reply.interaction.user)


async def end_turn(table: Table, user: LoopbackUser | None = None, **options: Any) -> Reply:
    """End turns with /turn end, confirming when the bot asks (action points left unused)."""
    return await confirmed(table, await table.slash("turn end", user=user, **options), user or table.gm)


async def end_battle(table: Table) -> Reply:
    """End the battle with /gm end, confirming the question it asks."""
    return await confirmed(table, await table.gm_slash("gm end"), table.gm)
