"""One /move is one trip into the table service and at most one generation of the unit's legal orders.

The game's decisions after a move (which mode is cheapest, whether the unit has anything left to do) are the
rules' and the service's, made in the order's own trip; the Discord layer only formats what it is told, from
what it already read: whether the reply offers Undo is judged on the battle read before the order and the one
the order left, not on the state before it read back from the log and decoded again.
The counters below wrap the real service, the real generator, the real decoder and the real log: everything
they count still runs.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest

import bot.clock
from bot.service import BattleRecord, Result
from rules.battle import Battle
from rules.coords import Cell
from rules.orders import Move
from rules.system import system_of
from tests.e2e.combat_helpers import RIFLE, add, battle_with, give, start, stored, stored_battle
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.turn_helpers import end_turn, new_since, posted, prompts


class Counts:
    """How often the service was entered from outside, and how often each unit's legal orders were generated."""

    def __init__(self) -> None:
        self.trips = 0
        self.generated: dict[str, int] = {}
        self.decoded = 0  # battles built from a stored document, on any thread
        self.read_back = 0  # states before an order read back from the log
        self.looked_up = 0  # lookups of the channel's battle
        self.turn_keys: list[int] = []  # the thread of each turn key worked out during a trip into the service
        self._inside = 0

    def reset(self) -> None:
        """Forget what setting the battle up counted."""
        self.trips = self.decoded = self.read_back = self.looked_up = 0
        self.generated.clear()
        self.turn_keys.clear()


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

    decode = Battle.from_dict.__func__  # type: ignore[attr-defined]

    def decoding(cls: type[Battle[Any]], data: dict[str, Any]) -> Battle[Any]:
        found.decoded += 1
        return decode(cls, data)  # type: ignore[no-any-return]

    state_before = table.db.events.state_before

    async def reading_back(*args: Any, **kwargs: Any) -> dict[str, Any] | None:
        found.read_back += 1
        return await state_before(*args, **kwargs)

    battle_here = service.battle_here

    async def looking_up(*args: Any, **kwargs: Any) -> BattleRecord:
        found.looked_up += 1
        return await battle_here(*args, **kwargs)

    turn_key = bot.clock.turn_key

    def keying(battle: Battle[Any]) -> str | None:
        if found._inside:
            found.turn_keys.append(threading.get_ident())
        return turn_key(battle)

    # Every module that imported the function by name calls it through its own name: each is counted.
    for module in list(sys.modules.values()):
        if getattr(module, "turn_key", None) is turn_key:
            monkeypatch.setattr(module, "turn_key", keying)
    monkeypatch.setattr(service, "execute", counted)
    monkeypatch.setattr(system, "legal_orders", generating)
    monkeypatch.setattr(Battle, "from_dict", classmethod(decoding))
    monkeypatch.setattr(table.db.events, "state_before", reading_back)
    monkeypatch.setattr(service, "battle_here", looking_up)
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


async def test_a_move_works_each_turn_key_out_once_and_off_the_event_loop(table: Table, counts: Counts) -> None:
    """An order's trip works out the turn of the battle before it and after each order it committed, once each,
    in the rules' thread: the event loop (which answers everyone) works none out, not even for the turn a move
    began by ending its unit's turn, whose clock starts in the same trip."""
    await duel(table)
    loop_thread = threading.get_ident()
    for to, mode, orders in (("D3", "half", 1), ("F3", "half", 2)):
        counts.reset()
        reply = await table.slash("move", user=table.alice, unit="Eva-01", to=to, mode=mode)
        assert "Eva-01" in text_of(reply)
        assert counts.trips == 1
        assert 0 < len(counts.turn_keys) <= 1 + orders, counts.turn_keys
        assert loop_thread not in counts.turn_keys
    # The second move spent the last point: the turn it ended began the Angels' phase, with its deadline.
    assert "Eva-01 has nothing left to do, so its turn ends." in text_of(reply)
    assert (await table.service.db.clocks.get((await stored(table)).id)).turn_key == \
        bot.clock.turn_key(await stored_battle(table))


