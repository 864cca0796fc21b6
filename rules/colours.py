"""A side's colour: the one its GM gave it, else the colour its name says ("Red Army" is red), else the palette's.

One function (`side_colours`) decides every side's colour, so the map's tokens, its legend, the charts and
any other view of the battle agree. The palette's colours are told apart by colour-blind players (the
Okabe-Ito set), and a side without a colour of its own never gets one a named side already wears.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from rules.errors import InvalidOrderError

if TYPE_CHECKING:
    from rules.battle import Battle, Side
    from rules.dice import Dice
    from rules.orders import SetSideColour
    from rules.outcome import Outcome


RGB = tuple[int, int, int]

# English colour names a side may be called by, matched as a whole word of its name, case-insensitively.
NAMED: dict[str, RGB] = {
    "red": (200, 40, 40), "crimson": (180, 20, 50), "scarlet": (220, 40, 30), "maroon": (120, 20, 30),
    "blue": (40, 90, 200), "navy": (30, 40, 120), "azure": (40, 130, 230),
    "green": (40, 150, 60), "lime": (120, 200, 40), "olive": (110, 120, 40),
    "yellow": (235, 200, 30), "gold": (215, 170, 40), "golden": (215, 170, 40),
    "orange": (235, 120, 20), "amber": (240, 170, 20),
    "purple": (130, 60, 160), "violet": (140, 80, 200), "indigo": (75, 40, 140), "magenta": (200, 40, 160),
    "black": (30, 30, 32), "white": (240, 240, 236), "silver": (190, 192, 198),
    "grey": (128, 128, 128), "gray": (128, 128, 128),
    "brown": (130, 80, 40), "bronze": (170, 110, 50), "pink": (235, 120, 170), "rose": (220, 90, 130),
    "cyan": (30, 190, 210), "teal": (20, 140, 140), "turquoise": (50, 200, 190),
}
# The palette of sides without a colour of their own: the Okabe-Ito colours, told apart with any colour vision.
PALETTE: tuple[RGB, ...] = (
    (0, 114, 178), (213, 94, 0), (0, 158, 115), (230, 159, 0), (204, 121, 167), (86, 180, 233), (240, 228, 66),
    (0, 0, 0),
)
# Two colours nearer than this (squared distance in RGB) read as one: a palette colour that near a named
# side's is taken.
NEAR = 110 ** 2
_HEX = re.compile(r"#?([0-9a-fA-F]{6})")


def hex_of(c: RGB) -> str:
    """Return a colour as `#rrggbb`."""
    return "#{:02x}{:02x}{:02x}".format(*c)


def parse_colour(text: str) -> RGB:
    """Return the colour a GM wrote: an English colour name or `#rrggbb`; refuse anything else, saying why."""
    word = text.strip().lower()
    if word in NAMED:
        return NAMED[word]
    found = _HEX.fullmatch(word)
    if found:
        raw = found.group(1)
        return (int(raw[0:2], 16), int(raw[2:4], 16), int(raw[4:6], 16))
    names = ", ".join(sorted(k for k in NAMED if k != "gray"))
    raise InvalidOrderError(f"`{text.strip()[:40]}` is not a colour: give `#rrggbb` (like `#c82828`) or one of {names}.")


def colour_named_by(name: str) -> RGB | None:
    """Return the colour a side's name says (its first word that is a colour's name), or None."""
    for word in re.findall(r"[a-z]+", name.lower()):
        if word in NAMED:
            return NAMED[word]
    return None


def _near(a: RGB, b: RGB) -> bool:
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) < NEAR


def side_colours(battle: Battle[Any]) -> dict[str, RGB]:
    """Return every side's colour by name: its GM's, else its name's, else the first palette colour free.

    The palette goes by the sides' order of creation, skipping colours a named side (or an earlier side) wears.
    """
    out: dict[str, RGB] = {}
    for side in battle.sides:
        own = parse_colour(side.paint) if side.paint else colour_named_by(side.name)
        if own is not None:
            out[side.name] = own
    named = list(out.values())
    # A palette colour near a named side's would read as that side; those left go round for the other sides.
    free = [c for c in PALETTE if not any(_near(c, t) for t in named)] or list(PALETTE)
    others = sorted((s for s in battle.sides if s.name not in out), key=lambda s: s.color)
    for i, side in enumerate(others):
        out[side.name] = free[i % len(free)]
    return out


def check_side_colour(battle: Battle[Any], order: SetSideColour) -> tuple[Side, str]:
    """Check a side's colour order: the battle goes on, the side exists, the colour reads; return both."""
    if battle.status == "ended":
        raise InvalidOrderError("This battle has ended; nothing on it can change any more.")
    side = battle.side(order.side)
    if side is None:
        sides = ", ".join(s.name for s in battle.sides) or "none yet"
        raise InvalidOrderError(f"There is no side `{order.side.strip()[:40]}` in this battle; its sides: {sides}.")
    return side, hex_of(parse_colour(order.colour))


def set_side_colour(battle: Battle[Any], order: SetSideColour, dice: Dice, outcome: Outcome) -> None:
    """Give a side the colour its GM chose (a name or `#rrggbb`), kept as `#rrggbb`."""
    side, paint = check_side_colour(battle, order)
    side.paint = paint
