"""Homebrew terrain and features through slash commands: imported by the GM, listed, painted and built like
built-ins, the combination rules applied, kept through a restart and undone by /gm undo; bad tables refused."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.mapview import build_view
from render.geometry import Geometry
from rules.coords import Cell
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.setup_helpers import EXAMPLES, gm_imports_homebrew, refused, stored, stored_battle

VOLCANIC = EXAMPLES / "homebrew" / "volcanic.toml"
LAVA = (200, 70, 30)


def table_file(text: str | None = None, name: str = "volcanic.toml") -> tuple[str, bytes]:
    """Return a homebrew attachment (the example file unless a text is given)."""
    return (name, (text if text is not None else VOLCANIC.read_text(encoding="utf-8")).encode())


@pytest.fixture
async def p_battle(table: Table) -> Table:
    """Return the table with a P-Scale battle: Red has 8 feature points and a scout for alice."""
    await table.slash("battle new", name="Volcano Pass", ruleset="strategic-p", width=12, height=10)
    await table.slash("unit add", name="Scout", side="Red", at="C3", owner=table.alice, ag=40)
    await table.slash("feature points", side="Red", value=8)
    return table


async def test_gm_imports_a_table_and_it_is_listed(p_battle: Table) -> None:
    table = p_battle
    text = await gm_imports_homebrew(table, table_file())
    assert "Homebrew imported from volcanic.toml" in text
    assert "Lava Field (`L`), Crater (`C`)" in text and "Watchtower (3 FP)" in text
    shown = await table.slash("battle rules show", user=table.bob)
    listing = text_of(shown)
    assert all(m.ephemeral for m in shown.messages)
    assert "`dtv_combine_bonus` = **1**" in listing
    assert "**Lava Field** (`lava`, map `L`): DTV 3, AP 0, hit penalty +0, low ground, no hiding" in listing
    assert "**Watchtower** (`watchtower`, WT): cost 3 FP, Cover AP 8, DTV 0, hit penalty \u221210; on Plain, " \
           "Forest, Urban, Lava Field" in listing
    offered = await table.discord.autocomplete("map paint", "terrain", "lav", user=table.gm, channel=table.channel)
    assert [c["value"] for c in offered] == ["lava"]
    buyable = await table.discord.autocomplete("feature place", "type", "watch", user=table.gm, channel=table.channel)
    assert [c["value"] for c in buyable] == ["watchtower"]
    features = await table.slash("feature list", user=table.alice)
    assert "Tank Traps (TT, 2 FP), Watchtower (WT, 3 FP)" in text_of(features)
    assert table.discord.rejections == []


async def test_homebrew_is_painted_built_and_combined_like_built_ins(p_battle: Table) -> None:
    """000:L89: Tank Traps (DTV 2) over Rough (DTV 4) give DTV 5: the Scout's Agility test shows -25."""
    table = p_battle
    await table.slash("battle rules import", file=table_file())
    painted = await table.slash("map paint", terrain="Lava Field", **{"from": "E5"}, to="F6")
    assert "Lava Field" in text_of(painted)
    battle = await stored_battle(table)
    view = build_view(battle)
    box = Geometry.for_view(view).local_box(4, 4)
    image = Image.open(io.BytesIO(last_message(painted).files[0].data)).convert("RGB")
    geometry = Geometry.for_view(view)
    left, top = geometry.grid_left + box[0], geometry.grid_top + box[1]
    pixels = [image.getpixel((left + dx, top + dy)) for dx in range(2, geometry.cell_px - 2, 3)
              for dy in range(2, geometry.cell_px - 2, 3)]
    assert sum(p == LAVA for p in pixels) > len(pixels) // 2, "the lava square is drawn in its own colour"
    await table.slash("map paint", terrain="rough", **{"from": "C3"})
    built = await table.slash("feature place", type="Tank Traps", at="C3", side="Red")
    assert "Tank Traps" in text_of(built)
    await table.slash("unit add", name="Lookout", side="Blue", at="L10", ag=30)  # a battle needs two sides
    await table.slash("battle start")
    test = await table.slash("act", user=table.alice, unit="Scout", stat="ag")
    assert "Difficult terrain (DTV 5)" in text_of(test) and "\u221225" in text_of(test)
    await table.slash("feature place", type="watchtower", at="E5", side="Red")  # refused: the battle has begun
    assert (await stored_battle(table)).square_state(Cell.parse("E5")).get("feature") is None


async def test_homebrew_survives_a_restart_and_undo_takes_it_back(p_battle: Table) -> None:
    table = p_battle
    await table.slash("battle rules import", file=table_file())
    await table.slash("map paint", terrain="crater", **{"from": "A1"})
    await table.restart()
    again = await table.slash("map paint", terrain="lava", **{"from": "B1"})
    assert not last_message(again).ephemeral
    assert (await stored_battle(table)).terrain_at(Cell.parse("A1")).name == "Crater"
    await table.gm_slash("gm undo", count=3)
    battle = await stored_battle(table)
    assert battle.homebrew == {} and "lava" not in battle.ruleset.terrain
    await refused(table, "map paint", "There is no terrain `lava`", terrain="lava", **{"from": "B1"})


@pytest.mark.parametrize(("text", "name", "fragment"), [
    ("[[feature]]\nkey = \"wall\"\nname = \ncost = 2\n", "bad.toml", "not valid TOML: Invalid value (at line 3"),
    ("[[feature]]\nkey = \"pit\"\nname = \"Pit\"\nlabel = \"P\"\ncost = -1\nterrain = [\"plain\"]\n", "bad.toml",
     "Line 5 ([[feature]] #1 `pit`), field `cost`: -1 is negative"),
    ("[[feature]]\nkey = \"pit\"\nname = \"Pit\"\nlabel = \"P\"\ncost = 1\nterrain = [\"bog\"]\n", "bad.toml",
     "Line 6 ([[feature]] #1 `pit`), field `terrain`: `bog` is not a terrain of this battle"),
    ("[[terrain]]\nkey = \"rough\"\nname = \"Scree\"\nchar = \"S\"\n", "bad.toml",
     "Line 2 ([[terrain]] #1 `rough`), field `key`: `rough` is a built-in terrain"),
    ("[[terrain]]\nkey = \"scree\"\nname = \"Scree\"\nchar = \"S\"\n", "scree.txt", "is not a homebrew table"),
])
async def test_bad_tables_are_refused_and_change_nothing(p_battle: Table, text: str, name: str,
                                                         fragment: str) -> None:
    await refused(p_battle, "battle rules import", fragment, file=table_file(text, name))


async def test_a_table_over_256_kib_is_refused(p_battle: Table) -> None:
    big = "# padding\n" * (27 * 1024)
    await refused(p_battle, "battle rules import", "may be at most 256 KiB", file=table_file(big))
    assert (await stored(p_battle)).state.get("homebrew") is None
