"""Map orders: import a whole map file, replacing terrain and the storm and deep-water marks at once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.coords import Cell
from rules.errors import IllegalOrderError
from rules.orders import Order
from rules.squares import Square
from rules.systems.strategic.features import allows_terrain, feature_at, terrain_names
from rules.systems.strategic.mapfile import LAYERS, parse_map
from rules.systems.strategic.table import handles
from rules.systems.strategic.table import order as _order

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.systems.strategic.board import Battle


@_order("import-map")
@dataclass(frozen=True)
class ImportMap(Order):
    """Replace the battle's map with a map file (terrain, size, storm and deep-water marks)."""

    text: str


@handles("import-map")
def import_map(battle: Battle, order: ImportMap, dice: Dice, outcome: Outcome) -> None:
    """Replace the map with a map file; refuse it if a unit or feature would be off the map or on wrong ground."""
    if battle.status == "ended":
        raise IllegalOrderError("This battle has ended; nothing on it can change any more.")
    data = parse_map(order.text, battle.ruleset)

    def inside(cell: Cell) -> bool:
        """Return whether a square lies on the new map."""
        return 0 <= cell.x < data.width and 0 <= cell.y < data.height

    for unit in battle.iter_units():
        if not inside(unit.cell):
            raise IllegalOrderError(
                f"{unit.name} stands on {unit.cell}, outside the new {data.width}x{data.height} map; "
                f"move or remove it first."
            )
    for key in battle.cells:
        cell = Cell.parse(key)
        ftype = feature_at(battle, cell)
        if ftype is None:
            continue
        if not inside(cell):
            raise IllegalOrderError(f"{cell} holds a {ftype.name}, outside the new map; remove it first.")
        new = data.terrain[cell.y * data.width + cell.x]
        if not allows_terrain(ftype, new):
            raise IllegalOrderError(
                f"{cell} holds a {ftype.name}, which stands only on {terrain_names(battle, ftype)}, but the new map "
                f"makes it {battle.ruleset.terrain[new].name}; remove the feature first."
            )
    battle.width, battle.height, battle.terrain = data.width, data.height, list(data.terrain)
    cells: dict[str, Square] = {}
    for key, state in battle.cells.items():
        kept = state.copy()
        kept.clear(*LAYERS)
        # Squares beyond the new edge lose their smoke and fire with them.
        if not kept.empty and inside(Cell.parse(key)):
            cells[key] = kept
    for key, flags in data.flags.items():
        cells.setdefault(key, Square()).update(flags)
    battle.cells = cells
    battle.map_version += 1
    counts = {name: sum(1 for f in data.flags.values() if f.get(name)) for name in LAYERS}
    outcome.data.update(width=data.width, height=data.height, **counts)
    outcome.effect("map_imported", width=data.width, height=data.height, **counts)
