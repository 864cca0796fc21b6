"""Crash safety: a writer process killed mid-stream leaves a consistent database, on either backend."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

from storage import Database, NewEvent
from tests.storage.backends import integrity_problems

ROOT = Path(__file__).resolve().parents[2]

WRITER = """
import asyncio, sys
from storage import Database, NewEvent

async def main(path: str, battle_id: int) -> None:
    db = await Database.open(path)
    battle = await db.battles.get(battle_id)
    version = battle.version
    while True:
        record = await db.battles.commit(
            battle_id,
            expected_version=version,
            state={"schema_version": 1, "turn": version, "pad": "x" * 30000},
            event=NewEvent(1, "move", f"move {version}", {"turn": version}),
            now=float(version),
        )
        version = record.version
        if version == 30:
            print("ready", flush=True)

asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


async def prepare(target: str) -> int:
    db = await Database.open(target)
    try:
        battle = await db.battles.create(
            guild_id=1,
            channel_id=2,
            thread_id=None,
            name="n",
            ruleset="r",
            created_by=3,
            state={"schema_version": 1, "turn": 0},
            now=0.0,
        )
        return battle.id
    finally:
        await db.close()


async def inspect(target: str, battle_id: int) -> tuple[int, int, dict[str, object]]:
    db = await Database.open(target)
    try:
        assert await integrity_problems(db) == []
        battle = await db.battles.get(battle_id)
        assert battle is not None
        events = await db.events.count(battle_id)
        # Nothing the killed writer held (a transaction, a row lock) still blocks the battle.
        after = await asyncio.wait_for(
            db.battles.commit(
                battle_id, expected_version=battle.version, state={"schema_version": 1, "turn": -1},
                event=NewEvent(1, "move", "after the crash", None), now=0.0,
            ),
            timeout=10,
        )
        assert after.version == battle.version + 1
        return battle.version, events, battle.state
    finally:
        await db.close()


def test_killed_writer_leaves_a_consistent_database(db_target: str) -> None:
    battle_id = asyncio.run(prepare(db_target))
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    child = subprocess.Popen(
        [sys.executable, "-c", WRITER, db_target, str(battle_id)], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    assert child.returncode == -signal.SIGKILL

    version, events, state = asyncio.run(inspect(db_target, battle_id))
    assert version >= 30
    assert events == version
    # The battle row and its newest event always come from the same commit.
    assert state["turn"] == version - 1
