"""Map imports: the committed Tiled map, mapping files, external tilesets, colour pictures, and bombs refused."""

from __future__ import annotations

import base64
import gzip
import io
import json
import struct
import zipfile
import zlib
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.mapimport import MapImportError, convert
from bot.mapimport.limits import MAX_PIXELS, MAX_UNPACKED
from rules.coords import Cell
from rules.ruleset import get_ruleset
from rules.systems.strategic.mapfile import parse_map

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "tiled"
P_SCALE = get_ruleset("strategic-p")
E_SCALE = get_ruleset("strategic-e")


def example() -> tuple[bytes, bytes]:
    """Return the committed Tiled map and its mapping file."""
    return (EXAMPLES / "gora-crossing.tmj").read_bytes(), (EXAMPLES / "gora-crossing.toml").read_bytes()


def terrain(text: str, cell: str) -> str:
    """Return the terrain key of a square of a map file."""
    data = parse_map(text, P_SCALE)
    c = Cell.parse(cell)
    return data.terrain[c.y * data.width + c.x]


def flags(text: str, cell: str) -> dict[str, bool]:
    """Return the marks of a square of a map file."""
    return parse_map(text, P_SCALE).flags.get(cell, {})


def tiny_map(layers: list[dict[str, Any]], tilesets: list[dict[str, Any]] | None = None, width: int = 3,
             height: int = 2) -> bytes:
    """Return a small Tiled map in JSON with the given layers and one embedded tileset by default."""
    doc = {
        "compressionlevel": -1, "height": height, "infinite": False, "layers": layers, "nextlayerid": 9,
        "nextobjectid": 1, "orientation": "orthogonal", "renderorder": "right-down", "tiledversion": "1.10.2",
        "tileheight": 32, "tilewidth": 32, "type": "map", "version": "1.10", "width": width,
        "tilesets": tilesets if tilesets is not None else [{
            "firstgid": 1, "name": "t", "tilecount": 3, "tiles": [
                {"id": 0, "properties": [{"name": "terrain", "type": "string", "value": "plain"}]},
                {"id": 1, "properties": [{"name": "terrain", "type": "string", "value": "forest"}]},
                {"id": 2, "type": "decor"},
            ]}],
    }
    return json.dumps(doc).encode()


def layer(name: str, data: Any = None, width: int = 3, height: int = 2, **extra: Any) -> dict[str, Any]:
    """Return a tile layer."""
    return {"data": data, "height": height, "id": 1, "name": name, "opacity": 1, "type": "tilelayer",
            "visible": True, "width": width, "x": 0, "y": 0, **extra}


def packed(gids: list[int], how: str) -> dict[str, Any]:
    """Return a layer's data as Tiled writes Base64 (raw, zlib or gzip)."""
    raw = b"".join(g.to_bytes(4, "little") for g in gids)
    body = {"zlib": zlib.compress, "gzip": gzip.compress, "": lambda b: b}[how](raw)
    return {"data": base64.b64encode(body).decode(), "encoding": "base64", "compression": how}


# --- the committed Tiled map -------------------------------------------------------------------


def test_the_committed_tiled_map_imports_with_its_mapping_file() -> None:
    tmj, toml = example()
    imported = convert("gora-crossing.tmj", tmj, P_SCALE, "gora-crossing.toml", toml)
    assert imported.kind == "Tiled map" and imported.summary.startswith("24x14: ")
    text = imported.text
    # Tiles mapped by class in the mapping file, by their own `terrain` property, and untouched squares.
    assert terrain(text, "B2") == "forest" and terrain(text, "C10") == "rough" and terrain(text, "T10") == "urban"
    assert terrain(text, "L7") == "bridge" and terrain(text, "M13") == "ice", "tile properties set in Tiled"
    assert terrain(text, "A1") == "plain" and terrain(text, "L1") == "water" and terrain(text, "K1") == "shallows"
    # The layer property `terrain = deep` and the mapping's `"Storm front" = "storm"` mark squares.
    assert flags(text, "L2") == {"deep": True} and flags(text, "T1") == {"storm": True}
    assert flags(text, "A1") == {}
    # The Labels layer is ignored: its flag tile on D4 leaves the forest under it.
    assert terrain(text, "D4") == "forest"


