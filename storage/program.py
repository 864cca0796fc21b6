"""Database work written once for both backends: a program is a generator of SQL steps.

A repository method describes its transaction as a generator that yields one ``Step`` per
statement and receives that statement's result: a row (``one``), all rows (``rows``) or the
number of rows changed (``count``). The backend drives it: SQLite runs the whole generator on
its connection's thread in one hop (see ``executor``), PostgreSQL awaits each statement on a
pooled connection. So the logic of a transaction (version checks, undo, claims) exists once,
and only the SQL text can differ per dialect (``Query``).
"""

from __future__ import annotations

import re
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

T = TypeVar("T")

Want = Literal["one", "rows", "count"]

# A placeholder is a "?" outside quoted text; quoted strings are matched first so their
# question marks are skipped.
_PLACEHOLDER = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\?")


def numbered(sql: str) -> str:
    """Turn SQLite's ``?`` placeholders into PostgreSQL's ``$1, $2, ...``."""
    counter = 0

    def replace(match: re.Match[str]) -> str:
        nonlocal counter
        if match.group(0) != "?":
            return match.group(0)
        counter += 1
        return f"${counter}"

    return _PLACEHOLDER.sub(replace, sql)


@dataclass(frozen=True, slots=True)
class Query:
    """Hold one statement in each dialect; most statements are the same text with other placeholders."""

    sqlite: str
    postgres: str

    @classmethod
    def of(cls, sql: str, postgres: str | None = None) -> Query:
        """Write a statement once with ``?`` placeholders, or give PostgreSQL its own text (``?`` too)."""
        return cls(sqlite=sql, postgres=numbered(sql if postgres is None else postgres))


@dataclass(frozen=True, slots=True)
class Step:
    """Run one statement with its parameters and say what result the program wants back."""

    query: Query
    params: tuple[Any, ...]
    want: Want


Program = Generator[Step, Any, T]


def one(query: Query, *params: Any) -> Step:
    """Ask for the first row of a statement (a tuple), or None."""
    return Step(query, params, "one")


def rows(query: Query, *params: Any) -> Step:
    """Ask for every row of a statement, as tuples."""
    return Step(query, params, "rows")


def count(query: Query, *params: Any) -> Step:
    """Run a statement and ask how many rows it changed."""
    return Step(query, params, "count")


def single(query: Query, *params: Any) -> Program[Any]:
    """Return a program of one step: the commonest read."""
    return (yield one(query, *params))


def every(query: Query, *params: Any) -> Program[list[tuple[Any, ...]]]:
    """Return a program fetching every row of one statement."""
    found: list[tuple[Any, ...]] = yield rows(query, *params)
    return found


def changed(query: Query, *params: Any) -> Program[int]:
    """Return a program running one statement and reporting how many rows it changed."""
    number: int = yield count(query, *params)
    return number
