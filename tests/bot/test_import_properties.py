"""Properties of export and import: a random battle comes back equal; a corrupted file is refused and creates nothing."""

from __future__ import annotations

import asyncio
import functools
import json
import random
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.service import Actor, TableService
from rules import orders as o
from rules.coords import Cell
from rules.errors import GameError
from rules.replay import same_state
from rules.turnorders import CloseRound, EndTurn
from storage import BattleRecord, Database

GM = Actor(user_id=5, guild_id=1, manage_guild=True)
IMPORTER = Actor(user_id=6, guild_id=2, manage_guild=True)
SIDES = ("NERV", "Angels")
TERRAIN = ("forest", "water", "urban", "mountain", "plain")
SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)

cells = st.builds(Cell, st.integers(0, 7), st.integers(0, 7))
NAMES = ("Eva-01", "Sachiel", "Eva-02", "Ramiel")
unit_names = st.sampled_from(NAMES)
units = st.lists(st.tuples(cells, st.sampled_from([None, 11, 12]), st.integers(20, 70)), min_size=2, max_size=4,
                 unique_by=lambda u: u[0]).map(lambda found: [
                     o.AddUnit(name=NAMES[i], side=SIDES[i % 2], at=at, owner=who, stats={"ag": ag})
                     for i, (at, who, ag) in enumerate(found)])
paints = st.lists(st.builds(lambda t, a, b: o.Paint(terrain=t, frm=a, to=b), st.sampled_from(TERRAIN), cells, cells),
                  max_size=3)
play_orders = st.one_of(
    st.builds(lambda d, h: o.Roll(dice=d, hidden=h), st.sampled_from(["1d6", "2d10+3", "d100", "3d5-1"]),
              st.booleans()),
    st.builds(lambda u, to, m: o.Move(unit=u, to=to, mode=m), unit_names, cells, st.sampled_from(["full", "half"])),
    st.builds(lambda u, s, m: o.SkillTest(unit=u, stat=s, modifier=m), unit_names, st.sampled_from(["ag", "ws"]),
              st.integers(-30, 30)),
    st.builds(EndTurn, unit_names),
    st.just(CloseRound()),
    st.just("undo"),
)
plans = st.builds(lambda u, p, started, rest: [*u, *p, *([o.Start()] if started else []), *rest],
                  units, paints, st.booleans(), st.lists(play_orders, max_size=20))


def run(coroutine: Any) -> Any:
    """Run one example's coroutine on a fresh event loop."""
    return asyncio.run(coroutine)


async def open_service(root: Path, seed: int = 3) -> TableService:
    """Open a service over a fresh database file, rendering nothing."""
    db = await Database.open(root / f"{random.random()}.sqlite3")
    master = random.Random(seed)
    return TableService(db, rng_factory=lambda: random.Random(master.getrandbits(64)), render=False)


async def play(service: TableService, plan: list[Any]) -> BattleRecord:
    """Create a battle and give it every order of the plan the rules accept."""
    record = (await service.create_battle(GM, channel_id=10, thread_id=None, name="Random", ruleset="strategic-e",
                                          width=8, height=8)).record
    for order in plan:
        try:
            if order == "undo":
                record = (await service.undo(GM, record)).record
            else:
                record = (await service.execute(GM, record, order, render=False)).record
        except GameError:
            continue
    return record


async def export_bytes(service: TableService, record: BattleRecord) -> bytes:
    """Return the battle's export file as /battle export writes it."""
    return json.dumps(await service.export_battle(GM, record), ensure_ascii=False, indent=1).encode()


