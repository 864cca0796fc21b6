"""Artificial features on the map: what stands where, feature point pools, and who may see a hidden feature."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules.constants import const_or
from rules.coords import Cell
from rules.system import Sign, Structures
from rules.systems.strategic.featuretable import FeatureType, features_of
from rules.systems.strategic.sides import strategic_sides
from rules.systems.strategic.squares import all_squares, state_at

if TYPE_CHECKING:
    from rules.ruleset import Ruleset
    from rules.systems.strategic.board import Battle
    from rules.systems.strategic.sides import Side
    from rules.systems.strategic.units import Unit

# The per-square keys a feature owns; removing the feature removes them all.
FEATURE_KEYS = ("feature", "feature_side", "feature_ap", "revealed", "mine_triggers", "bridge_wounds",
                "feature_purchase")
# A26: the features table's "Tech" is Urban; a map's own `tech` terrain counts as Urban for placement.
TECH_TERRAIN = "tech"
URBAN_TERRAIN = "urban"


@dataclass(frozen=True, slots=True)
class FeatureView:
    """One feature as a viewer may see it: where, what, whose, and its current state."""

    cell: Cell
    key: str
    name: str
    label: str
    side: str
    hidden: bool
    revealed_to: tuple[str, ...]
    cover_ap: int | None
    triggers_left: int | None
    bridge_wounds_lost: int | None
    purchase: int | None

    def to_dict(self) -> dict[str, Any]:
        """Return the feature view as a JSON-able dict."""
        return {
            "cell": str(self.cell), "key": self.key, "name": self.name, "label": self.label, "side": self.side,
            "hidden": self.hidden, "revealed_to": list(self.revealed_to), "cover_ap": self.cover_ap,
            "triggers_left": self.triggers_left, "bridge_wounds_lost": self.bridge_wounds_lost,
            "purchase": self.purchase,
        }


def feature_at(battle: Battle, cell: Cell) -> FeatureType | None:
    """Return the type of the feature on a square, if any."""
    key = state_at(battle, cell).feature
    return features_of(battle.ruleset).get(str(key)) if key else None


def feature_cells(battle: Battle) -> list[Cell]:
    """Return every square that holds a feature, in reading order (row by row)."""
    cells = [Cell.parse(k) for k, state in all_squares(battle) if state.feature]
    return sorted(cells, key=lambda c: (c.y, c.x))


def clear_feature(battle: Battle, cell: Cell) -> None:
    """Remove the feature of a square and all of its state, dropping the square's record if it is empty."""
    battle.clear_square(cell, *FEATURE_KEYS)


def allows_terrain(ftype: FeatureType, terrain_key: str) -> bool:
    """Return whether a feature may stand on a terrain (Tech counts as Urban, A26)."""
    if terrain_key in ftype.terrain:
        return True
    return terrain_key == TECH_TERRAIN and URBAN_TERRAIN in ftype.terrain


def terrain_names(battle: Battle, ftype: FeatureType, ruleset: Ruleset | None = None) -> str:
    """Return the terrains a feature may stand on, as a player reads them (by `ruleset`, else the battle's)."""
    names = []
    for key in ftype.terrain:
        terrain = (ruleset or battle.ruleset).terrain.get(key)
        name = terrain.name if terrain else key
        names.append(f"{name} (Tech)" if key == URBAN_TERRAIN else name)
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " or " + names[-1]


def supreme_commander(battle: Battle, side: str) -> Unit | None:
    """Return the side's Supreme Commander (the one with the best Intelligence Bonus if the GM named several)."""
    wanted = side.lower()
    commanders = [u for u in battle.iter_units() if u.supreme_commander and u.side.lower() == wanted]
    return max(commanders, key=lambda u: u.bonus("int"), default=None)


def fp_pool(battle: Battle, side: Side) -> int:
    """Return a side's feature point pool: the GM's override, or fp_per_ib x IB(Supreme Commander) + adjustment."""
    if side.fp_override is not None:
        return max(0, side.fp_override)
    commander = supreme_commander(battle, side.name)
    ib = commander.bonus("int") if commander else 0
    return max(0, int(const_or(battle, "fp_per_ib", 0)) * ib + side.fp_adjust)  # 000:L78, A28


