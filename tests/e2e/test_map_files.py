"""/map import and /map export: text map files in and out, end to end."""

from __future__ import annotations

import pytest

from rules.coords import Cell
from rules.systems.strategic.mapfile import format_map
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.setup_helpers import refused, stored, stored_battle

GORA = """\
# battlepost map: Crossing at Gora
# ruleset: strategic-p
# legend: . plain, F forest, R rough, s shallows, ~ water, I ice, U urban, B bridge
..FFF.....~~..
..FFF....s~~s.
.........s~B~s
UU......RR~~..
UU......RR~~..
[deep]
..........xx..
..........x...
............x.
..........xx..
..........xx..
"""


def map_file(text: str, name: str = "gora.txt") -> tuple[str, bytes]:
    """Return a map attachment."""
    return (name, text.encode())


@pytest.fixture
async def p_battle(table: Table) -> Table:
    """Return the table with an empty P-Scale battle, 10 by 10."""
    await table.slash("battle new", name="Crossing", ruleset="strategic-p", width=10, height=10)
    return table


async def test_import_replaces_terrain_size_and_deep_water(p_battle: Table) -> None:
    table = p_battle
    reply = await table.slash("map import", file=map_file(GORA))
    message = last_message(reply)
    assert not message.ephemeral and message.files[0].filename == "map.png"
    text = text_of(reply)
    assert "Map imported from gora.txt" in text
    assert "New map: 14×5 squares, 8 deep-water squares, no storm squares." in text
    record = await stored(table)
    assert (record.state["width"], record.state["height"]) == (14, 5)
    assert record.state["terrain"][2] == ".........s~B~s"
    battle = await stored_battle(table)
    assert battle.cells["K1"] == {"deep": True}
    assert battle.terrain_at(Cell.parse("L3")).key == "bridge"


async def test_export_attaches_the_map_file_and_it_imports_back(p_battle: Table) -> None:
    table = p_battle
    await table.slash("map import", file=map_file(GORA))
    await table.slash("map paint", terrain="urban", **{"from": "F1"}, to="G2")
    exported = await table.slash("map export", user=table.carol)
    message = last_message(exported)
    assert message.ephemeral and "bring it back with /map import" in text_of(exported)
    (file,) = message.files
    assert file.filename == "crossing-map.txt"
    battle = await stored_battle(table)
    assert file.data.decode() == format_map(battle)
    before = await stored(table)
    again = await table.slash("map import", file=(file.filename, file.data))
    assert "New map: 14×5 squares, 8 deep-water squares" in text_of(again)
    after = await stored(table)
    assert after.version == before.version + 1
    assert after.state["terrain"] == before.state["terrain"] and after.state["cells"] == before.state["cells"]


async def test_a_bad_character_names_line_and_column(p_battle: Table) -> None:
    bad = GORA.replace("UU......RR~~..\nUU......", "UU......RR~~..\nUUQ.....", 1)
    await refused(p_battle, "map import", "Line 8, column 3: `Q` is not in the legend. Allowed: `.` plain",
                  file=map_file(bad))


async def test_a_ragged_line_names_its_line(p_battle: Table) -> None:
    bad = GORA.replace("..FFF....s~~s.", "..FFF....s~~s", 1)
    await refused(p_battle, "map import", "Line 5: this map line has 13 squares but the first one (line 4) has 14",
                  file=map_file(bad))


async def test_a_map_for_the_other_scale(p_battle: Table) -> None:
    bad = GORA.replace("# ruleset: strategic-p", "# ruleset: strategic-e")
    await refused(p_battle, "map import", "Line 2: this map was written for `strategic-e`", file=map_file(bad))


async def test_a_unit_off_the_new_map_is_refused(p_battle: Table) -> None:
    await p_battle.slash("unit add", name="Eva-01", side="NERV", at="B9")
    await refused(p_battle, "map import", "Eva-01 stands on B9, outside the new 14x5 map", file=map_file(GORA))


async def test_only_a_gm_imports_a_map(p_battle: Table) -> None:
    await refused(p_battle, "map import", "Only a GM can import a map", user=p_battle.alice, file=map_file(GORA))


async def test_a_map_file_with_the_wrong_extension(p_battle: Table) -> None:
    await refused(p_battle, "map import", "is not a map battlepost reads: attach a `.txt`, `.map`, `.tmj`",
                  file=map_file(GORA, "gora.docx"))


async def test_a_map_file_that_is_not_utf8(p_battle: Table) -> None:
    await refused(p_battle, "map import", "is not UTF-8 text", file=("gora.txt", b"..\xff\xfe..\n"))


async def test_a_map_file_too_big(p_battle: Table) -> None:
    await refused(p_battle, "map import", "may be at most 256 KiB", file=("huge.txt", b"." * 300_000))


async def test_paint_autocomplete_names_the_map_character(p_battle: Table) -> None:
    choices = await p_battle.discord.autocomplete("map paint", "terrain", "for", user=p_battle.gm,
                                                  channel=p_battle.channel)
    assert [c["value"] for c in choices] == ["forest"]
    assert choices[0]["name"].startswith("Forest (`F` in map files")
