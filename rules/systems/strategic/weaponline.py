"""Strategic weapons written in one line (`/unit add weapons:`): `Rifle r10 1d10+2X pen4; Knife melee 1d5`.

The words set the fields of a stat block's weapon table (docs/statblocks.md), which the stat reader then
checks as it checks a file's: `r300` is the range in dam (`r30m`, `r5km`, `r4sq` in other units), `melee`
and `reach2` a melee weapon, `2d10+6X` the damage with its type, `pen4` the Penetration, and the qualities
as the rules write them (`Blast(4)`, `Cone`, `Line(6)`, `ATS(6)`, `Tearing`, `Indirect`, `Reliable`...).
"""

from __future__ import annotations

import re
from typing import Any

from rules.systems.strategic.units import RANGE_UNITS
from rules.weaponline import WeaponLine, WordError

_RANGE = re.compile(r"^r(\d{1,6})(" + "|".join(RANGE_UNITS) + r")?$", re.IGNORECASE)
_DICE = re.compile(r"^(\d{0,3}d\d{1,4}(?:[+-]\d{1,4})?)([EIRX])?$", re.IGNORECASE)
_NUMBERED = re.compile(r"^(pen|reach)(\d{1,4})$", re.IGNORECASE)
# Qualities that end a weapon's name: the ones that set a field of their own. Others follow a profile word.
_NAMED_QUALITY = re.compile(r"^(blast|line|ats)\(\d{1,3}\)$|^(cone|line|tearing|indirect)$", re.IGNORECASE)
_QUALITY = re.compile(r"^[A-Za-z][A-Za-z'-]*(\(\d{1,3}\))?$")


def is_profile_word(word: str) -> bool:
    """Return whether a word belongs to a weapon's profile, not to its name."""
    return bool(word.lower() == "melee" or _RANGE.match(word) or _DICE.match(word) or _NUMBERED.match(word)
                or _NAMED_QUALITY.match(word))


def read_word(weapon: dict[str, Any], word: str) -> None:
    """Set the weapon field a profile word writes."""
    if word.lower() == "melee":
        weapon["melee"] = True
    elif m := _RANGE.match(word):
        weapon["range"] = int(m.group(1))
        if m.group(2):
            weapon["range_unit"] = m.group(2).lower()
    elif m := _DICE.match(word):
        weapon["damage"] = m.group(1).lower()
        if m.group(2):
            weapon["type"] = m.group(2).upper()
    elif m := _NUMBERED.match(word):
        weapon[m.group(1).lower()] = int(m.group(2))
    elif _QUALITY.match(word):
        weapon.setdefault("qualities", []).append(word)
    else:
        raise WordError("is not a range, damage, Pen or quality")


NOTATION = WeaponLine(
    is_profile_word=is_profile_word,
    read_word=read_word,
    guide=("After each weapon's name: `r300` its range in dam (or `r30m`, `r5km`, `r4sq`) or `melee` (`reach2`), "
           "its damage with its type like `2d10+6X`, `pen4`, and qualities like `Blast(4)`, `Cone`, `Tearing`; "
           "`;` between weapons."),
    example="Pallet Rifle r300 2d10+6X pen4; Knife melee 1d10+10R pen12 Tearing",
)
