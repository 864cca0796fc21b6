"""The table service keeps recently used battles decoded: what that must not change, and when it must not be trusted."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from bot.service import Actor, TableService
from bot.takeback import _quiet_order
from rules import orders as o
from rules.battle import Battle
from rules.coords import Cell
from rules.dice import Dice
from rules.errors import GameError
from rules.replay import replay, steps_from_log
from rules.systems.strategic.actions.combat import Attack
from rules.turnorders import EndTurn
from storage import Database, NewEvent

GM = Actor(user_id=1, guild_id=10, name="gm", manage_guild=True)
RIFLE = {"weapons": [{"name": "Rifle", "range": 60, "damage": "1d10+4", "type": "I", "pen": 2}], "wounds": 30}
SETUP = [
    o.AddUnit(name="Eva-01", side="NERV", at=Cell(2, 2), stats={"ag": 45, "bs": 50, **RIFLE}),
    o.AddUnit(name="Eva-02", side="NERV", at=Cell(2, 5), stats={"ag": 52, "bs": 45, **RIFLE}),
    o.AddUnit(name="Sachiel", side="Angels", at=Cell(9, 4), stats={"ag": 38, "bs": 40, **RIFLE}),
    o.Start(),
]
# A turn of play, with orders the rules refuse mixed in (off the map, not its turn, no such weapon).
PLAY = [
    o.Move(unit="Eva-01", to=Cell(3, 3), mode="half"),
    o.Move(unit="Eva-01", to=Cell(40, 3), mode="half"),
    Attack(unit="Eva-01", weapon="Rifle", target="Sachiel"),
    Attack(unit="Eva-02", weapon="Laser", target="Sachiel"),
    o.Move(unit="Sachiel", to=Cell(8, 4), mode="half"),
    Attack(unit="Eva-02", weapon="Rifle", target="Sachiel"),
    o.Move(unit="Eva-02", to=Cell(3, 6), mode="half"),
    EndTurn(unit="Eva-01"),
    EndTurn(unit="Eva-02"),
    o.Move(unit="Sachiel", to=Cell(7, 4), mode="full"),
    Attack(unit="Sachiel", weapon="Rifle", target="Eva-01"),
]


def seeded(seed: int) -> random.Random:
    return random.Random(seed)


async def play(service: TableService) -> tuple[int, list[str]]:
    """Create the battle and give every order; return the battle id and what each order came to."""
    created = await service.create_battle(GM, channel_id=5, thread_id=None, name="Cache", ruleset="strategic-e",
                                          width=12, height=10)
    record = created.record
    seen: list[str] = []
    for order in [*SETUP, *PLAY]:
        try:
            result = await service.execute(GM, record, order, render=False)
        except GameError as exc:
            seen.append(f"refused: {exc.message}")
            continue
        assert result.outcome is not None
        seen.append(str(result.outcome.to_dict()))
        record = result.record
    return record.id, seen



async def test_kept_battles_change_no_outcome_no_stored_state_and_no_replay(db: Database, tmp_path: Path) -> None:
    """With battles kept decoded or read afresh each time, the same dice give the same outcomes, log and state."""
    master_a, master_b = seeded(3), seeded(3)
    kept = TableService(db, render=False, rng_factory=lambda: seeded(master_a.getrandbits(64)))
    other = await Database.open(tmp_path / "uncached.sqlite3")
    try:
        fresh = TableService(other, render=False, cache_size=0,
                             rng_factory=lambda: seeded(master_b.getrandbits(64)))
        kept_id, kept_seen = await play(kept)
        fresh_id, fresh_seen = await play(fresh)
        assert len(kept.cache) == 1 and len(fresh.cache) == 0
        assert kept_seen == fresh_seen
        assert any(s.startswith("refused") for s in kept_seen) and any("rolls" in s for s in kept_seen)
        kept_record, fresh_record = await db.battles.get(kept_id), await other.battles.get(fresh_id)
        assert kept_record is not None and fresh_record is not None
        assert kept_record.state == fresh_record.state
        kept_log = [(e.seq, e.order_text, e.outcome) for e in await kept.all_events(kept_record)]
        fresh_log = [(e.seq, e.order_text, e.outcome) for e in await fresh.all_events(fresh_record)]
        assert kept_log == fresh_log
        # Replaying the log with its recorded dice arrives at the stored state.
        events = [{"seq": e.seq, "kind": e.kind, "order": e.order_text, "outcome": e.outcome, "undone": e.undone}
                  for e in await kept.all_events(kept_record)]
        initial = await db.events.initial_state(kept_id)
        assert initial is not None
        assert replay(initial, steps_from_log(events)).to_dict() == Battle.from_dict(kept_record.state).to_dict()
    finally:
        await other.close()


async def test_a_refused_order_leaves_the_kept_battle_as_stored(db: Database) -> None:
    service = TableService(db, render=False, rng_factory=lambda: seeded(1))
    battle_id, _ = await play(service)
    found = await service.current(battle_id)
    assert found is not None
    record, shared = found
    before = shared.to_dict()
    with pytest.raises(GameError):
        await service.execute(GM, record, o.Move(unit="Sachiel", to=Cell(99, 99)), render=False)
    with pytest.raises(GameError):
        await service.execute(GM, record, Attack(unit="Eva-01", weapon="Rifle", target="Nobody"), render=False)
    again = await service.current(battle_id)
    assert again is not None and again[1] is shared
    assert shared.to_dict() == before
    stored = await db.battles.get(battle_id)
    assert stored is not None and stored.version == record.version
    assert Battle.from_dict(stored.state).to_dict() == before


async def test_a_read_only_battle_is_the_kept_copy_of_that_version(db: Database) -> None:
    """Commands that only read a battle before giving an order share the kept copy instead of decoding again."""
    service = TableService(db, render=False, rng_factory=lambda: seeded(1))
    battle_id, _ = await play(service)
    record = await db.battles.get(battle_id)
    assert record is not None
    shared = service.read_only(record)
    assert service.read_only(record) is shared
    assert shared.to_dict() == Battle.from_dict(record.state).to_dict()
    order = o.AddUnit(name="Ramiel", side="Angels", at=Cell(10, 8), stats={"ag": 30})
    result = await service.execute(GM, record, order, render=False)
    newer = service.read_only(result.record)
    assert newer is not shared and newer.find_unit("Ramiel") is not None
    assert shared.find_unit("Ramiel") is None, "the copy read before the order is left as it was"


async def test_a_newer_version_written_elsewhere_replaces_the_kept_battle(db: Database, tmp_path: Path) -> None:
    """Another process (here another connection to the file) writes the battle: the service reads the new state."""
    service = TableService(db, render=False, rng_factory=lambda: seeded(2))
    created = await service.create_battle(GM, channel_id=5, thread_id=None, name="Two", ruleset="strategic-e",
                                          width=12, height=10)
    record = created.record
    for order in SETUP:
        record = (await service.execute(GM, record, order, render=False)).record
    found = await service.current(record.id)
    assert found is not None and found[1].unit("Eva-01").cell == Cell(2, 2)

    elsewhere = await Database.open(tmp_path / "battlepost.sqlite3")
    try:
        stored = await elsewhere.battles.get(record.id)
        assert stored is not None
        theirs = Battle.from_dict(stored.state)
        theirs.apply(o.Move(unit="Eva-01", to=Cell(4, 2), mode="half"), Dice(seeded(4)))
        await elsewhere.battles.commit(record.id, expected_version=stored.version, state=theirs.to_dict(),
                                       event=NewEvent(actor_id=1, kind="move", order_text="move Eva-01 E3",
                                                      outcome=None), now=1.0)
    finally:
        await elsewhere.close()

    now = await service.current(record.id)
    assert now is not None
    assert now[0].version == stored.version + 1
    assert now[1].unit("Eva-01").cell == Cell(4, 2)
    # The next order is judged on the new state: Eva-01 moves on from where the other writer left it.
    result = await service.execute(GM, record, o.Move(unit="Eva-01", to=Cell(5, 2), mode="half"), render=False)
    assert result.outcome is not None and result.outcome.highlight.path[0] == "E3"
    assert result.record.version == stored.version + 2


async def test_only_the_most_recently_used_battles_are_kept(db: Database) -> None:
    service = TableService(db, render=False, cache_size=2)
    ids = []
    for channel in (1, 2, 3):
        result = await service.create_battle(GM, channel_id=channel, thread_id=None, name=f"B{channel}",
                                             ruleset="strategic-e", width=8, height=8)
        ids.append(result.record.id)
    assert len(service.cache) == 2
    assert service.cache.latest(ids[0]) is None
    assert service.cache.latest(ids[2]) is not None
    # A battle no longer kept is read from the database as before.
    found = await service.current(ids[0])
    assert found is not None and found[1].name == "B1"
    assert service.cache.latest(ids[1]) is None


class CountingExecutor(ThreadPoolExecutor):
    """A rules thread that counts the jobs it is given."""

    def __init__(self) -> None:
        super().__init__(1, thread_name_prefix="counted-rules")
        self.jobs = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        self.jobs += 1
        return super().submit(fn, *args, **kwargs)


async def test_an_order_on_a_kept_battle_takes_one_trip_to_the_rules_thread(db: Database) -> None:
    """The checks read the kept copy and the fresh copy is decoded where the order is resolved: one hop, not two."""
    service = TableService(db, render=False, rng_factory=lambda: seeded(1))
    battle_id, _ = await play(service)
    found = await service.current(battle_id)
    assert found is not None
    record, shared = found
    before = shared.to_dict()
    counting = CountingExecutor()
    service._rules = counting
    try:
        add = o.AddUnit(name="Ramiel", side="Angels", at=Cell(10, 8), stats={"ag": 30})
        result = await service.execute(GM, record, add, render=False)
        assert counting.jobs == 1
        assert result.battle is not shared and result.battle.find_unit("Ramiel") is not None
        assert shared.to_dict() == before, "the kept copy the checks read is never changed"
        # A battle not kept (another process wrote it, or it was dropped) is decoded once more for the checks.
        service.cache.forget(battle_id)
        add = o.AddUnit(name="Israfel", side="Angels", at=Cell(10, 9), stats={"ag": 30})
        again = await service.execute(GM, result.record, add, render=False)
        assert counting.jobs == 3
        assert again.record.version == result.record.version + 1
    finally:
        counting.shutdown(wait=True)


async def test_the_undo_button_is_judged_in_the_orders_trip_as_from_the_stored_states(db: Database) -> None:
    """The service judges whether an order may be taken back alone on the battles it had at hand; the judgement
    is the one made from the state stored before the order and the state after it."""
    service = TableService(db, render=False, rng_factory=lambda: seeded(5))
    created = await service.create_battle(GM, channel_id=6, thread_id=None, name="Quiet", ruleset="strategic-e",
                                          width=12, height=10)
    record = created.record
    judged: list[bool] = []
    for order in [*SETUP, *PLAY]:
        try:
            result = await service.execute(GM, record, order, render=False)
        except GameError:
            continue
        assert result.seq is not None and result.quiet is not None
        before = await db.events.state_before(record.id, result.seq)
        assert before is not None
        rolled = bool(result.outcome is not None and result.outcome.rolls)
        assert result.quiet == (not rolled and _quiet_order(before, result.record.state)), str(order)
        judged.append(result.quiet)
        record = result.record
    assert True in judged and False in judged


async def test_an_order_on_a_battle_another_process_moved_on_is_resolved_again_on_the_new_state(
        db: Database, tmp_path: Path) -> None:
    """A service trusts the record it is handed when it keeps the battle at that version, and reads nothing before
    the commit; when another process (another service on the same file) wrote meanwhile, the commit finds it
    stale and the order is resolved again on the battle as stored, not refused and not applied to the old one."""
    here = TableService(db, render=False, rng_factory=lambda: seeded(1))
    other_db = await Database.open(tmp_path / "battlepost.sqlite3")  # the same file, a second connection
    try:
        there = TableService(other_db, render=False, rng_factory=lambda: seeded(2))
        created = await here.create_battle(GM, channel_id=7, thread_id=None, name="Two", ruleset="strategic-e",
                                           width=12, height=10)
        record = created.record
        for order in SETUP[:3]:
            record = (await here.execute(GM, record, order, render=False)).record
        old = record
        # The other process adds a unit; this one still keeps the battle at `old`.
        await there.execute(GM, await there.get_battle(GM.guild_id, old.id),
                            o.AddUnit(name="Alpha", side="Angels", at=Cell(5, 5), stats=dict(RIFLE)), render=False)
        added = await here.execute(GM, old, o.AddUnit(name="Beta", side="Angels", at=Cell(6, 6), stats=dict(RIFLE)),
                                   render=False)
        assert added.record.version == old.version + 2
        assert added.battle.find_unit("Alpha") is not None and added.battle.find_unit("Beta") is not None
        texts = [e.order_text for e in await here.all_events(added.record)][-2:]
        assert [t.split()[1] for t in texts] == ["name:Alpha", "name:Beta"]
        moved = added
        # Refused on the kept battle (no such unit there) but not on the stored one: the other process added it.
        before = moved.record
        await there.execute(GM, await there.get_battle(GM.guild_id, old.id),
                            o.AddUnit(name="Zeta", side="Angels", at=Cell(8, 8), stats=dict(RIFLE)), render=False)
        removed = await here.execute(GM, before, o.RemoveUnit(unit="Zeta"), render=False)
        assert removed.battle.find_unit("Zeta") is None and removed.record.version == before.version + 2
        # A refusal that stands is not sent round again.
        with pytest.raises(GameError):
            await here.execute(GM, removed.record, o.RemoveUnit(unit="Nobody"), render=False)
    finally:
        await other_db.close()


async def test_an_order_on_the_record_just_committed_reads_nothing_before_its_commit(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """One database round trip for an order: given the record of the battle as this service last wrote it, the
    order is resolved on the battle kept in memory and committed; the battle is not read again first."""
    service = TableService(db, render=False, rng_factory=lambda: seeded(3))
    record = (await service.create_battle(GM, channel_id=8, thread_id=None, name="Trip", ruleset="strategic-e",
                                          width=12, height=10)).record
    record = (await service.execute(GM, record, SETUP[0], render=False)).record
    reads: list[int] = []
    real = db.battles.get_unless

    async def counted(battle_id: int, version: int | None) -> Any:
        reads.append(battle_id)
        return await real(battle_id, version)

    monkeypatch.setattr(db.battles, "get_unless", counted)
    for order in SETUP[1:]:
        record = (await service.execute(GM, record, order, render=False)).record
    assert reads == []
    assert record.version == 1 + len(SETUP)
