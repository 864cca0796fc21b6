"""/map show views, the Whole map button, alt text on every map, and /map text, end to end."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from loopback.limits import MAX_FILE_DESCRIPTION
from render import Geometry
from rules.battle import MAX_UNITS, Battle
from rules.coords import Cell
from rules.dice import Dice
from rules.orders import AddUnit
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.setup_helpers import refused, stored, stored_battle
from tests.e2e.turn_helpers import end_turn

LONG = "The Very Long Named Regiment of the Hakone Defence Line"


def image_of(reply_message: object) -> Image.Image:
    """Decode the map attached to a message."""
    return Image.open(io.BytesIO(reply_message.files[0].data))  # type: ignore[attr-defined]


@pytest.fixture
async def big(table: Table) -> Table:
    """Return the table with a 60x40 battle under way: two NERV units for alice, an Angel far away."""
    await table.slash("battle new", name="Wide Front", ruleset="strategic-e", width=60, height=40)
    await table.slash("unit add", name="Eva-01", side="NERV", at="C3", owner=table.alice, ag=45, bs=40)
    await table.slash("unit add", name="Eva-00", side="NERV", at="C3", owner=table.alice, ag=40)
    await table.slash("unit add", name="Sachiel", side="Angels", at="BA30", ag=38)
    await table.slash("turn mode", mode="free")
    await table.slash("battle start")
    return table


async def test_every_map_post_carries_alt_text_and_a_crop_has_a_whole_map_button(big: Table) -> None:
    moved = await big.slash("move", user=big.alice, unit="Eva-01", to="E3", mode="half")
    message = last_message(moved)
    alt = message.files[0].description or ""
    assert 0 < len(alt) <= MAX_FILE_DESCRIPTION
    assert alt.startswith("Map of Wide Front") and "Eva-01 (E01) moved from C3 to E3 by D3 (2 steps)." in alt
    assert "Eva-00 (E00), NERV, commanded by alice: on C3" in alt, "the other unit in view, with its player"
    record = await stored(big)
    assert f"bp:map:{record.id}" in message.custom_ids(), "a crop of a 60x40 map offers the whole map"
    whole = await big.click(message, f"bp:map:{record.id}", user=big.carol)
    shown = last_message(whole)
    assert shown.ephemeral and "Wide Front: map" in text_of(whole)
    battle = await stored_battle(big)
    full = Geometry.for_view(big.service.view_of(battle))
    assert image_of(shown).width >= full.board_width > image_of(message).width


async def test_a_small_map_is_posted_whole_without_a_button(table: Table) -> None:
    await table.setup_battle()
    await table.slash("turn mode", mode="free")
    await table.slash("battle start")
    moved = await table.slash("move", user=table.alice, unit="Eva-01", to="D3", mode="half")
    message = last_message(moved)
    assert message.files and not [c for c in message.custom_ids() if c.startswith("bp:map:")]
    assert "Shown: the whole map, 20 by 15 squares" in (message.files[0].description or "")


async def test_zoom_on_a_square(big: Table) -> None:
    zoomed = await big.slash("map show", at="BA30", radius=3)
    message = last_message(zoomed)
    assert not message.ephemeral and "map, around BA30" in text_of(zoomed)
    assert "Shown: squares AX27 to BD33 of a 60 by 40 map." in (message.files[0].description or "")
    assert "Sachiel (Sac)" in (message.files[0].description or "")
    await refused(big, "map show", "`radius` goes with `at`", radius=3)
    await refused(big, "map show", "BZ90 is off the map", at="BZ90")


async def test_a_sides_view_is_for_its_players_and_the_gm_only(big: Table) -> None:
    own = await big.slash("map show", user=big.alice, side="NERV")
    assert last_message(own).ephemeral and "NERV's view" in text_of(own)
    await refused(big, "map show", "You command no unit of Angels, so you cannot see its view", user=big.alice,
                  side="Angels")
    gm = await big.slash("map show", side="Angels")
    assert last_message(gm).ephemeral and "Angels's view" in text_of(gm)


async def test_reach_and_range_on_request(big: Table) -> None:
    reach = await big.slash("map show", user=big.alice, reach="Eva-01")
    assert last_message(reach).ephemeral and "where Eva-01 can move" in text_of(reach)
    assert "Half: " in (last_message(reach).files[0].description or "")
    await refused(big, "map show", "Sachiel is not yours", user=big.alice, reach="Sachiel")
    await refused(big, "map show", "Choose one of `previous`, `reach` or `range` at a time", reach="Eva-01",
                  range="Eva-01")
    await refused(big, "map show", "Eva-00 has no ranged weapon", range="Eva-00")


async def test_greyscale_on_request(big: Table) -> None:
    grey = await big.slash("map show", greyscale=True)
    image = image_of(last_message(grey))
    assert image.mode == "L"


async def test_the_previous_turn_is_the_map_as_it_ended(table: Table) -> None:
    await table.setup_battle()
    await refused(table, "map show", "No turn has finished yet", previous=True)
    await table.slash("battle start")
    await table.slash("move", user=table.alice, unit="Eva-01", to="D3", mode="half")
    await end_turn(table, user=table.alice, unit="Eva-01")
    await end_turn(table, user=table.bob, unit="Eva-02")
    # Now the Angels phase: the previous turn is round 1's NERV phase, with Eva-01's move.
    await table.slash("move", unit="Sachiel", to="O10", mode="half")
    shown = await table.slash("map show", previous=True)
    message = last_message(shown)
    assert "previous turn (round 1, NERV phase)" in text_of(shown)
    alt = message.files[0].description or ""
    assert "The previous turn as it ended: round 1, NERV phase" in alt
    assert "Eva-01 (E01) moved from C3 to D3" in alt
    assert "Sachiel (Sac), Angels, commanded by" not in alt and "on P10" in alt, "Sachiel before its move"


async def test_map_text_reads_units_by_side_then_terrain(table: Table) -> None:
    await table.setup_battle()
    await table.slash("map paint", terrain="forest", **{"from": "H4", "to": "M9"})
    await table.slash("turn mode", mode="free")
    await table.slash("battle start")
    await table.slash("move", user=table.alice, unit="Eva-01", to="E3", mode="half")
    reply = await table.slash("map text", user=table.carol)
    message = last_message(reply)
    assert message.ephemeral
    page = text_of(reply)
    order = [page.index(s) for s in ("What just happened:", "Eva-01 (E01) moved from C3 to E3",
                                     "Eva-01 (E01), NERV, commanded by alice: on E3", "Eva-02 (E02), NERV",
                                     "Sachiel (Sac), Angels", "Terrain:", "Forest: a block of 36 squares from H4 to M9")]
    assert order == sorted(order)
    assert "Page 1 of 1" in page
    attached = message.files[0]
    assert attached.filename == "test-battle-map.txt" and b"Mostly Open ground" in attached.data
    await refused(table, "map text", "The map text has 1 page; ask for page 1 to 1.", page=2)


async def test_map_text_of_the_largest_battle_pages_within_discord_limits(table: Table) -> None:
    """400 units with long names on a 100x100 map: every unit is read out, each page fits an embed."""
    battle = Battle.new("strategic-e", 100, 100, "Armageddon")
    for i in range(MAX_UNITS):
        battle.apply(AddUnit(name=f"{LONG} {i}", side="NERV" if i % 2 else "Angels", at=Cell((i * 7) % 100,
                                                                                                 (i * 13) % 100),
                             owner=table.alice.id), Dice.seeded(i))
    # Stored directly: placing 400 units through Discord one by one would only slow the test down.
    await table.db.battles.create(guild_id=table.discord.guild.id, channel_id=table.channel.id, thread_id=None,
                                  name=battle.name, ruleset=battle.ruleset_id, created_by=table.gm.id,
                                  state=battle.to_dict(), now=table.clock())
    first = await table.slash("map text")
    footer = text_of(first)
    pages = int(footer.split("Page 1 of ")[1].split()[0])
    assert pages > 10
    seen = []
    for page in range(1, pages + 1):
        reply = await table.slash("map text", page=page)
        embed = last_message(reply).embeds[0]
        assert len(embed["description"]) <= 4096
        assert len(embed["title"]) + len(embed["description"]) + len(embed["footer"]["text"]) <= 6000
        seen.append(embed["description"])
    whole = "\n".join(seen)
    assert all(f"{LONG} {i} (" in whole for i in range(MAX_UNITS))
    shown = await table.slash("map show", full=True)
    alt = last_message(shown).files[0].description or ""
    assert len(alt) <= MAX_FILE_DESCRIPTION and alt.endswith("/map text reads the whole map.")
