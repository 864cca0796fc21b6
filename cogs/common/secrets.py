"""Who may see which hidden things: a player sees their own sides' hidden features and hidden units.

What each viewer may see is decided in `rules.visibility`; this module only says which sides a user plays.
"""

from __future__ import annotations

from cogs.common.systems import front_end
from rules.battle import Battle
from rules.visibility import PUBLIC, Viewer, is_hidden


def own_sides(battle: Battle, user_id: int) -> list[str]:
    """Return the sides of the units a user commands, in the battle's order."""
    mine = {u.side.lower() for u in battle.iter_units() if u.owner == user_id}
    return [s.name for s in battle.sides if s.name.lower() in mine]


def player_viewer(battle: Battle, user_id: int) -> Viewer:
    """Return the viewer a player is: the sides of the units they command."""
    return Viewer.of(own_sides(battle, user_id))


def secret_sides(battle: Battle, user_id: int) -> list[str]:
    """Return the user's sides if they see something the public map leaves out, else nothing.

    That is a unit of theirs in hiding, or a secret of the battle's rule system (a hidden feature of theirs,
    or one they found, in Strategic Combat).
    """
    sides = own_sides(battle, user_id)
    viewer = Viewer.of(sides)
    own = front_end(battle).holds_secrets
    if (own is not None and own(battle, set(sides))) or any(
            is_hidden(u) and viewer.is_of(u.side) for u in battle.iter_units()):
        return sides
    return []


def secret_viewer(battle: Battle, user_id: int) -> Viewer:
    """Return the viewer a private answer to this user is drawn for: their sides if they hold secrets, else public."""
    sides = secret_sides(battle, user_id)
    return Viewer.of(sides) if sides else PUBLIC