@given(plans)
@SETTINGS
def test_a_random_battle_exported_and_imported_equals_itself(plan: list[Any]) -> None:
    async def check(root: Path) -> None:
        service = await open_service(root)
        try:
            original = await play(service, plan)
            raw = await export_bytes(service, original)
            imported = (await service.import_battle(IMPORTER, channel_id=20, thread_id=None, raw=raw)).record
            assert same_state(imported.state, original.state)
            assert imported.status == original.status
            mine = await service.db.events.list(original.id, limit=1000, newest_first=False, include_undone=False)
            theirs = await service.db.events.list(imported.id, limit=1000, newest_first=False)
            kept = [(e.kind, e.order_text, e.outcome, e.hidden) for e in mine if e.kind not in ("create", "undo")]
            assert [(e.kind, e.order_text, e.outcome, e.hidden) for e in theirs[1:]] == kept
            again = await export_bytes(service, imported)
            assert json.loads(again)["final_state"] == json.loads(raw)["final_state"]
        finally:
            await service.db.close()

    with tempfile.TemporaryDirectory() as tmp:
        run(check(Path(tmp)))


@functools.cache
def sample_export() -> bytes:
    """Return the export of one battle with units, terrain, moves, tests, hidden and undone rolls."""
    plan: list[Any] = [
        o.AddUnit(name="Eva-01", side="NERV", at=Cell(1, 1), owner=11, stats={"ag": 45}),
        o.AddUnit(name="Sachiel", side="Angels", at=Cell(6, 6), stats={"ag": 38}),
        o.Paint(terrain="forest", frm=Cell(2, 2), to=Cell(4, 3)),
        o.Start(),
        o.SkillTest(unit="Eva-01", stat="ag", modifier=10),
        o.Roll(dice="2d10", hidden=True),
        "undo",
        o.Move(unit="Eva-01", to=Cell(2, 1), mode="half"),
        o.Roll(dice="1d100"),
    ]

    async def build(root: Path) -> bytes:
        service = await open_service(root)
        try:
            return await export_bytes(service, await play(service, plan))
        finally:
            await service.db.close()

    with tempfile.TemporaryDirectory() as tmp:
        raw: bytes = run(build(Path(tmp)))
    return raw


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False), st.text(max_size=6)),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Return the path of every value inside a JSON document."""
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, inner in value.items():
            found += paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += paths(inner, (*prefix, index))
    return found


def corrupt(document: dict[str, Any], data: st.DataObject) -> bytes:
    """Change one thing in a document (replace, delete or copy a value), or damage its bytes."""
    how = data.draw(st.sampled_from(["replace", "replace", "delete", "copy", "truncate", "byte"]))
    raw = json.dumps(document).encode()
    if how == "truncate":
        return raw[:data.draw(st.integers(0, len(raw) - 1))]
    if how == "byte":
        at = data.draw(st.integers(0, len(raw) - 1))
        return raw[:at] + bytes([data.draw(st.integers(0, 255))]) + raw[at + 1:]
    path = data.draw(st.sampled_from(paths(document)))
    parent = document
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if how == "replace":
        parent[last] = data.draw(json_values)
    elif how == "delete":
        del parent[last]
    elif isinstance(parent, list):
        parent.insert(last, json.loads(json.dumps(parent[last])))
    else:
        parent[f"{last}_copy"] = parent[last]
    return json.dumps(document).encode()


@given(st.data())
@SETTINGS
def test_a_corrupted_file_is_refused_with_a_message_and_creates_nothing(data: st.DataObject) -> None:
    document = json.loads(sample_export())
    raw = corrupt(document, data)

    async def check(root: Path) -> None:
        service = await open_service(root)
        try:
            try:
                result = await service.import_battle(IMPORTER, channel_id=20, thread_id=None, raw=raw)
            except GameError as exc:
                assert exc.message.strip()
                assert await service.db.battles.count() == 0, "a refused import left a battle behind"
                return
            # Only a change that does not touch the battle (a timestamp, the old id) is accepted,
            # and then the battle is exactly the one the file describes.
            accepted = json.loads(raw)
            assert same_state(result.record.state, accepted["final_state"])
            assert same_state(result.record.state, json.loads(sample_export())["final_state"])
        finally:
            await service.db.close()

    with tempfile.TemporaryDirectory() as tmp:
        run(check(Path(tmp)))
