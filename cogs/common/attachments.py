"""Read the text files GMs attach to commands, and send text files back."""

from __future__ import annotations

import io
import re

import discord

from bot.answers import answer_lock
from cogs.common.replies import NO_PINGS
from rules.errors import GameError

MAX_FILE_BYTES = 256 * 1024


async def read_text(file: discord.Attachment, *, suffixes: tuple[str, ...], what: str, guide: str) -> str:
    """Return an attachment's text, refusing a wrong extension, a file over 256 KiB or text that is not UTF-8."""
    name = discord.utils.escape_markdown(file.filename)
    if not file.filename.lower().endswith(suffixes):
        wanted = " or ".join(f"`{s}`" for s in suffixes)
        raise GameError(f"`{name}` is not {what}: attach a {wanted} file ({guide}).")
    # Check the size Discord reports before downloading, so a huge upload costs nothing.
    if file.size > MAX_FILE_BYTES:
        raise GameError(f"`{name}` is {file.size // 1024} KiB; {what} may be at most {MAX_FILE_BYTES // 1024} KiB.")
    data = await file.read()
    if len(data) > MAX_FILE_BYTES:
        raise GameError(f"`{name}` is {len(data) // 1024} KiB; {what} may be at most {MAX_FILE_BYTES // 1024} KiB.")
    try:
        # utf-8-sig drops the byte-order mark some Windows editors write first.
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise GameError(
            f"`{name}` is not UTF-8 text (byte {exc.start + 1} cannot be read); save it as UTF-8 and attach it again."
        ) from None


def file_stem(name: str) -> str:
    """Return a safe file name stem for a battle name (`Siege of Hakone` -> `siege-of-hakone`)."""
    stem = re.sub(r"[^0-9A-Za-z]+", "-", name).strip("-").lower()
    return stem[:60] or "battle"


async def send_text_file(interaction: discord.Interaction, content: str, text: str, filename: str, *,
                         ephemeral: bool = False) -> None:
    """Answer with a text file attached, pinging nobody."""
    file = discord.File(io.BytesIO(text.encode("utf-8")), filename=filename)
    async with answer_lock(interaction):
        if not interaction.response.is_done():
            await interaction.response.send_message(content, file=file, ephemeral=ephemeral, allowed_mentions=NO_PINGS)
            return
    await interaction.followup.send(content, file=file, ephemeral=ephemeral, allowed_mentions=NO_PINGS)
