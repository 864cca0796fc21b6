"""How the shared commands find a rule system's own pieces: move modes, its map, its unit card and verbs.

The shared replies read a unit through its hooks (`summary_line`, `health_text`, `badges`, `stat_lines`)
and a battle through its `System` (`has_map`, `plays`, `reach_of`). A system whose units deserve a richer
card or whose turn prompt offers its own verbs registers a `FrontEnd` under its system id
(`register_front_end`); every other system gets the generic one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import discord

from cogs.common.embeds import INFO, safe
from rules import turns
from rules.battle import Battle
from rules.errors import IllegalOrderError, InvalidOrderError, NoMapError
from rules.orders import Order
from rules.outcome import Outcome
from rules.system import system_of
from rules.units import Unit

MAX_VERBS = 8
# Orders the turn prompt leaves out of the verbs: moves have their own line, turn orders their buttons.
NOT_VERBS = frozenset({"move", *turns.TURN_KINDS})


@dataclass(frozen=True)
class FrontEnd:
    """The parts of a rule system's Discord replies that differ from the generic ones."""

    unit_card: Callable[[Battle, Unit], discord.Embed] | None = None
    # Extra fields of the private "My options" reply: (heading, text) pairs.
    option_fields: Callable[[Battle, Unit], list[tuple[str, str]]] | None = None
    # The verbs a turn prompt offers a unit with `left` action points, like `/attack 1 (Rifle)`.
    prompt_verbs: Callable[[Battle, Unit, int], list[str]] | None = None
    # What the GM does after /battle new, for a system whose setup is not /map paint and /unit add.
    setup_steps: str | None = None
    # /battle info's own parts: where the battle stands (replaces the round) and its fields (replace the units').
    info_stage: Callable[[Battle], str] | None = None
    info_fields: Callable[[Battle], list[tuple[str, str]]] | None = None
    # The battle's rows of the system's own homebrew tables, for /battle rules show: (title, lines) pairs.
    homebrew_sections: Callable[[Battle], list[tuple[str, list[str]]]] | None = None
    # The reply to one of the system's orders given through a shared command (/move, /turn end, /attack).
    outcome_embed: Callable[[Outcome, Battle, str], discord.Embed] | None = None
    # The order /attack gives in this system: (battle, unit, weapon, target, mode) -> order.
    attack_order: Callable[[Battle, str, str, str, str | None], Order] | None = None
    # /attack's weapon choices: (battle, chosen unit or None, typed text) -> (label, value) pairs.
    weapon_choices: Callable[[Battle, Unit | None, str], list[tuple[str, str]]] | None = None


_FRONT_ENDS: dict[str, FrontEnd] = {}


def builtin_front_ends() -> dict[str, FrontEnd]:
    """Return the front ends shipped for the systems that have their own pieces, by system id."""
    from cogs.combat_action.front import FRONT_END as combat_action
    from cogs.m42.front import FRONT_END as m42
    from cogs.strategic.front import FRONT_END as strategic
    from cogs.surface.front import FRONT_END as surface

    return {"strategic": strategic, "combat_action": combat_action, "m42": m42, "surface": surface}


def register_front_end(system_id: str, front_end: FrontEnd) -> None:
    """Give a rule system its own front-end pieces (registering again replaces them)."""
    _FRONT_ENDS[system_id] = front_end


def front_end(battle: Battle) -> FrontEnd:
    """Return the front-end pieces of a battle's rule system (the generic ones if it registered none)."""
    if not _FRONT_ENDS:
        _FRONT_ENDS.update(builtin_front_ends())
    return _FRONT_ENDS.get(battle.system.id, FrontEnd())


def require_map(ruleset_id: str, what: str) -> None:
    """Refuse a map command in a battle whose rule system has no map, saying what that battle uses instead."""
    system = system_of(ruleset_id)
    if not system.has_map:
        raise NoMapError(f"This battle plays {system.name}, which has no map, so it cannot {what}. "
                         "Its forces are added and fought with its own commands (see /help).")


def move_mode(battle: Battle, mode: str | None) -> str:
    """Return the mode a /move uses: the one given, checked against the battle's ruleset (homebrew too), or its default."""
    system = battle.system
    if not system.plays("move"):
        raise IllegalOrderError(f"Units do not move square by square in {system.name}; see /help for its commands.")
    ruleset = battle.ruleset
    if mode is None or not mode.strip():
        return ruleset.default_move_mode
    wanted = mode.strip().lower()
    modes = [m for m in ruleset.move_modes if not system.plays(m)]  # a mode with an order of its own is not a move
    if wanted in ruleset.move_modes and system.plays(wanted):
        raise IllegalOrderError(f"A {wanted} is an order of its own that ends in an attack: give it with `/{wanted} "
                                f"unit target` (or the unit's {wanted.capitalize()} button), and the unit moves and "
                                f"strikes at once. To move without attacking use {', '.join(modes)}.")
    if wanted not in modes:
        raise InvalidOrderError(f"`{mode}` is not a way to move in {ruleset.name}; choose one of "
                                f"{', '.join(modes)} (default {ruleset.default_move_mode}).")
    return wanted


def unit_card(battle: Battle, unit: Unit) -> discord.Embed:
    """Describe a unit's stat block with its system's card, or from its `stat_lines`."""
    own = front_end(battle).unit_card
    if own is not None:
        return own(battle, unit)
    embed = discord.Embed(title=f"{safe(unit.name)} ({safe(unit.side)})", colour=INFO)
    owner = f"<@{unit.owner}>" if unit.owner else "the GM"
    where = f"on **{unit.cell}** \u00b7 " if battle.system.has_map else ""
    lines = [f"{where}commanded by {owner}"]
    if unit.statuses:
        lines.append("Status: " + ", ".join(s.replace("_", " ") for s in unit.statuses))
    embed.description = "\n".join(lines)
    for heading, value in unit.stat_lines()[:20]:
        embed.add_field(name=safe(heading)[:256], value=safe(value)[:1024] or "\u2014", inline=False)
    return embed


def generic_verbs(battle: Battle, unit: Unit, left: int) -> list[str]:
    """Return the kinds of order the unit may give now with their cost, from its system's legal orders."""
    costs: dict[str, int] = {}
    for order in battle.legal_orders(unit):
        if order.kind not in NOT_VERBS and order.kind not in costs:
            costs[order.kind] = turns.order_cost(battle, order).points
    return [f"{kind} {cost}" for kind, cost in list(costs.items())[:MAX_VERBS] if cost <= left]


def prompt_verbs(battle: Battle, unit: Unit, left: int) -> list[str]:
    """Return what a turn prompt offers the unit besides moving and ending its turn."""
    own = front_end(battle).prompt_verbs
    return own(battle, unit, left) if own is not None else generic_verbs(battle, unit, left)


def option_fields(battle: Battle, unit: Unit) -> list[tuple[str, str]]:
    """Return the system's own fields of the "My options" reply (none for a generic system)."""
    own = front_end(battle).option_fields
    return own(battle, unit) if own is not None else []


def system_embed(outcome: Outcome, battle: Battle, actor_name: str) -> discord.Embed | None:
    """Return the system's own reply to an outcome, or None when the shared formatter words it."""
    own = front_end(battle).outcome_embed
    return own(outcome, battle, actor_name) if own is not None else None
