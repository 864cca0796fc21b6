"""The rule systems battlepost ships, each a package of its own; `install()` registers every installed one.

Systems are found through the `battlepost.systems` entry point group (see `rules.plugins`), the shipped ones
included, so a system installed beside battlepost is found exactly as these are.
"""

from __future__ import annotations

from rules.plugins import discover, installed
from rules.system import System, registered


def builtin() -> list[System]:
    """Return every rule system shipped with battlepost itself (not those installed beside it)."""
    discover()
    return [done.plugin.system for done in installed() if done.distribution == "battlepost"]


def install() -> list[System]:
    """Register every installed rule system (idempotent) and return the registered systems."""
    discover()
    return registered()


__all__ = ["builtin", "install"]
