"""The Strategic Combat system's own reply pieces: its card, attacks, sentences, options and prompt verbs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

import rules.systems.strategic.effects as strategic
from cogs.common.embeds import PATH, moved_line, safe, signed, unit_added_line
from cogs.common.embeds_setup import map_line, squares
from cogs.common.systems import FrontEnd
from cogs.common.words import SystemWords
from cogs.strategic import guide
from cogs.strategic.autocomplete import bridge_targets, ranged_weapons, weapon_options
from cogs.strategic.effects_combat import SENTENCES
from cogs.strategic.embeds_combat import COMBAT_KINDS, combat_embed
from cogs.strategic.homebrew_text import homebrew_names, homebrew_sections
from cogs.strategic.unit_card import unit_embed
from rules import turns
from rules.battle import Battle
from rules.coords import Cell
from rules.effects import Effect
from rules.errors import GameError
from rules.orders import Order
from rules.outcome import Outcome
from rules.systems.strategic.actions.combat import Attack
from rules.systems.strategic.combat import range_preview
from rules.systems.strategic.details import (
    AttackDetails,
    ChargeDetails,
    MoveDetails,
    RollDetails,
    UnitSetDetails,
)
from rules.systems.strategic.features import visible_features
from rules.systems.strategic.units import Unit as StrategicUnit
from rules.units import Unit

MAX_TARGETS = 6
MAX_WEAPONS = 8


def _card(battle: Battle, unit: Unit) -> discord.Embed:
    """Return the full Strategic stat-block card of a unit."""
    assert isinstance(unit, StrategicUnit)
    return unit_embed(unit)


def attack_lines(battle: Battle, unit: StrategicUnit) -> list[str]:
    """List, per weapon, the enemies in range or reach with the band and the number to hit."""
    enemies = [u for u in battle.iter_units() if u.alive and battle.enemies(unit, u)]
    lines: list[str] = []
    for weapon in unit.weapons[:MAX_WEAPONS]:
        found: list[str] = []
        for enemy in enemies:
            try:
                preview = range_preview(battle, unit, enemy.cell, weapon, enemy)
            except GameError:
                continue
            if not preview.get("in_range"):
                continue
            target = preview.get("breakdown", {}).get("target")
            band = preview.get("band")
            where = f"{preview['distance']} sq"
            if band:
                where += f", {band['name']} ({signed(int(band['mod']))})"
            elif weapon.melee:
                where += ", in reach"
            hit = f", hits on {target} or less" if target is not None else ""
            found.append(f"{safe(enemy.name)} ({enemy.cell}): {where}{hit}")
        kind = "melee" if weapon.melee else f"range {weapon.range} {weapon.range_unit}"
        if found:
            shown = found[:MAX_TARGETS] + ([f"and {len(found) - MAX_TARGETS} more"] if len(found) > MAX_TARGETS else [])
            lines.append(f"**{safe(weapon.name)}** ({kind}) \u2192 " + "; ".join(shown))
        else:
            lines.append(f"**{safe(weapon.name)}** ({kind}): no enemy in range")
    return lines


def _option_fields(battle: Battle, unit: Unit) -> list[tuple[str, str]]:
    """Return the attack field of My options: each weapon's targets in range, and what an attack costs."""
    if not isinstance(unit, StrategicUnit) or not unit.weapons:
        return []
    cost = turns.order_cost(battle, Attack(unit=unit.name, weapon=unit.weapons[0].name)).points
    return [(f"Attack (/attack, {cost} AP)", "\n".join(attack_lines(battle, unit)))]


def _prompt_verbs(battle: Battle, unit: Unit, left: int) -> list[str]:
    """Return /attack with its cost and weapons when affordable, and /act."""
    verbs: list[str] = []
    if isinstance(unit, StrategicUnit) and unit.weapons:
        cost = turns.order_cost(battle, Attack(unit=unit.name, weapon=unit.weapons[0].name)).points
        if cost <= left:
            names = ", ".join(safe(w.name) for w in unit.weapons[:4])
            verbs.append(f"/attack {cost} ({names})")
    return [*verbs, "/act"]


def _attack_order(battle: Battle, unit: str, weapon: str, target: str, mode: str | None, at: Cell | None,
                  adjust: int, called: str) -> Order:
    """Return what /attack means here: a shot or a blow at a unit, a square or a bridge."""
    return Attack(unit=unit, weapon=weapon, target=target, at=at, adjust=adjust, called=called)


