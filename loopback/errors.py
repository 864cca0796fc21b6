"""Errors the stand-in raises in the test (not over HTTP)."""

from __future__ import annotations


class InteractionError(Exception):
    """Say a test asked for an interaction Discord would never send (unknown command, bad option...)."""
