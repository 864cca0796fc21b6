"""One way to answer: followup when the response is done, explicit mentions, the map attached.

A public answer that Discord no longer accepts (the interaction expired or Discord failed) is posted in
the channel instead: what an order did is never left unannounced.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot.answers import PRIVATE_THINKING, answer_lock, defer
from bot.outbox import Outbox, Post, message_post
from bot.service import MapImage
from cogs.common.fit import fit
from cogs.common.map_button import with_map_button
from cogs.common.mapfiles import MAP_NAME, map_file

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
POSTED_NOTE = "Done: the result is posted in the channel."

__all__ = ["MAP_NAME", "NO_PINGS", "defer", "edit_pressed", "map_file", "reply", "send"]


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
    if embed is not None:
        fit(embed)
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
        # Owed through the outbox, so the player learns the result even if Discord refuses this post too; the
        # mention reaches them alone. A refusal for good (no right to post here) is raised for the handler.
        post = owed_message(interaction.channel_id or interaction.channel.id, guild_id=interaction.guild_id,
                            content=f"{content}\n{note}" if content else note, embed=embed, png=png, view=view,
                            mention=[interaction.user.id])
        await owed_by(interaction).owe(post, raise_refusal=True)


def owed_message(channel_id: int, *, guild_id: int | None, battle_id: int | None = None, content: str | None = None,
                 embed: discord.Embed | None = None, png: MapImage | None = None, view: discord.ui.View | None = None,
                 mention: Sequence[int] = ()) -> Post:
    """Return a message for the outbox as send() would post it: the embed fitted, the map shown in it, its buttons."""
    if embed is not None:
        fit(embed)
        if png is not None:
            embed.set_image(url=f"attachment://{MAP_NAME}")
    if png is not None and png.cropped and png.battle_id is not None:
        view = with_map_button(view, png.battle_id)
    return message_post(channel_id, guild_id=guild_id,
                        battle_id=battle_id if battle_id is not None else png.battle_id if png is not None else None,
                        content=content, embeds=[embed] if embed is not None else [], mention=mention,
                        file=png.png if png is not None else None, filename=MAP_NAME,
                        description=(png.alt or None) if png is not None else None, view=view)


def owed_by(interaction: discord.Interaction) -> Outbox:
    """Return the outbox of the bot an interaction came to."""
    return interaction.client.outbox  # type: ignore[attr-defined,no-any-return]


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


async def edit_pressed(interaction: discord.Interaction, **changes: Any) -> None:
    """Edit the message whose button or menu was used: as the answer, or once the watchdog deferred.

    The watchdog defers a press as an update of its message, so that message is then the original response.
    """
    async with answer_lock(interaction):
        if not interaction.response.is_done():
            await interaction.response.edit_message(**changes)
            return
    await interaction.edit_original_response(**changes)


async def close_thinking(interaction: discord.Interaction, content: str) -> None:
    """Fill a private 'thinking' message with a note, so the next reply() posts for everyone."""
    interaction.extras.pop(PRIVATE_THINKING, None)
    await interaction.edit_original_response(content=content)


async def send(target: discord.abc.Messageable, *, content: str | None = None, embed: discord.Embed | None = None,
               png: MapImage | None = None, view: discord.ui.View | None = None,
               mentions: discord.AllowedMentions = NO_PINGS) -> discord.Message:
    """Send a message with the map (shown in the embed, its alt text on the file) and explicit mentions."""
    kwargs: dict[str, Any] = {"content": content, "allowed_mentions": mentions}
    if embed is not None:
        kwargs["embed"] = fit(embed)
    if png is not None:
        kwargs["file"] = map_file(png)
        if embed is not None:
            embed.set_image(url=f"attachment://{MAP_NAME}")
        if png.cropped and png.battle_id is not None:
            view = with_map_button(view, png.battle_id)
    if view is not None:
        kwargs["view"] = view
    return await target.send(**kwargs)


async def echo_from_dm(interaction: discord.Interaction, channel_id: int, guild_id: int, *,
                       embed: discord.Embed, png: MapImage | None = None) -> None:
    """Post in the battle's channel what a player did from a direct message, for everyone to read."""
    if interaction.guild_id is not None:
        return
    channel = interaction.client.get_partial_messageable(channel_id, guild_id=guild_id)
    await send(channel, embed=embed.copy(), png=png)