def _friends_hit(battle: Battle, order: Order) -> list[Unit]:
    """Return the attacker's allies that an attack aims at: the target unit, or the units on the square."""
    if not isinstance(order, Attack):
        return []
    attacker = battle.find_unit(order.unit)
    if attacker is None:
        return []  # the rules say which unit is missing
    aimed: list[Unit] = []
    if order.target and order.target.lower() != "bridge":
        found = battle.find_unit(order.target)
        aimed = [found] if found is not None else []
    elif order.at is not None and battle.on_map(order.at):
        aimed = list(battle.units_at(order.at))
    return [u for u in aimed if u.id != attacker.id and not battle.enemies(attacker, u)]


def _outcome_embed(outcome: Outcome, battle: Battle, actor_name: str) -> discord.Embed | None:
    """Return the combat embed of a combat or battlefield order; other orders read the shared way."""
    if outcome.kind not in COMBAT_KINDS:
        return None
    return combat_embed(outcome, battle, battle_name=battle.name, actor_name=actor_name)


def _log_line(outcome: Outcome) -> str | None:
    """Say in the log what an attack or a charge did: whom it aimed at with what, hit or miss, where a miss fell."""
    if outcome.kind not in ("attack", "charge"):
        return None
    charge = outcome.details_as(ChargeDetails)
    data = charge.attack if charge is not None else outcome.details_as(AttackDetails)
    if data is None:
        return None
    highlight = outcome.highlight
    hit = bool(highlight.hit)
    what = (f"the bridge on {data.at}" if data.form == "bridge" else safe(data.target) if data.target else data.at)
    verb = "charges" if charge is not None else "strikes" if data.form == "melee" else "fires at"
    line = f"{safe(data.unit)} {verb} {what} with the {safe(data.weapon)}: {'hit' if hit else 'miss'}"
    landed = highlight.landed
    if not hit and landed and landed != highlight.target:
        line += f"; it came down on {landed}"
    return line + "."


def _detail_lines(outcome: Outcome) -> list[str]:
    """Return what a move's allowance, cost and path and a roll's total add to the shared reply."""
    lines: list[str] = []
    move = outcome.details_as(MoveDetails)
    if move is not None:
        lines.append(f"{move.base_label} \u2192 {move.mode.title()} allows **{move.allowance}** {move.spent_unit}; "
                     f"path cost **{move.cost}**")
        if outcome.kind == "move" and outcome.highlight.path:
            lines.append(PATH + " \u2192 ".join(move.path))
    rolled = outcome.details_as(RollDetails)
    if rolled is not None:
        lines.append(f"**{rolled.total}**")
    return lines


def _holds_secrets(battle: Battle, sides: set[str]) -> bool:
    """Return whether these sides see a hidden feature: one of theirs, or one they found."""
    return any(f.hidden for f in visible_features(battle, sides, gm=False))


def _sentence(effect: Effect, battle: Battle | None, outcome: Outcome | None) -> str | None:
    """Return one of Strategic's own effects as a sentence: combat, battlefield and GM changes."""
    unit = safe(getattr(effect, "unit", ""))
    match effect:
        case strategic.Placed():
            return f"The GM put {unit} on {safe(effect.to)} (from {safe(effect.frm)})."
        case strategic.UnitSet():
            details = outcome.details_as(UnitSetDetails) if outcome is not None else None
            changed = details.changed if details is not None else {}
            parts = [part for k, v in list(changed.items())[:8] for part in _changes(k, v.old, v.new)]
            return f"The GM set {unit}: " + ("; ".join(parts) if parts else "nothing changed") + "."
        case strategic.FeaturePlaced():
            side, name = safe(effect.side), safe(effect.name)
            where = squares(list(effect.cells))
            if effect.hidden:
                return f"{side} laid a hidden {name} ({effect.cost} FP) on {where}; only {side} and the GM see it."
            return f"{side} bought a {name} ({effect.cost} FP) on {where}."
        case strategic.FeatureRemoved():
            owner = f" ({safe(effect.side)})" if effect.side else ""
            line = f"The {safe(effect.name)}{owner} on {safe(effect.cell)} was removed"
            return f"{line}; {effect.refund} FP go back to {safe(effect.side)}." if effect.refund else f"{line}."
        case strategic.FpSet():
            return _fp_line(effect)
        case strategic.MapImported():
            rain = [(effect.rain, "rain square", "rain squares")] if effect.rain else []  # rain is rare: said when there
            return map_line(effect.width, effect.height, [(effect.deep, "deep-water square", "deep-water squares"),
                                                          (effect.storm, "storm square", "storm squares"), *rain])
    words = SENTENCES.get(type(effect))
    return words(effect, battle) if words is not None else None


