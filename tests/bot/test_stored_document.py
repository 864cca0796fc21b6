"""An order writes its log entry, and the battle's whole state document only every few orders.

Reading a battle replays the orders logged after its document with the dice they rolled; undo and takebacks
rebuild the state before any order from the nearest entry that keeps one. Played here through the table
service on a real SQLite file, for every rule system, and read back through a second connection that keeps
nothing in memory.
"""

from __future__ import annotations

import random
import sqlite3
import threading
from pathlib import Path
from typing import Any

import orjson
import pytest

import storage.battles
import storage.records
from bot.service import Actor, TableService
from rules.battle import Battle
from rules.dice import Dice
from rules.errors import GameError
from storage import Database, NewEvent, StorageError
from storage.battles import CommitStep
from storage.program import Query, single
from tests.rules.saved_fixtures import RECIPES
from tests.rules.test_battle_copy import _due_orders

GM = Actor(user_id=1, guild_id=10, name="gm", manage_guild=True)
ORDERS = 30


_HEAD = Query.of("SELECT version, behind FROM battles WHERE id = ?")
_SNAPSHOTS = Query.of("SELECT COUNT(*) FROM events WHERE battle_id = ? AND state_before IS NOT NULL")


async def _raw(db: Database, battle_id: int) -> tuple[int, int]:
    """Return a battle's version and how many orders its stored document is behind, read by hand."""
    version, behind = await db.engine.read(single(_HEAD, battle_id))
    return int(version), int(behind)


async def _snapshots(db: Database, battle_id: int) -> int:
    return int((await db.engine.read(single(_SNAPSHOTS, battle_id)))[0])


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Return where the database is: a SQLite file, or an empty PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "battlepost.sqlite3")
    return str(request.getfixturevalue("postgres_url"))


class Played:
    """A battle played through the service: its id and, per order given, its number and the states around it."""

    def __init__(self, battle_id: int) -> None:
        self.battle_id = battle_id
        self.orders: list[tuple[int, dict[str, Any], dict[str, Any]]] = []  # (seq, state before, state after)
        self.behind: list[int] = []


async def _play(service: TableService, name: str, seed: int, count: int = ORDERS, channel: int = 5
                ) -> Played:
    recipe = RECIPES[name]
    created = await service.create_battle(GM, channel_id=channel, thread_id=None, name=f"Kept {name}",
                                          ruleset=recipe.ruleset, width=recipe.width, height=recipe.height)
    record = created.record
    played = Played(record.id)
    rng = random.Random(seed)
    setup = list(recipe.orders)
    given = 0
    while given < len(recipe.orders) + count:
        found = await service.current(record.id)
        assert found is not None
        record, live = found
        choices = [setup.pop(0)] if setup else _due_orders(live, rng)
        if not choices:
            break
        before = live.to_dict()
        try:
            result = await service.execute(GM, record, live.parse_order(rng.choice(choices)), render=False)
        except GameError:
            given += 1
            continue
        given += 1
        record = result.record
        steps = [result] if result.ended is None else [result, result.ended]
        for step in steps:
            assert step.seq is not None and step.battle is not None
            played.orders.append((step.seq, before, step.battle.to_dict()))
            before = step.battle.to_dict()
        played.behind.append((await _raw(service.db, record.id))[1])
    return played


@pytest.mark.parametrize("name", sorted(RECIPES))
async def test_a_battle_read_afresh_is_the_battle_played(tmp_path: Path, name: str) -> None:
    """After every order, a second connection reads the same state the service holds in memory."""
    path = tmp_path / "battlepost.sqlite3"
    db = await Database.open(path)
    reader = await Database.open(path)
    try:
        service = TableService(db, render=False, rng_factory=lambda: random.Random(5))
        played = await _play(service, name, seed=3)
        assert len(played.orders) > storage.battles.CHECKPOINT_EVERY  # the battle really went on
        # The document fell behind and was caught up again, never by as many orders as CHECKPOINT_EVERY.
        assert max(played.behind) > 0 and 0 in played.behind[1:]
        assert max(played.behind) < storage.battles.CHECKPOINT_EVERY
        stored = await reader.battles.get(played.battle_id)
        assert stored is not None
        assert Battle.from_dict(stored.state).to_dict() == played.orders[-1][2]
        # The state before every order is rebuilt, from whichever entry keeps one.
        for seq, before, _after in played.orders:
            rebuilt = await reader.events.state_before(played.battle_id, seq)
            assert rebuilt is not None and Battle.from_dict(rebuilt).to_dict() == before, f"before order {seq}"
        assert (await _snapshots(service.db, played.battle_id)) < len(played.orders)
    finally:
        await reader.close()
        await db.close()


