"""Order handlers, one module per family; importing this package registers them."""

from rules.actions import checks, move, setup

__all__ = ["checks", "move", "setup"]