def test_without_its_mapping_the_map_names_the_first_tile_it_cannot_place() -> None:
    tmj, _ = example()
    with pytest.raises(MapImportError) as caught:
        convert("gora-crossing.tmj", tmj, P_SCALE)
    message = caught.value.message
    assert "has tile 2 of tileset `gora-marks` (class `flag`), which says no terrain" in message
    assert '[tiles] "gora-marks#2" = "forest"' in message and '[layers] "Labels" = "ignore"' in message


def test_a_mapping_naming_an_unknown_terrain_is_refused() -> None:
    tmj, toml = example()
    bad = toml.replace(b'trees = "forest"', b'trees = "jungle"')
    with pytest.raises(MapImportError, match=r"There is no terrain `jungle` in strategic-p"):
        convert("gora-crossing.tmj", tmj, P_SCALE, "gora.toml", bad)
    with pytest.raises(MapImportError, match=r"`gora.toml` has `colours`, which a mapping file does not use"):
        convert("gora-crossing.tmj", tmj, P_SCALE, "gora.toml", b"[colours]\n")


def test_the_same_map_reads_on_the_e_scale_where_its_terrains_exist() -> None:
    data = tiny_map([layer("Ground", [1, 2, 1, 2, 1, 2])])
    text = convert("tiny.tmj", data, E_SCALE).text
    assert text.splitlines()[-2:] == [".F.", "F.F"]


# --- layer encodings and external tilesets ------------------------------------------------------


@pytest.mark.parametrize("how", ["", "zlib", "gzip"])
def test_base64_layers_raw_zlib_and_gzip_read_alike(how: str) -> None:
    data = tiny_map([layer("Ground", **packed([1, 2, 1, 2, 1, 2], how))])
    assert convert("tiny.tmj", data, P_SCALE).text.splitlines()[-2:] == [".F.", "F.F"]


def test_flipped_tiles_count_as_themselves() -> None:
    flipped = 2 | 0x80000000 | 0x20000000
    data = tiny_map([layer("Ground", [1, flipped, 1, 1, 1, 1])])
    assert convert("tiny.tmj", data, P_SCALE).text.splitlines()[-2] == ".F."


def test_a_zip_brings_external_tilesets_json_and_xml() -> None:
    tsj = {"name": "ext", "tilecount": 2, "tiles": [
        {"id": 0, "type": "grass"}, {"id": 1, "properties": [{"name": "terrain", "type": "string", "value": "water"}]}]}
    tsx = (b'<?xml version="1.0" encoding="UTF-8"?>\n<tileset version="1.10" name="xml" tilecount="1">'
           b'<tile id="0"><properties><property name="terrain" value="urban"/></properties></tile></tileset>')
    tilesets = [{"firstgid": 1, "source": "tiles/ext.tsj"}, {"firstgid": 3, "source": "xml.tsx"}]
    data = tiny_map([layer("Ground", [1, 2, 3, 1, 2, 3])], tilesets)
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("maps/tiny.tmj", data)
        z.writestr("tiles/ext.tsj", json.dumps(tsj))
        z.writestr("xml.tsx", tsx)
        z.writestr("mapping.toml", 'default = "plain"\n[tiles]\ngrass = "plain"\n')
    text = convert("tiny.zip", archive.getvalue(), P_SCALE).text
    assert text.splitlines()[-2:] == [".~U", ".~U"]
    with pytest.raises(MapImportError, match=r"uses the external tileset `ext.tsj`, which was not sent with it"):
        convert("tiny.tmj", data, P_SCALE)


