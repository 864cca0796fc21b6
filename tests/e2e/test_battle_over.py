"""Battles that end: a battle of one side does not start, and a battle its rules call over stops calling turns
and asks its GM, once, to end it with its summary."""

from __future__ import annotations

from tests.e2e.action_helpers import button
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.turn_helpers import end_turn, message_text, new_since, posted, prompts, stored_battle


async def test_a_battle_of_one_side_does_not_start(table: Table) -> None:
    await table.slash("battle new", name="Lonely", ruleset="strategic-e", width=10, height=10)
    await table.slash("unit add", name="Eva-01", side="NERV", at="C3", owner=table.alice)
    await table.slash("unit add", name="Eva-02", side="NERV", at="C5", owner=table.bob)
    refused = await table.slash("battle start")
    assert last_message(refused).ephemeral
    assert "A battle needs two sides with units to start; only NERV has units" in text_of(refused)
    assert "/unit add" in text_of(refused) and "/surface" not in text_of(refused), "the hint is this system's"
    assert (await stored_battle(table)).status == "setup"
    player = await table.slash("battle start", user=table.alice)
    assert "Only a GM can start the battle" in text_of(player)
    await table.slash("unit add", name="Sachiel", side="Angels", at="H8")
    await table.slash("battle start")
    assert (await stored_battle(table)).status == "active"


async def test_a_surface_battle_of_one_force_does_not_start(table: Table) -> None:
    await table.slash("battle new", name="Kessel", ruleset="surface")
    await table.slash("surface add", name="Hammer", side="Marines", **{"type": "space-marines"})
    refused = await table.slash("battle start")
    assert "only Marines has units" in text_of(refused) and last_message(refused).ephemeral
    assert "/surface add" in text_of(refused) and "/unit add" not in text_of(refused), "the hint is Surface's"
    assert (await stored_battle(table)).status == "setup"


async def test_the_last_side_standing_is_asked_about_once_and_no_longer_pinged(table: Table) -> None:
    await table.setup_battle()
    await table.slash("battle start")
    before = posted(table)
    await table.slash("unit remove", unit="Sachiel")
    asked = [m for m in new_since(table, before) if "Battle over?" in message_text(m)]
    assert len(asked) == 1 and table.gm.id in asked[0].pings.users
    assert "Angels has no unit left in the fight" in message_text(asked[0])
    assert "NERV holds the field" in message_text(asked[0])
    # The survivors' turns go on as the GM likes, but nobody is called to them any more, nor asked again.
    before = posted(table)
    await end_turn(table, user=table.alice, unit="Eva-01")
    await end_turn(table, user=table.bob, unit="Eva-02")
    await end_turn(table, user=table.alice, unit="Eva-01")
    # Nor reminded when the clock's reminder comes round (half the deadline: 12 of 24 hours).
    await table.tick(hours=13)
    later = new_since(table, before)
    assert prompts(later) == [] and not [m for m in later if "Battle over?" in message_text(m)]
    assert not [m for m in later if m.content.startswith("\u23f0")], "no reminder pings the survivors"
    # Only the GM's press ends it, with the summary for everyone.
    player = await table.click(asked[0], button(asked[0], "End the battle")["custom_id"], user=table.alice)
    assert "Only a GM can" in text_of(player) and last_message(player).ephemeral
    ended = await table.click(asked[0], button(asked[0], "End the battle")["custom_id"], user=table.gm)
    assert "Battle over: Test Battle" in text_of(ended) and not last_message(ended).ephemeral
    assert await table.db.battles.in_channel(table.discord.guild.id, table.channel.id) is None


async def test_an_undone_end_is_asked_about_again_when_it_comes_back(table: Table) -> None:
    await table.setup_battle()
    await table.slash("battle start")
    await table.slash("unit remove", unit="Sachiel")
    await table.gm_slash("gm undo")
    before = posted(table)
    await end_turn(table, user=table.alice, unit="Eva-01")
    assert not [m for m in new_since(table, before) if "Battle over?" in message_text(m)], "Sachiel is back"
    await table.slash("unit remove", unit="Sachiel")
    again = [m for m in new_since(table, before) if "Battle over?" in message_text(m)]
    assert len(again) == 1, "the GM is asked again"
