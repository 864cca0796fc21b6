"""Order handlers, one module per family; importing this package registers them."""

from rules.systems.strategic.actions import battlefield as battlefield  # next round, fires, traps
from rules.systems.strategic.actions import charge as charge  # a charge and its melee attack
from rules.systems.strategic.actions import checks, move, setup
from rules.systems.strategic.actions import combat as combat  # attacks
from rules.systems.strategic.actions import features as features  # artificial features
from rules.systems.strategic.actions import gm as gm  # GM overrides (gm-place, gm-set)
from rules.systems.strategic.actions import homebrew as homebrew  # a battle's own terrain and features
from rules.systems.strategic.actions import other as other  # aim, hide, maneuver, defend, act
from rules.systems.strategic.actions import terrain as terrain  # map files

__all__ = ["checks", "move", "setup"]
