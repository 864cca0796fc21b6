"""The battle log as players read it: pages of orders, newest first, with their dice and what they did."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.clockhours import relative
from bot.service import SYSTEM_USER_ID, BattleRecord, EventRecord
from cogs.common.components import battle_and_actor, guarded
from cogs.common.context import service_of
from cogs.common.embeds import INFO, safe
from cogs.common.replies import edit_pressed
from cogs.common.secrets import own_sides
from cogs.common.systems import front_end
from cogs.common.words import command_text
from cogs.turn.text import effect_sentence
from rules.battle import Battle
from rules.effects import load_effects
from rules.errors import GameError
from rules.outcome import Outcome
from rules.visibility import GM, HIDDEN, Viewer, redact, unseen_names

PER_PAGE = 10
MAX_ROLLS = 4
MAX_EFFECTS = 2
LINE_MAX = 380


def who(actor_id: int) -> str:
    """Name the author of a log entry."""
    return "\u231b deadline" if actor_id == SYSTEM_USER_ID else f"<@{actor_id}>"


def _rolls(outcome: dict[str, Any]) -> str:
    rolls = outcome.get("rolls", [])
    parts = []
    for roll in rolls[:MAX_ROLLS]:
        faces = ",".join(str(f) for f in roll.get("faces", []))
        parts.append(f"{roll.get('notation')} [{faces}]={roll.get('total')}")
    if len(rolls) > MAX_ROLLS:
        parts.append(f"+{len(rolls) - MAX_ROLLS} more")
    return ("\U0001f3b2 " + "; ".join(parts)) if parts else ""


def _shown(event: EventRecord, battle: Battle, *, gm: bool, viewer: int) -> Outcome:
    """Return an entry's outcome as this reader may know it (`rules.visibility.redact`)."""
    system = battle.system
    # Whether it is hidden is the entry's (a GM's reveal clears it there), not what the order first said.
    outcome = Outcome.from_dict({"order": event.order_text, "kind": event.kind, **(event.outcome or {}),
                                 "hidden": event.hidden}, system.effect_kinds, system.test_kinds, system.detail_kinds)
    return redact(outcome, battle, GM if gm else Viewer.of(own_sides(battle, viewer)))


def _effects(kind: str, outcome: Outcome, battle: Battle) -> str:
    effects = outcome.effects
    own = front_end(battle).log_line
    lines = [own(outcome)] if own is not None else []
    lines += [effect_sentence(e, outcome, battle) for e in effects[:MAX_EFFECTS]]
    if len(effects) > MAX_EFFECTS:
        lines.append(f"(+{len(effects) - MAX_EFFECTS} more)")
    return " ".join(line for line in lines if line)


def _order_unit(event: EventRecord, battle: Battle) -> str:
    """Return the lower-case name of the unit an event's order was given to ('' for none or an unreadable one)."""
    try:
        return str(getattr(battle.parse_order(event.order_text), "unit", "")).lower()
    except GameError:
        return ""


def hiding_since(events: list[EventRecord], battle: Battle, unseen: set[str]) -> dict[str, int]:
    """Return, for each unit now hidden from the viewer, the number of the entry where its hiding began.

    From that entry on, what the unit did gives its square away, so those entries read only that it acted.
    """
    since: dict[str, int] = {}
    for event in events:  # oldest first: the last hiding found is the one still going on
        if event.undone or not event.outcome:
            continue
        name = _order_unit(event, battle)
        if name not in unseen:
            continue
        effects = load_effects(event.outcome.get("effects", []), battle.system.effect_kinds)
        if any(e.kind == HIDDEN for e in effects):
            since[name] = event.seq
    return since


def _out_of_sight(event: EventRecord, battle: Battle, since: dict[str, int]) -> str | None:
    """Return the line that stands for an entry of a unit hidden from the viewer, or None to show it whole."""
    if not since:
        return None
    name = _order_unit(event, battle)
    start = since.get(name)
    if start is None or event.seq < start:
        return None
    unit = battle.find_unit(name)
    shown = safe(unit.name if unit is not None else name)
    if event.seq == start:
        return f"{shown} hides; where, only its side knows"
    return f"{shown} acts out of sight"


def _secret_standing(event: EventRecord, battle: Battle, viewer: int) -> bool:
    """Return whether a standing order's text must stay hidden from this viewer (not the unit's player)."""
    if event.kind != "standing-order":
        return False
    name = _order_unit(event, battle)
    unit = battle.find_unit(name) if name else None
    return unit is None or unit.owner != viewer


