"""Map files: the text format, its errors, and the import-map order."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.battle import Battle
from rules.coords import Cell
from rules.errors import IllegalOrderError, InvalidOrderError
from rules.orders import ImportMap, Order, Paint
from rules.ruleset import get_ruleset
from rules.systems.strategic.actions.features import PlaceFeature
from rules.systems.strategic.mapfile import format_map, map_flags, parse_map
from tests.rules.conftest import add, dice

P = get_ruleset("strategic-p")
E = get_ruleset("strategic-e")

CROSSING = """\
# battlepost map: Crossing
# ruleset: strategic-p
# legend: . plain, F forest, R rough, s shallows, ~ water, I ice, U urban, B bridge
..FFF.~~
..FFFs~B
UU...s~~
[deep]
......x.
......x.
.......x
"""


def test_parse_a_map_with_legend_and_layer() -> None:
    data = parse_map(CROSSING, P)
    assert (data.width, data.height) == (8, 3)
    assert data.terrain[:8] == ["plain", "plain", "forest", "forest", "forest", "plain", "water", "water"]
    assert data.terrain[7 + 8] == "bridge"
    assert data.flags == {"G1": {"deep": True}, "G2": {"deep": True}, "H3": {"deep": True}}


def test_no_legend_uses_the_ruleset_characters() -> None:
    data = parse_map("..M\n~~U\n", E)
    assert data.terrain == ["plain", "plain", "mountain", "water", "water", "urban"]


def test_a_legend_may_use_its_own_characters_and_names() -> None:
    data = parse_map("# legend: T Forest, _ plain, w River/Water\nT_w\n", E)
    assert data.terrain == ["forest", "plain", "water"]


def test_storm_layer_in_e_scale() -> None:
    data = parse_map("...\n...\n[storm]\n.x.\nX..\n", E)
    assert data.flags == {"B1": {"storm": True}, "A2": {"storm": True}}


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("..Q\n", r"^Line 1, column 3: `Q` is not in the legend. Allowed: `.` plain, `F` forest"),
        ("# legend: . plain\n..\n.F\n", r"^Line 3, column 2: `F` is not in the legend. Allowed: `.` plain\."),
        ("...\n..\n", r"^Line 2: this map line has 2 squares but the first one \(line 1\) has 3"),
        ("." * 101 + "\n", "1 to 100 squares each way; this one is 101x1"),
        ("\n".join(["."] * 101), "this one is 1x101"),
        ("# only a comment\n", "no grid"),
        ("..\n[fog]\n..\n", r"^Line 2: `\[fog\]` is not a layer; a map file may have \[storm\], \[rain\], \[deep\]"),
        ("..\n[storm]\n..\n..\n", r"^Line 4: the \[storm\] layer has 2 lines; it needs 1"),
        ("..\n[storm]\n", r"^Line 2: the \[storm\] layer has 0 lines"),
        ("..\n[storm]\n...\n", r"^Line 3: this \[storm\] line has 3 squares"),
        ("..\n[storm]\n.o\n", r"^Line 3, column 2: `o` is not a \[storm\] mark. Allowed: `.` \(none\) and `x`"),
        ("F~\n[deep]\nx.\n", r"^Line 3, column 1: deep water can only be marked on water, not on Forest"),
        ("..\n[storm]\n..\n[storm]\n..\n", r"^Line 4: the \[storm\] layer appears twice"),
        ("[storm]\n..\n", r"^Line 1: the terrain grid must come before"),
        ("# ruleset: strategic-e\n..\n", r"^Line 1: this map was written for `strategic-e`"),
        ("# legend: . plain, L lava\n..\n", r"^Line 1: There is no terrain `lava`"),
        ("# legend: # plain\n..\n", r"^Line 1: `#` cannot stand for a terrain"),
        ("# legend: . plain, . forest\n..\n", r"^Line 1: the legend gives `.` to both plain and forest"),
        ("# legend: F\nF\n", r"^Line 1: the legend gives `F` no terrain"),
        (" ..\n", r"^Line 1, column 1: ` ` is not in the legend"),
    ],
)
def test_bad_map_files(text: str, fragment: str) -> None:
    with pytest.raises(InvalidOrderError, match=fragment):
        parse_map(text, P)


def test_deep_water_may_lie_under_ice_and_bridges() -> None:
    """A33, A31: the water under Ice or a Bridge may be deep once it melts or falls."""
    assert parse_map("IB\n[deep]\nxx\n", P).flags == {"A1": {"deep": True}, "B1": {"deep": True}}


def test_format_round_trips(battle_p: Battle) -> None:
    battle_p.apply(ImportMap(text=CROSSING), dice())
    text = format_map(battle_p)
    data = parse_map(text, P)
    assert data.terrain == battle_p.terrain and data.flags == map_flags(battle_p)
    assert "# legend: . plain, F forest, R rough, s shallows, ~ water, I ice, U urban, B bridge" in text


terrain_keys = st.sampled_from(sorted(E.terrain))


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 12), st.integers(1, 12), st.data())
def test_any_map_round_trips(width: int, height: int, data: st.DataObject) -> None:
    battle = Battle.new("strategic-e", width, height)
    battle.terrain = data.draw(st.lists(terrain_keys, min_size=width * height, max_size=width * height))
    for y in range(height):
        for x in range(width):
            cell = Cell(x, y)
            if data.draw(st.booleans()):
                battle.square(cell)["storm"] = True
            if battle.terrain_at(cell).water and data.draw(st.booleans()):
                battle.square(cell)["deep"] = True
    parsed = parse_map(format_map(battle), E)
    assert (parsed.width, parsed.height, parsed.terrain) == (width, height, battle.terrain)
    assert parsed.flags == map_flags(battle)


# --- the import-map order ------------------------------------------------------------------------


def test_import_replaces_terrain_size_and_flags(battle_e: Battle) -> None:
    battle_e.square(Cell(5, 5))["storm"] = True
    battle_e.square(Cell(6, 6)).update(storm=True, smoke=1)
    version = battle_e.map_version
    out = battle_e.apply(ImportMap(text="FFM\n~~U\n[storm]\nx..\n...\n"), dice())
    assert (battle_e.width, battle_e.height) == (3, 2) and battle_e.map_version == version + 1
    assert battle_e.terrain == ["forest", "forest", "mountain", "water", "water", "urban"]
    assert battle_e.cells == {"A1": {"storm": True}}  # old storms replaced; squares off the new map dropped
    assert out.details.to_dict() == {"width": 3, "height": 2, "storm": 1, "deep": 0, "rain": 0}


def test_import_keeps_other_square_state(battle_e: Battle) -> None:
    battle_e.square(Cell(0, 0)).update(storm=True, smoke=2)
    battle_e.apply(ImportMap(text="..\n..\n"), dice())
    assert battle_e.cells == {"A1": {"smoke": 2}}


def test_import_refuses_to_strand_a_unit(battle_e: Battle) -> None:
    add(battle_e, "Eva", "NERV", "E5")
    before = battle_e.to_dict()
    with pytest.raises(IllegalOrderError, match="Eva stands on E5, outside the new 3x3 map"):
        battle_e.apply(ImportMap(text="...\n...\n...\n"), dice())
    assert battle_e.to_dict() == before


def test_import_refuses_a_feature_on_wrong_ground(battle_p: Battle) -> None:
    battle_p.ensure_side("Red").fp_override = 5
    battle_p.apply(PlaceFeature(feature="minefield", side="Red", at=Cell(1, 0)), dice())
    before = battle_p.to_dict()
    with pytest.raises(IllegalOrderError, match=r"B1 holds a Minefield.*makes it Rough"):
        battle_p.apply(ImportMap(text="RR\n..\n"), dice())
    assert battle_p.to_dict() == before
    with pytest.raises(IllegalOrderError, match="B1 holds a Minefield, outside the new map"):
        battle_p.apply(ImportMap(text=".\n"), dice())
    battle_p.apply(ImportMap(text=".F\n..\n"), dice())
    assert battle_p.square_state(Cell(1, 0))["feature"] == "minefield"


def test_bad_file_changes_nothing(battle_p: Battle) -> None:
    battle_p.apply(Paint(terrain="forest", frm=Cell(0, 0)), dice())
    before = battle_p.to_dict()
    with pytest.raises(InvalidOrderError, match="Line 2"):
        battle_p.apply(ImportMap(text="...\n.Z.\n"), dice())
    assert battle_p.to_dict() == before


def test_import_map_order_round_trips_with_newlines() -> None:
    order = ImportMap(text=CROSSING)
    assert Order.parse(str(order)) == order


def test_import_then_undo(battle_p: Battle) -> None:
    before = battle_p.to_dict()
    battle_p.apply(ImportMap(text=CROSSING), dice())
    battle_p.undo()
    assert battle_p.to_dict() == before
