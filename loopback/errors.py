"""Errors the stand-in raises in the test (not over HTTP)."""

from __future__ import annotations


class InteractionError(Exception):
    """Say a test asked for an interaction Discord would never send (unknown command, bad option...)."""


class HiddenCommandError(InteractionError):
    """Say Discord hides a command from a member: it needs permissions they lack (Manage Server for /gm)."""

    def __init__(self, message: str, *, command: str, user: str) -> None:
        super().__init__(message)
        self.command = command
        self.user = user
