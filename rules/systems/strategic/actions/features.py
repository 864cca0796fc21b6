"""Feature orders: buy and place artificial features before the battle, remove them, set feature point pools."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.constants import const_or
from rules.coords import Cell
from rules.errors import IllegalOrderError, InvalidOrderError, NotFoundError
from rules.orders import Order
from rules.squares import Square
from rules.systems.strategic.details import FeaturePlacedDetails, FeatureRemovedDetails, FpDetails
from rules.systems.strategic.effects import FeaturePlaced, FeatureRemoved, FpSet
from rules.systems.strategic.features import (
    allows_terrain,
    clear_feature,
    feature_at,
    fp_pool,
    next_purchase,
    purchase_cells,
    terrain_names,
)
from rules.systems.strategic.featuretable import FeatureType, allows_features, feature_type
from rules.systems.strategic.sides import strategic_side
from rules.systems.strategic.squares import Square as StrategicSquare
from rules.systems.strategic.squares import square_at, state_at
from rules.systems.strategic.table import checks, handles
from rules.systems.strategic.table import order as _order

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.systems.strategic.board import Battle
    from rules.systems.strategic.sides import Side

MAX_FP = 1000


@_order("place-feature", "side")
@dataclass(frozen=True)
class PlaceFeature(Order):
    """Buy a feature for a side and lay it on a square (and up to its extra squares, for walls and trenches)."""

    feature: str
    side: str
    at: Cell
    cells: tuple[Cell, ...] = ()


@_order("remove-feature", "side")
@dataclass(frozen=True)
class RemoveFeature(Order):
    """Take the feature off a square; in setup the whole purchase gone refunds its cost."""

    at: Cell

    def acting_side(self, squares: Mapping[str, Square]) -> str | None:
        """Return the side that owns the feature on the square."""
        found = squares.get(str(self.at))
        return found.feature_side or None if isinstance(found, StrategicSquare) else None


@_order("set-fp")
@dataclass(frozen=True)
class SetFp(Order):
    """Set a side's feature points: a fixed pool (value) or an adjustment to the usual pool."""

    side: str
    value: int | None = None
    adjust: int = 0


def require_features(battle: Battle) -> None:
    """Refuse feature orders in a scale that has no artificial features."""
    if not allows_features(battle.ruleset):
        raise IllegalOrderError(
            f"{battle.ruleset.name} has no artificial features or feature points; only P-Scale battles have them."
        )


def require_setup(battle: Battle, what: str) -> None:
    """Refuse an order that belongs to the placement phase once the battle has begun (000:L77)."""
    if battle.status != "setup":
        raise IllegalOrderError(f"{what} only before the battle begins; this battle is already {battle.status}.")


def find_side(battle: Battle, name: str) -> Side:
    """Return a side by name, or say which sides exist."""
    side = strategic_side(battle, name)
    if side is None:
        known = ", ".join(s.name for s in battle.sides) or "none yet (add a unit to create a side)"
        raise NotFoundError(f"There is no side `{name}` in this battle. Sides: {known}.")
    return side


def _connected(squares: list[Cell]) -> bool:
    seen = {squares[0]}
    todo = [squares[0]]
    while todo:
        here = todo.pop()
        for other in squares:
            if other not in seen and here.distance(other) == 1:
                seen.add(other)
                todo.append(other)
    return len(seen) == len(squares)


def _check_squares(battle: Battle, ftype: FeatureType, squares: list[Cell]) -> None:
    """Validate every square of a purchase: count, on the map, the right ground, no feature there yet (A27)."""
    if len(squares) > ftype.squares:
        what = "one square" if ftype.squares == 1 else f"up to {ftype.squares} squares"
        raise InvalidOrderError(f"One {ftype.name} purchase lays {what}; you gave {len(squares)}.")
    if len(set(squares)) != len(squares):
        raise InvalidOrderError("The same square is listed twice; give each square of the purchase once.")
    for cell in squares:
        battle.check_cell(cell)
        terrain = battle.terrain_at(cell)
        if not allows_terrain(ftype, terrain.key):
            raise IllegalOrderError(
                f"{cell} is {terrain.name}, but a {ftype.name} stands only on {terrain_names(battle, ftype)}."
            )
        # 000:L80: one feature per square; the square state holds one, so max_features_per_square is 1.
        # The refusal never names what is there: it may be another side's hidden trap.
        if feature_at(battle, cell) is not None:
            raise IllegalOrderError(
                f"{cell} already holds a feature, and no square may have more than one; pick another square."
            )
    if len(squares) > 1 and bool(const_or(battle, "feature_squares_contiguous", False)) and not _connected(squares):
        raise IllegalOrderError(f"The squares of one {ftype.name} purchase must touch each other in this battle.")


