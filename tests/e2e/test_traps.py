"""/trap trigger and /trap detect end to end: who may spring a trap, what it does, and who sees it."""

from __future__ import annotations

import pytest

from loopback.models import LoopbackChannel
from rules.coords import Cell
from rules.systems.strategic.actions.features import PlaceFeature
from tests.e2e.combat_helpers import add, battle_with, dice, give, public, refused, start, stored_battle
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.turn_helpers import message_text
from tests.e2e.turn_helpers import posted as messages


@pytest.fixture
async def trapped(table: Table) -> Table:
    """Return a P-Scale battle: Red (alice) hid a Bakelite Trap on C3, where Blue's Pilot (bob) stands."""
    await battle_with(table, ruleset="strategic-p", width=10, height=10)
    await table.slash("map paint", terrain="urban", cells="C3")
    await add(table, "General", "Red", "H8", owner=table.alice, supreme_commander=True, int=40)
    await give(table, PlaceFeature(feature="bakelite_trap", side="Red", at=Cell.parse("C3")))
    await add(table, "Pilot", "Blue", "C3", owner=table.bob, skills={"dodge": 30})
    await add(table, "Scout", "Blue", "B2", owner=table.bob, skills={"awareness": 60})
    await start(table)
    return table


async def test_springing_a_bakelite_trap(trapped: Table) -> None:
    dice(trapped, 90, 5, 5, 5)  # the Pilot's Dodge, then the 3d10 penalty
    reply = await trapped.slash("trap trigger", user=trapped.alice, side="Red", at="C3")
    text = public(reply)
    assert "Trap sprung on C3" in text
    assert "💥 A Bakelite Trap goes off on C3 (triggered by General)" in text
    assert "Pilot dodges the Bakelite" in text and "Dodge **30**" in text
    assert "Pilot is caught in Bakelite: −15 WS and Agility until it breaks free with a Strength test" in text
    assert last_message(reply).files, "the sprung trap is marked on the map"
    battle = await stored_battle(trapped)
    assert battle.unit("Pilot").status_rounds["bakelite"] == 15
    assert "feature" not in battle.square_state(Cell.parse("C3"))


async def test_only_the_side_or_the_gm_springs_it(trapped: Table) -> None:
    await refused(trapped, "trap trigger", "Only the GM or a player commanding units of Red", user=trapped.bob,
                  side="Red", at="C3")
    await refused(trapped, "trap trigger", "Only the GM or a player commanding units of Red", user=trapped.carol,
                  side="Red", at="C3")


async def test_no_trap_there(trapped: Table) -> None:
    await refused(trapped, "trap trigger", "Red has no trap on D4", user=trapped.alice, side="Red", at="D4")
    await refused(trapped, "trap trigger", "like `A1`", user=trapped.alice, side="Red", at="nowhere")


async def test_only_the_side_is_offered_its_traps(trapped: Table) -> None:
    mine = await trapped.discord.autocomplete("trap trigger", "at", "", user=trapped.alice, channel=trapped.channel,
                                              side="Red")
    assert mine == [{"name": "C3: Bakelite Trap", "value": "C3"}]
    theirs = await trapped.discord.autocomplete("trap trigger", "at", "", user=trapped.bob, channel=trapped.channel,
                                                side="Red")
    assert theirs == []
    sides = await trapped.discord.autocomplete("trap trigger", "side", "", user=trapped.bob, channel=trapped.channel)
    assert [c["value"] for c in sides] == ["Blue", "Red"]


async def test_detecting_a_trap_reveals_it_to_the_side(trapped: Table) -> None:
    dice(trapped, 30)
    text = public(await trapped.slash("trap detect", user=trapped.bob, unit="Scout"))
    assert "Awareness **60**" in text and "−20 Hidden trap" in text and "Target **40** · d100 **30**" in text
    # Side threads off: what the search found goes to Blue's players by direct message, not to the channel.
    assert "Bakelite" not in text and "told to Blue alone, in private" in text
    told = "\n".join(message_text(m) for m in trapped.discord.dm_messages(trapped.bob))
    assert "🔎 Blue discovers a Bakelite Trap on C3" in told
    assert (await stored_battle(trapped)).square_state(Cell.parse("C3"))["revealed"] == ["Blue"]


async def test_a_failed_search_gives_nothing_away(trapped: Table) -> None:
    dice(trapped, 41)
    text = public(await trapped.slash("trap detect", user=trapped.bob, unit="Scout"))
    assert "Scout's search turns up nothing." in text and "Bakelite" not in text


async def test_e_scale_has_no_traps(table: Table) -> None:
    await battle_with(table)
    await add(table, "Scout", "Blue", "B2", owner=table.bob)
    await add(table, "Sachiel", "Angels", "P12")  # a battle needs two sides
    await start(table)
    await refused(table, "trap detect", "no artificial features", user=table.bob, unit="Scout")


def side_thread(table: Table, side: str) -> LoopbackChannel:
    """Return the private thread of a side under the battle's channel."""
    [found] = [t for t in table.discord.threads(table.channel) if t.name.endswith(f"\u00b7 {side}")]
    return found


async def test_with_side_threads_a_find_goes_to_the_searching_sides_thread(trapped: Table) -> None:
    await trapped.gm_slash("gm side-threads", on=True)
    blue = side_thread(trapped, "Blue")
    dice(trapped, 30)
    text = public(await trapped.slash("trap detect", user=trapped.bob, unit="Scout"))
    assert "Target **40** · d100 **30**" in text, "the search and its test are public"
    assert "What Scout's search found is told to Blue alone, in private." in text
    assert "Bakelite" not in text and "C3" not in text
    [found] = [m for m in messages(trapped, blue) if "discovers" in message_text(m)]
    assert "\U0001f512 Blue only" in message_text(found) and "Blue discovers a Bakelite Trap on C3" in message_text(found)
    assert found.files, "the side's map, its trap marked, comes with it"
    assert not trapped.discord.can_read(trapped.alice, blue) and trapped.discord.can_read(trapped.bob, blue)
    assert (await stored_battle(trapped)).square_state(Cell.parse("C3"))["revealed"] == ["Blue"]


async def test_with_side_threads_a_failed_search_stays_public(trapped: Table) -> None:
    await trapped.gm_slash("gm side-threads", on=True)
    dice(trapped, 41)
    text = public(await trapped.slash("trap detect", user=trapped.bob, unit="Scout"))
    assert "Scout's search turns up nothing." in text
    assert [m for m in messages(trapped, side_thread(trapped, "Blue")) if "search" in message_text(m).lower()] == []


async def test_with_side_threads_a_hidden_trap_is_told_to_its_whole_side(table: Table) -> None:
    await battle_with(table, ruleset="strategic-p", width=10, height=10)
    await table.slash("map paint", terrain="forest", cells="B2")
    await add(table, "General", "Red", "H8", owner=table.alice)
    await add(table, "Major", "Red", "H6", owner=table.carol)
    await add(table, "Pilot", "Blue", "C3", owner=table.bob)
    await table.slash("feature points", side="Red", value=40)
    await table.gm_slash("gm side-threads", on=True)
    red = side_thread(table, "Red")
    placed = await table.slash("feature place", user=table.alice, type="fire_trap", at="B2", side="Red")
    assert last_message(placed).ephemeral and f"posted for Red alone, <#{red.id}>" in text_of(placed)
    [post] = [m for m in messages(table, red) if "Fire Trap" in message_text(m)]
    assert "B2" in message_text(post) and "Only Red and the GM see this" in message_text(post)
    assert table.discord.can_read(table.carol, red) and not table.discord.can_read(table.bob, red)
