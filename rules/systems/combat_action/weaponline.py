"""Combat Action weapons written in one line (`/unit add weapons:`): `Lasgun rifle pen1 ammo6; Blade close-combat`.

The words set the fields of a stat block's weapon table (docs/statblocks.md), which the stat reader then
checks as it checks a file's: the class (`pistol`, `rifle`, `very-heavy`, `close-combat`...), `pen2`,
`ammo6` (shots before a reload), `max:L` (the profile's own longest band), `area` (an area weapon that is
not a grenade), and `jammed` or `disabled`.
"""

from __future__ import annotations

import re
from typing import Any

from rules.systems.combat_action.tables import tables
from rules.weaponline import WeaponLine, WordError

_NUMBERED = re.compile(r"^(pen|ammo)(\d{1,3})$", re.IGNORECASE)
_BAND = re.compile(r"^max:([A-Za-z]{1,3})$", re.IGNORECASE)
_FLAGS = ("jammed", "disabled")


def _class(word: str) -> str | None:
    key = word.lower().replace("-", "_")
    return key if key in tables().weapon_classes else None


def is_profile_word(word: str) -> bool:
    """Return whether a word belongs to a weapon's profile, not to its name."""
    return bool(_class(word) or _NUMBERED.match(word) or _BAND.match(word) or word.lower() in (*_FLAGS, "area"))


def read_word(weapon: dict[str, Any], word: str) -> None:
    """Set the weapon field a profile word writes."""
    if (wclass := _class(word)) is not None:
        if "class" in weapon:
            raise WordError(f"is a second class; the weapon is already `{weapon['class']}`")
        weapon["class"] = wclass
    elif m := _NUMBERED.match(word):
        weapon[m.group(1).lower()] = int(m.group(2))
    elif m := _BAND.match(word):
        weapon["max_band"] = m.group(1).upper()
    elif word.lower() in _FLAGS:
        weapon[word.lower()] = True
    elif word.lower() == "area":
        weapon["area"] = "other"
    else:
        classes = ", ".join(k.replace("_", "-") for k in tables().weapon_classes)
        raise WordError(f"is not a class ({classes}), `pen2`, `ammo6`, `max:L`, `area`, `jammed` or `disabled`")


NOTATION = WeaponLine(
    is_profile_word=is_profile_word,
    read_word=read_word,
    guide=("After each weapon's name: its class (`pistol`, `rifle`, `sniping`, `heavy`, `very-heavy`, `assault`, "
           "`grenades`, `close-combat`, `heavy-close-combat`, `starcraft`), then if need be `pen2`, `ammo6`, "
           "`max:L` (its longest band), `area`; `;` between weapons."),
    example="Lasgun rifle pen1 ammo6; Chainsword close-combat pen2",
)
