"""Answer every interaction within Discord's three seconds: one lock per answer, and a watchdog that defers.

Discord forgets an interaction that gets no answer within three seconds, and then nothing the bot does
can reach the user. A command that is still working after ANSWER_WITHIN seconds is deferred privately
(so a refusal stays private); its public result then closes that note and posts for everyone. A button
or select menu still working then is deferred as an update of its message: its answer follows as a new
message (private or public, as it would have been), or as an edit of the message pressed.
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


_WATCHDOGS: set[asyncio.Task[None]] = set()


def is_component(interaction: discord.Interaction) -> bool:
    """Return whether the interaction is a press of a button or a choice in a select menu."""
    return interaction.type is discord.InteractionType.component


def _what(interaction: discord.Interaction) -> str:
    if is_component(interaction):
        return f"press of {dict(interaction.data or {}).get('custom_id', '?')}"
    return f"/{interaction.command.qualified_name if interaction.command else '?'}"


def watch(interaction: discord.Interaction, delay: float) -> None:
    """Defer the interaction if it is still unanswered `delay` seconds from now."""
    asyncio.get_running_loop().call_later(delay, _due, interaction)
    interaction.extras[WATCHED] = True


def _due(interaction: discord.Interaction) -> None:
    if interaction.response.is_done():
        return
    task = asyncio.get_running_loop().create_task(defer_if_unanswered(interaction), name="answer-watchdog")
    _WATCHDOGS.add(task)
    task.add_done_callback(_WATCHDOGS.discard)


async def defer_if_unanswered(interaction: discord.Interaction) -> None:
    """Defer, unless the handler has answered (or is answering) already.

    A command is deferred privately ('thinking'); a button or menu as an update of its message, which
    shows no note: what the handler sends next arrives as it would have, and an edit edits that message.
    """
    async with answer_lock(interaction):
        if interaction.response.is_done():
            return
        try:
            if is_component(interaction):
                await interaction.response.defer()
            else:
                await interaction.response.defer(thinking=True, ephemeral=True)
        except discord.HTTPException as exc:
            log.warning("could not defer a slow %s in time: %s", _what(interaction), exc)
            return
        if not is_component(interaction):
            interaction.extras[PRIVATE_THINKING] = True
        log.info("deferred a slow %s for user %s", _what(interaction), interaction.user.id)


async def defer(interaction: discord.Interaction, *, ephemeral: bool = False, thinking: bool = True,
                when_slow: bool = False) -> None:
    """Tell Discord the answer is coming (before slow work), if not answered yet (the watchdog may have).

    Deferred with ephemeral=True, a refusal stays private and a public reply() still reaches everyone.
    A button deferred with thinking=False shows no note: it updates its own message later, if at all.
    With when_slow, an interaction whose watchdog runs is not deferred now: its reply() then answers in one
    round trip, and should the work outlast the watchdog's wait, the watchdog defers it. Only for callers
    that answer through reply() alone.
    """
    if when_slow and interaction.extras.get(WATCHED):
        return
    async with answer_lock(interaction):
        if interaction.response.is_done():
            return
        await interaction.response.defer(thinking=thinking, ephemeral=ephemeral)
        if ephemeral and thinking:
            interaction.extras[PRIVATE_THINKING] = True
