"""The map as text, in pages an embed can hold, for /map text and screen readers."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.service import MapText
from cogs.common.embeds import INFO, safe

PAGE_CHARS = 3800  # under the 4,096 of an embed's description, with room for the title and footer


def paginate(lines: Sequence[str], limit: int) -> list[str]:
    """Split lines into pages of at most `limit` characters, breaking between lines (a long line is cut)."""
    pages: list[str] = []
    current = ""
    for line in lines:
        piece = line if len(line) <= limit else line[: limit - 1] + "\u2026"
        if current and len(current) + 1 + len(piece) > limit:
            pages.append(current)
            current = piece
        else:
            current = f"{current}\n{piece}" if current else piece
    if current or not pages:
        pages.append(current)
    return pages


def text_pages(text: MapText) -> list[str]:
    """Return the map text, markdown and mentions defused, in pages of at most PAGE_CHARS between lines."""
    return paginate([safe(line) for line in text.lines()], PAGE_CHARS)


def page_embed(battle_name: str, pages: list[str], page: int) -> discord.Embed:
    """Return one page of the map text as an embed, saying where it is in the whole."""
    index = min(max(1, page), len(pages))
    embed = discord.Embed(title=f"{safe(battle_name)}: the map as text"[:256], colour=INFO)
    embed.description = pages[index - 1]
    more = f" \u00b7 next: /map text page:{index + 1}" if index < len(pages) else ""
    embed.set_footer(text=f"Page {index} of {len(pages)}{more} \u00b7 the whole text is attached as a file")
    return embed
