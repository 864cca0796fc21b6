"""How the shared commands find a rule system's own pieces, and what a battle's system offers.

The shared replies read a unit through its hooks (`summary_line`, `health_text`, `badges`, `stat_lines`)
and a battle through its `System` (`has_map`, `plays`, `reach_of`). Each system's front-end extension
registers a `FrontEnd` under its system id in its `setup` (`setup_front_end`): its unit card, sentences
and verbs, its part of /help, and the commands and options that are its own. A command or option another
system owns is not offered in a battle (autocomplete answers nothing) and, typed anyway, is refused naming
its system: `refusal` is the one check, run by the command tree before any command or autocomplete
(`offer_gate`) and by a shared command for the options it reads itself.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.service import BattleRecord, TableService
from cogs.common.embeds import INFO, register_detail_lines, register_lines, safe
from cogs.common.words import SystemWords, command_name, register_words
from rules import turns
from rules.battle import Battle
from rules.coords import Cell
from rules.effects import Effect
from rules.errors import IllegalOrderError, InvalidOrderError, NoMapError
from rules.orders import Order
from rules.outcome import Outcome
from rules.plugins import installed
from rules.system import registered, system_of
from rules.units import Unit

log = logging.getLogger(__name__)

MAX_VERBS = 8
# Orders the turn prompt leaves out of the verbs: moves have their own line, turn orders their buttons.
NOT_VERBS = frozenset({"move", *turns.TURN_KINDS})


@dataclass(frozen=True)
class FrontEnd:
    """The parts of a rule system's Discord replies that differ from the generic ones."""

    # The summary posted when the battle ends: (service, record, ended battle, orders logged) -> embed.
    end_summary: Callable[[TableService, BattleRecord, Battle, int], Awaitable[discord.Embed]] | None = None
    # The units one logged outcome took out of the battle for good, as (side, unit name) pairs: a system that
    # takes its dead off the map names them here, so the generic summary still counts them among the fallen.
    gone_units: Callable[[Mapping[str, Any]], list[tuple[str, str]]] | None = None
    unit_card: Callable[[Battle, Unit], discord.Embed] | None = None
    # Extra fields of the private "My options" reply: (heading, text) pairs.
    option_fields: Callable[[Battle, Unit], list[tuple[str, str]]] | None = None
    # The verbs a turn prompt offers a unit with `left` action points, like `/attack 1 (Rifle)`.
    prompt_verbs: Callable[[Battle, Unit, int], list[str]] | None = None
    # What the GM does after /battle new, for a system whose setup is not /map paint and /unit add.
    setup_steps: str | None = None
    # The GM's setup panel of a system without a map (whose status board is not posted): (record, battle) ->
    # its embed and its buttons, the buttons None once the battle has started. Pinned and refreshed like a board.
    setup_panel: Callable[[BattleRecord, Battle], tuple[discord.Embed, discord.ui.View | None]] | None = None
    # /battle info's own parts: where the battle stands (replaces the round) and its fields (replace the units').
    info_stage: Callable[[Battle], str] | None = None
    info_fields: Callable[[Battle], list[tuple[str, str]]] | None = None
    # The battle's rows of the system's own homebrew tables, for /battle rules show: (title, lines) pairs.
    homebrew_sections: Callable[[Battle], list[tuple[str, list[str]]]] | None = None
    # The same rows as the homebrew import's reply names them (`Watchtower (3 FP)`); None: its section lines.
    homebrew_names: Callable[[Battle], list[tuple[str, list[str]]]] | None = None
    # The reply to one of the system's orders given through a shared command (/move, /turn end, /attack), or
    # None to leave an order to the shared reply.
    outcome_embed: Callable[[Outcome, Battle, str], discord.Embed | None] | None = None
    # The order /attack gives in this system: (battle, unit, weapon, target, mode, at, adjust, called) -> order.
    attack_order: Callable[[Battle, str, str, str, str | None, Cell | None, int, str], Order] | None = None
    # /attack's weapon choices: (battle, chosen unit or None, typed text) -> (label, value) pairs.
    weapon_choices: Callable[[Battle, Unit | None, str], list[tuple[str, str]]] | None = None
    # /map show's `weapon` choices for the unit in `range`: (battle, unit, typed text) -> (label, value) pairs.
    range_weapons: Callable[[Battle, Unit, str], list[tuple[str, str]]] | None = None
    # /attack's units to pick beyond the others on the map (a bridge, say): (battle, typed text) -> (label, value).
    extra_targets: Callable[[Battle, str], list[tuple[str, str]]] | None = None
    # The attacker's own units an /attack order aims at, so /attack asks before hitting them.
    friends_hit: Callable[[Battle, Order], list[Unit]] | None = None
    # A sentence for one of the system's own effects: (effect, battle or None, its outcome or None) -> sentence,
    # None for an effect that is not the system's.
    sentence: Callable[[Effect, Battle | None, Outcome | None], str | None] | None = None
    # What one of its orders did, for its /battle log line (before its effects), or None to say nothing more.
    log_line: Callable[[Outcome], str | None] | None = None
    # Short sentences of its own effects (a move, a unit placed), by effect class, for the shared replies.
    lines: Mapping[type[Effect], Callable[[Any], str]] = field(default_factory=dict)
    # What its orders' details add to the shared reply: lines like a move's allowance and cost, a roll's total.
    detail_lines: Callable[[Outcome], list[str]] | None = None
    # Whether these sides (lower case) see something of the system the public map leaves out (a hidden feature).
    holds_secrets: Callable[[Battle, set[str]], bool] | None = None
    # Commands only this system offers, by qualified name (`feature`, `gm move`): other battles refuse them.
    commands: frozenset[str] = frozenset()
    # Options of shared commands only this system takes, by qualified command name.
    options: Mapping[str, frozenset[str]] = field(default_factory=dict)
    # What to use here instead of another system's command, by its qualified name: said when it is refused.
    instead: Mapping[str, str] = field(default_factory=dict)
    # Its parts of /help: (title, text) for the GM's guide and for the players'.
    help_gm: tuple[str, str] | None = None
    help_player: tuple[str, str] | None = None
    # How its own order kinds are written as the commands that give them (footers, logs, questions, hints).
    words: SystemWords = field(default_factory=SystemWords)


