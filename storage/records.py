"""Plain records handed in and out of the repositories."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, get_args

JsonDict = dict[str, Any]
BattleStatus = Literal["setup", "active", "ended"]
NotifyMode = Literal["channel", "dm"]
DeadlinePolicy = Literal["wait", "hold", "default"]

BATTLE_STATUSES: frozenset[str] = frozenset(get_args(BattleStatus))
NOTIFY_MODES: frozenset[str] = frozenset(get_args(NotifyMode))
DEADLINE_POLICIES: frozenset[str] = frozenset(get_args(DeadlinePolicy))

# Timer kinds that belong to a battle's turn clock: saving the clock replaces the pending ones.
TURN_TIMER_KINDS: tuple[str, ...] = ("deadline", "reminder")
# The timer kind claimed by a lease (marked fired only once its work is done), see TimerRepo.claim_due.
LEASED_KIND = "reminder"
DEFAULT_DEADLINE = 86_400.0
DEFAULT_REMINDERS: tuple[str, ...] = ("50%", "1h")

# Event kinds the storage layer writes itself; callers may not commit them.
CREATE_KIND = "create"
UNDO_KIND = "undo"
RESERVED_KINDS: frozenset[str] = frozenset({CREATE_KIND, UNDO_KIND})


@dataclass(frozen=True, slots=True)
class BattleSummary:
    """Describe a battle without its state document."""

    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    name: str
    ruleset: str
    status: BattleStatus
    created_by: int
    created_at: float
    updated_at: float
    version: int


@dataclass(frozen=True, slots=True)
class BattleRecord:
    """Hold one battle with its decoded state document."""

    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    name: str
    ruleset: str
    status: BattleStatus
    created_by: int
    created_at: float
    updated_at: float
    state: JsonDict
    version: int


@dataclass(frozen=True, slots=True)
class NewEvent:
    """Describe an order to record alongside a state change."""

    actor_id: int
    kind: str
    order_text: str
    outcome: JsonDict | None
    hidden: bool = False


@dataclass(frozen=True, slots=True)
class LoggedEvent:
    """An order of a log written whole (an import), encoded ahead: made by pack_event() off the event loop."""

    actor_id: int
    kind: str
    order_text: str
    outcome: str | None  # the encoded outcome document
    hidden: bool
    status_before: BattleStatus
    snapshot: bytes  # the packed state before the order, which undo restores


@dataclass(frozen=True, slots=True)
class EventRecord:
    """Hold one row of a battle's event log (without its undo snapshot)."""

    battle_id: int
    seq: int
    actor_id: int
    kind: str
    order_text: str
    outcome: JsonDict | None
    hidden: bool
    undone: bool
    created_at: float


@dataclass(frozen=True, slots=True)
class TimerRecord:
    """Hold one scheduled timer (a deadline or reminder)."""

    id: int
    battle_id: int
    kind: str
    due_at: float
    payload: JsonDict
    fired_at: float | None


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """Hold one guild's GM role and default settings."""

    guild_id: int
    gm_role_id: int | None
    settings: JsonDict


class MessageRef(NamedTuple):
    """Point at a Discord message the bot edits in place."""

    channel_id: int
    message_id: int


@dataclass(frozen=True, slots=True)
class NewTimer:
    """Describe a timer to schedule together with a clock change."""

    kind: str
    due_at: float
    payload: JsonDict


@dataclass(frozen=True, slots=True)
class ClockRecord:
    """Hold a battle's turn clock: the GM's deadline rules and the current turn's deadline."""

    battle_id: int
    deadline: float = DEFAULT_DEADLINE
    policy: DeadlinePolicy = "wait"
    reminders: tuple[str, ...] = DEFAULT_REMINDERS
    turn_key: str | None = None
    turn_started: float | None = None
    due_at: float | None = None
    paused_at: float | None = None
    remaining: float | None = None
    expired_at: float | None = None

    @property
    def paused(self) -> bool:
        """Return whether the GM has stopped the clock."""
        return self.paused_at is not None