def event_line(event: EventRecord, battle: Battle, *, gm: bool, viewer: int,
               hiding: dict[str, int] | None = None) -> str:
    """Return one log entry: number, time, author, order, dice and effects; secrets stay secret.

    `hiding` names the units hidden from the viewer and the entry where each began to hide (`hiding_since`).
    """
    head = f"**#{event.seq}** {relative(event.created_at)} {who(event.actor_id)}"
    if event.kind == "create":
        return f"{head} created the battle"
    outcome = event.outcome or {}
    if event.kind == "undo":
        seqs = ", ".join(f"#{s}" for s in outcome.get("undone", []))
        return f"{head} undid {seqs}"
    unseen = _out_of_sight(event, battle, hiding or {})
    if event.hidden and not gm:
        body = "\U0001f512 hidden roll (the GM may reveal it)"
    elif unseen is not None:
        body = unseen
    elif not gm and _secret_standing(event, battle, viewer):
        body = "set a standing order (kept secret)"
    else:
        tag = "\U0001f512 " if event.hidden else ""
        shown = _shown(event, battle, gm=gm, viewer=viewer)
        said = _effects(event.kind, shown, battle)
        # What happened, in words; the command itself only when the rules recorded nothing to say.
        body = tag + (said or f"`{safe(command_text(shown.order, battle.system.id))[:120]}`")
        rolls = _rolls(shown.to_dict())
        if rolls:
            body += f"\n\u2003{rolls}"
    line = f"{head} {body}"
    if len(line) > LINE_MAX:
        line = line[: LINE_MAX - 1] + "\u2026"
    if event.undone:
        line = f"~~{line.splitlines()[0]}~~ (undone)"
    return line


def pages_of(total: int) -> int:
    """Return how many pages a log of `total` entries fills."""
    return max(1, (total + PER_PAGE - 1) // PER_PAGE)


async def log_message(interaction: discord.Interaction, record: BattleRecord, page: int,
                      viewer: int, gm: bool) -> tuple[discord.Embed, discord.ui.View]:
    """Build one page of the log for a viewer, with the buttons to the other pages."""
    service = service_of(interaction)
    total = await service.event_count(record)
    last = pages_of(total)
    page = min(max(1, page), last)
    events, _total = await service.log_page(record, page, PER_PAGE)
    battle = service.read_only(record)
    # Units hiding from this reader: their entries since they hid would give their squares away.
    unseen = unseen_names(battle, Viewer.of(own_sides(battle, viewer), gm=gm))
    hiding = hiding_since(await service.all_events(record), battle, unseen) if unseen else {}
    lines = [event_line(e, battle, gm=gm, viewer=viewer, hiding=hiding) for e in events]
    embed = discord.Embed(title=f"Log: {safe(battle.name)}", colour=INFO, description="\n".join(lines)[:4000] or "Empty.")
    embed.set_footer(text=f"page {page} of {last} \u00b7 {total} entries, newest first"
                          + (" \u00b7 you see hidden rolls as GM" if gm else ""))
    view = discord.ui.View(timeout=None)
    view.add_item(LogPageButton(record.id, page - 1, "n", disabled=page <= 1))
    view.add_item(LogPageButton(record.id, page + 1, "o", disabled=page >= last))
    return embed, view


class LogPageButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"bp:log:(?P<battle>[0-9]+):(?P<page>[0-9]+):(?P<dir>[no])"):
    """Turn the pages of the log (newer or older)."""

    def __init__(self, battle_id: int, page: int, direction: str, *, disabled: bool = False) -> None:
        label = "\u25c0 Newer" if direction == "n" else "Older \u25b6"
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, disabled=disabled,
                                           custom_id=f"bp:log:{battle_id}:{max(0, page)}:{direction}"))
        self.battle_id = battle_id
        self.page = max(1, page)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LogPageButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["battle"]), int(match["page"]), match["dir"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the page this button points at, for whoever pressed it."""
        await guarded(interaction, self._turn)

    async def _turn(self, interaction: discord.Interaction) -> None:
        record, actor = await battle_and_actor(interaction, self.battle_id)
        gm = await service_of(interaction).is_gm(actor, record)
        embed, view = await log_message(interaction, record, self.page, actor.user_id, gm)
        await edit_pressed(interaction, embed=embed, view=view)
