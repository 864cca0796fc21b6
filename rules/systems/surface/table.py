"""The Surface Combat system's order classes and handlers, declared into one table."""

from __future__ import annotations

from rules.system import HandlerTable

TABLE = HandlerTable()
handles = TABLE.handles
checks = TABLE.checks
order = TABLE.order
