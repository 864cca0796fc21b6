"""One way to answer: followup when the response is done, explicit mentions, the map attached.

A public answer that Discord no longer accepts (the interaction expired or Discord failed) is posted in
the channel instead: what an order did is never left unannounced.
"""

from __future__ import annotations

import io
import logging

import discord

from bot.answers import PRIVATE_THINKING, answer_lock

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
MAP_NAME = "map.png"
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
    if embed is not None and png:
        embed.set_image(url=f"attachment://{MAP_NAME}")
    kwargs: dict[str, object] = {"content": content, "embed": embed, "allowed_mentions": mentions}
    if view is not None:
        kwargs["view"] = view
    try:
        await _answer(interaction, kwargs, png, ephemeral)
    except discord.HTTPException as exc:
        if ephemeral or not isinstance(interaction.channel, discord.abc.Messageable):
            raise
        log.warning("answer to user %s failed (%s); posting it in channel %s instead", interaction.user.id, exc,
                    interaction.channel_id)
        command = interaction.command.qualified_name if interaction.command else "command"
        note = f"*{interaction.user.mention}'s /{command} could not be answered in time, so its result is posted here.*"
        kwargs["content"] = f"{content}\n{note}" if content else note
        file = map_file(png)
        if file is not None:
            kwargs["file"] = file
        await interaction.channel.send(**kwargs)  # type: ignore[call-overload]


async def _answer(interaction: discord.Interaction, kwargs: dict[str, object], png: bytes | None,
                  ephemeral: bool) -> None:
    file = map_file(png)
    if file is not None:
        kwargs = {**kwargs, "file": file}
    async with answer_lock(interaction):
        if not interaction.response.is_done():
            await interaction.response.send_message(ephemeral=ephemeral, **kwargs)  # type: ignore[call-overload]
            return
    if not ephemeral and interaction.extras.pop(PRIVATE_THINKING, False):
        # The first followup would fill the private 'thinking' message and so stay private: close
        # that one with a short note and post the answer for everyone.
        await close_thinking(interaction, POSTED_NOTE)
    await interaction.followup.send(ephemeral=ephemeral, **kwargs)  # type: ignore[call-overload]


async def defer(interaction: discord.Interaction, *, ephemeral: bool = False) -> None:
    """Tell Discord the answer is coming (before slow work), if not answered yet.

    Deferred with ephemeral=True, a refusal stays private and a public reply() still reaches everyone.
    """
    async with answer_lock(interaction):
        if interaction.response.is_done():
            return
        await interaction.response.defer(thinking=True, ephemeral=ephemeral)
        if ephemeral:
            interaction.extras[PRIVATE_THINKING] = True


async def close_thinking(interaction: discord.Interaction, content: str) -> None:
    """Fill a private 'thinking' message with a note, so the next reply() posts for everyone."""
    interaction.extras.pop(PRIVATE_THINKING, None)
    await interaction.edit_original_response(content=content)