@checks("place-feature")
def check_place_feature(battle: Battle, order: PlaceFeature) -> tuple[FeatureType, Side, list[Cell], int]:
    """Check a purchase: in setup, a feature the side can pay for, squares that carry it; return the feature,
    the side, its squares and the side's pool."""
    require_features(battle)
    require_setup(battle, "Features are placed")
    ftype = feature_type(battle.ruleset, order.feature)
    side = find_side(battle, order.side)
    squares = [order.at, *order.cells]
    # Points first: a side that cannot pay learns nothing about the squares it names.
    pool = fp_pool(battle, side)
    left = pool - side.fp_spent
    if ftype.cost > left:
        raise IllegalOrderError(
            f"A {ftype.name} costs {ftype.cost} FP, but {side.name} has {max(0, left)} FP left "
            f"(pool {pool}, spent {side.fp_spent})."
        )
    _check_squares(battle, ftype, squares)
    return ftype, side, squares, pool


@handles("place-feature")
def place_feature(battle: Battle, order: PlaceFeature, dice: Dice, outcome: Outcome) -> None:
    """Buy a feature with the side's feature points and lay it on its squares."""
    ftype, side, squares, pool = check_place_feature(battle, order)
    purchase = next_purchase(battle)
    for cell in squares:
        state = square_at(battle, cell)
        state.feature, state.feature_side, state.feature_purchase = ftype.key, side.name, purchase
        if ftype.cover_ap:
            state.feature_ap = ftype.cover_ap  # decays in combat (000:L83, A22)
        if ftype.triggers:
            state.mine_triggers = int(battle.const("minefield_triggers"))  # A30
        if ftype.bridge:
            state.bridge_wounds = 0
        if ftype.hidden:
            state.revealed = []  # A28, A29: only its side and the GM see it until detected
    side.fp_spent += ftype.cost
    outcome.hidden = ftype.hidden  # a hidden trap's placement is not announced
    outcome.details = FeaturePlacedDetails(feature=ftype.key, side=side.name, cells=[str(c) for c in squares],
                                           cost=ftype.cost, purchase=purchase, fp_left=pool - side.fp_spent)
    outcome.highlight.cells = [str(c) for c in squares]
    outcome.add(FeaturePlaced(feature=ftype.key, name=ftype.name, side=side.name,
                   cells=[str(c) for c in squares], cost=ftype.cost, purchase=purchase, hidden=ftype.hidden))


@checks("remove-feature")
def check_remove_feature(battle: Battle, order: RemoveFeature) -> tuple[Cell, FeatureType]:
    """Check that the square holds a feature to remove; return the square and the feature."""
    require_features(battle)
    if battle.status == "ended":
        raise IllegalOrderError("This battle has ended; nothing on it can change any more.")
    cell = battle.check_cell(order.at)
    ftype = feature_at(battle, cell)
    if ftype is None:
        raise IllegalOrderError(f"There is no feature on {cell}.")
    return cell, ftype


@handles("remove-feature")
def remove_feature(battle: Battle, order: RemoveFeature, dice: Dice, outcome: Outcome) -> None:
    """Remove a feature; in setup, removing the last square of a purchase refunds its cost."""
    cell, ftype = check_remove_feature(battle, order)
    state = state_at(battle, cell)
    side = strategic_side(battle, state.feature_side or "")
    purchase = state.feature_purchase
    clear_feature(battle, cell)
    refund = 0
    # A28: unspent feature points are lost when the battle begins, so only a setup removal gives any back.
    if battle.status == "setup" and side is not None and purchase is not None and not purchase_cells(battle, int(purchase)):
        refund = min(ftype.cost, side.fp_spent)
        side.fp_spent -= refund
    outcome.hidden = ftype.hidden
    outcome.details = FeatureRemovedDetails(feature=ftype.key, cell=str(cell), refund=refund)
    outcome.highlight.cells = [str(cell)]
    outcome.add(FeatureRemoved(feature=ftype.key, name=ftype.name, cell=str(cell),
                   side=side.name if side else None, refund=refund))


@checks("set-fp")
def check_set_fp(battle: Battle, order: SetFp) -> Side:
    """Check a side's feature point rule: in setup, a side of the battle, a pool and adjustment in range."""
    require_features(battle)
    require_setup(battle, "Feature points are set")
    side = find_side(battle, order.side)
    if order.value is not None and not 0 <= order.value <= MAX_FP:
        raise InvalidOrderError(f"A feature point pool is 0 to {MAX_FP}, not {order.value}.")
    if not -MAX_FP <= order.adjust <= MAX_FP:
        raise InvalidOrderError(f"A feature point adjustment is -{MAX_FP} to +{MAX_FP}, not {order.adjust}.")
    return side


@handles("set-fp")
def set_fp(battle: Battle, order: SetFp, dice: Dice, outcome: Outcome) -> None:
    """Set a side's feature point rule: a fixed pool when value is given, else the usual pool plus adjust."""
    side = check_set_fp(battle, order)
    side.fp_override = order.value
    side.fp_adjust = order.adjust
    pool = fp_pool(battle, side)
    outcome.details = FpDetails(side=side.name, pool=pool, spent=side.fp_spent, left=pool - side.fp_spent)
    outcome.add(FpSet(side=side.name, override=order.value, adjust=order.adjust, pool=pool,
                   spent=side.fp_spent))
    # A side's points tell the other side how much it could have hidden, so the log keeps them for the GM.
    outcome.hidden = True
