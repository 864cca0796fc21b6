"""Map orders: import a whole map file, replacing terrain and the storm and deep-water marks at once."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.coords import Cell
from rules.errors import IllegalOrderError
from rules.mapfile import MapData, check_fits, replace_map
from rules.orders import ImportMap
from rules.systems.strategic.details import MapDetails
from rules.systems.strategic.effects import MapImported
from rules.systems.strategic.features import allows_terrain, feature_at, terrain_names
from rules.systems.strategic.mapfile import LAYERS, parse_map
from rules.systems.strategic.table import checks, handles

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.systems.strategic.board import Battle


@checks("import-map")
def check_import_map(battle: Battle, order: ImportMap) -> MapData:
    """Check a map file, and that no unit or feature would be off the new map or on wrong ground; return the map."""
    if battle.status == "ended":
        raise IllegalOrderError("This battle has ended; nothing on it can change any more.")
    data = parse_map(order.text, battle.ruleset)

    def inside(cell: Cell) -> bool:
        """Return whether a square lies on the new map."""
        return 0 <= cell.x < data.width and 0 <= cell.y < data.height

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
    check_fits(battle, data)
    return data


@handles("import-map")
def import_map(battle: Battle, order: ImportMap, dice: Dice, outcome: Outcome) -> None:
    """Replace the map with a map file; refuse it if a unit or feature would be off the map or on wrong ground."""
    data = check_import_map(battle, order)
    replace_map(battle, data, LAYERS)
    counts = {layer.name: sum(1 for f in data.flags.values() if f.get(layer.name)) for layer in LAYERS}
    outcome.details = MapDetails(width=data.width, height=data.height, storm=counts["storm"], deep=counts["deep"],
                                 rain=counts["rain"])
    outcome.add(MapImported(width=data.width, height=data.height, **counts))
