"""The Strategic Combat system's order classes and handlers, declared into one table."""

from __future__ import annotations

from rules import turnorders
from rules.system import HandlerTable

# Units take turns: the core's turn orders (end-turn, hold, standing orders...) are played as they are.
TABLE = HandlerTable(turnorders.TABLE)
handles = TABLE.handles
checks = TABLE.checks
order = TABLE.order