async def test_the_document_is_written_as_often_as_the_constant_says(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "battlepost.sqlite3"
    db = await Database.open(path)
    try:
        service = TableService(db, render=False, rng_factory=lambda: random.Random(5))
        monkeypatch.setattr(storage.battles, "CHECKPOINT_EVERY", 3)
        played = await _play(service, "strategic-e", seed=4)
        assert max(played.behind) == 2
        monkeypatch.setattr(storage.battles, "CHECKPOINT_EVERY", 1)
        more = await _play(TableService(db, render=False, rng_factory=lambda: random.Random(6)),
                           "strategic-p", seed=4, channel=6)
        # Written by every order: the first entry each order writes keeps the state before it.
        assert set(more.behind) == {0}
        assert (await _snapshots(service.db, more.battle_id)) == len(more.behind)
    finally:
        await db.close()


async def test_undo_across_a_written_document_restores_the_state_before(target: str) -> None:
    db = await Database.open(target)
    reader = await Database.open(target)
    try:
        service = TableService(db, render=False, rng_factory=lambda: random.Random(8))
        played = await _play(service, "strategic-e", seed=9, count=40)
        assert len(played.orders) > storage.battles.CHECKPOINT_EVERY + 3
        assert (await _raw(service.db, played.battle_id))[1] > 0, "the last orders are not in the document yet"
        count = storage.battles.CHECKPOINT_EVERY + 2
        record = await db.battles.get(played.battle_id)
        assert record is not None
        undone = await service.undo(GM, record, count)
        assert undone.record.version == record.version + 1
        target = played.orders[-count][1]
        assert (await _raw(service.db, played.battle_id))[1] == 0
        fresh = await reader.battles.get(played.battle_id)
        assert fresh is not None and Battle.from_dict(fresh.state).to_dict() == target
        # The undo's own entry keeps the state it replaced: the battle as the last order left it.
        latest = await reader.events.latest_seq(played.battle_id)
        replaced = await reader.events.state_before(played.battle_id, latest)
        assert replaced is not None and Battle.from_dict(replaced).to_dict() == played.orders[-1][2]
        # Play on after the undo: reads and the states before the new orders still agree.
        again = await _play_on(service, fresh.id, 12)
        stored = await reader.battles.get(fresh.id)
        assert stored is not None and Battle.from_dict(stored.state).to_dict() == again[-1][2]
        for seq, before, _after in again:
            rebuilt = await reader.events.state_before(fresh.id, seq)
            assert rebuilt is not None and Battle.from_dict(rebuilt).to_dict() == before
    finally:
        await reader.close()
        await db.close()


async def _play_on(service: TableService, battle_id: int, count: int
                   ) -> list[tuple[int, dict[str, Any], dict[str, Any]]]:
    rng = random.Random(21)
    seen: list[tuple[int, dict[str, Any], dict[str, Any]]] = []
    for _ in range(count):
        found = await service.current(battle_id)
        assert found is not None
        record, live = found
        choices = _due_orders(live, rng)
        if not choices:
            break
        before = live.to_dict()
        try:
            result = await service.execute(GM, record, live.parse_order(rng.choice(choices)), render=False)
        except GameError:
            continue
        assert result.seq is not None
        seen.append((result.seq, before, result.battle.to_dict()))
        if result.ended is not None:
            assert result.ended.seq is not None
            seen.append((result.ended.seq, result.battle.to_dict(), result.ended.battle.to_dict()))
    assert seen
    return seen


async def _played_behind(service: TableService) -> Played:
    """Play a battle until its stored document is orders behind."""
    played = await _play(service, "strategic-e", seed=3)
    while (await _raw(service.db, played.battle_id))[1] == 0:
        await _play_on(service, played.battle_id, 1)
    return played


async def test_a_log_that_no_longer_replays_is_said_and_changes_nothing(tmp_path: Path) -> None:
    """An order after the document that the rules now refuse (edited by hand here) fails the read, plainly."""
    path = tmp_path / "battlepost.sqlite3"
    db = await Database.open(path)
    try:
        service = TableService(db, render=False, rng_factory=lambda: random.Random(5))
        played = await _played_behind(service)
        version, behind = (await _raw(service.db, played.battle_id))
        latest = await db.events.latest_seq(played.battle_id)
        with sqlite3.connect(path) as conn:
            conn.execute("UPDATE events SET order_text = 'move unit:Nobody to:A1' WHERE battle_id = ? AND seq = ?",
                         (played.battle_id, latest))
        reader = await Database.open(path)
        try:
            # Replayed as the battle is read (off the event loop), so no caller is handed a battle that fails later.
            with pytest.raises(StorageError, match=r"do not replay.*Nobody.*stop it cleanly"):
                await reader.battles.get(played.battle_id)
        finally:
            await reader.close()
        assert (await _raw(service.db, played.battle_id)) == (version, behind)
    finally:
        await db.close()


async def test_a_clean_stop_writes_the_whole_state_of_the_battles_kept(tmp_path: Path) -> None:
    """Stopping writes each battle kept in memory whole, so a restart (maybe of a newer version) replays nothing."""
    path = tmp_path / "battlepost.sqlite3"
    db = await Database.open(path)
    try:
        service = TableService(db, render=False, rng_factory=lambda: random.Random(5))
        played = await _played_behind(service)
        version, _behind = (await _raw(service.db, played.battle_id))
        found = await service.current(played.battle_id)
        assert found is not None
        live = found[1].to_dict()
        # And a battle this process does not keep (another process played it, or it was dropped from memory).
        other = await _play(TableService(db, render=False, rng_factory=lambda: random.Random(7)), "strategic-p",
                            seed=5, channel=6)
        while (await _raw(service.db, other.battle_id))[1] == 0:
            await _play_on(TableService(db, render=False), other.battle_id, 1)
        assert service.cache.latest(other.battle_id) is None
        assert await service.write_documents() == 2
        assert (await _raw(service.db, played.battle_id)) == (version, 0)
        assert (await _raw(service.db, other.battle_id))[1] == 0
        assert await service.write_documents() == 0, "a document already whole is not written again"
        with sqlite3.connect(path) as conn:
            (text,) = conn.execute("SELECT state FROM battles WHERE id = ?", (played.battle_id,)).fetchone()
        assert Battle.from_dict(orjson.loads(text)).to_dict() == live
        # Orders go on from the written document; the states before them are still rebuilt.
        more = await _play_on(service, played.battle_id, 6)
        for seq, before, _after in more:
            rebuilt = await db.events.state_before(played.battle_id, seq)
            assert rebuilt is not None and Battle.from_dict(rebuilt).to_dict() == before
    finally:
        await db.close()


async def test_finding_a_kept_battle_replays_nothing_and_a_cold_read_replays_off_the_loop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "battlepost.sqlite3"
    db = await Database.open(path)
    try:
        service = TableService(db, render=False, rng_factory=lambda: random.Random(5))
        played = await _played_behind(service)
        threads: list[int] = []
        real = storage.records.rebuild

        def counted(document: str, steps: Any) -> str:
            threads.append(threading.get_ident())
            return real(document, steps)

        monkeypatch.setattr(storage.records, "rebuild", counted)
        found = await service.battle_here(GM.guild_id, 5)
        assert found.id == played.battle_id and threads == [], "the battle kept in memory is used as it is"
        assert (await service.get_battle(GM.guild_id, played.battle_id)).version == found.version
        assert threads == []
        cold = TableService(db, render=False)
        again = await cold.battle_here(GM.guild_id, 5)
        assert len(threads) == 1 and threads[0] != threading.get_ident(), "replayed once, in a worker thread"
        assert Battle.from_dict(again.state).to_dict() == Battle.from_dict(found.state).to_dict()
    finally:
        await db.close()


async def test_an_order_after_a_change_that_does_not_replay_keeps_the_state_before_it(tmp_path: Path) -> None:
    """Committed together, a change no order describes and an order after it: the order's entry keeps the state
    the change left, so rebuilding it never replays the change."""
    db = await Database.open(tmp_path / "battlepost.sqlite3")
    try:
        service = TableService(db, render=False, rng_factory=lambda: random.Random(5))
        played = await _play(service, "strategic-e", seed=3)
        found = await service.current(played.battle_id)
        assert found is not None
        record, live = found
        edited = live.copy()
        units = [u for u in edited.iter_units() if u.alive]
        units[-1].name = "Renamed"  # by hand: no order of the rules says this
        moved = edited.copy()
        candidates = [o for u in moved.iter_units() if u.alive for o in moved.legal_orders(u) if o.kind != "end-turn"]
        assert candidates, "some unit has an order to give"
        order = candidates[0]
        outcome = moved.apply(order, Dice(random.Random(2)), undoable=False)
        steps = [CommitStep(edited.to_dict(), NewEvent(actor_id=1, kind="gm-rename", order_text="renamed by hand",
                                                       outcome=None)),
                 CommitStep(moved.to_dict, NewEvent(actor_id=1, kind=order.kind, order_text=str(order),
                                                    outcome=outcome.to_dict()), replayable=True)]
        committed = await db.battles.commit_orders(played.battle_id, expected_version=record.version, steps=steps,
                                                   now=1.0)
        before = await db.events.state_before(played.battle_id, committed[1].seq)
        assert before is not None and Battle.from_dict(before).to_dict() == edited.to_dict()
        stored = await db.battles.get(played.battle_id)
        assert stored is not None and Battle.from_dict(stored.state).to_dict() == moved.to_dict()
    finally:
        await db.close()
