"""The mapping file of a Tiled import: which tiles and layers stand for which terrain, marks and features.

A TOML file (documented in docs/tiled.md):

    default = "plain"                  # terrain of a square no layer covers
    [tiles]                            # a tile's class (or "tileset#id") -> terrain, with marks: "water + deep"
    grass = "plain"
    "hakone#3" = "forest"
    [layers]                           # a layer's name -> terrain for all its tiles, "storm", "deep" or "ignore"
    Clouds = "storm"
    [features]                         # a tile's class (or "tileset#id") -> "feature for side"
    wire = "barbed_wire for NERV"

Every table is optional; a map whose tiles carry `terrain` properties needs no mapping file at all.
"""

from __future__ import annotations

import logging
import tomllib
from dataclasses import dataclass, field
from typing import Any

from bot.mapimport.limits import MAP_FILE_LIMITS, MapImportError
from rules.filelimits import load_toml

log = logging.getLogger(__name__)

TABLES = ("tiles", "layers", "features")


@dataclass(frozen=True)
class Mapping:
    """What a mapping file says; empty when there is none."""

    default: str | None = None
    tiles: dict[str, str] = field(default_factory=dict)
    layers: dict[str, str] = field(default_factory=dict)
    features: dict[str, str] = field(default_factory=dict)


def parse_mapping(text: str, name: str) -> Mapping:
    """Read a mapping file, naming the line of a TOML mistake and any table or value it does not know."""
    try:
        data = load_toml(text, MAP_FILE_LIMITS)
    except tomllib.TOMLDecodeError as exc:
        raise MapImportError(f"`{name}` is not valid TOML: {exc}. See docs/tiled.md for an example.") from None
    known = {"default", *TABLES}
    extra = sorted(set(data) - known)
    if extra:
        raise MapImportError(
            f"`{name}` has `{extra[0]}`, which a mapping file does not use; it may have `default`, [tiles], "
            "[layers] and [features]."
        )
    default = data.get("default")
    if default is not None and not isinstance(default, str):
        raise MapImportError(f"`{name}`: `default` is a terrain name in quotes, like default = \"plain\".")
    tables = {t: _table(data.get(t, {}), t, name) for t in TABLES}
    return Mapping(default=default, tiles=tables["tiles"], layers=tables["layers"], features=tables["features"])


def _table(raw: Any, table: str, name: str) -> dict[str, str]:
    """Return a table of text keys to text values, lower-casing tile and feature keys."""
    if not isinstance(raw, dict):
        raise MapImportError(f"`{name}`: [{table}] must be a table of `key = \"value\"` lines.")
    out: dict[str, str] = {}
    for key, value in raw.items():
        if not isinstance(value, str):
            raise MapImportError(f"`{name}`: in [{table}], `{key}` must be given text in quotes, like \"forest\".")
        out[key if table == "layers" else key.lower()] = value
    return out
