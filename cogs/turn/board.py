"""The status board: one embed per battle with the round, whose turn, the deadline and every unit."""

from __future__ import annotations

from typing import Any

import discord

from bot.clock import whose_turn
from bot.service import BattleRecord, ClockRecord
from cogs.common.embeds import INFO, safe
from cogs.common.seen import place
from cogs.common.setup_panel import add_setup_field
from cogs.turn.text import deadline_line
from rules.battle import Battle
from rules.turns import turn_status

STATE_MARKS = {
    "acting": "\u25b6\ufe0f", "waiting": "\u23f3", "ended": "\u2705", "held": "\u270b", "skipped": "\u23ed\ufe0f",
    "stunned": "\U0001f4ab", "standing": "\U0001f4dc", "out": "\U0001f480", "next_round": "\U0001f195",
    "setup": "\u2022", "ended_battle": "\u2022",
}
STATE_WORDS = {
    "acting": "acting now", "waiting": "waiting", "ended": "turn over", "held": "held", "skipped": "skipped",
    "stunned": "stunned", "standing": "followed its standing order", "out": "out of the fight",
    "next_round": "joins next round",
}
FIELD_LIMIT = 1024
MAX_FIELDS = 20
EMBED_LIMIT = 6000
BOARD_KIND = "status_board"


def unit_line(battle: Battle, entry: dict[str, Any], *, running: bool) -> str:
    """Return one unit's line on the board."""
    unit = battle.units[entry["id"]]
    state = entry["state"]
    mark = STATE_MARKS.get(state, "\u2022")
    where = place(battle, unit, on="")  # the board is public: a hiding unit's square is left out
    parts = [f"{mark} **{safe(unit.name)}**{where}"]
    summary = unit.summary_line()
    if summary:
        parts.append(safe(summary))
    if unit.statuses:
        parts.append(", ".join(s.replace("_", " ") for s in unit.statuses))
    if running and state in ("acting", "waiting"):
        left = int(entry["actions_left"])
        parts.append(f"{left} action{'s' if left != 1 else ''} left")
    elif running and state in STATE_WORDS:
        parts.append(STATE_WORDS[state])
    if unit.owner:
        parts.append(f"<@{unit.owner}>")
    return " \u00b7 ".join(parts)


def _chunks(lines: list[str], limit: int = FIELD_LIMIT) -> list[str]:
    out: list[str] = []
    current: list[str] = []
    size = 0
    for line in lines:
        if size + len(line) + 1 > limit and current:
            out.append("\n".join(current))
            current, size = [], 0
        current.append(line[:limit])
        size += len(line) + 1
    if current:
        out.append("\n".join(current))
    return out


def board_embed(record: BattleRecord, battle: Battle, clock: ClockRecord) -> discord.Embed:
    """Build the status board of a battle."""
    status = turn_status(battle)
    running = bool(status["running"])
    lines = [f"**{whose_turn(battle)}**" + (f" \u00b7 {status['mode']} mode" if battle.status == "active" else "")]
    if battle.status == "setup":
        # No feature points here: the board is public, and a side's points are for its players (/feature list).
        lines.append("The GM sets up the map and units, then starts the battle with /battle start.")
    line = deadline_line(clock, battle)
    if line:
        lines.append(line)
    if battle.status == "active" and status["mode"] == "free":
        lines.append("Every unit acts when its player is ready; the GM closes the round with /turn close-round.")
    embed = discord.Embed(title=f"\U0001f4cb {safe(battle.name)}", colour=INFO, description="\n".join(lines))
    add_setup_field(embed, battle)  # while the battle is set up, the board is the GM's setup panel too
    by_side: dict[str, list[str]] = {}
    for entry in status["units"]:
        by_side.setdefault(entry["side"], []).append(unit_line(battle, entry, running=running))
    footer = f"battle #{record.id} \u00b7 updated after every order \u00b7 /turn status for details"
    # Discord refuses an embed over 6000 characters in all; big battles list as many units as fit.
    budget = EMBED_LIMIT - len(embed) - len(footer) - 200
    shown = 0
    for side in [s.name for s in battle.sides] + sorted(set(by_side) - {s.name for s in battle.sides}):
        for i, chunk in enumerate(_chunks(by_side.get(side, []))):
            name = safe(side) if i == 0 else f"{safe(side)} (cont.)"
            if len(embed.fields) >= MAX_FIELDS or len(name) + len(chunk) > budget:
                break
            embed.add_field(name=name, value=chunk, inline=False)
            budget -= len(name) + len(chunk)
            shown += chunk.count("\n") + 1
    hidden = len(status["units"]) - shown
    if hidden > 0:
        embed.add_field(name="\u2026", value=f"{hidden} more units; /unit info shows any of them.", inline=False)
    if not status["units"]:
        embed.add_field(name="Units", value="No units yet; the GM adds them with /unit add.", inline=False)
    embed.set_footer(text=footer)
    return embed
