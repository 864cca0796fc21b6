"""Persistence for battlepost: one interface over SQLite (embedded) or PostgreSQL (several processes)."""

from .battles import BattleRepo, CommitStep
from .clocks import ClockRepo
from .db import Database, is_postgres
from .digests import DigestRecord, DigestRepo
from .engine import LockSpace
from .errors import (
    BattleNotFound,
    DatabaseAddressError,
    DatabaseUnavailable,
    MigrationError,
    NothingToUndo,
    StaleVersionError,
    StorageError,
)
from .events import EventRepo
from .importlog import pack_event
from .messages import MessageRepo
from .outbox import OutboxRepo, OutboxRow, Post
from .players import NEXT_TURN, PlayerRecord, PlayerRepo, PostingRecord
from .records import (
    LEASED_KIND,
    NO_TURN,
    BattleRecord,
    BattleStatus,
    BattleSummary,
    ClockRecord,
    Committed,
    DeadlinePolicy,
    EventRecord,
    GuildSettings,
    JsonDict,
    LoggedEvent,
    MessageRef,
    NewEvent,
    NewTimer,
    NotifyMode,
    TimerRecord,
    Turn,
    VacationRecord,
)
from .seats import AbsenceRecord, SeatRecord, SeatRepo
from .settings import GuildRepo, UserRepo
from .takebacks import TakebackRecord, TakebackRepo
from .timers import TimerRepo
from .weblinks import WebLinkRepo

__all__ = [
    "LEASED_KIND",
    "NEXT_TURN",
    "NO_TURN",
    "AbsenceRecord",
    "BattleNotFound",
    "BattleRecord",
    "BattleRepo",
    "BattleStatus",
    "BattleSummary",
    "ClockRecord",
    "ClockRepo",
    "CommitStep",
    "Committed",
    "Database",
    "DatabaseAddressError",
    "DatabaseUnavailable",
    "DeadlinePolicy",
    "DigestRecord",
    "DigestRepo",
    "EventRecord",
    "EventRepo",
    "GuildRepo",
    "GuildSettings",
    "JsonDict",
    "LockSpace",
    "LoggedEvent",
    "MessageRef",
    "MessageRepo",
    "MigrationError",
    "NewEvent",
    "NewTimer",
    "NothingToUndo",
    "NotifyMode",
    "OutboxRepo",
    "OutboxRow",
    "PlayerRecord",
    "PlayerRepo",
    "Post",
    "PostingRecord",
    "SeatRecord",
    "SeatRepo",
    "StaleVersionError",
    "StorageError",
    "TakebackRecord",
    "TakebackRepo",
    "TimerRecord",
    "TimerRepo",
    "Turn",
    "UserRepo",
    "VacationRecord",
    "WebLinkRepo",
    "is_postgres",
    "pack_event",
]
