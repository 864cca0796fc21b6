"""Hostile files of every kind a user can send: each is refused privately, naming what and where, changing nothing.

Python's JSON and TOML readers recurse once per level of nesting, and a Tiled map's group layers are opened
one inside another; the one bounded reader refuses such files before any of that runs, and a value of the
wrong type in a tileset is named rather than crashing the import.
"""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

from tests.e2e.conftest import Table, text_of
from tests.e2e.setup_helpers import refused


def answered_privately(text: str) -> None:
    """Check a refusal says what was wrong rather than apologising for a crash."""
    assert "Sorry, something went wrong" not in text, text


def tiled(layers: list[dict[str, Any]], tilesets: list[dict[str, Any]] | None = None) -> bytes:
    """Return a 3x2 Tiled map with these layers and one embedded tileset unless others are given."""
    return json.dumps({
        "type": "map", "orientation": "orthogonal", "infinite": False, "width": 3, "height": 2, "layers": layers,
        "tilesets": tilesets if tilesets is not None else [
            {"firstgid": 1, "name": "t", "tilecount": 1,
             "tiles": [{"id": 0, "properties": [{"name": "terrain", "type": "string", "value": "plain"}]}]}],
    }).encode()


def ground() -> dict[str, Any]:
    """Return a tile layer covering the 3x2 map with tile 1."""
    return {"type": "tilelayer", "name": "Ground", "width": 3, "height": 2, "data": [1] * 6}


async def map_battle(table: Table) -> None:
    await table.slash("battle new", name="Crossing", ruleset="strategic-p", width=10, height=10)


async def test_a_tiled_map_a_hundred_thousand_levels_deep(table: Table) -> None:
    await map_battle(table)
    raw = b'{"type": "map", "layers": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    reply = await refused(table, "map import", "100,001 levels deep", file=("deep.tmj", raw))
    answered_privately(text_of(reply))


async def test_five_thousand_nested_group_layers(table: Table) -> None:
    await map_battle(table)
    # Written as text: building it as nested dicts would overflow the test's own JSON writer.
    group = '{"type": "group", "name": "g", "layers": ['
    nested = group * 5_000 + json.dumps(ground()) + "]}" * 5_000
    raw = tiled([]).replace(b'"layers": []', b'"layers": [' + nested.encode() + b"]")
    reply = await refused(table, "map import", "levels deep", file=("groups.tmj", raw))
    assert "Line 1" in text_of(reply) and "`groups.tmj`" in text_of(reply)


async def test_a_tileset_tile_whose_id_is_not_a_number(table: Table) -> None:
    await map_battle(table)
    tsx = b'<?xml version="1.0"?><tileset name="x" tilecount="1"><tile id="abc"/></tileset>'
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("map.tmj", tiled([ground()], [{"firstgid": 1, "source": "x.tsx"}]))
        z.writestr("x.tsx", tsx)
    reply = await refused(table, "map import", '`x.tsx`, tile #1: <tile id=...> is "abc"',
                          file=("map.zip", archive.getvalue()))
    answered_privately(text_of(reply))


async def test_a_tileset_nesting_thousands_of_elements(table: Table) -> None:
    await map_battle(table)
    tsx = b'<tileset name="x">' + b"<a>" * 5_000 + b"</a>" * 5_000 + b"</tileset>"
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("map.tmj", tiled([ground()], [{"firstgid": 1, "source": "x.tsx"}]))
        z.writestr("x.tsx", tsx)
    await refused(table, "map import", "At <tileset/a/a/a/a/a/…>: the file nests elements more than 64 deep",
                  file=("map.zip", archive.getvalue()))


async def test_a_mapping_file_of_deep_arrays(table: Table) -> None:
    await map_battle(table)
    mapping = ("default = " + "[" * 5_000 + "]" * 5_000 + "\n").encode()
    await refused(table, "map import", "Line 1: the file nests lists or tables 5,000 levels deep",
                  file=("groups.tmj", tiled([ground()])), mapping=("map.toml", mapping))


async def test_a_homebrew_table_of_arrays_five_thousand_deep(table: Table) -> None:
    await table.setup_battle()
    text = '[[terrain]]\nkey = "bog"\nname = "Bog"\n\ncost = ' + "[" * 5_000 + "]" * 5_000 + "\n"
    await refused(table, "battle rules import", "Line 5: the file nests lists or tables 5,000 levels deep",
                  file=("bog.toml", text.encode()))


async def test_a_homebrew_table_nested_by_dotted_keys(table: Table) -> None:
    """Dotted keys nest tables with no bracket at all; the walk after reading still finds the depth."""
    await table.setup_battle()
    text = '[[terrain]]\nkey = "bog"\n' + ".".join(f"k{i}" for i in range(3_000)) + " = 1\n"
    await refused(table, "battle rules import", "levels deep; a homebrew table never goes deeper than 6",
                  file=("bog.toml", text.encode()))


async def test_a_forces_file_a_hundred_thousand_deep(table: Table) -> None:
    await table.slash("battle new", name="Landing", ruleset="surface")
    raw = b'{"ruleset": "surface", "forces": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    reply = await refused(table, "surface import", "100,001 levels deep", file=("forces.json", raw))
    answered_privately(text_of(reply))


async def test_stats_typed_as_deep_json(table: Table) -> None:
    await table.setup_battle()
    deep = '{"weapons": ' + "[" * 2_000 + "]" * 2_000 + "}"
    await refused(table, "unit edit", "levels deep", unit="Eva-01", stats=deep)


HUGE = "q" * 10_000


async def test_a_ten_thousand_character_name_in_a_homebrew_table(table: Table) -> None:
    await table.setup_battle()
    text = f'[[terrain]]\nkey = "bog"\nname = "{HUGE}"\n'
    reply = await refused(table, "battle rules import", "Line 3, at `terrain[0].name`: the file holds a text of "
                          "10,000 characters; a homebrew table never holds one over 2,000", file=("bog.toml", text.encode()))
    assert HUGE[:100] not in text_of(reply)
    short = f'[[terrain]]\nkey = "bog"\nname = "{HUGE[:1_000]}"\n'
    await refused(table, "battle rules import", "Line 3 ([[terrain]] #1 `bog`), field `name`: a name is 1 to 64 characters",
                  file=("bog.toml", short.encode()))


async def test_a_ten_thousand_character_name_in_a_forces_file(table: Table) -> None:
    await table.slash("battle new", name="Landing", ruleset="surface")
    for name, fragment in ((HUGE, "at `forces.Red[0].name`: the file holds a text of 10,000 characters"),
                           (HUGE[:1_000], "The unit name is 1000 characters long; keep it to 64 or fewer")):
        doc = {"ruleset": "surface", "forces": {"Red": [{"name": name, "owner": None, "stats": {"type": "grunts"}}]}}
        reply = await refused(table, "surface import", fragment, file=("forces.json", json.dumps(doc).encode()))
        assert HUGE[:100] not in text_of(reply)


async def test_a_ten_thousand_character_layer_and_tileset_name_in_a_tiled_map(table: Table) -> None:
    await map_battle(table)
    layer = dict(ground(), name=HUGE, data=[2] * 6)
    reply = await refused(table, "map import", "uses tile 2, which no tileset of the map holds",
                          file=("long.tmj", tiled([layer])))
    assert HUGE[:100] not in text_of(reply)
    missing = tiled([ground()], [{"firstgid": 1, "source": HUGE + ".tsx"}])
    reply = await refused(table, "map import", "which was not sent with it", file=("long.tmj", missing))
    assert HUGE[:100] not in text_of(reply)
