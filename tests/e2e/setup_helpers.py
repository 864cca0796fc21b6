"""Shared steps of the setup tests: the stored battle, its version, and refusals that change nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from loopback.models import LoopbackUser
from loopback.replies import Reply
from rules.battle import Battle
from storage import BattleRecord
from tests.e2e.conftest import Table, last_message, text_of

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


async def stored(table: Table) -> BattleRecord:
    """Return the stored record of the channel's battle."""
    record = await table.db.battles.in_channel(table.discord.guild.id, table.channel.id)
    assert record is not None
    return record


async def stored_battle(table: Table) -> Battle:
    """Return the channel's battle as the database holds it."""
    return Battle.from_dict((await stored(table)).state)


async def refused(table: Table, command: str, fragment: str, user: LoopbackUser | None = None,
                  **options: Any) -> Reply:
    """Run a command that must be refused: ephemeral, the fragment in the message, the battle unchanged."""
    before = await stored(table)
    reply = await table.slash(command, user=user, **options)
    message = last_message(reply)
    assert message.ephemeral, f"refusal of /{command} was public: {text_of(reply)}"
    assert fragment in text_of(reply), text_of(reply)
    after = await stored(table)
    assert after.version == before.version
    assert after.state == before.state
    return reply


async def gm_imports_homebrew(table: Table, file: tuple[str, bytes]) -> str:
    """Import a homebrew table as the GM after a player's attempt is refused; return the public reply's text."""
    await refused(table, "battle rules import", "Only a GM can import homebrew", user=table.alice, file=file)
    reply = await table.slash("battle rules import", file=file)
    assert not last_message(reply).ephemeral
    return text_of(reply)
