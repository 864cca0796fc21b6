"""Strategic autocomplete: the chosen unit's weapons and skills, targets by distance, sides, traps and features."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.service import BattleRecord
from cogs.common.autocomplete import LIMIT
from cogs.common.context import actor_of, service_of
from rules.battle import Battle
from rules.coords import Cell
from rules.errors import GameError
from rules.systems.strategic.battlefield import bridge_at
from rules.systems.strategic.combat import melee_reach
from rules.systems.strategic.features import terrain_names
from rules.systems.strategic.featuretable import features_of
from rules.systems.strategic.ranges import weapon_range
from rules.systems.strategic.squares import all_squares
from rules.systems.strategic.units import CHARACTERISTIC_NAMES, Unit, Weapon

Choice = app_commands.Choice
TRAP_FEATURES = ("bakelite_trap", "fire_trap")


def _matches(current: str, *texts: str) -> bool:
    needle = current.strip().lower()
    return not needle or any(needle in t.lower() for t in texts)


def _choice(label: str, value: str) -> Choice[str]:
    # Discord refuses choice names or values over 100 characters.
    return Choice(name=label[:100], value=value[:100])


async def _found(interaction: discord.Interaction) -> tuple[BattleRecord, Battle] | None:
    if interaction.guild_id is None or interaction.channel_id is None:
        return None
    return await service_of(interaction).peek(interaction.guild_id, interaction.channel_id)


def chosen_unit(interaction: discord.Interaction, battle: Battle, option: str = "unit") -> Unit | None:
    """Return the unit the user already picked in another option of the command, if it exists."""
    name = getattr(interaction.namespace, option, None)
    if not isinstance(name, str) or not name.strip():
        return None
    found = battle.find_unit(name)
    # These menus serve the Strategic verbs (/attack, /act); another system's unit has no such stat block.
    return found if isinstance(found, Unit) else None


def weapon_label(battle: Battle, weapon: Weapon) -> str:
    """Return a weapon as a one-line profile: reach or range with R, damage, Pen and qualities."""
    if weapon.melee:
        reach = melee_reach(battle, weapon, None)
        where = "same square" if reach == 0 else f"reach {reach}"
        head = f"melee ({where})"
    else:
        r = weapon_range(battle, weapon)
        head = f"range {weapon.range} {weapon.range_unit} (R {r} {battle.ruleset.square_unit})"
    qualities = weapon.quality_words()
    extra = f" · {', '.join(qualities)}" if qualities else ""
    return f"{weapon.name} · {head} · {weapon.damage} {weapon.dtype}, Pen {weapon.pen}{extra}"


def weapon_options(battle: Battle, picked: object, current: str) -> list[tuple[str, str]]:
    """Return /attack's weapons: the chosen unit's, or without one every unit's, each named once."""
    unit = picked if isinstance(picked, Unit) else None
    if unit is not None:
        return [(weapon_label(battle, w), w.name) for w in unit.weapons if _matches(current, w.name)][:LIMIT]
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for owner in battle.iter_units():
        if not isinstance(owner, Unit):
            continue
        for w in owner.weapons:
            if w.name.lower() in seen or not _matches(current, w.name, owner.name):
                continue
            seen.add(w.name.lower())
            out.append((f"{owner.name}: {weapon_label(battle, w)}", w.name))
    return out[:LIMIT]