_FRONT_ENDS: dict[str, FrontEnd] = {}


def register_front_end(system_id: str, front_end: FrontEnd) -> None:
    """Give a rule system its own front-end pieces (registering again replaces them)."""
    _FRONT_ENDS[system_id] = front_end
    register_words(system_id, front_end.words)
    register_lines(front_end.lines)
    if front_end.detail_lines is not None:
        register_detail_lines(system_id, front_end.detail_lines)


async def setup_front_end(bot: commands.Bot, system_id: str, front: FrontEnd, *cogs: commands.Cog,
                          subcommands: Mapping[str, Sequence[app_commands.Command]] | None = None) -> None:
    """Register a system's front end, add its cogs and its subcommands of shared groups (`/gm move`), and let
    the command tree refuse what it does not offer.

    The shared groups' extensions load first (the bot loads every system's extension after them).
    """
    register_front_end(system_id, front)
    gates = getattr(bot.tree, "gates", None)
    if gates is not None and offer_gate not in gates:
        gates.append(offer_gate)
    for cog in cogs:
        await bot.add_cog(cog)
    for group_name, added in (subcommands or {}).items():
        group = bot.tree.get_command(group_name)
        if not isinstance(group, app_commands.Group):
            raise RuntimeError(f"/{group_name} is not loaded, so {system_id} cannot add its commands to it")
        for command in added:
            group.add_command(command, override=True)


def remove_subcommands(bot: commands.Bot, subcommands: Mapping[str, Iterable[str]]) -> None:
    """Take a system's subcommands out of the shared groups again, when its extension is unloaded."""
    for group_name, names in subcommands.items():
        group = bot.tree.get_command(group_name)
        if isinstance(group, app_commands.Group):
            for name in names:
                group.remove_command(name)


def _unloaded_front_end(system_id: str) -> FrontEnd | None:
    """Return the `FRONT_END` a system's front-end module offers, in a process that did not load it as an extension."""
    for done in installed():
        if done.plugin.system.id == system_id and done.plugin.front_end is not None:
            # By name, like the bot's own loading: the shared front end never imports a system's.
            try:
                module = importlib.import_module(done.plugin.front_end)
            except Exception as exc:  # a plug-in's front end that does not load leaves its system the generic one
                log.warning("front end %s of rule system %s does not load (%s); its battles use the shared replies",
                            done.plugin.front_end, system_id, exc)
                return None
            found = getattr(module, "FRONT_END", None)
            return found if isinstance(found, FrontEnd) else None
    return None


def front_end(battle: Battle) -> FrontEnd:
    """Return the front-end pieces of a battle's rule system (the generic ones if it registered none)."""
    system_id = battle.system.id
    if system_id not in _FRONT_ENDS:
        # Registered like a loaded one, so its words and sentences serve the shared replies too.
        register_front_end(system_id, _unloaded_front_end(system_id) or FrontEnd())
    return _FRONT_ENDS[system_id]


def system_name(system_id: str) -> str:
    """Return a system's name as players read it, by its id (the id itself if it is not installed)."""
    return next((system.name for system in registered() if system.id == system_id), system_id)


def _name(command: str) -> str:
    return " ".join(command.strip().lstrip("/").split())


