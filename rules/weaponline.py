"""Weapons written in one line, as `/unit add weapons:"Rifle r10 1d10+2; Knife melee 1d5"` takes them.

Weapons are separated by `;`. Each starts with its name (its first word always belongs to it, so a weapon
may be called `Rifle` in a system with a `rifle` class); the name runs up to the first word the system reads
as a profile word, and every word after the name must be one. A system says which words those are and what
they set (`WeaponLine`); the result is the weapon tables its stat blocks hold, checked by its own stat reader
when the unit is added or edited, so the line and a stat-block file are read by one implementation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.errors import InvalidOrderError, shorten

MAX_LINE = 1000  # characters of one weapons option: Discord's option limit is 6,000, a unit's 20 weapons fit
MAX_WEAPONS_TYPED = 20
CLEAR = ("none", "-")


class WordError(ValueError):
    """A word of a weapon's profile the system cannot read; its message says what the word should be."""


@dataclass(frozen=True)
class WeaponLine:
    """How one rule system writes a weapon in a line: which words are profile words, and what each sets."""

    is_profile_word: Callable[[str], bool]
    # (weapon table so far, word) -> None; fills the table, or raises WordError saying what was expected.
    read_word: Callable[[dict[str, Any], str], None]
    guide: str  # one or two sentences: each word and what it sets, for /help and refusals
    example: str  # a whole line, like `Rifle r10 1d10+2; Knife melee 1d5`


def read_weapon_line(notation: WeaponLine, text: str) -> list[dict[str, Any]]:
    """Return the weapon tables a line of weapons writes (`none` clears them), or refuse it naming the weapon."""
    clean = text.strip().removesuffix(";").strip()  # a `;` after the last weapon ends the list
    if clean.lower() in CLEAR:
        return []
    if len(clean) > MAX_LINE:
        raise InvalidOrderError(f"`weapons` is {len(clean)} characters long; keep it under {MAX_LINE}.")
    parts = [part.strip() for part in clean.split(";")]
    if len(parts) > MAX_WEAPONS_TYPED:
        raise InvalidOrderError(f"`weapons` lists {len(parts)} weapons; a unit carries at most {MAX_WEAPONS_TYPED}.")
    out: list[dict[str, Any]] = []
    for number, part in enumerate(parts, start=1):
        if not part:
            raise InvalidOrderError(f"`weapons`: weapon {number} is empty (two `;` in a row, or one at the end). "
                                    f"Write them like `{notation.example}`.")
        out.append(_read_one(notation, number, part))
    return out


def _read_one(notation: WeaponLine, number: int, part: str) -> dict[str, Any]:
    """Read one weapon: its name, then its profile words."""
    words = part.split()
    cut = next((i for i in range(1, len(words)) if notation.is_profile_word(words[i])), len(words))
    name = " ".join(words[:cut])
    where = f"`weapons`: weapon {number} (`{shorten(part, 60)}`)"
    if cut == len(words):
        raise InvalidOrderError(f"{where} has a name but no profile. {notation.guide} "
                                f"For example `{notation.example}`.")
    weapon: dict[str, Any] = {"name": name}
    for word in words[cut:]:
        try:
            notation.read_word(weapon, word)
        except WordError as exc:
            raise InvalidOrderError(f"{where}: `{shorten(word, 30)}` {exc}. {notation.guide}") from None
    return weapon
