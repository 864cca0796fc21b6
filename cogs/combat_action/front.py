"""Combat Action's own reply pieces for the shared commands: its unit card, My options and turn prompt verbs."""

from __future__ import annotations

import discord

import rules.systems.combat_action.effects as ca
from cogs.combat_action import guide
from cogs.combat_action.autocomplete import weapon_options
from cogs.combat_action.embeds import outcome_embed, unit_embed
from cogs.combat_action.options import MOVE_GROUP, option_groups
from cogs.common.embeds import moved_line, safe, unit_added_line
from cogs.common.systems import FrontEnd
from cogs.common.words import SystemWords
from rules import turns
from rules.battle import Battle
from rules.coords import Cell
from rules.errors import GameError
from rules.orders import Order
from rules.outcome import Outcome
from rules.systems.combat_action.actions.close import CLOSE_CLASSES, CloseCombat
from rules.systems.combat_action.actions.fire import Fire, weapon_of
from rules.systems.combat_action.shooting import CLASS_MODES
from rules.systems.combat_action.units import Unit as CombatUnit
from rules.units import Unit

# My options shares its embed with the moves and turn fields: keep the system's own fields well inside 6,000.
OPTIONS_BUDGET = 3800
# order kind -> the command a player types for it
WORDS = SystemWords(
    commands={kind: f"ca {kind}" for kind in ("activate", "fire", "close-combat", "hatch", "embark", "disembark",
                                              "reload", "unjam", "prime", "action")}
    | {"flat-down": "ca posture", "get-up": "ca posture", "aim": "ca posture"},
    fixed_options={"flat-down": ("posture:flat-down",), "get-up": ("posture:get-up",), "aim": ("posture:aim",)},
)
MAX_VERBS = 8


def _card(battle: Battle, unit: Unit) -> discord.Embed:
    """Return the Combat Action stat-block card: profile, weapons, locations, hold and AP left."""
    assert isinstance(unit, CombatUnit)
    left = turns.actions_left(battle, unit.id) if turns.engaged(battle) and unit.takes_turns else None
    carried = tuple(u.name for u in battle.iter_units() if isinstance(u, CombatUnit) and u.inside == unit.id)
    return unit_embed(unit, ap_left=left, carried=carried)


def _option_fields(battle: Battle, unit: Unit) -> list[tuple[str, str]]:
    """Return every legal action but the moves (the shared reply lists those), grouped, each with its AP."""
    if not isinstance(unit, CombatUnit):
        return []
    out: list[tuple[str, str]] = []
    used = 0
    for name, lines in option_groups(battle, unit):
        if name == MOVE_GROUP:
            continue  # walk and charge are the shared reply's own move lines
        value = "\n".join(lines)[:1024]
        if used + len(name) + len(value) > OPTIONS_BUDGET:
            out.append(("\u2026", "More options did not fit; `/ca options` lists them all."))
            break
        used += len(name) + len(value)
        out.append((name, value))
    return out


def _outcome_embed(outcome: Outcome, battle: Battle, actor_name: str) -> discord.Embed:
    """Return the Combat Action reply to an order given through a shared command."""
    return outcome_embed(outcome, battle_name=battle.name, actor_name=actor_name)


def _prompt_verbs(battle: Battle, unit: Unit, left: int) -> list[str]:
    """Return the /ca commands the unit can afford now, each with its AP (the cheapest of its kind)."""
    costs: dict[str, int] = {}
    for order in battle.legal_orders(unit):
        name = WORDS.commands.get(order.kind)
        if name is None:
            continue
        command = f"/{name}"
        points = turns.order_cost(battle, order).points
        if points <= left and points < costs.get(command, 99):
            costs[command] = points
    return [f"{command} {points}" for command, points in list(costs.items())[:MAX_VERBS]]


def _attack_order(battle: Battle, unit: str, weapon: str, target: str, mode: str | None, at: Cell | None = None,
                  adjust: int = 0, called: str = "") -> Order:
    """Return what /attack means here: a close combat blow with a close combat weapon, else a shot."""
    attacker = battle.unit(unit)
    assert isinstance(attacker, CombatUnit)
    gun = weapon_of(attacker, weapon)
    if not target:
        raise GameError("Name the unit to attack in `target`; Combat Action area weapons are aimed at a unit.")
    if gun.wclass in CLOSE_CLASSES:
        if mode is not None:
            raise GameError(f"{gun.name} strikes in close combat (2 AP); leave `mode` out.")
        return CloseCombat(unit=unit, target=target, weapon=gun.name)
    modes = CLASS_MODES.get(gun.wclass, ("standard",))
    return Fire(unit=unit, weapon=gun.name, target=target, mode=mode or modes[0])


def _weapon_choices(battle: Battle, unit: Unit | None, current: str) -> list[tuple[str, str]]:
    """Return the chosen unit's weapons for /attack's autocomplete."""
    return weapon_options(unit if isinstance(unit, CombatUnit) else None, current)


LINES = {
    ca.Moved: lambda e: moved_line(e.unit, e.frm, e.to, f"{e.cm} cm"),
    ca.UnitAdded: lambda e: unit_added_line(e.unit, e.side, e.at, e.owner),
    ca.ReadyLost: lambda e: f"{safe(e.unit)} is pinned and loses its ready-to-fire status: its aim is gone.",
}

FRONT_END = FrontEnd(lines=LINES, unit_card=_card, option_fields=_option_fields, prompt_verbs=_prompt_verbs,
                     outcome_embed=_outcome_embed, attack_order=_attack_order, weapon_choices=_weapon_choices,
                     words=WORDS, commands=frozenset({"ca", "attack"}),
                     help_gm=(guide.GM_TITLE, guide.GM_GUIDE), help_player=(guide.PLAYER_TITLE, guide.PLAYER_GUIDE), options={"attack": frozenset({"mode"})},
                     instead={"range": "`/ca options` gives each target's range band and the roll it needs.",
                              "charge": "A charge here is a move (`/move mode:charge`); the attack is its own order."})