async def weapon_choices(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """Offer the weapons of the unit chosen in `unit`; without one, the caller's units' weapons first."""
    found = await _found(interaction)
    if found is None:
        return []
    battle = found[1]
    unit = chosen_unit(interaction, battle)
    if unit is not None:
        return [_choice(label, value) for label, value in weapon_options(battle, unit, current)]
    mine = [u for u in battle.iter_units() if u.owner == interaction.user.id]
    others = [u for u in battle.iter_units() if u.owner != interaction.user.id]
    out: list[Choice[str]] = []
    seen: set[str] = set()
    for owner in (*mine, *others):
        if not isinstance(owner, Unit):
            continue
        for w in owner.weapons:
            if w.name.lower() in seen or not _matches(current, w.name, owner.name):
                continue
            seen.add(w.name.lower())
            out.append(_choice(f"{owner.name}: {weapon_label(battle, w)}", w.name))
    return out[:LIMIT]


def ranged_weapons(battle: Battle, picked: object, current: str) -> list[tuple[str, str]]:
    """Return the ranged weapons of a unit, for /map show's range rings."""
    if not isinstance(picked, Unit):
        return []
    return [(weapon_label(battle, w), w.name) for w in picked.weapons
            if not w.melee and _matches(current, w.name)][:LIMIT]


def bridge_targets(battle: Battle, current: str) -> list[tuple[str, str]]:
    """Return the bridge as an object target of /attack when the map has one (its square goes in `at`)."""
    if _has_bridges(battle) and _matches(current, "bridge"):
        return [("bridge (a Bridge or Temporary Bridge: give its square in `at`)", "bridge")]
    return []


def _has_bridges(battle: Battle) -> bool:
    if "bridge" in battle.terrain:
        return True
    return any(bridge_at(battle, Cell.parse(key)) is not None for key in battle.cells)


async def stat_choices(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """Offer the characteristics and skills of the unit chosen in `unit`, with their values."""
    found = await _found(interaction)
    if found is not None and not found[1].system.plays("act"):
        return []
    unit = chosen_unit(interaction, found[1]) if found is not None else None
    out: list[Choice[str]] = []
    for key, name in CHARACTERISTIC_NAMES.items():
        if _matches(current, key, name):
            value = f" {unit.chars.get(key, 0)}" if unit is not None else ""
            out.append(_choice(f"{name} ({key.upper()}){value}", key))
    if unit is not None:
        skills = [_choice(f"{k.replace('_', ' ').title()} {v} (skill)", k) for k, v in sorted(unit.skills.items())
                  if _matches(current, k, k.replace("_", " "))]
        # Skills first when the user is typing: they are what characteristics cannot offer.
        out = skills + out if current.strip() else out + skills
    return out[:LIMIT]


async def side_choices(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """Offer the sides of the battle, the caller's own first."""
    found = await _found(interaction)
    if found is None:
        return []
    battle = found[1]
    mine = {u.side.lower() for u in battle.iter_units() if u.owner == interaction.user.id}
    sides = sorted(battle.sides, key=lambda s: s.name.lower() not in mine)
    return [_choice(s.name, s.name) for s in sides if _matches(current, s.name)][:LIMIT]


async def trap_choices(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """Offer the trap squares of the chosen side, only to that side's players and the GM."""
    found = await _found(interaction)
    if found is None:
        return []
    record, battle = found
    side = getattr(interaction.namespace, "side", None)
    if not isinstance(side, str) or battle.side(side) is None:
        return []
    wanted = side.strip().lower()
    mine = {u.side.lower() for u in battle.iter_units() if u.owner == interaction.user.id}
    if wanted not in mine:
        try:
            gm = await service_of(interaction).is_gm(actor_of(interaction), record)
        except GameError:
            gm = False
        if not gm:
            return []  # a side's hidden traps are its own secret
    out: list[Choice[str]] = []
    for key, state in sorted(all_squares(battle), key=lambda kv: (Cell.parse(kv[0]).y, Cell.parse(kv[0]).x)):
        feature = state.feature or ""
        if feature not in TRAP_FEATURES or (state.feature_side or "").lower() != wanted:
            continue
        name = features_of(battle.ruleset)[feature].name
        if _matches(current, key, name):
            out.append(_choice(f"{key}: {name}", key))
    return out[:LIMIT]


async def feature_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Offer the features of this battle's ruleset with their cost, the ground they stand on, and size."""
    found = await _found(interaction)
    if found is None:
        return []
    battle = found[1]
    out: list[app_commands.Choice[str]] = []
    for ftype in features_of(battle.ruleset).values():
        if not _matches(current, ftype.key, ftype.name, ftype.label):
            continue
        extras = [f"{ftype.cost} FP", f"on {terrain_names(battle, ftype)}"]
        if ftype.squares > 1:
            extras.append(f"up to {ftype.squares} squares")
        if ftype.hidden:
            extras.append("hidden")
        out.append(app_commands.Choice(name=f"{ftype.name}: {', '.join(extras)}"[:100], value=ftype.key))
    return out[:LIMIT]