def _command_owners(command: str) -> frozenset[str]:
    """Return the ids of the systems that alone offer a command (none: every system offers it)."""
    return frozenset(sid for sid, front in _FRONT_ENDS.items()
                     if any(command == own or command.startswith(own + " ") for own in front.commands))


def _option_owners(command: str, option: str) -> frozenset[str]:
    """Return the ids of the systems that alone take an option of a shared command (none: every system)."""
    return frozenset(sid for sid, front in _FRONT_ENDS.items() if option in front.options.get(command, ()))


def system_specific(command: str, options: Iterable[str] = ()) -> bool:
    """Return whether a command, or one of these options of it, belongs to some systems only."""
    name = _name(command)
    return bool(_command_owners(name)) or any(_option_owners(name, o) for o in options)


def not_offered(battle: Battle, command: str, options: Iterable[str] = ()) -> str | None:
    """Say why a command (with these options) is not offered in a battle, or None when its system plays it."""
    return refusal(battle.system.id, command, options)


def refusal(system_id: str, command: str, options: Iterable[str] = ()) -> str | None:
    """Say why a command (with these options) is not offered in a battle of a system, or None when it is."""
    name = _name(command)
    parts = [(f"/{name}", _command_owners(name))]
    parts += [(f"/{name}'s `{o}` option", _option_owners(name, o)) for o in sorted(set(options))]
    for number, (what, owners) in enumerate(parts):
        if owners and system_id not in owners:
            names = " or ".join(system_name(sid) for sid in sorted(owners))
            whose = "a command" if number == 0 else "an option"
            own = _FRONT_ENDS.get(system_id, FrontEnd())
            hint = own.instead.get(name.split(" ")[0] if number == 0 else name) or "See /help for its commands."
            return f"{what} is {whose} of {names} battles; this battle plays {system_name(system_id)}. {hint}"
    return None


def offered(battle: Battle, command: str, options: Iterable[str] = ()) -> bool:
    """Return whether a battle's system offers a command with these options."""
    return not_offered(battle, command, options) is None


def refuse_unoffered(battle: Battle, command: str, options: Iterable[str] = ()) -> None:
    """Refuse, naming the system that plays it, a command or option the battle's system does not offer."""
    why = not_offered(battle, command, options)
    if why is not None:
        raise IllegalOrderError(why)


def command_of(data: Mapping[str, Any]) -> tuple[str, list[str], str | None]:
    """Return an interaction's qualified command name, the options given and the one being typed, if any."""
    names = [str(data.get("name", ""))]
    options = list(data.get("options", []) or [])
    while options and options[0].get("type") in (1, 2):  # a subcommand or a group of them
        names.append(str(options[0].get("name", "")))
        options = list(options[0].get("options", []) or [])
    given = [str(o.get("name", "")) for o in options]
    focused = next((str(o.get("name", "")) for o in options if o.get("focused")), None)
    return " ".join(names), given, focused


async def offer_gate(interaction: discord.Interaction) -> str | None:
    """Return why the battle in this channel does not offer the command being typed or sent, or None."""
    if interaction.type not in (discord.InteractionType.application_command, discord.InteractionType.autocomplete):
        return None
    data: Mapping[str, Any] = interaction.data or {}
    if data.get("type", 1) != 1 or interaction.guild_id is None or interaction.channel_id is None:
        return None
    command, given, _focused = command_of(data)
    if not system_specific(command, given):
        return None  # every system offers it: no battle to look up
    service = getattr(interaction.client, "service", None)
    if service is None:
        return None
    found = await service.peek(interaction.guild_id, interaction.channel_id)
    if found is None:
        return None  # no battle here: the command says so itself
    return not_offered(found[1], command, given)


def guides(battle: Battle | None) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """Return the systems' parts of /help, GM's and players': the battle's system alone, or all outside a battle."""
    # Outside a battle every system's part, in the order of their ids, whichever registered first.
    fronts = [front_end(battle)] if battle is not None else [_FRONT_ENDS[k] for k in sorted(_FRONT_ENDS)]
    gm = [f.help_gm for f in fronts if f.help_gm is not None]
    player = [f.help_player for f in fronts if f.help_player is not None]
    return gm, player


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
    named = [(command_name(kind, battle.system.id), cost) for kind, cost in costs.items() if cost <= left]
    return [f"/{name} {cost}" for name, cost in named if name is not None][:MAX_VERBS]


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


def system_sentence(effect: Effect, battle: Battle | None, outcome: Outcome | None = None) -> str | None:
    """Return an effect as its system's front end words it, or None when no front end has words for it."""
    for front in _FRONT_ENDS.values():
        words = front.sentence(effect, battle, outcome) if front.sentence is not None else None
        if words is not None:
            return words
    return None
