"""Fill an embed field by field without passing Discord's limits (6,000 characters, 25 fields)."""

from __future__ import annotations

import discord

EMBED_BUDGET = 5700  # Discord refuses embeds over 6000 characters in all; keep room for the footer and a note
MAX_FIELDS = 24  # one of Discord's 25 is kept for a closing note


class EmbedFields:
    """Add fields to an embed while keeping its total size under Discord's limits."""

    def __init__(self, embed: discord.Embed) -> None:
        self.embed = embed
        self.used = len(embed.title or "") + len(embed.description or "")
        self.dropped = 0
        self.cut = 0

    def add(self, name: str, lines: list[str]) -> bool:
        """Add a field of whole lines, saying how many more there were when not all fit."""
        name = name[:256]
        room = min(1024, EMBED_BUDGET - self.used - len(name))
        value = ""
        for count in range(len(lines), 0, -1):
            shown = lines[:count]
            if count < len(lines):
                shown = [*shown, f"\u2026 and {len(lines) - count} more"]
            candidate = "\n".join(shown)
            if len(candidate) <= room:
                value = candidate
                self.cut += count < len(lines)
                break
        if not value or len(self.embed.fields) >= MAX_FIELDS:
            self.dropped += 1
            return False
        self.embed.add_field(name=name, value=value, inline=False)
        self.used += len(name) + len(value)
        return True
