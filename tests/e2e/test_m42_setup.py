"""Setting up an M42 battle through slash commands: walls, roads, floors, units of models, hand placement."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render import Geometry
from render.geometry import TITLE_HEIGHT_TWO_LINES
from rules.battle import Battle
from rules.coords import Cell, Edge
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.setup_helpers import refused, stored, stored_battle


@pytest.fixture
async def m42(table: Table) -> Table:
    """Return the table with a 20 by 12 M42 battle: woods, a wall, a road, a two-storey building."""
    await table.slash("battle new", name="Farmstead", ruleset="m42", width=20, height=12)
    await table.slash("map paint", terrain="woods", **{"from": "H1"}, to="J6")
    await table.slash("map edge", edges="K1-K6:e", obstacle="wall", height=2.0)
    await table.slash("map road", **{"from": "A10"}, to="T10")
    await table.slash("map paint", terrain="building", **{"from": "P3"}, to="R5")
    await table.slash("map floors", **{"from": "P3"}, to="R5", floors=2)
    await table.slash("map edge", edges="O4|P4", obstacle="wall", height=4.0, opening=1.0)
    return table


async def test_the_gm_lays_out_walls_roads_and_floors(m42: Table) -> None:
    battle = await stored_battle(m42)
    assert battle.ruleset_id == "m42"
    assert all(battle.edges[Edge.parse(f"K{n}|L{n}")].height == 2 for n in range(1, 7))
    assert battle.edges[Edge.parse("O4|P4")].opening == 1
    assert battle.square_state(Cell.parse("C10"))["road"] is True
    assert battle.square_state(Cell.parse("Q4"))["floors"] == 2


async def test_edge_reply_says_what_stands_where(table: Table) -> None:
    await table.slash("battle new", name="Walls", ruleset="m42", width=10, height=10)
    reply = await table.slash("map edge", edges="C3:n,C3:e", obstacle="hedge", height=1.5)
    text = text_of(reply)
    assert 'Hedge 1.5" tall on 2 sides: C2|C3, C3|D3' in text
    assert last_message(reply).files[0].filename == "map.png"
    cleared = await table.slash("map edge", edges="C2|C3", obstacle="none")
    assert "Obstacles taken off 1 side: C2|C3" in text_of(cleared)
    assert list((await stored_battle(table)).edges) == [Edge.parse("C3|D3")]


async def test_an_edge_on_a_square_that_does_not_exist_is_refused(m42: Table) -> None:
    await refused(m42, "map edge", "The edge T5|U5 touches U5, which is off the map; this map runs from A1 to T12",
                  edges="T5:e")
    await refused(m42, "map floors", "only buildings and ruins have floors", **{"from": "A1"}, floors=2)


async def test_unit_add_places_the_leader_and_its_models_legally(m42: Table) -> None:
    reply = await m42.slash("unit add", name="Alpha", side="Red", at="C3", owner=m42.alice, ld=2, models=5)
    text = text_of(reply)
    assert "Alpha (Red) placed on C3" in text and "its other models on" in text
    unit = (await stored_battle(m42)).unit("Alpha")
    assert unit.size == 5 and len(unit.models) == 4 and unit.ld == 2
    assert all((m.x - 2) ** 2 + (m.y - 2) ** 2 <= 4 for m in unit.models)  # fully within 2 x Ld = 4"


async def test_a_strategic_stat_is_refused_for_an_m42_unit(m42: Table) -> None:
    await refused(m42, "unit add", "/unit add's `ag` option is an option of Strategic Combat Rules battles; this "
                  "battle plays M42 Movement & Terrain. An M42 unit takes `ld` and `models`",
                  name="Alpha", side="Red", at="C3", ag=40)


async def test_hand_placement_and_a_refusal_drawn_with_the_legal_squares(m42: Table) -> None:
    await m42.slash("unit add", name="Alpha", side="Red", at="F3", owner=m42.alice, ld=2, models=3)
    placed = await m42.slash("place", user=m42.alice, unit="Alpha", models="E3 G3")
    assert "Alpha's models now stand on E3, G3" in text_of(placed)
    assert [str(m) for m in (await stored_battle(m42)).unit("Alpha").models] == ["E3", "G3"]
    # I3 is 3" into the woods from a leader outside them: beyond 1 x Ld = 2" (004:L38).
    reply = await refused(m42, "place", "cannot stand on I3: its base would reach 3\" from the leader's, beyond the "
                          "limit here, into area terrain from outside it: 1 x Ld = 2\" (004:L38)",
                          user=m42.alice, unit="Alpha", models="E3 I3")
    message = last_message(reply)
    assert message.files and message.files[0].filename == "legal.png"
    image = Image.open(io.BytesIO(message.files[0].data)).convert("RGB")
    assert image.width > 100
    battle = await stored_battle(m42)
    assert "H3" in text_of(reply) and "I3" not in text_of(reply).split("Legal squares now:")[1]
    # H3 (woods, 2") and C3 (open, 3") are tinted; I3 (woods, 3") and L3 (open, far) are not.
    assert _probe(image, battle, "H3") != _probe(image, battle, "I3")
    assert _probe(image, battle, "C3") != _probe(image, battle, "L3")
    assert _probe(image, battle, "I3") == _probe(image, battle, "J3")


def _probe(image: Image.Image, battle: Battle, label: str) -> tuple[int, int, int]:
    """Return a pixel near the middle of a square of the whole-map render (clear of its outline and token)."""
    cell = Cell.parse(label)
    left, top, _, _ = Geometry.build(battle.width, battle.height, title_height=TITLE_HEIGHT_TWO_LINES).cell_box(
        cell.x, cell.y)
    return image.getpixel((left + 6, top + 6))  # type: ignore[return-value]


async def test_a_player_may_not_place_someone_elses_models(m42: Table) -> None:
    await m42.slash("unit add", name="Alpha", side="Red", at="F3", owner=m42.alice, ld=2, models=3)
    await refused(m42, "place", "Alpha", user=m42.bob, unit="Alpha", models="E3 G3")


async def test_map_import_refuses_an_edge_off_the_map(m42: Table) -> None:
    text = "....\n....\n[edges]\nD2|E2 wall height=2\n"
    await refused(m42, "map import", "Line 4: the edge D2|E2 touches E2, which is not on this 4x2 map",
                  file=("bad.txt", text.encode()))


async def test_map_export_writes_roads_floors_and_edges_that_import_back(m42: Table) -> None:
    reply = await m42.slash("map export")
    exported = last_message(reply).files[0].data.decode()
    assert "[road]" in exported and "[floors]" in exported
    assert "K1|L1 wall height=2 thickness=0.5 opening=0 openable=yes" in exported
    assert "O4|P4 wall height=4 thickness=0.5 opening=1 openable=yes" in exported
    before = await stored_battle(m42)
    await m42.slash("map import", file=("farm.txt", exported.encode()))
    after = await stored_battle(m42)
    assert after.edges == before.edges and after.terrain == before.terrain
    assert after.square_state(Cell.parse("Q4")) == {"floors": 2}


async def test_roads_are_refused_in_a_ruleset_without_them(table: Table) -> None:
    await table.slash("battle new", name="Plain", ruleset="strategic-e", width=10, height=10)
    await refused(table, "map road", "/map road is a command of M42 Movement & Terrain battles; this battle plays "
                  "Strategic Combat Rules.", **{"from": "A1"}, to="C1")


async def test_the_largest_unit_fits_every_reply(table: Table) -> None:
    """30 models and Ld 12 on a 100x100 map: the add, the card, the Command Radius, a refusal and My options stay
    within Discord's limits (the stand-in refuses any message over them)."""
    await table.slash("battle new", name="Horde", ruleset="m42", width=100, height=100)
    await table.slash("map paint", terrain="woods", **{"from": "A1"}, to="CV40")
    added = await table.slash("unit add", name="Legion of the Long Name", side="Red", at="AX50", owner=table.alice,
                              ld=12, models=30)
    assert "and 17 more" in text_of(added)
    card = await table.slash("unit info", unit="Legion of the Long Name")
    assert "Models (29 besides the leader)" in text_of(card)
    radius = await table.slash("radius", user=table.alice, unit="Legion of the Long Name")
    assert last_message(radius).files
    far = await refused(table, "place", "Legal squares now:", user=table.alice, unit="Legion of the Long Name",
                        models="A100")
    assert "more." in text_of(far) and len(last_message(far).content) <= 2000
    await table.slash("unit add", name="Watcher", side="Blue", at="A1", ld=1, models=1)  # a battle needs two sides
    await table.slash("battle start")
    record = await stored(table)
    from tests.e2e.turn_helpers import posted, prompts

    [prompt] = prompts(posted(table))
    options = await table.click(prompt, f"bp:opts:{record.id}:Legion of the Long Name", user=table.alice)
    assert "Command Radius" in text_of(options)


async def test_unit_edit_changes_ld_and_size_and_places_the_models_again(m42: Table) -> None:
    await m42.slash("unit add", name="Alpha", side="Red", at="C3", owner=m42.alice, ld=2, models=3)
    edited = await m42.slash("unit edit", unit="Alpha", stats="ld=3 models=6")
    assert "Alpha: changed ld, models" in text_of(edited)
    alpha = (await stored_battle(m42)).unit("Alpha")
    assert alpha.ld == 3 and len(alpha.models) == 5
    await refused(m42, "unit edit", "`ws` is not an M42 stat", unit="Alpha", ws=40)
