"""Bring maps in from other tools: Tiled JSON maps, colour pictures with a legend, and battlepost's text grid.

Every format ends as a battlepost map file (docs/mapfile.md), which the `import-map` order applies and
the battle log keeps, so an imported map replays and exports like one typed by hand.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.mapimport.grid import FeaturePlacement, Grid, count_terrain, map_text
from bot.mapimport.limits import MAX_UPLOAD, MapImportError, check_upload, read_archive
from bot.mapimport.mapping import Mapping, parse_mapping
from bot.mapimport.picture import parse_legend, read_picture
from bot.mapimport.tiled import TILESET_SUFFIXES, default_terrain, read_tiled
from rules.ruleset import Ruleset

log = logging.getLogger(__name__)

__all__ = ["MAX_UPLOAD", "FeaturePlacement", "ImportedMap", "MapImportError", "check_upload", "convert"]

TEXT_SUFFIXES = (".txt", ".map")
TILED_SUFFIXES = (".tmj", ".json")
PICTURE_SUFFIXES = (".png",)
ARCHIVE_SUFFIXES = (".zip",)
MAPPING_SUFFIXES = (".toml",)
ALL_SUFFIXES = TEXT_SUFFIXES + TILED_SUFFIXES + PICTURE_SUFFIXES + ARCHIVE_SUFFIXES
MAX_TEXT_BYTES = 256 * 1024  # a text map of 100x100 squares with both layers is about 31 KiB


@dataclass(frozen=True)
class ImportedMap:
    """A map brought in: the map file to apply, the features it lays, and what it was."""

    text: str
    features: tuple[FeaturePlacement, ...]
    kind: str
    summary: str


def _decode(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise MapImportError(f"`{name}` is not UTF-8 text (byte {exc.start + 1}); save it as UTF-8.") from None


def convert(name: str, data: bytes, ruleset: Ruleset, mapping_name: str | None = None,
            mapping_data: bytes | None = None) -> ImportedMap:
    """Turn an uploaded map (and its mapping or legend file) into a battlepost map file."""
    low = name.lower()
    check_upload(name, len(data))
    if mapping_name is not None and mapping_data is not None:
        check_upload(mapping_name, len(mapping_data))
        if not mapping_name.lower().endswith(MAPPING_SUFFIXES):
            raise MapImportError(f"`{mapping_name}` is not a mapping or legend file: attach a `.toml` file "
                                 "(see docs/tiled.md and docs/picture-maps.md).")
    if low.endswith(TEXT_SUFFIXES):
        if mapping_data is not None:
            raise MapImportError("A text map carries its own legend line; leave out the mapping file.")
        if len(data) > MAX_TEXT_BYTES:
            raise MapImportError(f"`{name}` is {len(data) // 1024} KiB; a text map may be at most "
                                 f"{MAX_TEXT_BYTES // 1024} KiB.")
        return ImportedMap(_decode(data, name), (), "text map", "")
    if low.endswith(PICTURE_SUFFIXES):
        if mapping_data is None or mapping_name is None:
            raise MapImportError(f"`{name}` is a picture: attach its legend too (`mapping:`), a .toml file giving "
                                 "each colour's terrain. See docs/picture-maps.md.")
        legend = parse_legend(_decode(mapping_data, mapping_name), mapping_name, ruleset)
        grid = read_picture(data, name, legend, ruleset)
        return _finish(grid, ruleset, ruleset.default_terrain, "picture")
    if low.endswith(TILED_SUFFIXES + ARCHIVE_SUFFIXES):
        files: dict[str, bytes] = {}
        map_name, map_data = name, data
        if low.endswith(ARCHIVE_SUFFIXES):
            files = read_archive(data, name).files
            map_name, map_data = _map_in(files, name)
            if mapping_data is None:
                found = [n for n in files if n.lower().endswith(MAPPING_SUFFIXES)]
                if len(found) > 1:
                    raise MapImportError(f"`{name}` holds {len(found)} .toml files; keep one mapping file in it.")
                if found:
                    mapping_name, mapping_data = found[0], files[found[0]]
        mapping = Mapping()
        if mapping_data is not None and mapping_name is not None:
            mapping = parse_mapping(_decode(mapping_data, mapping_name), mapping_name)
        grid = read_tiled(map_data, map_name, ruleset, mapping, files)
        return _finish(grid, ruleset, default_terrain(ruleset, mapping), "Tiled map")
    wanted = ", ".join(f"`{s}`" for s in ALL_SUFFIXES)
    raise MapImportError(f"`{name}` is not a map battlepost reads: attach a {wanted} file "
                         "(a text map, a Tiled map, a colour picture with its legend, or a .zip of a Tiled map).")


def _map_in(files: dict[str, bytes], name: str) -> tuple[str, bytes]:
    """Return the one Tiled map inside an archive (its tilesets are the other JSON and .tsx files)."""
    maps = [n for n in files if n.lower().endswith(".tmj")]
    if not maps:
        maps = [n for n in files if n.lower().endswith(".json") and b'"layers"' in files[n]]
    if len(maps) != 1:
        found = "no Tiled map" if not maps else f"{len(maps)} maps ({', '.join(sorted(maps))})"
        raise MapImportError(f"`{name}` holds {found}; put exactly one .tmj map in it, with its tilesets "
                             f"({', '.join(TILESET_SUFFIXES)}).")
    return maps[0], files[maps[0]]


def _finish(grid: Grid, ruleset: Ruleset, default: str, kind: str) -> ImportedMap:
    text = map_text(ruleset, grid, default)
    names = {k: t.name for k, t in ruleset.terrain.items()}
    filled = Grid(grid.width, grid.height, [k or default for k in grid.terrain])
    summary = f"{grid.width}x{grid.height}: {count_terrain(filled, names)}"
    return ImportedMap(text, tuple(grid.features), kind, summary)
