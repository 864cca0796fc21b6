"""What the table service and the jobs beside it share: who asks, what an action produced, what listeners hear.

The scheduler and the archive work through the service but sit beside it, so they see it as a `Table`:
the few doors of the service they use, declared here. The service satisfies it; nothing here imports it.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.clock import TurnClocks, TurnStart
from bot.locks import BattleLocks
from bot.maps import MapImage
from rules.battle import Battle
from rules.orders import Order
from rules.outcome import Outcome
from storage import BattleRecord, ClockRecord, Database

# The actor id the bot itself acts under (deadlines): no Discord user has id 0.
SYSTEM_USER_ID = 0


@dataclass(frozen=True)
class Actor:
    """Who is asking: a user in a guild, with what Discord says about their rights."""

    user_id: int
    guild_id: int
    name: str = ""
    role_ids: frozenset[int] = frozenset()
    manage_guild: bool = False

    @property
    def is_system(self) -> bool:
        """Return whether this is the bot acting on its own (a deadline passing)."""
        return self.user_id == SYSTEM_USER_ID


@dataclass
class Result:
    """What an action produced: the battle after it, the outcome, and the map to post."""

    record: BattleRecord
    battle: Battle
    outcome: Outcome | None = None
    png: MapImage | None = None
    seq: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    cheapest: Order | None = None  # the move execute's `cheapest` picked; None when no mode reaches the square
    after: list[Order] | None = None  # what the followed unit may do next (execute's `follow`); None: nothing offered
    ended: Result | None = None  # the followed unit's turn, ended by itself with nothing left to do
    quiet: bool | None = None  # the order rolled no die, began no turn and showed nothing hidden; None: not judged


@dataclass(frozen=True)
class Notice:
    """Something listeners hear about after it happened: an order committed, a turn begun, a reminder due.

    kind is `created`, `committed`, `undone`, `recovered` (a turn found begun at startup), `clock` (the GM
    changed the clock), `reminder` or `deadline`. `turn` is set when a new turn began. The battle is the
    state after the change and is shared: listeners only read it.
    """

    kind: str
    record: BattleRecord
    battle: Battle
    outcome: Outcome | None = None
    actor: Actor | None = None
    seq: int | None = None
    turn: TurnStart | None = None
    clock: ClockRecord | None = None
    extra: dict[str, Any] = field(default_factory=dict)


# A listener returns False when it could not act on a notice now and the sender should try again later.
Listener = Callable[[Notice], Awaitable[bool | None]]
Clock = Callable[[], float]
RngFactory = Callable[[], random.Random]


# The log entries committed while one interaction runs, so a failure after a commit is never
# reported as "nothing was changed". Each interaction's task sets its own list; None elsewhere.
COMMITTED: ContextVar[list[int] | None] = ContextVar("battlepost_committed", default=None)


def note_committed(seq: int | None) -> None:
    """Remember that the current interaction committed a change (logged as seq)."""
    ledger = COMMITTED.get()
    if ledger is not None and seq is not None:
        ledger.append(seq)


class Table(Protocol):
    """The doors of the table service that its scheduler and its archive go through."""

    db: Database
    clock: Clock
    locks: BattleLocks
    turn_clocks: TurnClocks
    render_enabled: bool

    async def current(self, battle_id: int) -> tuple[BattleRecord, Battle] | None:
        """Return a battle as stored now, for reading only."""
        ...

    async def execute(self, actor: Actor, record: BattleRecord, order: Order, *, render: bool = True,
                      expect_turn: str | None = None, publish: bool = True) -> Result:
        """Apply one order under the battle's lock and commit it."""
        ...

    def system_actor(self, guild_id: int) -> Actor:
        """Return the actor the bot itself acts as in a guild."""
        ...

    def publish(self, notice: Notice) -> None:
        """Tell the listeners about a change, in order per battle."""
        ...

    async def deliver(self, notice: Notice) -> bool:
        """Tell the listeners about a notice now; return whether every one could act on it."""
        ...

    async def drain(self) -> None:
        """Wait until every notice sent so far has been delivered."""
        ...

    async def render(self, battle: Battle, *, full: bool = False, battle_id: int | None = None) -> MapImage | None:
        """Draw a battle's map."""
        ...
