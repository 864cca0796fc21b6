"""The Combat Action orders and their handlers (importing the modules declares them)."""

from rules.systems.combat_action.actions import fire, play, setup

__all__ = ["fire", "play", "setup"]