def test_features_are_laid_for_their_side() -> None:
    tilesets = [{"firstgid": 1, "name": "t", "tilecount": 2, "tiles": [
        {"id": 0, "properties": [{"name": "terrain", "type": "string", "value": "plain"}]},
        {"id": 1, "type": "wire"}]}]
    data = tiny_map([layer("Ground", [1, 1, 1, 1, 1, 1]), layer("Defences", [0, 2, 0, 0, 0, 0])], tilesets)
    imported = convert("tiny.tmj", data, P_SCALE, "m.toml", b'[features]\nwire = "trench for NERV"\n')
    assert [(f.feature, f.side, str(f.cell)) for f in imported.features] == [("trench", "NERV", "B1")]


# --- refusals -----------------------------------------------------------------------------------


def test_infinite_and_odd_maps_are_refused_with_what_to_change() -> None:
    doc = json.loads(tiny_map([layer("Ground", [1] * 6)]))
    for change, fragment in (
        ({"infinite": True}, "turn Infinite off"),
        ({"orientation": "isometric"}, "make it orthogonal"),
        ({"width": 150}, "a battle map is 1 to 100 squares each way"),
    ):
        with pytest.raises(MapImportError, match=fragment):
            convert("odd.tmj", json.dumps({**doc, **change}).encode(), P_SCALE)
    with pytest.raises(MapImportError, match=r"compressed with zstd; choose zlib, gzip or no compression"):
        convert("z.tmj", tiny_map([layer("Ground", **{**packed([1] * 6, ""), "compression": "zstd"})]), P_SCALE)


def test_deep_water_on_land_is_refused() -> None:
    data = tiny_map([layer("Ground", [1] * 6), layer("Deep", [3, 0, 0, 0, 0, 0])])
    with pytest.raises(MapImportError, match=r"A1 is marked deep water but is Plain; only water can be deep"):
        convert("tiny.tmj", data, P_SCALE, "m.toml", b'[layers]\nDeep = "deep"\n')


def test_a_compressed_layer_that_unpacks_past_its_size_is_refused() -> None:
    """A zlib bomb: a few KB that would unpack to 40 MB, for a 3x2 layer that holds 24 bytes."""
    bomb = zlib.compress(b"\0" * (40 * 1024 * 1024), 9)
    data = tiny_map([layer("Ground", data=base64.b64encode(bomb).decode(), encoding="base64", compression="zlib")])
    assert len(data) < 100_000
    with pytest.raises(MapImportError, match=r"unpacks to more than 24 bytes"):
        convert("bomb.tmj", data, P_SCALE)


def test_an_archive_bomb_is_refused() -> None:
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("map.tmj", tiny_map([layer("Ground", [1] * 6)]))
        z.writestr("huge.tsj", b" " * (MAX_UNPACKED + 1024))
    assert len(archive.getvalue()) < 100_000
    with pytest.raises(MapImportError, match=r"`huge.tsj` in `bomb.zip` unpacks to far more than a map needs"):
        convert("bomb.zip", archive.getvalue(), P_SCALE)
    many = io.BytesIO()
    with zipfile.ZipFile(many, "w") as z:
        for i in range(40):
            z.writestr(f"f{i}.tsj", b"{}")
    with pytest.raises(MapImportError, match=r"holds 40 files; a map archive may hold at most 32"):
        convert("many.zip", many.getvalue(), P_SCALE)


def test_a_tsx_with_a_document_type_is_refused() -> None:
    """An XML entity bomb needs a DTD; a tileset never has one."""
    evil = (b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>'
            b'<tileset name="x">&lol2;</tileset>')
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("map.tmj", tiny_map([layer("Ground", [1] * 6)], [{"firstgid": 1, "source": "x.tsx"}]))
        z.writestr("x.tsx", evil)
    with pytest.raises(MapImportError, match=r"declares a document type or entities"):
        convert("evil.zip", archive.getvalue(), P_SCALE)


# --- colour pictures ----------------------------------------------------------------------------

LEGEND = b"""
square = 4
[colours]
"#c8d2a0" = "plain"
"#3c8d2f" = "forest"
"#2a5fd0" = "water + deep"
"""


