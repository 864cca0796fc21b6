"""The rule systems battlepost plays, each a package of its own; `install()` registers them."""

from __future__ import annotations

from rules.system import System, register, registered


def builtin() -> list[System]:
    """Return every rule system shipped with battlepost."""
    from rules.systems.combat_action import SYSTEM as combat_action
    from rules.systems.m42 import SYSTEM as m42
    from rules.systems.strategic import SYSTEM as strategic
    from rules.systems.surface import SYSTEM as surface

    return [strategic, combat_action, surface, m42]


def install() -> list[System]:
    """Register every shipped rule system (idempotent) and return the registered systems."""
    for system in builtin():
        register(system)
    return registered()


__all__ = ["builtin", "install"]
