"""Property: random commits and undos match a simple in-memory model of the state history."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage import BattleStatus, Database, NewEvent, NothingToUndo, StaleVersionError

json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=10,
)
statuses: st.SearchStrategy[BattleStatus | None] = st.sampled_from([None, "setup", "active", "ended"])

commit_op = st.tuples(st.just("commit"), json_value, statuses, st.booleans())
undo_op = st.tuples(st.just("undo"), st.integers(min_value=1, max_value=4))
stale_op = st.tuples(st.just("stale"), st.integers(min_value=1, max_value=3))
operations = st.lists(st.one_of(commit_op, commit_op, undo_op, stale_op), max_size=25)


@dataclass
class Model:
    """The state history as a stack: commit pushes, undo pops."""

    stack: list[tuple[dict[str, Any], BattleStatus]]
    version: int = 1
    events: int = 1
    undone: set[int] = field(default_factory=set)


async def run(ops: list[tuple[Any, ...]], target: str) -> None:
    # Every example plays a battle of its own in the test's database.
    db = await Database.open(target)
    try:
        initial = {"schema_version": 1, "value": None}
        battle = await db.battles.create(
            guild_id=1,
            channel_id=2,
            thread_id=None,
            name="m",
            ruleset="r",
            created_by=1,
            state=initial,
            now=0.0,
        )
        model = Model(stack=[(initial, "setup")])
        live_seqs: list[int] = []  # seqs of live (not undone) orders, oldest first
        clock = 0.0
        for op in ops:
            clock += 1.0
            if op[0] == "commit":
                _, value, status, hidden = op
                state = {"schema_version": 1, "value": value}
                record = await db.battles.commit(
                    battle.id,
                    expected_version=model.version,
                    state=state,
                    status=status,
                    event=NewEvent(1, "order", f"order {clock}", {"value": value}, hidden=hidden),
                    now=clock,
                )
                model.stack.append((state, model.stack[-1][1] if status is None else status))
                model.version += 1
                model.events += 1
                live_seqs.append(model.events)
                assert record.state == state
            elif op[0] == "undo":
                count = op[1]
                if count > len(model.stack) - 1:
                    try:
                        await db.battles.undo(
                            battle.id, expected_version=model.version, count=count, actor_id=1, now=clock
                        )
                    except NothingToUndo:
                        pass
                    else:
                        raise AssertionError("undo past the start succeeded")
                else:
                    _, undone = await db.battles.undo(
                        battle.id, expected_version=model.version, count=count, actor_id=1, now=clock
                    )
                    expected_undone = live_seqs[-count:]
                    assert [e.seq for e in undone] == expected_undone[::-1]
                    del live_seqs[-count:]
                    del model.stack[-count:]
                    model.undone.update(expected_undone)
                    model.version += 1
                    model.events += 1
            else:
                wrong = model.version - op[1]
                try:
                    await db.battles.commit(
                        battle.id,
                        expected_version=wrong,
                        state={"schema_version": 1, "value": "stale"},
                        event=NewEvent(1, "order", "stale", None),
                        now=clock,
                    )
                except StaleVersionError:
                    pass
                else:
                    raise AssertionError("stale commit succeeded")

            loaded = await db.battles.get(battle.id)
            assert loaded is not None
            assert (loaded.state, loaded.status) == model.stack[-1]
            assert loaded.version == model.version

        events = await db.events.list(battle.id, limit=1000, newest_first=False)
        assert [e.seq for e in events] == list(range(1, model.events + 1))
        assert {e.seq for e in events if e.undone} == model.undone
    finally:
        await db.close()


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(ops=operations)
def test_commits_and_undos_match_the_model(db_target: str, ops: list[tuple[Any, ...]]) -> None:
    asyncio.run(run(ops, db_target))
