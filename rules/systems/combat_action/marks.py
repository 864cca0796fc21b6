"""What the map says of a Combat Action unit: its status badges, facing, damage and squad, in words and letters.

The renderer draws what these return; they read the unit only, so the map and the unit key agree.
"""

from __future__ import annotations

from rules.systems.combat_action.tables import tables
from rules.systems.combat_action.units import Unit

# status -> the badge drawn on the token (the map legend names each badge)
STATUS_MARKS = {"pinned": "P", "routing": "R", "flat_down": "FD", "hidden": "H", "halted": "I",
                "hatch_jammed": "HJ", "aimed": "A"}
OUT_OF_CONTROL = "OC"
DAMAGED = "DL"
COMPASS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
STATE_WORDS = {"ok": "", "wounded": "wounded", "ooa": "out of action", "killed": "killed", "destroyed": "destroyed",
               "pierced": "section pierced", "collapsed": "partial collapse"}


def map_marks(unit: Unit) -> tuple[str, ...]:
    """Return the badges of a unit: its statuses, out of control, and damaged locations for a machine."""
    marks = [STATUS_MARKS[s] for s in unit.statuses if s in STATUS_MARKS]
    if unit.machine and unit.ooc_turns:
        marks.append(OUT_OF_CONTROL)
    if unit.machine and unit.damaged:
        marks.append(DAMAGED)
    return tuple(dict.fromkeys(marks))


def facing(unit: Unit) -> int | None:
    """Return the heading a machine faces, degrees clockwise from north; models show none."""
    return unit.facing if unit.machine else None


def compass(degrees: int) -> str:
    """Return a heading as the nearest of the eight compass points."""
    return COMPASS[round((degrees % 360) / 45) % 8]


def health_words(unit: Unit) -> str:
    """Return what the unit key says of a unit's damage: its state, the locations hit, its crew."""
    parts = [STATE_WORDS.get(unit.state, unit.state)]
    if unit.machine and unit.damaged:
        names = [tables().location(key).name for key in unit.damaged]
        parts.append("damaged: " + ", ".join(names))
    if unit.kind == "vehicle" and unit.crew:
        parts.append(f"crew {unit.crew}")
    return "; ".join(p for p in parts if p)


def status_words(unit: Unit) -> tuple[str, ...]:
    """Return the unit key's words for a unit: squad, facing, altitude, statuses, hatch and what it carries."""
    words = [f"{unit.squad} squad"] if unit.squad else []
    if unit.machine:
        words.append(f"facing {compass(unit.facing)}")
    if unit.flying:
        words.append(f"{unit.altitude} altitude")
    words += [s.replace("_", " ") for s in unit.statuses]
    if unit.machine and unit.ooc_turns:
        words.append("out of control")
    if "hold" in unit.locations and unit.hatch != "closed":
        words.append(f"hatch {unit.hatch}")
    return tuple(words)
