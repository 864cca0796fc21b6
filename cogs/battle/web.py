"""/battle web links and /battle web reset: private links to the live web view, and a GM's way to revoke them."""

from __future__ import annotations

import discord

from bot.webfront import issue_links, reset_links
from cogs.common.context import actor_of, battle_here, service_of
from cogs.common.embeds import INFO, safe
from cogs.common.replies import reply
from rules.errors import GameError


def web_url_of(interaction: discord.Interaction) -> str:
    """Return the address the links start with, or explain that this bot runs no web view."""
    url = str(getattr(interaction.client, "web_url", "") or "")
    if not url:
        raise GameError("This bot runs no web view (its host set BATTLEPOST_WEB=off); battles are followed here.")
    return url


async def web_links(interaction: discord.Interaction, reset: bool) -> None:
    """Answer privately with the asker's links; with reset, a GM first revokes every link of the battle."""
    base = web_url_of(interaction)
    record = await battle_here(interaction)
    service = service_of(interaction)
    actor = actor_of(interaction)
    revoked = await reset_links(service, actor, record) if reset else None
    links = await issue_links(service, actor, record, base)
    lines = [f"**{link.label}**\n<{link.url}>" for link in links]
    head = (f"Every earlier link of this battle stopped working ({revoked}); these are new.\n\n"
            if revoked is not None else "")
    embed = discord.Embed(title=f"Web view: {safe(record.name)}", colour=INFO, description=head + "\n\n".join(lines))
    embed.set_footer(text="The map to zoom, the log, replay and live updates. Only your side's and the GM's links show "
                          "secrets; a GM revokes every link with /battle web reset.")
    await reply(interaction, embed=embed, ephemeral=True)
