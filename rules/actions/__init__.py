"""Order handlers, one module per family; importing this package registers them."""

from rules.actions import battlefield as battlefield  # next round, fires, traps
from rules.actions import checks, move, setup
from rules.actions import combat as combat  # attacks
from rules.actions import features as features  # artificial features
from rules.actions import gm as gm  # GM overrides (gm-place, gm-set)
from rules.actions import other as other  # aim, hide, maneuver, defend, act
from rules.actions import terrain as terrain  # map files
from rules.actions import turns as turns  # the turn orders (end-turn, hold, standing orders...)

__all__ = ["checks", "move", "setup"]
