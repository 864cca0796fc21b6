"""/map import of Tiled maps and pictures, refusals of bombs, and /map generate, end to end."""

from __future__ import annotations

import io
import json
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image

from rules.coords import Cell
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.setup_helpers import refused, stored, stored_battle

TILED = Path(__file__).resolve().parents[2] / "examples" / "tiled"


def tiled_files() -> dict[str, tuple[str, bytes]]:
    """Return the committed Tiled map and its mapping file as attachments."""
    return {
        "file": ("gora-crossing.tmj", (TILED / "gora-crossing.tmj").read_bytes()),
        "mapping": ("gora-crossing.toml", (TILED / "gora-crossing.toml").read_bytes()),
    }


@pytest.fixture
async def p_battle(table: Table) -> Table:
    """Return the table with an empty P-Scale battle, 10 by 10."""
    await table.slash("battle new", name="Crossing", ruleset="strategic-p", width=10, height=10)
    return table


async def test_a_tiled_map_replaces_the_map(p_battle: Table) -> None:
    table = p_battle
    reply = await table.slash("map import", **tiled_files())
    assert "Map imported from gora-crossing.tmj" in text_of(reply)
    posted = last_message(reply)
    assert not posted.ephemeral and posted.files[0].filename == "map.png"
    assert "From a Tiled map: 24x14: 221 Plain, 34 Forest" in text_of(reply)
    battle = await stored_battle(table)
    assert (battle.width, battle.height) == (24, 14)
    assert battle.terrain_at(Cell.parse("L7")).key == "bridge" and battle.terrain_at(Cell.parse("B2")).key == "forest"
    assert battle.cells["L2"] == {"deep": True} and battle.cells["T1"] == {"storm": True}
    # The log keeps the map as a text map, so it exports and replays like any other.
    exported = await table.slash("map export")
    assert b"..........sBBs.........." in last_message(exported).files[0].data


async def test_a_tiled_map_without_its_mapping_is_refused_naming_the_tile(p_battle: Table) -> None:
    files = tiled_files()
    await refused(p_battle, "map import", "has tile 2 of tileset `gora-marks` (class `flag`), which says no terrain",
                  file=files["file"])


async def test_only_a_gm_imports_a_tiled_map(p_battle: Table) -> None:
    await refused(p_battle, "map import", "Only a GM can import a map", user=p_battle.alice, **tiled_files())


async def test_tiled_features_are_laid_or_nothing_is(p_battle: Table) -> None:
    table = p_battle
    await table.slash("unit add", name="Sergeant", side="NERV", at="A1")
    doc = json.loads((TILED / "gora-crossing.tmj").read_bytes())
    marks = doc["tilesets"][1]
    marks["tiles"].append({"id": 3, "properties": [
        {"name": "feature", "type": "string", "value": "trench"}, {"name": "side", "type": "string", "value": "NERV"}]})
    marks["tilecount"] = 4
    works = [0] * (24 * 14)
    works[2 * 24 + 15] = marks["firstgid"] + 3  # P3, on plain ground
    doc["layers"].append({"data": works, "height": 14, "id": 9, "name": "Works", "opacity": 1, "type": "tilelayer",
                          "visible": True, "width": 24, "x": 0, "y": 0})
    files = tiled_files()
    files["file"] = ("works.tmj", json.dumps(doc).encode())
    # NERV has no feature points yet (no Supreme Commander): the whole import is refused.
    reply = await refused(table, "map import", "Nothing was imported.", **files)
    assert "The feature on P3: A Trench costs 2 FP, but NERV has 0 FP left" in text_of(reply)
    await table.slash("feature points", side="NERV", value=10)
    before = (await stored(table)).version
    placed = await table.slash("map import", **files)
    assert "1 feature laid." in text_of(placed)
    battle = await stored_battle(table)
    assert battle.cells["P3"]["feature"] == "trench" and battle.width == 24
    assert (await stored(table)).version == before + 2, "one order for the map, one for the trench"


def legend() -> tuple[str, bytes]:
    """Return a picture legend as an attachment."""
    return ("colours.toml", b'square = 8\n[colours]\n"#c8d2a0" = "plain"\n"#3c8d2f" = "forest"\n'
                            b'"#2a5fd0" = "water + deep"\n')


def picture(rows: list[str]) -> tuple[str, bytes]:
    """Return a PNG of 8-pixel squares: . plain, F forest, ~ deep water."""
    colours = {".": (200, 210, 160), "F": (60, 141, 47), "~": (42, 95, 208)}
    image = Image.new("RGB", (8 * len(rows[0]), 8 * len(rows)))
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            image.paste(colours[ch], (8 * x, 8 * y, 8 * x + 8, 8 * y + 8))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return ("valley.png", out.getvalue())


async def test_a_colour_picture_with_its_legend_replaces_the_map(p_battle: Table) -> None:
    table = p_battle
    rows = ["..FF~~..", ".FFF~~..", "....~~F."]
    reply = await table.slash("map import", file=picture(rows), mapping=legend())
    assert "From a picture: 8x3: " in text_of(reply)
    battle = await stored_battle(table)
    assert (battle.width, battle.height) == (8, 3)
    assert battle.terrain_at(Cell.parse("C1")).key == "forest" and battle.terrain_at(Cell.parse("E2")).key == "water"
    assert battle.cells["E3"] == {"deep": True}


async def test_a_picture_bomb_is_refused_and_changes_nothing(p_battle: Table) -> None:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    bomb = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 50_000, 50_000, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\0" * 4096)) + chunk(b"IEND", b""))
    await refused(p_battle, "map import", "pixels", file=("bomb.png", bomb), mapping=legend())


async def test_a_generated_map_is_the_same_for_the_same_seed(table: Table) -> None:
    await table.slash("battle new", name="First", ruleset="strategic-p", width=30, height=20)
    reply = await table.slash("map generate", style="river-valley", seed=7)
    assert "Map generated: River valley, seed 7" in text_of(reply)
    assert "/map generate style:river-valley seed:7 width:30 height:20 makes this map again." in text_of(reply)
    first = (await stored(table)).state["terrain"]
    other = table.discord.add_channel(table.discord.guild, "other")
    await table.slash("battle new", name="Second", ruleset="strategic-p", width=30, height=20, channel=other)
    await table.slash("map generate", channel=other, style="river-valley", seed=7)
    second = await table.db.battles.in_channel(table.discord.guild.id, other.id)
    assert second is not None and second.state["terrain"] == first
    await table.slash("map generate", channel=other, style="river-valley", seed=8)
    third = await table.db.battles.in_channel(table.discord.guild.id, other.id)
    assert third is not None and third.state["terrain"] != first
    undone = await table.gm_slash("gm undo")
    assert "Undone" in text_of(undone)


async def test_only_a_gm_generates_a_map(table: Table) -> None:
    await table.setup_battle()
    await refused(table, "map generate", "Only a GM can generate a map", user=table.alice, style="city", seed=1)
