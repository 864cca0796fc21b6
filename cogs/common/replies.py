"""One way to answer: followup when the response is done, explicit mentions, the map attached.

A public answer that Discord no longer accepts (the interaction expired or Discord failed) is posted in
the channel instead: what an order did is never left unannounced.
"""

from __future__ import annotations

import logging

import discord

from bot.answers import PRIVATE_THINKING, WATCHED, answer_lock
from bot.service import MapImage
from cogs.common.map_button import with_map_button
from cogs.common.mapfiles import MAP_NAME, map_file

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
POSTED_NOTE = "Done: the result is posted in the channel."

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
    Whole map button. Should a public answer fail, its result is posted in the channel instead.
    """
    if embed is not None and png is not None:
        embed.set_image(url=f"attachment://{MAP_NAME}")
    if png is not None and png.cropped and png.battle_id is not None:
        view = with_map_button(view, png.battle_id)
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


async def _answer(interaction: discord.Interaction, kwargs: dict[str, object], png: MapImage | None,
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


async def defer(interaction: discord.Interaction, *, ephemeral: bool = False, when_slow: bool = False) -> None:
    """Tell Discord the answer is coming (before slow work), if not answered yet.

    Deferred with ephemeral=True, a refusal stays private and a public reply() still reaches everyone.
    With when_slow, a slash command whose answer watchdog runs is not deferred now: its reply() then
    answers in one round trip, and should the work outlast the watchdog's wait, the watchdog defers it.
    Only for callers that answer through reply() alone.
    """
    if when_slow and interaction.extras.get(WATCHED):
        return
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
