"""The statistics as embeds: a battle's players and losses, and a player's numbers over their battles."""

from __future__ import annotations

import discord

from bot.clock import human_duration
from bot.stats import BattleStats, PlayerStats
from cogs.common.embeds import INFO, safe

SHOWN_PLAYERS = 20


def _wait(seconds: float | None) -> str:
    return "–" if seconds is None else human_duration(seconds)


def player_line(stats: PlayerStats, who: str) -> str:
    """Write one player's numbers on a line."""
    return (f"{who}: {stats.orders} order{'s' if stats.orders != 1 else ''}, time to act median "
            f"{_wait(stats.median_wait)}, longest {_wait(stats.longest_wait)}; {stats.missed} missed "
            f"deadline{'s' if stats.missed != 1 else ''}; {stats.takebacks} takeback{'s' if stats.takebacks != 1 else ''}")


def stats_embed(name: str, stats: BattleStats) -> discord.Embed:
    """Build a battle's statistics: a line per player, and each side's losses (charted in the image)."""
    lines = [player_line(p, f"<@{p.user_id}>") for p in stats.players[:SHOWN_PLAYERS]]
    if len(stats.players) > SHOWN_PLAYERS:
        lines.append(f"… and {len(stats.players) - SHOWN_PLAYERS} more players.")
    embed = discord.Embed(title=f"Statistics: {safe(name)}", colour=INFO,
                          description="\n".join(lines) or "Nobody has given an order yet.")
    if stats.losses and stats.rounds:
        last = stats.rounds[-1]
        embed.add_field(name=f"Units lost by round {last}", inline=False, value="\n".join(
            f"{safe(side)}: {counts[-1]}" for side, counts in stats.losses.items())[:1024])
    elif stats.replay_error:
        embed.add_field(name="Losses", value=f"Could not be worked out: {safe(stats.replay_error)}"[:1024],
                        inline=False)
    return embed


def me_embed(stats: PlayerStats, battles: int) -> discord.Embed:
    """Build a player's numbers added up over every battle they gave orders in."""
    return discord.Embed(title="Your statistics", colour=INFO, description=(
        f"Over {battles} battle{'s' if battles != 1 else ''}:\n" + player_line(stats, "You")))
