"""Embeds of the GM tools: what an undo took back, a hidden roll, a revealed roll, the end of a battle."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

import discord

from bot.service import EventRecord
from cogs.common.embeds import INFO, roll_line, safe
from cogs.common.words import command_text
from rules.battle import Battle

GM_COLOUR = discord.Colour.from_rgb(120, 80, 160)


def undo_embed(battle: Battle, seqs: Sequence[int], texts: Sequence[str], seq: int | None) -> discord.Embed:
    """Describe an undo: which orders were taken back, newest first."""
    lines = [f"#{s} `{safe(command_text(t, battle.system.id))}`" for s, t in zip(seqs, texts, strict=False)]
    embed = discord.Embed(title=f"Undone: {len(lines)} order{'s' if len(lines) != 1 else ''}", colour=GM_COLOUR,
                          description="\n".join(lines)[:4000] or None)
    embed.set_footer(text=f"{battle.name} \u00b7 the battle is back as it was before them, dice and all"
                          + (f" \u00b7 logged as #{seq}" if seq else ""))
    return embed


def hidden_roll_embed(rolls: Sequence[dict[str, object]], seq: int | None, *, side: str | None = None) -> discord.Embed:
    """Show the GM a hidden roll and how to reveal it; with a side, show that side the roll the GM shared with it."""
    embed = discord.Embed(title="Hidden roll" if side is None else f"Hidden roll for {safe(side)}", colour=GM_COLOUR,
                          description="\n".join(roll_line(r) for r in rolls)[:4000])
    if side is not None:
        embed.set_footer(text=f"Only {side} and the GM see this. Logged as hidden #{seq}.")
    elif seq:
        embed.set_footer(text=f"Only you can see this. Logged as hidden #{seq}; /gm reveal seq:{seq} shows it to all.")
    return embed


def reveal_embed(event: EventRecord) -> discord.Embed:
    """Show everyone a roll the GM made in secret."""
    rolls = (event.outcome or {}).get("rolls", [])
    embed = discord.Embed(title=f"The GM reveals hidden roll #{event.seq}", colour=GM_COLOUR,
                          description="\n".join(roll_line(r) for r in rolls)[:4000] or safe(event.order_text))
    embed.set_footer(text=f"order #{event.seq}, rolled in secret")
    embed.timestamp = datetime.fromtimestamp(event.created_at, tz=UTC)
    return embed


def end_embed(battle: Battle, orders: int, *, rounds: int | None = None,
              gone: Mapping[str, Sequence[str]] | None = None) -> discord.Embed:
    """Sum up an ended battle: rounds fought, survivors and casualties per side.

    `rounds` is the rounds fought as the log tells them (the battle's round counter when not given); `gone`
    names, by side, the units taken out of the battle for good, which the ended battle no longer holds.
    """
    embed = discord.Embed(title=f"Battle over: {safe(battle.name)}", colour=INFO)
    rounds = battle.round if rounds is None else rounds
    embed.description = (f"Fought over **{rounds} round{'s' if rounds != 1 else ''}**, {orders} orders in the log. "
                         "/battle export keeps the whole battle as a file.")
    gone = gone or {}
    totals = []
    for side in battle.sides:
        units = [u for u in battle.iter_units() if u.side == side.name]
        alive = [u for u in units if u.alive]
        present = {u.name.lower() for u in units}
        fallen = [u.name for u in units if not u.alive]
        fallen += [n for n in gone.get(side.name, ()) if n.lower() not in present]
        totals.append(f"{safe(side.name)} {len(alive)}/{len(alive) + len(fallen)}")
        lines = [f"Survivors ({len(alive)}): " + (", ".join(f"{safe(u.name)} ({safe(u.summary_line())})" for u in alive) or "none"),
                 f"Casualties ({len(fallen)}): " + (", ".join(safe(n) for n in fallen) or "none")]
        embed.add_field(name=safe(side.name), value="\n".join(lines)[:1024], inline=False)
    if totals:
        embed.set_footer(text="Still standing: " + " \u00b7 ".join(totals))
    return embed
