"""One way to answer: followup when the response is done, explicit mentions, the map attached."""

from __future__ import annotations

import discord

from bot.service import MapImage
from cogs.common.map_button import with_map_button
from cogs.common.mapfiles import MAP_NAME, map_file

NO_PINGS = discord.AllowedMentions.none()

__all__ = ["MAP_NAME", "NO_PINGS", "defer", "map_file", "reply"]


async def reply(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    embed: discord.Embed | None = None,
    png: MapImage | None = None,
    ephemeral: bool = False,
    view: discord.ui.View | None = None,
    mentions: discord.AllowedMentions = NO_PINGS,
) -> None:
    """Send the answer to an interaction, pinging nobody unless told.

    A map goes in as an attachment with its alt text; a map cropped around the action gets a
    Whole map button.
    """
    file = map_file(png)
    if embed is not None and file is not None:
        embed.set_image(url=f"attachment://{MAP_NAME}")
    if png is not None and png.cropped and png.battle_id is not None:
        view = with_map_button(view, png.battle_id)
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