def fp_status(battle: Battle) -> dict[str, dict[str, int]]:
    """Return each side's feature points: pool, spent and left (negative if the GM cut the pool below spending)."""
    out: dict[str, dict[str, int]] = {}
    for side in strategic_sides(battle):
        pool = fp_pool(battle, side)
        out[side.name] = {"pool": pool, "spent": side.fp_spent, "left": pool - side.fp_spent}
    return out


def can_see(battle: Battle, cell: Cell, viewer_sides: set[str], gm: bool) -> bool:
    """Return whether a viewer sees the feature on a square: hidden ones show to their side, the GM and detectors."""
    ftype = feature_at(battle, cell)
    if ftype is None:
        return False
    if gm or not ftype.hidden:
        return True
    state = state_at(battle, cell)
    sides = {s.lower() for s in viewer_sides}
    if (state.feature_side or "").lower() in sides:
        return True
    return any(s.lower() in sides for s in state.revealed or [])


def hidden_feature_squares(battle: Battle, viewer_sides: frozenset[str]) -> list[str]:
    """Return the squares of the features a viewer of these sides (not the GM) may not see: others' hidden traps."""
    return [str(cell) for cell in feature_cells(battle) if not can_see(battle, cell, set(viewer_sides), False)]


def visible_features(battle: Battle, viewer_sides: set[str], gm: bool) -> list[FeatureView]:
    """List the features a viewer may see, in reading order."""
    out: list[FeatureView] = []
    for cell in feature_cells(battle):
        ftype = feature_at(battle, cell)
        if ftype is None or not can_see(battle, cell, viewer_sides, gm):
            continue
        state = state_at(battle, cell)
        out.append(FeatureView(
            cell=cell, key=ftype.key, name=ftype.name, label=ftype.label, side=state.feature_side or "",
            hidden=ftype.hidden, revealed_to=tuple(state.revealed or ()),
            cover_ap=(ftype.cover_ap if state.feature_ap is None else state.feature_ap) if ftype.cover_ap else None,
            triggers_left=state.mine_triggers,
            bridge_wounds_lost=(state.bridge_wounds or 0) if ftype.bridge else None,
            purchase=state.feature_purchase,
        ))
    return out


def next_purchase(battle: Battle) -> int:
    """Return a fresh purchase number: one purchase may lay several squares (A27)."""
    used = [s.feature_purchase for s in (s for _, s in all_squares(battle)) if s.feature_purchase is not None]
    return max(used, default=0) + 1


def purchase_cells(battle: Battle, purchase: int) -> list[Cell]:
    """Return the squares still holding a part of one purchase."""
    return sorted(
        (Cell.parse(k) for k, s in all_squares(battle) if s.feature_purchase == purchase),
        key=lambda c: (c.y, c.x),
    )


# The lasting effects a map draws on a square, in drawing order: each a field of the square.
EFFECT_FIELDS = ("fire", "smoke", "storm", "rain", "burnt", "deep")


def structures(battle: Battle, sides: frozenset[str], gm: bool) -> Structures:
    """Return what a strategic map shows over its terrain to a viewer: the features they may see, and effects."""
    signs: list[Sign] = []
    effects: list[tuple[Cell, str]] = []
    features = features_of(battle.ruleset)
    for key, state in all_squares(battle):
        cell = Cell.parse(key)
        ftype = features.get(state.feature) if state.feature else None
        if ftype is not None and can_see(battle, cell, set(sides), gm):
            signs.append(Sign(cell=cell, label=ftype.label, name=ftype.name, hidden=ftype.hidden))
        effects.extend((cell, kind) for kind in EFFECT_FIELDS if kind in state)
    return Structures(edges=tuple((e, o, False) for e, o in sorted(battle.edges.items())), signs=tuple(signs),
                      effects=tuple(effects))
