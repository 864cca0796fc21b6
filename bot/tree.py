"""The command tree with the bot's one error handler."""

from __future__ import annotations

import io
import logging
import re
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, cast

import discord
from discord import app_commands

from bot.answers import ANSWER_WITHIN, answer_lock, watch
from bot.mapview import squares_overlay
from bot.service import COMMITTED, MapImage
from rules.errors import GameError, shorten
from rules.outcome import Highlight

log = logging.getLogger(__name__)

# Says why a command or its autocomplete is not offered in this channel's battle (None: it is offered).
Gate = Callable[[discord.Interaction], Awaitable[str | None]]

MAX_CONTENT = 2000  # Discord refuses a message whose text is longer, and the user then sees nothing at all


def fit(message: str, limit: int = MAX_CONTENT) -> str:
    """Return a message Discord will take: quotes (between backticks) shortened first, then the whole cut."""
    if len(message) <= limit:
        return message
    parts = message.split("`")
    # Odd parts are quoted: what a user typed or a file held, the part a reader can spare.
    message = "`".join(shorten(part) if i % 2 else part for i, part in enumerate(parts))
    return shorten(message, limit)


def user_message(error: BaseException) -> str | None:
    """Return the message to show for an expected error, or None for an unexpected one."""
    original = error
    if isinstance(error, app_commands.CommandInvokeError):
        original = error.original
    if isinstance(original, GameError):
        return original.message
    if isinstance(original, app_commands.TransformerError):
        cause = original.__cause__
        if isinstance(cause, GameError):
            return cause.message
        return f"`{shorten(str(original.value))}` is not valid here."
    if isinstance(original, app_commands.CheckFailure):
        return str(original) or "You are not allowed to use this command here."
    return None


class BattleTree(app_commands.CommandTree):
    """Show player errors as ephemeral messages; log anything unexpected with an error id."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        # The last refusals by interaction id, so the console can report which lines failed.
        self.failures: dict[int, str] = {}
        # Added by the cogs: what a battle's rule system does not offer is refused before any command runs.
        self.gates: list[Gate] = []

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Refuse what the battle here does not offer; start each command's commits record and its watchdog."""
        for gate in self.gates:
            why = await gate(interaction)
            if why is None:
                continue
            if interaction.type is discord.InteractionType.autocomplete:
                await interaction.response.autocomplete([])  # nothing of another system is offered
            else:
                self.failures[interaction.id] = why
                await send_error(interaction, why)
            return False
        if interaction.type is discord.InteractionType.application_command:
            COMMITTED.set([])
            watch(interaction, float(getattr(self.client, "answer_within", ANSWER_WITHIN)))
        return True

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError, /) -> None:
        """Answer the user and log what they cannot fix."""
        message = user_message(error)
        if message is None:
            error_id = secrets.token_hex(4)
            command = interaction.command.qualified_name if interaction.command else "?"
            channel = interaction.channel_id
            log.error(
                "error %s in /%s by user %s in guild %s channel %s", error_id, command,
                interaction.user.id, interaction.guild_id, channel,
                exc_info=getattr(error, "original", error),
            )
            committed = COMMITTED.get()
            if committed:
                # The order is saved: saying nothing changed would invite sending it twice.
                message = (f"Your order was carried out and saved (#{committed[-1]} in /battle log), but showing its "
                           f"result failed (error `{error_id}`). Check /battle log rather than sending it again; "
                           "tell your GM if it keeps happening.")
            else:
                message = (f"Sorry, something went wrong on our side (error `{error_id}`). Nothing was changed; "
                           "tell your GM if it keeps happening.")
        self.failures[interaction.id] = message
        while len(self.failures) > 200:
            self.failures.pop(next(iter(self.failures)))
        await send_error(interaction, message, await refusal_map(interaction, error))


def _game_error(error: BaseException) -> GameError | None:
    original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    return original if isinstance(original, GameError) else None


async def refusal_map(interaction: discord.Interaction, error: BaseException) -> MapImage | None:
    """Draw the squares a refusal points at (the legal ones) on the battle's map, if it names any."""
    found = _game_error(error)
    service = getattr(interaction.client, "service", None)
    if found is None or not found.cells or service is None or interaction.guild_id is None:
        return None
    try:
        record = await service.battle_here(interaction.guild_id, interaction.channel_id)
        battle = await service.load(record)
        image = await service.render(battle, Highlight(cells=list(found.cells)),
                                     overlays=[squares_overlay(found.cells, "Legal squares")])
        return cast(MapImage, image)
    except (GameError, ValueError):
        log.warning("could not draw the squares of a refusal in channel %s", interaction.channel_id)
        return None


# A refusal quotes names as typed: one written like a mention of an id no Discord user, role or channel can have
# (ids have 17 digits or more) would still be drawn as one, so it is broken up to read as text.
_NAME_LIKE_MENTION = re.compile(r"<(@[!&]?|#)(\d{1,16})>")


def defuse_names(message: str) -> str:
    """Return a message whose mention-shaped names read as text (real mentions, of real ids, are kept)."""
    return _NAME_LIKE_MENTION.sub("<\\1\u200b\\2>", message)


async def send_error(interaction: discord.Interaction, message: str, image: MapImage | None = None) -> None:
    """Send an ephemeral error, as a followup if the interaction was already answered, with any map drawn for it."""
    message = fit(defuse_names(message))
    extra: dict[str, Any] = {} if image is None else {
        "file": discord.File(io.BytesIO(image.png), filename="legal.png", description=image.alt or None)}
    try:
        async with answer_lock(interaction):
            if not interaction.response.is_done():
                await interaction.response.send_message(message, ephemeral=True,
                                                        allowed_mentions=discord.AllowedMentions.none(), **extra)
                return
        await interaction.followup.send(message, ephemeral=True, allowed_mentions=discord.AllowedMentions.none(),
                                        **extra)
    except discord.HTTPException as exc:
        if extra and exc.status == 400:
            # The drawing is the extra: the words alone still tell the user what was wrong.
            await send_error(interaction, message)
            return
        log.warning("could not deliver an error message to user %s", interaction.user.id)
