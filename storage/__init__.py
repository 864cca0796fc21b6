"""Persistence for battlepost: one interface over SQLite (embedded) or PostgreSQL (several processes)."""

from .battles import BattleRepo
from .clocks import ClockRepo
from .db import Database, is_postgres
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
from .messages import MessageRepo
from .records import (
    BattleRecord,
    BattleStatus,
    BattleSummary,
    ClockRecord,
    DeadlinePolicy,
    EventRecord,
    GuildSettings,
    JsonDict,
    MessageRef,
    NewEvent,
    NewTimer,
    NotifyMode,
    TimerRecord,
)
from .settings import GuildRepo, UserRepo
from .timers import TimerRepo

__all__ = [
    "BattleNotFound",
    "BattleRecord",
    "BattleRepo",
    "BattleStatus",
    "BattleSummary",
    "ClockRecord",
    "ClockRepo",
    "Database",
    "DatabaseAddressError",
    "DatabaseUnavailable",
    "DeadlinePolicy",
    "EventRecord",
    "EventRepo",
    "GuildRepo",
    "GuildSettings",
    "JsonDict",
    "LockSpace",
    "MessageRef",
    "MessageRepo",
    "MigrationError",
    "NewEvent",
    "NewTimer",
    "NothingToUndo",
    "NotifyMode",
    "StaleVersionError",
    "StorageError",
    "TimerRecord",
    "TimerRepo",
    "UserRepo",
    "is_postgres",
]
