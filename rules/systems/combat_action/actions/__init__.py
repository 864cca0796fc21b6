"""The Combat Action orders and their handlers (importing the modules declares them)."""

from rules.systems.combat_action.actions import close, fire, other, play, setup, transport, weapons

__all__ = ["close", "fire", "other", "play", "setup", "transport", "weapons"]
