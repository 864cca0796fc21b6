"""Who may see which hidden things on the map: a player sees their own sides' hidden features."""

from __future__ import annotations

from rules.battle import Battle
from rules.systems.strategic.features import visible_features


def own_sides(battle: Battle, user_id: int) -> list[str]:
    """Return the sides of the units a user commands, in the battle's order."""
    mine = {u.side.lower() for u in battle.iter_units() if u.owner == user_id}
    return [s.name for s in battle.sides if s.name.lower() in mine]


def secret_sides(battle: Battle, user_id: int) -> list[str]:
    """Return the user's sides if they can see a hidden feature the public map leaves out, else nothing."""
    sides = own_sides(battle, user_id)
    if any(f.hidden for f in visible_features(battle, set(sides), gm=False)):
        return sides
    return []