def picture(rows: list[str], square: int = 4, noise: bool = False) -> bytes:
    """Return a PNG with one block of `square` pixels per character: . plain, F forest, ~ deep water."""
    colours = {".": (200, 210, 160), "F": (60, 141, 47), "~": (42, 95, 208)}
    image = Image.new("RGB", (len(rows[0]) * square, len(rows) * square))
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            image.paste(colours[ch], (x * square, y * square, (x + 1) * square, (y + 1) * square))
            if noise:
                # A grid line across the top of each square and a slightly off colour: most pixels still agree.
                image.paste((0, 0, 0), (x * square, y * square, (x + 1) * square, y * square + 1))
                r, g, b = colours[ch]
                image.putpixel((x * square + 1, y * square + 2), (r + 9, g - 9, b))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def test_a_picture_imports_square_by_square_through_its_legend() -> None:
    rows = ["..F~", ".FF~", "...~"]
    text = convert("valley.png", picture(rows, noise=True), P_SCALE, "valley.toml", LEGEND).text
    assert text.splitlines()[3:6] == ["..F~", ".FF~", "...~"]
    assert flags(text, "D2") == {"deep": True}
    assert convert("v.png", picture(rows), P_SCALE, "v.toml", LEGEND).summary == "4x3: 6 Plain, 3 Forest, 3 Water"


def test_a_picture_colour_missing_from_the_legend_is_named() -> None:
    image = Image.new("RGB", (8, 4), (200, 210, 160))
    image.paste((250, 0, 250), (4, 0, 8, 4))
    out = io.BytesIO()
    image.save(out, format="PNG")
    with pytest.raises(MapImportError, match=r'B1 of `v.png` is #fa00fa, which is not in the legend.*"#fa00fa"'):
        convert("v.png", out.getvalue(), P_SCALE, "v.toml", LEGEND)


def test_a_picture_needs_its_legend_and_whole_squares() -> None:
    with pytest.raises(MapImportError, match=r"attach its legend too"):
        convert("v.png", picture(["..", ".."]), P_SCALE)
    odd = Image.new("RGB", (10, 8), (200, 210, 160))
    out = io.BytesIO()
    odd.save(out, format="PNG")
    with pytest.raises(MapImportError, match=r"not a whole number of 4-pixel squares"):
        convert("v.png", out.getvalue(), P_SCALE, "v.toml", LEGEND)
    with pytest.raises(MapImportError, match=r"`v.toml`: the colour #3c8d2f needs a terrain"):
        convert("v.png", picture([".."]), P_SCALE, "v.toml", b'square = 4\n[colours]\n"#3c8d2f" = "deep"\n')


def pixel_bomb(width: int, height: int) -> bytes:
    """Return a tiny PNG whose header claims width x height pixels (its data would inflate to gigabytes)."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    data = zlib.compress(b"\0" * 1024, 9)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


def test_a_picture_with_too_many_pixels_is_refused_before_decoding() -> None:
    bomb = pixel_bomb(30_000, 30_000)
    assert len(bomb) < 2_000
    with pytest.raises(MapImportError, match=r"declares far more pixels|at most 16,000,000 pixels"):
        convert("bomb.png", bomb, P_SCALE, "v.toml", LEGEND)
    just_over = pixel_bomb(4001, 4000)
    assert 4001 * 4000 > MAX_PIXELS
    with pytest.raises(MapImportError, match=r"is 4001x4000 pixels; a map picture may have at most 16,000,000"):
        convert("big.png", just_over, P_SCALE, "v.toml", LEGEND)


def test_a_file_that_is_not_a_picture_or_too_big_is_refused() -> None:
    with pytest.raises(MapImportError, match=r"is not a picture battlepost can read"):
        convert("v.png", b"not a png", P_SCALE, "v.toml", LEGEND)
    with pytest.raises(MapImportError, match=r"a map file may be at most 4 MiB"):
        convert("v.png", b"\0" * (5 * 1024 * 1024), P_SCALE, "v.toml", LEGEND)
