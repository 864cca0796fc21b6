"""The storage interface both backends implement: run programs, lock across processes, report the schema."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from enum import IntEnum
from typing import Protocol, TypeVar

from .program import Program

T = TypeVar("T")


class LockSpace(IntEnum):
    """Name what a cross-process lock guards, so a battle's lock and its board's lock never collide."""

    BATTLE = 1
    BOARD = 2


class Engine(Protocol):
    """Run storage programs on one backend (SQLite file or PostgreSQL server)."""

    backend: str

    async def read(self, program: Program[T]) -> T:
        """Run a program that only reads."""
        ...

    async def write(self, program: Program[T]) -> T:
        """Run a program as one transaction: every step or none."""
        ...

    def lock(self, space: LockSpace, key: int) -> AbstractAsyncContextManager[None]:
        """Hold a lock that every process sharing this database respects, until the block ends."""
        ...

    async def schema_version(self) -> int:
        """Return the number of the last migration applied."""
        ...

    def describe(self) -> str:
        """Say where the data lives, with no password in it."""
        ...

    async def close(self) -> None:
        """Release the connections."""
        ...
