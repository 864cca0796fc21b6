"""Plain records handed in and out of the repositories."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal, NamedTuple, get_args

import orjson

from rules.replay import ReplayError, Step, replay

from .errors import StorageError

JsonDict = dict[str, Any]


def decode_document(text: str | bytes) -> JsonDict:
    """Parse a stored JSON document that must be an object."""
    value = orjson.loads(text)
    if not isinstance(value, dict):
        raise ValueError(f"stored document is a {type(value).__name__}, not an object")
    return value


def rebuild(document: str, steps: Sequence[Step]) -> str:
    """Return the state a stored document reaches when the orders logged after it are replayed on it.

    Each order is applied again with the dice its log entry recorded, so nothing is rolled again; a log that no
    longer replays (a rule changed under a running battle) is a storage fault, said with the order it stopped at.
    """
    try:
        battle = replay(decode_document(document), steps)
    except ReplayError as exc:
        raise StorageError(f"the orders logged after the stored state do not replay: {exc.message} Start the "
                           "version of battlepost that gave them and stop it cleanly (a clean stop writes every "
                           "battle's state whole), then start this one again.") from None
    return orjson.dumps(battle.to_dict()).decode()

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
# How much vacation moves a player's deadlines in one battle, unless its GM says otherwise: two weeks.
DEFAULT_VACATION_ALLOWANCE = 14 * 86_400.0
DEFAULT_REMINDERS: tuple[str, ...] = ("50%", "1h")

# What a battle row keeps as its turn when no turn is running (NULL there means: not known).
NO_TURN = ""


class Turn(Enum):
    """Say that the turn a committed state is in is not known (the caller did not work it out)."""

    UNKNOWN = "unknown"


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
    """Hold one battle with its state document, decoded only when first read.

    Finding a battle (by channel, by id) never pays for parsing its state: `document` is the state as last
    written whole, `tail` the orders logged since (each with the dice it rolled), and `state` parses the
    document and replays the tail on first use (once per record).
    """

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
    document: str = field(repr=False)
    version: int
    tail: tuple[Step, ...] = field(default=(), repr=False)
    # A battle just committed without its document written: the state, encoded from the battle in memory on use.
    source: Callable[[], str] | None = field(default=None, repr=False, compare=False)
    _state: JsonDict | None = field(default=None, init=False, repr=False, compare=False)
    _text: str | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def state(self) -> JsonDict:
        """Return the state document (parsed on first use; callers copy before changing it)."""
        found = self._state
        if found is None:
            found = decode_document(self.state_text)
            object.__setattr__(self, "_state", found)
        return found

    @property
    def state_text(self) -> str:
        """Return the state as a JSON document: the stored one, or the stored one with the tail replayed on it."""
        found = self._text
        if found is not None:
            return found
        if self.source is not None:
            found = self.source()
        elif self.tail:
            found = rebuild(self.document, self.tail)
        else:
            return self.document
        object.__setattr__(self, "_text", found)
        return found

    @classmethod
    def of(cls, summary: BattleSummary, document: str, tail: tuple[Step, ...] = (),
           source: Callable[[], str] | None = None) -> BattleRecord:
        """Return a battle from its summary, its state as last written whole and the orders logged since."""
        return cls(summary.id, summary.guild_id, summary.channel_id, summary.thread_id, summary.name, summary.ruleset,
                   summary.status, summary.created_by, summary.created_at, summary.updated_at, document,
                   summary.version, tail, source)

    def at(self, summary: BattleSummary) -> BattleRecord:
        """Return this battle's state under a newer reading of its row at the same version (a channel moved)."""
        if summary.id != self.id or summary.version != self.version:
            raise ValueError(f"battle {summary.id} at version {summary.version} is not this state's")
        found = BattleRecord.of(summary, self.document, self.tail, self.source)
        object.__setattr__(found, "_text", self._text)
        object.__setattr__(found, "_state", self._state)
        return found

    @property
    def summary(self) -> BattleSummary:
        """Return the battle without its state."""
        return BattleSummary(self.id, self.guild_id, self.channel_id, self.thread_id, self.name, self.ruleset,
                             self.status, self.created_by, self.created_at, self.updated_at, self.version)


class Committed(NamedTuple):
    """What a committed order left: the battle after it and the order's number in the battle's log."""

    record: BattleRecord
    seq: int


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
    created_at: float | None = None  # when the order was first given (an import keeps it); None: now


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
    zone: str | None = None  # the battle's IANA zone for clock hours, weekends and quiet hours (UTC if None)
    at_minute: int | None = None  # turns are due at this clock hour (minutes after midnight), if set
    skip_weekends: bool = False
    quiet: tuple[int, int] | None = None  # quiet hours, from and to (minutes after midnight)
    bank: tuple[float, float, float] | None = None  # time bank: start, per turn, cap (seconds)
    banks: dict[str, float] = field(default_factory=dict)  # side -> seconds in its bank as its turn began
    bank_due: tuple[str, ...] = ()  # the sides whose banks the current turn spends
    vacation_allowance: float = DEFAULT_VACATION_ALLOWANCE
    vacation_used: dict[str, float] = field(default_factory=dict)  # user id -> vacation used, earlier turns
    vacation_turn: dict[str, float] = field(default_factory=dict)  # user id -> vacation used, this turn

    @property
    def paused(self) -> bool:
        """Return whether the GM has stopped the clock."""
        return self.paused_at is not None

    @property
    def vacation_shift(self) -> float:
        """Return how far vacations moved the current turn's deadline."""
        return max(self.vacation_turn.values(), default=0.0)

    def vacation_total(self, user_id: int) -> float:
        """Return how much of this battle's vacation allowance a player has used, this turn included."""
        key = str(user_id)
        return self.vacation_used.get(key, 0.0) + self.vacation_turn.get(key, 0.0)


@dataclass(frozen=True, slots=True)
class VacationRecord:
    """Hold a player's time away from every battle of a server."""

    id: int
    guild_id: int
    user_id: int
    starts: float
    ends: float
    created_at: float
