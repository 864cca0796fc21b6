"""Map images as Discord attachments: one file per message, with its alt text for screen readers."""

from __future__ import annotations

import io

import discord

from bot.service import MapImage
from rules.outcome import Highlight

MAP_NAME = "map.png"
# Highlight keys that draw something on the map; an outcome marking only its actor needs no picture.
DRAWN = ("line", "target", "path", "marks")


def draws_something(highlight: Highlight) -> bool:
    """Return whether an outcome's highlight is worth a map (a path, a shot, a target or marks)."""
    return any(getattr(highlight, key) for key in DRAWN)


def map_file(image: MapImage | None, name: str = MAP_NAME) -> discord.File | None:
    """Wrap a map as an attachment whose description (alt text) tells the map in words."""
    if image is None:
        return None
    # A File is read once, so every message gets its own.
    return discord.File(io.BytesIO(image.png), filename=name, description=image.alt or None)