def _fp_line(effect: strategic.FpSet) -> str:
    """Say a side's feature point pool: fixed by the GM, the usual one, or the usual one adjusted for the mission."""
    side = safe(effect.side)
    if effect.override is not None:
        return f"{side}'s feature point pool is fixed at **{effect.pool} FP** by the GM."
    if effect.adjust:
        return (f"{side}'s feature point pool is the usual one {signed(effect.adjust)} (mission adjustment): "
                f"**{effect.pool} FP**.")
    return f"{side}'s feature point pool is the usual one: **{effect.pool} FP**."


def _changes(key: str, old: Any, new: Any) -> list[str]:
    """Say what changed in a field: for a table (characteristics), only the entries that changed."""
    if isinstance(old, dict) and isinstance(new, dict):
        return [f"{safe(k)} {_short(old.get(k, 'none'))} \u2192 {_short(new.get(k, 'none'))}"
                for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k)]
    return [f"{safe(key)} {_short(old)} \u2192 {_short(new)}"]


def _short(value: Any) -> str:
    text = ", ".join(str(v) for v in value) if isinstance(value, list) else str(value)
    text = text or "none"
    return safe(text if len(text) <= 40 else text[:37] + "...")


LINES = {
    strategic.Moved: lambda e: moved_line(e.unit, e.frm, e.to, f"cost {e.cost}"),
    strategic.UnitAdded: lambda e: unit_added_line(e.unit, e.side, e.at, e.owner),
}

# The commands only Strategic battles offer, and the options of shared commands only they take.
COMMANDS = frozenset({"attack", "charge", "range", "aim", "hide", "maneuver", "defend", "extinguish", "break-free",
                      "trap", "feature", "act", "gm move", "gm set", "gm edit", "gm freeze"})
OPTIONS = {"attack": frozenset({"at", "adjust", "called"}), "map show": frozenset({"range", "weapon"}),
           "unit add": frozenset({"kind", "ag", "bs", "ws", "s", "t", "int", "wounds", "magnitude", "ap", "flyer",
                                  "hoverer"})}

WORDS = SystemWords(
    commands={kind: kind for kind in ("act", "aim", "attack", "break-free", "charge", "defend", "extinguish", "hide",
                                      "maneuver")}
    | {"test": "act", "gm-place": "gm move", "gm-set": "gm set", "freeze": "gm freeze",
       "place-feature": "feature place", "remove-feature": "feature remove", "set-fp": "feature points",
       "trigger-trap": "trap trigger", "detect-traps": "trap detect"},
    option_names={"gm-place": {"target": "unit", "at": "to"}, "gm-set": {"target": "unit"},
                  "place-feature": {"feature": "type"}},
    internal={"next-round": "a new round"},
    stat_options={"add-unit": OPTIONS["unit add"],
                  "edit-unit": frozenset({"kind", "class", "ws", "bs", "s", "t", "ag", "int", "per", "wp", "fel",
                                          "wounds", "max_wounds", "magnitude", "max_magnitude", "squads", "ap",
                                          "supreme_commander"})},
)

def _gone_units(outcome: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Name the units an outcome destroyed: a destroyed unit leaves the map, so only the log still holds it."""
    return [(str(e["side"]), str(e["unit"])) for e in outcome.get("effects") or ()
            if isinstance(e, Mapping) and e.get("type") == strategic.Destroyed.KIND and "side" in e and "unit" in e]


FRONT_END = FrontEnd(unit_card=_card, gone_units=_gone_units, option_fields=_option_fields, prompt_verbs=_prompt_verbs,
                     outcome_embed=_outcome_embed, attack_order=_attack_order, weapon_choices=weapon_options,
                     lines=LINES, detail_lines=_detail_lines, holds_secrets=_holds_secrets, extra_targets=bridge_targets, log_line=_log_line, range_weapons=ranged_weapons, friends_hit=_friends_hit, sentence=_sentence,
                     commands=COMMANDS, options=OPTIONS, words=WORDS,
                     homebrew_sections=homebrew_sections, homebrew_names=homebrew_names,
                     help_gm=(guide.GM_TITLE, guide.GM_GUIDE), help_player=(guide.PLAYER_TITLE, guide.PLAYER_GUIDE))
