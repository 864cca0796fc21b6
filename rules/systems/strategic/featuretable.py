"""The artificial features table: a ruleset's `[[feature]]` rows and a GM's homebrew ones (RULES 1.9).

A ruleset's data file says whether its battles build features (`features = true`) and lists them; a GM's
homebrew file adds `[[feature]]` rows, merged into the battle's ruleset as its `feature` section. Every rule
reads the table through `features_of(ruleset)`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from rules.errors import RulesetError, shorten
from rules.ruleset import Ruleset, TerrainType, get_ruleset, int_field, need_field
from rules.system import HomebrewTable, system_of

SECTION = "feature"  # the table's name in a data or homebrew file, and its section of a merged ruleset
FIELDS = frozenset({"key", "name", "label", "cost", "terrain", "cover_ap", "dtv", "hit_penalty", "hit_bonus",
                    "squares"})
# Fields of a homebrew row that may not be negative, and why a GM would have written one.
NOT_NEGATIVE = {"cost": "a cost", "cover_ap": "Cover AP", "squares": "a number of squares"}


@dataclass(frozen=True, slots=True)
class FeatureType:
    """One row of the artificial features table."""

    key: str
    name: str
    label: str
    cost: int
    terrain: tuple[str, ...]
    cover_ap: int = 0
    dtv: int = 0
    hit_penalty: int = 0
    hit_bonus: int = 0
    squares: int = 1
    hidden: bool = False
    triggers: int = 0
    bridge: bool = False


@dataclass(frozen=True, slots=True)
class FeatureTable:
    """Whether a ruleset's battles build features, and its features (homebrew ones included) by key."""

    allowed: bool
    rows: dict[str, FeatureType]




def parse_feature(data: dict[str, Any], where: str, terrain: dict[str, TerrainType]) -> FeatureType:
    """Validate one `[[feature]]` table against the terrains it may stand on."""
    key = need_field(data, "key", str, where)
    where = f"{where} ({key})"
    allowed = data.get("terrain", [])
    if not isinstance(allowed, list) or not allowed:
        raise RulesetError(f"{where}: `terrain` must list allowed terrains")
    for t in allowed:
        if t not in terrain:
            raise RulesetError(f"{where}: unknown terrain `{t}`")
    return FeatureType(
        key=key, name=need_field(data, "name", str, where), label=need_field(data, "label", str, where),
        cost=need_field(data, "cost", int, where), terrain=tuple(allowed),
        cover_ap=int_field(data, "cover_ap", where), dtv=int_field(data, "dtv", where),
        hit_penalty=int_field(data, "hit_penalty", where), hit_bonus=int_field(data, "hit_bonus", where),
        squares=int_field(data, "squares", where, 1), hidden=bool(data.get("hidden", False)),
        triggers=int_field(data, "triggers", where), bridge=bool(data.get("bridge", False)),
    )


@cache
def builtin(ruleset_id: str) -> FeatureTable:
    """Return the features table of a ruleset's data file, validated once."""
    doc = system_of(ruleset_id).document(ruleset_id)
    terrain = get_ruleset(ruleset_id).terrain
    where = f"{ruleset_id}.toml [{ruleset_id}]"
    rows: dict[str, FeatureType] = {}
    for i, row in enumerate(doc.get(SECTION, [])):
        made = parse_feature(row, f"{where} feature #{i + 1}", terrain)
        rows[made.key] = made
    return FeatureTable(allowed=bool(doc.get("features", False)), rows=rows)


def table_of(ruleset: Ruleset) -> FeatureTable:
    """Return a ruleset's features table, with the battle's homebrew rows when the ruleset is a battle's."""
    section = ruleset.sections.get(SECTION)
    return section if isinstance(section, FeatureTable) else builtin(ruleset.id)


def features_of(ruleset: Ruleset) -> dict[str, FeatureType]:
    """Return a ruleset's features by key (the battle's homebrew ones too)."""
    return table_of(ruleset).rows


def allows_features(ruleset: Ruleset) -> bool:
    """Return whether a ruleset's battles build artificial features."""
    return table_of(ruleset).allowed


def feature_type(ruleset: Ruleset, key: str) -> FeatureType:
    """Return the feature with this key, name or label, or explain which exist."""
    wanted = key.strip().lower().replace(" ", "_")
    features = features_of(ruleset)
    for f in features.values():
        if wanted in (f.key, f.name.lower().replace(" ", "_"), f.label.lower()):
            return f
    if not features:
        raise RulesetError(f"{ruleset.name} has no artificial features.")
    names = ", ".join(f"`{k}`" for k in features)
    raise RulesetError(f"There is no feature `{shorten(key)}`. Use one of: {names}.")


# --- the homebrew [[feature]] table ------------------------------------------------------


def _check_row(base: Ruleset, row: dict[str, Any]) -> None:
    """Refuse a homebrew feature row with a negative value, no square, or ground the battle does not have."""
    for field, what in NOT_NEGATIVE.items():
        value = row.get(field)
        if isinstance(value, int) and not isinstance(value, bool) and value < 0:
            raise RulesetError(f"`{field}`: {value} is negative; {what} is 0 or more.")
    if row.get("squares") == 0:
        raise RulesetError("`squares`: a feature covers at least 1 square.")
    allowed = row.get("terrain")
    unknown = [t for t in allowed if t not in base.terrain] if isinstance(allowed, list) else []
    if unknown:
        raise RulesetError(f"`terrain`: `{unknown[0]}` is not a terrain of this battle; use "
                           f"{', '.join(f'`{k}`' for k in base.terrain)}.")
    parse_feature(row, "", base.terrain)


def _merge(base: Ruleset, rows: list[dict[str, Any]]) -> Ruleset:
    """Return the ruleset with the homebrew features beside its own."""
    table = table_of(base)
    brewed = {f.key: f for f in (parse_feature(row, "", base.terrain) for row in rows)}
    return replace(base, sections={**base.sections, SECTION: FeatureTable(table.allowed, {**table.rows, **brewed})})


def _builtin_keys(base: Ruleset) -> dict[str, str]:
    """Return the ruleset's own features by key, with their names."""
    return {k: f.name for k, f in builtin(base.id).rows.items()}


FEATURES = HomebrewTable(SECTION, FIELDS, _check_row, _merge, _builtin_keys, offered=allows_features,
                         missing="{ruleset} has no artificial features")
