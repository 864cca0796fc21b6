"""The largest files the limits allow, for the import tests and benchmarks: 400 units, one a square."""

from __future__ import annotations

from rules.battle import MAX_UNITS
from rules.coords import Cell

SIDE = 40  # a 40x40 map holds 400 units with room to spare


def strategic_units(count: int = MAX_UNITS, prefix: str = "Trooper") -> bytes:
    """Return a Strategic stat-block file of `count` units with a weapon each, one a square."""
    blocks = [f'[[unit]]\nname = "{prefix} {n}"\nside = "{"Blue" if n % 2 else "Red"}"\n'
              f'at = "{Cell(n % SIDE, n // SIDE)}"\nws = 30\nbs = 35\ns = 30\nt = 32\nag = 32\nwounds = 12\n\n'
              f'[[unit.weapons]]\nname = "Rifle"\nrange = 100\ndamage = "1d10+3"\ntype = "I"\npen = 1\n'
              for n in range(count)]
    return "\n".join(blocks).encode()


def combat_action_units(count: int = MAX_UNITS) -> bytes:
    """Return a Combat Action stat-block file of `count` units, one a square."""
    blocks = [f'[[unit]]\nname = "Raider {n}"\nside = "{"Blue" if n % 2 else "Red"}"\n'
              f'at = "{Cell(n % SIDE, n // SIDE)}"\nkind = "infantry"\nsquad = "S{n // 10}"\nss = 4\npf = 0\nmv = 10\n'
              f'weapons = [{{ name = "Rifle", class = "rifle", pen = 1 }}]\n' for n in range(count)]
    return "\n".join(blocks).encode()
