"""A strategic battle's homebrew features as `/battle rules show` and the homebrew import's reply list them."""

from __future__ import annotations

from cogs.common.embeds import safe, signed
from rules.battle import Battle
from rules.systems.strategic.featuretable import FeatureType, builtin, features_of


def homebrew_features(battle: Battle) -> list[FeatureType]:
    """Return the battle's homebrew features (none without a homebrew table)."""
    own = builtin(battle.ruleset_id).rows
    return [f for k, f in features_of(battle.ruleset).items() if k not in own]


def feature_line(f: FeatureType, battle: Battle) -> str:
    """Describe a homebrew feature: its cost, values and the terrain it may stand on."""
    parts = [f"cost {f.cost} FP", f"Cover AP {f.cover_ap}", f"DTV {f.dtv}", f"hit penalty {signed(f.hit_penalty)}"]
    if f.hit_bonus:
        parts.append(f"hit bonus {signed(f.hit_bonus)}")
    if f.squares > 1:
        parts.append(f"up to {f.squares} squares")
    grounds = ", ".join(safe(battle.ruleset.terrain[k].name) for k in f.terrain if k in battle.ruleset.terrain)
    return f"**{safe(f.name)}** (`{f.key}`, {safe(f.label)}): " + ", ".join(parts) + f"; on {grounds}"


def homebrew_sections(battle: Battle) -> list[tuple[str, list[str]]]:
    """Return the battle's homebrew features, each with its values, for /battle rules show."""
    lines = [feature_line(f, battle) for f in homebrew_features(battle)]
    return [("Homebrew features", lines)] if lines else []


def homebrew_names(battle: Battle) -> list[tuple[str, list[str]]]:
    """Return the battle's homebrew features by name and cost, for the homebrew import's reply."""
    names = [f"{safe(f.name)} ({f.cost} FP)" for f in homebrew_features(battle)]
    return [("Homebrew features", names)] if names else []
