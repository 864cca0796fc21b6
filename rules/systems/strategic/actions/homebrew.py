"""Homebrew in strategic battles: a GM imports a battle's own terrain and features from a TOML table (docs/homebrew.md)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from rules.coords import Cell
from rules.errors import IllegalOrderError
from rules.homebrew import Homebrew, install, merged, read_homebrew
from rules.orders import ImportHomebrew
from rules.ruleset import get_ruleset
from rules.systems.strategic.effects import HomebrewImported
from rules.systems.strategic.features import allows_terrain, terrain_names
from rules.systems.strategic.featuretable import features_of
from rules.systems.strategic.squares import all_squares
from rules.systems.strategic.table import checks, handles

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.systems.strategic.board import Battle


def _still_used(battle: Battle, terrain: set[str], features: dict[str, tuple[str, ...]]) -> None:
    """Refuse a table that drops a terrain painted on the map or a feature standing on it, or bars its ground."""
    painted = Counter(k for k in battle.terrain if k not in terrain)
    if painted:
        key, count = painted.most_common(1)[0]
        name = battle.ruleset.terrain[key].name
        raise IllegalOrderError(f"{name} (`{key}`) is painted on {count} square{'s' if count != 1 else ''} and the "
                                "new table drops it; keep it in the table or paint those squares first.")
    for cell_key, state in all_squares(battle):
        fkey = state.get("feature")
        if not fkey:
            continue
        if fkey not in features:
            name = features_of(battle.ruleset)[str(fkey)].name
            raise IllegalOrderError(f"A {name} (`{fkey}`) stands on {cell_key} and the new table drops it; keep it "
                                    "in the table or remove the feature first.")


@checks("import-homebrew")
def check_import_homebrew(battle: Battle, order: ImportHomebrew) -> Homebrew:
    """Check a homebrew table line by line, and that every painted terrain and standing feature keeps its ground."""
    if battle.status == "ended":
        raise IllegalOrderError("This battle has ended; nothing on it can change any more.")
    base = get_ruleset(battle.ruleset_id)
    brew = read_homebrew(order.text, base)
    terrain = set(base.terrain) | {t.key for t in brew.terrain}
    after = merged(base, brew.rows) if brew.rows else base
    _still_used(battle, terrain, {k: f.terrain for k, f in features_of(after).items()})
    for cell_key, state in all_squares(battle):
        ftype = features_of(after).get(str(state.get("feature", "")))
        cell = Cell.parse(cell_key)
        ground = after.terrain[battle.terrain[cell.y * battle.width + cell.x]]
        if ftype is not None and not allows_terrain(ftype, ground.key):
            raise IllegalOrderError(f"The {ftype.name} on {cell_key} stands on {ground.name}, which "
                                    f"the new table no longer allows (only {terrain_names(battle, ftype, after)}).")
    return brew


@handles("import-homebrew")
def import_homebrew(battle: Battle, order: ImportHomebrew, dice: Dice, outcome: Outcome) -> None:
    """Make a checked homebrew table's terrain paintable and its features buildable here."""
    brew = check_import_homebrew(battle, order)
    install(battle, brew)
    battle.map_version += 1  # a terrain's colour or pattern may have changed
    outcome.add(HomebrewImported(terrain=[t.key for t in brew.terrain], features=brew.keys("feature")))
