"""The M42 system's order classes and handlers, declared into one table."""

from __future__ import annotations

from rules import turnorders
from rules.system import HandlerTable

# Units act in turns, so the core's turn orders (end-turn, hold...) are played as they are.
TABLE = HandlerTable(turnorders.TABLE)
handles = TABLE.handles
checks = TABLE.checks
order = TABLE.order
