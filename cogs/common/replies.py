"""One way to answer: followup when the response is done, explicit mentions, the map attached."""

from __future__ import annotations

import io

import discord

NO_PINGS = discord.AllowedMentions.none()
MAP_NAME = "map.png"


def map_file(png: bytes | None, name: str = MAP_NAME) -> discord.File | None:
    """Wrap map bytes as an attachment."""
    return discord.File(io.BytesIO(png), filename=name) if png else None


async def reply(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    embed: discord.Embed | None = None,
    png: bytes | None = None,
    ephemeral: bool = False,
    view: discord.ui.View | None = None,
    mentions: discord.AllowedMentions = NO_PINGS,
) -> None:
    """Send the answer to an interaction, attaching the map and pinging nobody unless told."""
    file = map_file(png)
    if embed is not None and file is not None:
        embed.set_image(url=f"attachment://{MAP_NAME}")
    kwargs: dict[str, object] = {"content": content, "embed": embed, "ephemeral": ephemeral,
                                 "allowed_mentions": mentions}
    if file is not None:
        kwargs["file"] = file
    if view is not None:
        kwargs["view"] = view
    if interaction.response.is_done():
        await interaction.followup.send(**kwargs)  # type: ignore[call-overload]
    else:
        await interaction.response.send_message(**kwargs)  # type: ignore[call-overload]


async def defer(interaction: discord.Interaction, *, ephemeral: bool = False) -> None:
    """Tell Discord the answer is coming (before rendering), if not answered yet."""
    if not interaction.response.is_done():
        await interaction.response.defer(thinking=True, ephemeral=ephemeral)