def offers_undo(reply: Any) -> bool:
    """Return whether a reply carries the Undo button."""
    return any(c.startswith("bp:undo:") for c in last_message(reply).custom_ids())


async def test_a_moves_undo_is_judged_on_the_battles_already_read(table: Table, counts: Counts) -> None:
    """The reply offers Undo (no dice, nothing hidden) without reading the state before the move back from the
    log: the battle the command read before the order is that state. At most the order's own fresh copy is
    decoded, where the undo check used to decode the two states around the order again."""
    await duel(table)
    counts.reset()
    reply = await table.slash("move", user=table.alice, unit="Eva-01", to="D3", mode="half")
    assert offers_undo(reply)
    assert counts.read_back == 0
    assert counts.decoded <= 1


async def test_a_turn_end_looks_its_battle_up_once_and_reads_nothing_back(table: Table, counts: Counts) -> None:
    """/turn end finds the channel's battle once for asking, ending and answering, and judges its Undo on the
    battles it holds; the turn handed to the other side is not one its player may take back alone."""
    await duel(table)
    # Moved by the GM straight through the service: both points spent, and the turn left for its player to end.
    await give(table, Move(unit="Eva-01", to=Cell.parse("F3"), mode="full"))
    counts.reset()
    reply = await table.slash("turn end", user=table.alice, unit="Eva-01")
    assert "End the turn" not in text_of(reply)  # nothing unused, so nothing is asked
    assert "Eva-01" in text_of(reply)
    assert counts.looked_up == 1
    assert counts.read_back == 0
    assert not offers_undo(reply)  # it began the Angels' turn, whose players were called


async def test_a_confirmed_turn_end_reads_nothing_back(table: Table, counts: Counts) -> None:
    """Ending a turn with points unused asks first; the confirmed end judges its Undo on the battles in hand."""
    await duel(table)
    counts.reset()
    reply = await end_turn(table, user=table.alice, unit="Eva-01")
    assert "Eva-01" in text_of(reply)
    assert counts.read_back == 0
    assert (await stored_battle(table)).turn.done.get((await stored_battle(table)).unit("Eva-01").id) == "ended"


async def test_a_turn_called_by_dm_and_in_the_channel_works_the_units_actions_out_once(table: Table,
                                                                                       counts: Counts) -> None:
    """Alice hears of her turn by direct message; the channel's prompt shows the same actions of her one unit due,
    so they are generated once for both."""
    await table.slash("settings notify", user=table.alice, mode="dm")
    await battle_with(table, mode="side")
    await add(table, "Eva-01", "NERV", "C3", owner=table.alice, bs=50, ag=40, weapons=[RIFLE])
    await add(table, "Sachiel", "Angels", "H3", wounds=20, t=40, weapons=[RIFLE])
    counts.reset()
    await start(table)
    [dm] = table.discord.dm_messages(table.alice)
    actions = [c for c in dm.custom_ids() if c.startswith("bp:do:")]
    assert actions, dm.custom_ids()
    [prompt] = [m for m in table.discord.messages(table.channel) if any(c.startswith("bp:do:") for c in m.custom_ids())]
    assert [c for c in prompt.custom_ids() if c.startswith("bp:do:")] == actions
    assert counts.generated.get("Eva-01") == 1


async def test_an_attack_looks_its_battle_up_once(table: Table, counts: Counts) -> None:
    """/attack finds the channel's battle once, for choosing its system's attack and for giving it."""
    await duel(table)
    counts.reset()
    reply = await table.slash("attack", user=table.alice, unit="Eva-01", weapon="Pallet Rifle", target="Sachiel")
    assert "Sachiel" in text_of(reply) and not last_message(reply).ephemeral
    assert counts.looked_up == 1
    assert counts.trips == 1


async def test_taking_aim_offers_undo_from_the_battle_already_read(table: Table, counts: Counts) -> None:
    """Aiming rolls nothing and shows nothing hidden: its reply offers Undo, judged without reading back."""
    await duel(table)
    counts.reset()
    reply = await table.slash("aim", user=table.alice, unit="Eva-01")
    assert offers_undo(reply)
    assert counts.read_back == 0
