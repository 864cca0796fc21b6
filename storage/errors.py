"""Exceptions raised by the storage layer."""

from __future__ import annotations

from rules.errors import GameError


class StorageError(Exception):
    """Base class for every error the storage layer raises on purpose."""


class MigrationError(StorageError):
    """Signal that the schema could not be brought to the expected version."""


class BattleNotFound(StorageError, LookupError):
    """Signal that no battle has the given id."""

    def __init__(self, battle_id: int) -> None:
        super().__init__(f"battle {battle_id} does not exist")
        self.battle_id = battle_id


class StaleVersionError(StorageError):
    """Signal that the battle changed since it was loaded (optimistic versioning)."""

    def __init__(self, battle_id: int, expected: int, actual: int) -> None:
        super().__init__(f"battle {battle_id} is at version {actual}, not {expected}")
        self.battle_id = battle_id
        self.expected = expected
        self.actual = actual


class NothingToUndo(StorageError):
    """Signal that fewer undoable events exist than were asked for."""

    def __init__(self, battle_id: int, requested: int, available: int) -> None:
        super().__init__(f"battle {battle_id} has {available} undoable order(s), {requested} requested")
        self.battle_id = battle_id
        self.requested = requested
        self.available = available


class DatabaseAddressError(StorageError):
    """Signal that BATTLEPOST_DB is not a path or URL battlepost can use."""


class DatabaseUnavailable(StorageError):
    """Signal that the database server could not be reached or refused the connection."""


class TooLargeToStore(StorageError, GameError):
    """Signal that a document holds a number past the 64 bits stored JSON keeps; nothing was written."""
