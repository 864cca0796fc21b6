"""The last guard of Discord's embed limits: trim an embed that would be refused, whole lines first.

Reply builders keep to the limits themselves; this guard makes sure a battle bigger than any builder
expected shortens its answer ("... and 12 more lines") instead of failing the command.
"""

from __future__ import annotations

import discord

TITLE = 256
DESCRIPTION = 4096
FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
TOTAL = 6000


def shorten(text: str, limit: int) -> str:
    """Cut text to a limit at a line break where it can, saying how many lines were left out."""
    if len(text) <= limit:
        return text
    lines = text.split("\n")
    kept: list[str] = []
    used = 0
    for i, line in enumerate(lines):
        note = f"\u2026 and {len(lines) - i} more lines"
        if used + len(line) + 1 + len(note) > limit:
            if not kept:
                return text[: limit - 1] + "\u2026"
            return "\n".join([*kept, note])
        kept.append(line)
        used += len(line) + 1
    return "\n".join(kept)[:limit]


def size(embed: discord.Embed) -> int:
    """Return the characters Discord counts toward an embed's 6,000."""
    total = len(embed.title or "") + len(embed.description or "") + len(embed.footer.text or "")
    total += len(embed.author.name or "")
    return total + sum(len(f.name or "") + len(f.value or "") for f in embed.fields)


def fit(embed: discord.Embed) -> discord.Embed:
    """Trim an embed in place to what Discord accepts, and return it."""
    if embed.title:
        embed.title = shorten(embed.title, TITLE)
    if embed.description:
        embed.description = shorten(embed.description, DESCRIPTION)
    fields = embed.fields
    if len(fields) > FIELDS:
        for _ in range(len(fields) - FIELDS):
            embed.remove_field(FIELDS)
    for i, f in enumerate(embed.fields):
        embed.set_field_at(i, name=shorten(f.name or "\u200b", FIELD_NAME), value=shorten(f.value or "\u200b", FIELD_VALUE),
                           inline=f.inline)
    if embed.footer.text and len(embed.footer.text) > FOOTER:
        embed.set_footer(text=shorten(embed.footer.text, FOOTER), icon_url=embed.footer.icon_url)
    while size(embed) > TOTAL and len(embed.fields) > 0:
        embed.remove_field(len(embed.fields) - 1)
    if size(embed) > TOTAL and embed.description:
        embed.description = shorten(embed.description, max(1, len(embed.description) - (size(embed) - TOTAL)))
    return embed
