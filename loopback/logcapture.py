"""Catch errors that discord.py (or the bot) only logs, so tests can fail on them."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from types import TracebackType

log = logging.getLogger(__name__)

# discord.py reports exceptions in event handlers, views and the command tree only through these loggers.
WATCHED_LOGGERS = ("discord", "bot", "cogs", "loopback")


class _Collector(logging.Handler):
    def __init__(self, sink: list[logging.LogRecord], level: int) -> None:
        super().__init__(level)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        self.sink.append(record)


class ErrorLogCapture:
    """Collect records at ERROR or above from the discord, bot, cogs and loopback loggers while active."""

    def __init__(self, loggers: Iterable[str] = WATCHED_LOGGERS, level: int = logging.ERROR) -> None:
        self.logger_names = tuple(loggers)
        self.level = level
        self.records: list[logging.LogRecord] = []
        self._handler = _Collector(self.records, level)

    def __enter__(self) -> ErrorLogCapture:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def start(self) -> None:
        """Attach the collector to every watched logger."""
        for name in self.logger_names:
            logging.getLogger(name).addHandler(self._handler)

    def stop(self) -> None:
        """Detach the collector."""
        for name in self.logger_names:
            logging.getLogger(name).removeHandler(self._handler)

    def take(self) -> list[logging.LogRecord]:
        """Return the records caught so far and forget them (for tests that expect an error)."""
        taken = list(self.records)
        self.records.clear()
        return taken

    def report(self) -> str:
        """Describe every caught record, with its traceback, for a failure message."""
        formatter = logging.Formatter("%(levelname)s %(name)s: %(message)s")
        return "\n\n".join(formatter.format(record) for record in self.records)

    def __bool__(self) -> bool:
        return bool(self.records)

    def __len__(self) -> int:
        return len(self.records)
