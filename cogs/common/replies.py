"""One way to answer: followup when the response is done, explicit mentions, the map attached."""

from __future__ import annotations

import io

import discord

NO_PINGS = discord.AllowedMentions.none()
MAP_NAME = "map.png"
# Set on an interaction deferred privately whose 'thinking' message no answer has filled yet.
PRIVATE_THINKING = "battlepost_private_thinking"
POSTED_NOTE = "Done: the result is posted in the channel."


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
        if not ephemeral and interaction.extras.pop(PRIVATE_THINKING, False):
            # The first followup would fill the private 'thinking' message and so stay private: close
            # that one with a short note and post the answer for everyone.
            await close_thinking(interaction, POSTED_NOTE)
        await interaction.followup.send(**kwargs)  # type: ignore[call-overload]
    else:
        await interaction.response.send_message(**kwargs)  # type: ignore[call-overload]


async def defer(interaction: discord.Interaction, *, ephemeral: bool = False) -> None:
    """Tell Discord the answer is coming (before slow work), if not answered yet.

    Deferred with ephemeral=True, a refusal stays private and a public reply() still reaches everyone.
    """
    if not interaction.response.is_done():
        await interaction.response.defer(thinking=True, ephemeral=ephemeral)
        if ephemeral:
            interaction.extras[PRIVATE_THINKING] = True


async def close_thinking(interaction: discord.Interaction, content: str) -> None:
    """Fill a private 'thinking' message with a note, so the next reply() posts for everyone."""
    interaction.extras.pop(PRIVATE_THINKING, None)
    await interaction.edit_original_response(content=content)
