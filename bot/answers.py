"""Answer every interaction within Discord's three seconds: one lock per answer, and a watchdog that defers.

Discord forgets an interaction that gets no answer within three seconds, and then nothing the bot does
can reach the user. A command that is still working after ANSWER_WITHIN seconds is deferred privately
(so a refusal stays private); its public result then closes that note and posts for everyone.
"""

from __future__ import annotations

import asyncio
import logging

import discord

log = logging.getLogger(__name__)

ANSWER_WITHIN = 2.0  # seconds; Discord's limit is 3, and the deferral itself takes a round trip
PRIVATE_THINKING = "battlepost_private_thinking"
_LOCK = "battlepost_answer_lock"
WATCHED = "battlepost_watched"  # set on an interaction whose watchdog will defer it if it is still unanswered


def answer_lock(interaction: discord.Interaction) -> asyncio.Lock:
    """Return the lock every first answer to this interaction takes, so two never race."""
    lock = interaction.extras.get(_LOCK)
    if lock is None:
        lock = interaction.extras[_LOCK] = asyncio.Lock()
    return lock


async def defer_if_unanswered(interaction: discord.Interaction) -> None:
    """Defer privately, unless the command has answered (or is answering) already."""
    async with answer_lock(interaction):
        if interaction.response.is_done():
            return
        try:
            await interaction.response.defer(thinking=True, ephemeral=True)
        except discord.HTTPException as exc:
            log.warning("could not defer a slow /%s in time: %s",
                        interaction.command.qualified_name if interaction.command else "?", exc)
            return
        interaction.extras[PRIVATE_THINKING] = True
        log.info("deferred a slow /%s for user %s",
                 interaction.command.qualified_name if interaction.command else "?", interaction.user.id)
