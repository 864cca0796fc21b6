"""One /move is one trip into the table service and at most one generation of the unit's legal orders.

The game's decisions after a move (which mode is cheapest, whether the unit has anything left to do) are the
rules' and the service's, made in the order's own trip; the Discord layer only formats what it is told.
The counters below wrap the real service and the real generator: everything they count still runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot.service import Result
from rules.system import system_of
from tests.e2e.combat_helpers import RIFLE, add, battle_with, start, stored, stored_battle
from tests.e2e.conftest import Table, text_of
from tests.e2e.turn_helpers import new_since, posted, prompts


class Counts:
    """How often the service was entered from outside, and how often each unit's legal orders were generated."""

    def __init__(self) -> None:
        self.trips = 0
        self.generated: dict[str, int] = {}
        self._inside = 0

    def reset(self) -> None:
        """Forget what setting the battle up counted."""
        self.trips = 0
        self.generated.clear()


@pytest.fixture
def counts(table: Table, monkeypatch: pytest.MonkeyPatch) -> Counts:
    """Count the service's trips and the strategic system's legal-order generations during a test."""
    found = Counts()
    service = table.service
    execute = service.execute

    async def counted(*args: Any, **kwargs: Any) -> Result:
        if found._inside == 0:
            found.trips += 1  # the service calling itself (a turn ended in the same trip) is not a new trip
        found._inside += 1
        try:
            return await execute(*args, **kwargs)
        finally:
            found._inside -= 1

    system = system_of("strategic-e")
    generate = system.legal_orders

    def generating(battle: Any, unit: Any) -> Iterator[Any]:
        found.generated[unit.name] = found.generated.get(unit.name, 0) + 1
        return generate(battle, unit)

    monkeypatch.setattr(service, "execute", counted)
    monkeypatch.setattr(system, "legal_orders", generating)
    return found


async def duel(table: Table) -> None:
    """Start a side-mode battle: alice's Eva-01 (NERV, alone in its phase) against the GM's Sachiel."""
    await battle_with(table, mode="side")
    await add(table, "Eva-01", "NERV", "C3", owner=table.alice, bs=50, ag=40, weapons=[RIFLE])
    await add(table, "Sachiel", "Angels", "H3", wounds=20, t=40, weapons=[RIFLE])
    await start(table)


async def test_a_move_is_one_trip_and_one_generation(table: Table, counts: Counts) -> None:
    """A move with a mode: the reply's buttons come from the one generation the service made after it."""
    await duel(table)
    counts.reset()
    reply = await table.slash("move", user=table.alice, unit="Eva-01", to="D3", mode="half")
    assert "Eva-01" in text_of(reply)
    assert counts.trips == 1
    assert counts.generated.get("Eva-01") == 1
    assert (await stored_battle(table)).unit("Eva-01").cell.x == 3


async def test_a_move_that_leaves_nothing_to_do_ends_the_turn_in_the_same_trip(table: Table, counts: Counts) -> None:
    """A Full move spends both action points: the turn ends by itself, in the move's one trip, and the reply says
    so; the unit's orders were generated once, to find it had nothing left but ending its turn."""
    await duel(table)
    counts.reset()
    reply = await table.slash("move", user=table.alice, unit="Eva-01", to="F3", mode="full")
    assert "Eva-01 has nothing left to do, so its turn ends." in text_of(reply)
    assert counts.trips == 1
    assert counts.generated.get("Eva-01") == 1
    done = await stored_battle(table)
    assert {done.unit(k).name: v for k, v in done.turn.done.items()} == {"Eva-01": "ended"}


async def test_a_move_without_a_mode_picks_the_cheapest_in_the_same_trip(table: Table, counts: Counts) -> None:
    """Left out, the mode is the cheapest that reaches the square, picked by the rules' check phases in the
    service: no legal orders are generated to pick it, only once after the move for the buttons."""
    await duel(table)
    counts.reset()
    reply = await table.slash("move", user=table.alice, unit="Eva-01", to="D3")
    assert "Half: the cheapest move that reaches D3." in text_of(reply)
    assert counts.trips == 1
    assert counts.generated.get("Eva-01") == 1


async def test_the_move_and_the_turn_it_ended_are_one_commit_and_each_is_undone_on_its_own(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """The end of the turn a Full move left is written with the move, in one transaction, and logged as an order
    of its own with the state before it: the GM's `/gm undo` takes back the end of the turn alone."""
    await duel(table)
    battles = table.service.db.battles
    commit = battles.commit_orders
    written: list[list[str]] = []

    async def counted(*args: Any, **kwargs: Any) -> Any:
        written.append([step.event.kind for step in kwargs["steps"]])
        return await commit(*args, **kwargs)

    monkeypatch.setattr(battles, "commit_orders", counted)
    version = (await stored(table)).version
    await table.slash("move", user=table.alice, unit="Eva-01", to="F3", mode="full")
    assert written == [["move", "end-turn"]]
    assert (await stored(table)).version == version + 2
    kinds = [e.kind for e in await table.service.db.events.list((await stored(table)).id, limit=2)]
    assert kinds == ["end-turn", "move"]
    await table.gm_slash("gm undo")
    back = await stored_battle(table)
    assert str(back.unit("Eva-01").cell) == "F3" and back.turn.done == {}


async def test_the_phase_a_move_ended_by_itself_calls_its_players_at_once(table: Table) -> None:
    """The ping of the phase the end of turn began is sent by the process that committed it, at once, like the
    ping of a turn ended by hand, not left to the outbox's loop."""
    await duel(table)
    before = posted(table)
    await table.slash("move", user=table.alice, unit="Eva-01", to="F3", mode="full")
    await table.service.drain()
    [prompt] = prompts(new_since(table, before))
    assert "Angels phase" in prompt.content and prompt.pings.users == {table.gm.id}
