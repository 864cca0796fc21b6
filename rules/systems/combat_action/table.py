"""The Combat Action system's order classes and handlers, declared into one table."""

from __future__ import annotations

from rules import turnorders
from rules.system import HandlerTable

# Models activate one by one: the core's turn orders are played, with this system's own end of activation.
TABLE = HandlerTable(turnorders.TABLE)
handles = TABLE.handles
checks = TABLE.checks
order = TABLE.order
