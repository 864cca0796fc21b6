"""Tiled maps (JSON, .tmj): tile and layer properties, or a mapping file, decide each square's terrain.

For each square the topmost tile layer that says something wins. A layer says something about a square
when the square has a tile there and either
  * the tile has a `terrain` property, or its class (or "tileset#id") is in the mapping's [tiles], or
  * the layer has a `terrain` property, or its name is in the mapping's [layers].
A layer whose `terrain` (property or mapping) is `storm` or `deep` marks its squares instead, and
`ignore` leaves a layer out. A tile with a `feature` property (and `side`), or in [features], lays
that feature. A tile that no rule covers is refused, with where it is and how to map it.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from bot.mapimport.grid import IGNORE, FeaturePlacement, Grid, split_value, terrain_key
from bot.mapimport.limits import MAX_UNPACKED, TILED_LIMITS, MapImportError, inflate
from bot.mapimport.mapping import Mapping as MappingFile
from rules.coords import Cell
from rules.errors import RulesetError, shorten
from rules.filelimits import FileLimitError, load_json, load_xml
from rules.ruleset import Ruleset
from rules.systems.strategic.featuretable import feature_type

log = logging.getLogger(__name__)

FLIP_BITS = 0xF0000000  # Tiled keeps flip and rotation flags in a GID's top four bits
TILESET_SUFFIXES = (".tsj", ".json", ".tsx")


@dataclass(frozen=True)
class Tile:
    """What a tileset says of one tile: where it comes from, its class and its properties."""

    tileset: str
    local_id: int
    cls: str
    properties: dict[str, Any]

    @property
    def ref(self) -> str:
        """Return the tile's "tileset#id" name, as a mapping file writes it."""
        return f"{self.tileset}#{self.local_id}".lower()


@dataclass(frozen=True)
class Tileset:
    """A tileset as the map uses it: its first GID and its tiles with anything to say."""

    name: str
    first_gid: int
    count: int
    tiles: dict[int, Tile]

    def tile(self, local_id: int) -> Tile:
        """Return a tile, bare when the tileset says nothing about it."""
        return self.tiles.get(local_id) or Tile(self.name, local_id, "", {})


def read_tiled(data: bytes, name: str, ruleset: Ruleset, mapping: MappingFile,
               external: Mapping[str, bytes] | None = None) -> Grid:
    """Read a Tiled JSON map into a grid of terrain keys, marks and features."""
    doc = _json(data, name)
    if doc.get("type", "map") != "map" or "layers" not in doc:
        raise MapImportError(f"`{name}` is not a Tiled map: save it with File > Save As... as a .tmj (JSON) map.")
    if doc.get("orientation", "orthogonal") != "orthogonal":
        raise MapImportError(f"`{name}` is a {doc.get('orientation')} map; battlepost maps are square grids, so "
                             "make it orthogonal (Map > Map Properties > Orientation).")
    if doc.get("infinite"):
        raise MapImportError(f"`{name}` is an infinite map; turn Infinite off in Map > Map Properties and set its size.")
    width, height = _int(doc, "width", name), _int(doc, "height", name)
    grid = Grid.sized(width, height, f"`{name}`")
    tilesets = [_tileset(ts, name, external or {}) for ts in _list(doc, "tilesets", name)]
    decided = [False] * (width * height)
    marks_done: set[tuple[int, str]] = set()
    # Topmost first: Tiled draws the last layer on top.
    for layer in reversed(list(_tile_layers(doc["layers"], name))):
        _read_layer(layer, grid, decided, marks_done, tilesets, ruleset, mapping, name)
    return grid


