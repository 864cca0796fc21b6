"""Lay long lists out in pages that Discord accepts: fields of 1,024 characters, 25 fields, 6,000 in all."""

from __future__ import annotations

import discord

FIELD_MAX = 1024
FIELDS_MAX = 25
# Of an embed's 6,000 characters, what the fields of one page may take: the rest is the title and footer.
PAGE_BUDGET = 5000
EMBED_TOTAL = 6000


def _cut(line: str, limit: int) -> str:
    return line if len(line) <= limit else line[: limit - 1] + "\u2026"


def paginate(lines: list[str], budget: int = PAGE_BUDGET) -> list[list[str]]:
    """Split lines into pages of fields (each field's lines joined by newlines), every page within the limits."""
    pages: list[list[str]] = []
    fields: list[str] = []
    chunk: list[str] = []
    used = 0

    def close_field() -> None:
        nonlocal chunk
        if chunk:
            fields.append("\n".join(chunk))
            chunk = []

    for raw in lines:
        line = _cut(raw, FIELD_MAX)
        field_size = sum(len(x) + 1 for x in chunk)
        if chunk and field_size + len(line) > FIELD_MAX:
            close_field()
        if used + len(line) + 1 > budget or (not chunk and len(fields) >= FIELDS_MAX):
            close_field()
            pages.append(fields)
            fields, used = [], 0
        chunk.append(line)
        used += len(line) + 1
    close_field()
    if fields or not pages:
        pages.append(fields)
    return pages


def page_embed(title: str, pages: list[list[str]], page: int, footer: str, colour: discord.Colour) -> discord.Embed:
    """Build one page (1-based, clamped) as an embed, its footer saying which page of how many."""
    number = min(max(1, page), len(pages))
    embed = discord.Embed(title=_cut(title, 256), colour=colour)
    for value in pages[number - 1]:
        embed.add_field(name="\u200b", value=value, inline=False)
    where = f"page {number} of {len(pages)}" if len(pages) > 1 else ""
    used = len(embed.title or "") + sum(len(v) + 1 for v in pages[number - 1])
    room = max(1, min(2048, EMBED_TOTAL - used))
    embed.set_footer(text=_cut(" \u00b7 ".join(p for p in (where, footer) if p), room))
    return embed
