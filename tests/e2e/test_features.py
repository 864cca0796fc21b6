"""/feature place, remove, points and list, and hidden traps on /map show, end to end."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from rules.outcome import Highlight
from rules.visibility import GM, Viewer
from tests.e2e.conftest import Table, embed_text, last_message, text_of
from tests.e2e.setup_helpers import refused, stored, stored_battle


@pytest.fixture
async def field(table: Table) -> Table:
    """Return a P-Scale battle in setup: forest, urban and water, NERV (alice, pool 8 FP) against the Angels (bob)."""
    await table.slash("battle new", name="Gora", ruleset="strategic-p", width=12, height=10)
    await table.slash("map paint", terrain="forest", **{"from": "A1"}, to="C3")
    await table.slash("map paint", terrain="urban", **{"from": "J8"}, to="L10")
    await table.slash("map paint", terrain="water", **{"from": "E1"}, to="E10")
    await table.slash("unit add", name="Eva-01", side="NERV", at="B5", owner=table.alice)
    await table.slash("unit add", name="Sachiel", side="Angels", at="K5", owner=table.bob)
    # A Supreme Commander with Intelligence 40 (IB 4) gives NERV 2 x 4 = 8 feature points.
    await table.slash("unit edit", unit="Eva-01", supreme_commander=True, **{"int": 40})
    return table


def public_texts(table: Table) -> str:
    """Return everything the bot posted publicly in the battle channel."""
    parts: list[str] = []
    for message in table.discord.world.messages_in(table.channel.id):
        parts.append(message.content)
        parts += [embed_text(e) for e in message.embeds]
    return "\n".join(parts)


async def test_a_player_places_a_minefield_in_public(field: Table) -> None:
    reply = await field.slash("feature place", user=field.alice, type="minefield", at="G5", side="NERV")
    message = last_message(reply)
    assert not message.ephemeral and message.files
    assert "NERV bought a Minefield (3 FP) on G5." in text_of(reply)
    battle = await stored_battle(field)
    nerv = battle.side("NERV")
    assert battle.cells["G5"]["feature"] == "minefield" and nerv is not None and nerv.fp_spent == 3


async def test_walls_lay_several_squares_in_one_purchase(field: Table) -> None:
    reply = await field.slash("feature place", type="barrier_walls", at="G2", side="NERV", cells="H2 I2")
    assert "NERV bought a Barrier Walls (2 FP) on G2, H2, I2." in text_of(reply)
    cells = (await stored_battle(field)).cells
    assert {k for k, v in cells.items() if v.get("feature") == "barrier_walls"} == {"G2", "H2", "I2"}


async def test_a_trap_is_secret_to_its_side(field: Table) -> None:
    table = field
    placed = await table.slash("feature place", user=table.alice, type="fire_trap", at="B2", side="NERV")
    assert last_message(placed).ephemeral and "NERV laid a hidden Fire Trap (3 FP) on B2" in text_of(placed)
    assert "Fire Trap" not in public_texts(table)
    assert (await stored_battle(table)).cells["B2"]["feature"] == "fire_trap"

    public = await table.slash("map show", user=table.carol)
    enemy = await table.slash("map show", user=table.bob)
    own = await table.slash("map show", user=table.alice)
    assert not last_message(public).ephemeral and not last_message(enemy).ephemeral
    assert last_message(own).ephemeral and "hidden features of NERV" in text_of(own)
    public_png, enemy_png, own_png = (last_message(r).files[0].data for r in (public, enemy, own))
    assert public_png == enemy_png and public_png != own_png

    # The same battle rendered both ways gives exactly those two images.
    battle = await stored_battle(table)
    highlight = Highlight(path=list(battle.last.path or ()) if battle.last else [])
    assert public_png == (await table.service.render(battle, highlight)).png
    assert own_png == (await table.service.render(battle, highlight, viewer=Viewer.of(["NERV"]))).png
    # The words under each map agree with it: only the trap's own side reads of the trap.
    public_alt, own_alt = (last_message(r).files[0].description or "" for r in (public, own))
    assert "Fire Trap" not in public_alt and "Units" in public_alt
    assert "Fire Trap (hidden from the other side): B2" in own_alt
    assert "Fire Trap (hidden from the other side)" in (await table.service.text_map(
        battle, viewer=Viewer.of(["NERV"]))).full()
    assert "Fire Trap" not in (await table.service.text_map(battle)).full()
    # The owner's legend may list its own hidden trap; the enemy's image is the public one, byte for byte.
    assert Image.open(io.BytesIO(own_png)).size[1] == Image.open(io.BytesIO(public_png)).size[1]

    gm_view = await table.slash("map show", hidden=True)
    assert last_message(gm_view).ephemeral
    assert last_message(gm_view).files[0].data == (await table.service.render(battle, highlight, viewer=GM)).png


async def test_only_the_gm_sees_every_hidden_feature(field: Table) -> None:
    await refused(field, "map show", "Only a GM can see every hidden feature", user=field.alice, hidden=True)


async def test_feature_list_shows_what_you_may_see(field: Table) -> None:
    table = field
    await table.slash("feature place", user=table.alice, type="fire_trap", at="B2", side="NERV")
    await table.slash("feature place", user=table.alice, type="minefield", at="G5", side="NERV")
    mine = await table.slash("feature list", user=table.alice)
    theirs = await table.slash("feature list", user=table.bob)
    assert last_message(mine).ephemeral and last_message(theirs).ephemeral
    assert "**B2** Fire Trap (NERV) · hidden" in text_of(mine) and "**G5** Minefield (NERV)" in text_of(mine)
    assert "pool **8** · spent 6 · left **2**" in text_of(mine)
    assert "Fire Trap" not in text_of(theirs) and "B2" not in text_of(theirs)
    assert "**G5** Minefield (NERV) · 5 triggers left" in text_of(theirs)
    # Bob sees neither NERV's pool nor what NERV spent: either tells how much NERV could have hidden.
    assert "NERV feature points" not in text_of(theirs) and "pool **8**" not in text_of(theirs)
    assert "Angels feature points" in text_of(theirs)
    gm = await table.slash("feature list")
    assert "Fire Trap" in text_of(gm) and "spent 6" in text_of(gm)


async def test_removing_a_feature_in_setup_refunds_it(field: Table) -> None:
    table = field
    await table.slash("feature place", user=table.alice, type="minefield", at="G5", side="NERV")
    reply = await table.slash("feature remove", user=table.alice, at="G5")
    assert "The Minefield (NERV) on G5 was removed; 3 FP go back to NERV." in text_of(reply)
    battle = await stored_battle(table)
    nerv = battle.side("NERV")
    assert "G5" not in battle.cells and nerv is not None and nerv.fp_spent == 0


async def test_a_trap_you_cannot_see_answers_like_an_empty_square(field: Table) -> None:
    table = field
    await table.slash("feature place", user=table.alice, type="fire_trap", at="B2", side="NERV")
    trap = await refused(table, "feature remove", "There is no feature on B2.", user=table.bob, at="B2")
    empty = await refused(table, "feature remove", "There is no feature on C2.", user=table.bob, at="C2")
    assert text_of(trap).replace("B2", "C2") == text_of(empty)
    removed = await table.slash("feature remove", user=table.alice, at="B2")
    assert last_message(removed).ephemeral, "taking a trap away is as secret as laying it"


async def test_someone_elses_feature_cannot_be_removed(field: Table) -> None:
    await field.slash("feature place", user=field.alice, type="minefield", at="G5", side="NERV")
    await refused(field, "feature remove", "Only the GM or a player commanding units of NERV", user=field.bob, at="G5")


async def test_gm_sets_a_pool_and_a_mission_adjustment(field: Table) -> None:
    table = field
    fixed = await table.slash("feature points", side="NERV", value=20)
    assert "NERV's feature point pool is fixed at **20 FP** by the GM." in text_of(fixed)
    adjusted = await table.slash("feature points", side="Angels", adjust=6)
    assert "Angels's feature point pool is the usual one +6 (mission adjustment): **6 FP**." in text_of(adjusted)
    battle = await stored_battle(table)
    angels, nerv = battle.side("Angels"), battle.side("NERV")
    assert angels is not None and nerv is not None
    assert (nerv.fp_override, angels.fp_adjust) == (20, 6)
    restored = await table.slash("feature points", side="NERV", adjust=0)
    assert "the usual one: **8 FP**" in text_of(restored)


async def test_points_need_a_value_or_an_adjustment(field: Table) -> None:
    await refused(field, "feature points", "Give `value` (a fixed pool) or `adjust`", side="NERV")


async def test_only_a_gm_sets_points(field: Table) -> None:
    await refused(field, "feature points", "Only a GM", user=field.alice, side="NERV", value=50)


async def test_over_budget_is_refused(field: Table) -> None:
    await refused(field, "feature place", "costs 3 FP, but Angels has 0 FP left", user=field.bob,
                  type="minefield", at="H5", side="Angels")


async def test_wrong_terrain_is_refused(field: Table) -> None:
    await refused(field, "feature place", "G5 is Plain, but a Fire Trap stands only on Forest", user=field.alice,
                  type="fire_trap", at="G5", side="NERV")


async def test_a_second_feature_on_a_square_is_refused(field: Table) -> None:
    await field.slash("feature place", user=field.alice, type="minefield", at="G5", side="NERV")
    await refused(field, "feature place", "G5 already holds a feature, and no square may have more than one", user=field.alice,
                  type="trench", at="G5", side="NERV")


async def test_a_player_cannot_buy_for_another_side(field: Table) -> None:
    await refused(field, "feature place", "Only the GM or a player commanding units of NERV", user=field.bob,
                  type="minefield", at="G5", side="NERV")


async def test_features_belong_to_the_placement_phase(field: Table) -> None:
    await field.slash("battle start")
    await refused(field, "feature place", "only before the battle begins; this battle is already active",
                  user=field.alice, type="minefield", at="G5", side="NERV")


async def test_e_scale_has_no_features(table: Table) -> None:
    await table.setup_battle()  # an E-Scale battle
    await refused(table, "feature place", "has no artificial features", type="minefield", at="G5", side="NERV")
    await refused(table, "feature list", "has no artificial features", user=table.alice)
    await refused(table, "feature points", "has no artificial features", side="NERV", value=5)
    await refused(table, "feature remove", "has no artificial features", at="A1")


async def test_feature_and_side_autocomplete(field: Table) -> None:
    table = field
    features = await table.discord.autocomplete("feature place", "type", "", user=table.alice, channel=table.channel)
    names = {c["value"]: c["name"] for c in features}
    assert set(names) == {"barrier_walls", "trench", "minefield", "temporary_bridge", "bakelite_trap", "fire_trap"}
    assert names["fire_trap"] == "Fire Trap: 3 FP, on Forest, hidden"
    assert names["barrier_walls"].startswith("Barrier Walls: 2 FP, on ") and "up to 3 squares" in names["barrier_walls"]
    sides = await table.discord.autocomplete("feature place", "side", "", user=table.bob, channel=table.channel)
    assert [c["value"] for c in sides] == ["Angels", "NERV"] and "yours" in sides[0]["name"]


async def test_feature_orders_are_logged_and_version_moves(field: Table) -> None:
    before = (await stored(field)).version
    await field.slash("feature place", user=field.alice, type="fire_trap", at="B2", side="NERV")
    assert (await stored(field)).version == before + 1


async def test_remove_off_the_map(field: Table) -> None:
    await refused(field, "feature remove", "Z40 is off the map", user=field.alice, at="Z40")