def _read_layer(layer: dict[str, Any], grid: Grid, decided: list[bool], marks_done: set[tuple[int, str]],
                tilesets: list[Tileset], ruleset: Ruleset, mapping: MappingFile, name: str) -> None:
    """Apply one tile layer to the squares it says something about."""
    lname = str(layer.get("name", ""))
    where = f"layer `{shorten(lname, 64)}` of `{name}`"
    props = _properties(layer.get("properties"), where)
    layer_value = props.get("terrain", mapping.layers.get(lname))
    layer_terrain, layer_marks = (None, set()) if layer_value is None else split_value(ruleset, str(layer_value), where)
    if IGNORE in layer_marks:
        return
    gids = _layer_data(layer, grid.width, grid.height, where)
    for index, raw in enumerate(gids):
        gid = raw & ~FLIP_BITS
        if gid == 0:
            continue
        tile = _find(tilesets, gid, where, index, grid.width)
        cell = Cell(index % grid.width, index // grid.width)
        feature = _feature(tile, mapping, ruleset, where)
        if feature is not None:
            grid.features.append(FeaturePlacement(feature[0], feature[1], cell))
        value = tile.properties.get("terrain")
        if value is None:
            value = mapping.tiles.get(tile.cls.lower()) if tile.cls else None
        if value is None:
            value = mapping.tiles.get(tile.ref)
        terrain, marks = split_value(ruleset, str(value), f"tile {tile.ref}") if value is not None else (None, set())
        if IGNORE in marks:
            continue
        if terrain is None and not marks:
            terrain, marks = layer_terrain, layer_marks
        if terrain is None and not marks:
            if feature is not None:
                continue
            raise MapImportError(
                f"{cell} on {where} has tile {tile.local_id} of tileset `{tile.tileset}`"
                f"{f' (class `{shorten(tile.cls, 64)}`)' if tile.cls else ''}, which says no terrain. Give the tile a `terrain` "
                f"property in Tiled, or map it in a mapping file: [tiles] \"{tile.ref}\" = \"forest\" (or the layer: "
                f"[layers] \"{lname}\" = \"ignore\"). See docs/tiled.md."
            )
        for mark in marks:
            if (index, mark) not in marks_done:
                marks_done.add((index, mark))
                grid.flags.setdefault(cell, set()).add(mark)
        if terrain is not None and not decided[index]:
            decided[index] = True
            grid.terrain[index] = terrain


def _feature(tile: Tile, mapping: MappingFile, ruleset: Ruleset, where: str) -> tuple[str, str] | None:
    """Return the feature (key, side) a tile lays, if any: its `feature` and `side` properties, or [features]."""
    if "feature" in tile.properties:
        key, side = str(tile.properties["feature"]), str(tile.properties.get("side", ""))
    else:
        value = (mapping.features.get(tile.cls.lower()) if tile.cls else None) or mapping.features.get(tile.ref)
        if value is None:
            return None
        key, _, side = value.partition(" for ")
    if not side.strip():
        raise MapImportError(f"tile {tile.ref} on {where} lays a `{key}` but names no side: add a `side` property "
                             f"(or write \"{key.strip()} for NERV\" in the mapping).")
    try:
        return feature_type(ruleset, key).key, side.strip()
    except RulesetError as exc:
        raise MapImportError(f"tile {tile.ref} on {where}: {exc.message}") from None


def _find(tilesets: list[Tileset], gid: int, where: str, index: int, width: int) -> Tile:
    """Return the tile of a GID from the tileset whose range holds it."""
    for ts in sorted(tilesets, key=lambda t: -t.first_gid):
        if gid >= ts.first_gid:
            local = gid - ts.first_gid
            if ts.count and local >= ts.count:
                break
            return ts.tile(local)
    raise MapImportError(f"{Cell(index % width, index // width)} on {where} uses tile {gid}, which no tileset of the "
                         "map holds; the map file is damaged.")


def _tile_layers(layers: Any, name: str) -> Iterator[dict[str, Any]]:
    """Yield the tile layers bottom to top, opening group layers."""
    if not isinstance(layers, list):
        raise MapImportError(f"`{name}`: `layers` is not a list; the map file is damaged.")
    for layer in layers:
        if not isinstance(layer, dict):
            continue
        if layer.get("type") == "group":
            yield from _tile_layers(layer.get("layers", []), name)
        elif layer.get("type") == "tilelayer":
            yield layer


def _layer_data(layer: dict[str, Any], width: int, height: int, where: str) -> list[int]:
    """Return a layer's GIDs, row by row, from a plain list or base64 (raw, zlib or gzip)."""
    if "chunks" in layer:
        raise MapImportError(f"{where} is stored in chunks (an infinite map); turn Infinite off and save again.")
    if (layer.get("width"), layer.get("height")) != (width, height):
        raise MapImportError(f"{where} is {layer.get('width')}x{layer.get('height')}, not the map's {width}x{height}.")
    raw = layer.get("data")
    count = width * height
    if isinstance(raw, list):
        if len(raw) != count or not all(isinstance(g, int) and g >= 0 for g in raw):
            raise MapImportError(f"{where} should hold {count} tile numbers; the map file is damaged.")
        return raw
    if not isinstance(raw, str) or layer.get("encoding") != "base64":
        raise MapImportError(f"{where} has no tile data battlepost can read; save the layer as CSV or Base64.")
    try:
        packed = base64.b64decode(raw, validate=True)
    except (binascii.Error, ValueError):
        raise MapImportError(f"{where}: the Base64 tile data is damaged.") from None
    compression = layer.get("compression") or ""
    expected = 4 * count
    if compression in ("zlib", "gzip"):
        packed = inflate(packed, limit=min(expected, MAX_UNPACKED), what=where, gzip_wrapped=compression == "gzip")
    elif compression:
        raise MapImportError(f"{where} is compressed with {compression}; choose zlib, gzip or no compression "
                             "(Map > Map Properties > Tile Layer Format).")
    if len(packed) != expected:
        raise MapImportError(f"{where} holds {len(packed) // 4} tiles, not the {count} of a {width}x{height} map.")
    return [int.from_bytes(packed[i:i + 4], "little") for i in range(0, expected, 4)]


def _tileset(entry: Any, name: str, external: Mapping[str, bytes]) -> Tileset:
    """Read one tileset reference: embedded, or an external .tsj/.tsx from the same archive."""
    if not isinstance(entry, dict):
        raise MapImportError(f"`{name}`: a tileset entry is damaged.")
    first = _int(entry, "firstgid", name)
    source = entry.get("source")
    if source is None:
        return _tileset_from(entry, first, name)
    base = str(source).replace("\\", "/").rsplit("/", 1)[-1]
    data = external.get(base)
    if data is None:
        raise MapImportError(
            f"`{name}` uses the external tileset `{shorten(base, 64)}`, which was not sent with it. Embed the tilesets "
            "(Map > Embed Tilesets) or attach a .zip holding the map and its tileset files."
        )
    if base.lower().endswith(".tsx"):
        return _tileset_from(_tsx(data, base), first, base)
    return _tileset_from(_json(data, base), first, base)


def _tileset_from(doc: dict[str, Any], first: int, where: str) -> Tileset:
    """Build a tileset from its JSON form (embedded or external)."""
    ts_name = str(doc.get("name", "tileset"))
    tiles: dict[int, Tile] = {}
    for raw in doc.get("tiles", []) or []:
        if not isinstance(raw, dict) or not isinstance(raw.get("id"), int):
            continue
        cls = str(raw.get("class") or raw.get("type") or "")
        tiles[raw["id"]] = Tile(ts_name, raw["id"], cls, _properties(raw.get("properties"), f"`{where}`"))
    count = doc.get("tilecount", 0)
    return Tileset(ts_name, first, count if isinstance(count, int) else 0, tiles)


def _tsx(data: bytes, name: str) -> dict[str, Any]:
    """Read an external XML tileset into the JSON form, refusing any document type declaration."""
    # The bounded reader refuses a DTD (where entity expansion bombs live), deep nesting and too many elements.
    try:
        root = load_xml(data, TILED_LIMITS)
    except FileLimitError as exc:
        raise MapImportError(f"`{name}`: {exc.message}") from None
    except ET.ParseError as exc:
        raise MapImportError(f"`{name}` is not a readable tileset ({exc}).") from None
    if root.tag != "tileset":
        raise MapImportError(f"`{name}` is not a Tiled tileset.")
    tiles = []
    for number, tile in enumerate(root.iter("tile"), start=1):
        props = [{"name": p.get("name", ""), "type": p.get("type", "string"), "value": p.get("value", p.text or "")}
                 for p in tile.iter("property")]
        tiles.append({"id": _attr_int(tile, "id", f"`{name}`, tile #{number}"),
                      "class": tile.get("class") or tile.get("type") or "", "properties": props})
    return {"name": root.get("name", "tileset"), "tilecount": _attr_int(root, "tilecount", f"`{name}`", default=0),
            "tiles": tiles}


def _attr_int(element: ET.Element, key: str, where: str, default: int | None = None) -> int:
    """Read a whole-number attribute of a tileset's element, naming the element when it is not one."""
    raw = element.get(key)
    if raw is None and default is not None:
        return default
    text = (raw or "").strip()
    if not text.isascii() or not text.isdigit() or len(text) > 9:
        shown = "missing" if raw is None else f'"{shorten(raw, 24)}"'
        raise MapImportError(f"{where}: <{element.tag} {key}=...> is {shown}; it must be a whole number from 0, "
                             "as Tiled writes it. The tileset file is damaged.")
    return int(text)


def _properties(raw: Any, where: str) -> dict[str, Any]:
    """Return Tiled custom properties as name -> value."""
    if raw is None:
        return {}
    if isinstance(raw, dict):  # maps saved by Tiled before 1.2 kept properties as an object
        return {str(k).lower(): v for k, v in raw.items()}
    if not isinstance(raw, list):
        raise MapImportError(f"{where}: its properties are damaged.")
    return {str(p.get("name", "")).lower(): p.get("value") for p in raw if isinstance(p, dict)}


def _json(data: bytes, name: str) -> dict[str, Any]:
    try:
        doc = load_json(data, TILED_LIMITS)
    except FileLimitError as exc:
        raise MapImportError(f"`{name}`: {exc.message}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise MapImportError(f"`{name}` is not JSON battlepost can read ({exc}).") from None
    if not isinstance(doc, dict):
        raise MapImportError(f"`{name}` is not a Tiled map or tileset.")
    return doc


def _list(doc: dict[str, Any], key: str, name: str) -> list[Any]:
    value = doc.get(key, [])
    if not isinstance(value, list):
        raise MapImportError(f"`{name}`: `{key}` is not a list; the map file is damaged.")
    return value


def _int(doc: dict[str, Any], key: str, name: str) -> int:
    value = doc.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise MapImportError(f"`{name}` has no whole-number `{key}`; the map file is damaged.")
    return value


def default_terrain(ruleset: Ruleset, mapping: MappingFile) -> str:
    """Return the terrain for squares no layer covers: the mapping's default, else the ruleset's."""
    return terrain_key(ruleset, mapping.default, "the mapping's default") if mapping.default else ruleset.default_terrain
