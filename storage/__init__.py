"""Persistence for battlepost: one SQLite connection, migrations, repositories, backups."""

from .battles import BattleRepo
from .clocks import ClockRepo
from .db import Database
from .errors import BattleNotFound, MigrationError, NothingToUndo, StaleVersionError, StorageError
from .events import EventRepo
from .importlog import pack_event
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
    LoggedEvent,
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
    "DeadlinePolicy",
    "EventRecord",
    "EventRepo",
    "GuildRepo",
    "GuildSettings",
    "JsonDict",
    "LoggedEvent",
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
    "pack_event",
]
