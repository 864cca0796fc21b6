"""Statistics: /battle stats per player and per side (with its chart), and /stats me across battles."""

from __future__ import annotations

from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.turn_helpers import end_battle, end_turn, message_text, new_since, posted, stored


async def played(table: Table) -> None:
    """Play a round: alice moves after 2 hours and takes it back, bob after 5; alice lets the deadline pass;
    the GM's Sachiel is wiped out in the Angels phase."""
    await table.setup_battle()
    await table.slash("unit add", name="Ramiel", side="Angels", at="P12", owner=table.carol, ag=40)
    await table.slash("battle start")
    await table.gm_slash("gm deadline", hours=24)
    await table.gm_slash("gm policy", policy="hold")
    table.clock.advance(hours=2)
    await table.slash("move", user=table.alice, unit="Eva-01", to="D3")
    await table.slash("undo", user=table.alice)
    table.clock.advance(hours=3)
    await table.slash("move", user=table.bob, unit="Eva-02", to="D5")
    await end_turn(table, user=table.bob)
    await table.tick(hours=25)
    await table.gm_slash("gm edit", unit="Sachiel", wounds=0)
    await end_turn(table, user=table.carol)


async def test_battle_stats_per_player_and_side(table: Table) -> None:
    await played(table)
    reply = await table.slash("battle stats", user=table.carol)
    message = last_message(reply)
    text = text_of(reply)
    assert message.ephemeral and "Statistics: Test Battle" in text
    lines = {line.split(":")[0]: line for line in text.splitlines()}
    alice = lines[f"<@{table.alice.id}>"]
    assert "1 order," in alice and "median 2 h" in alice and "1 missed deadline;" in alice and "1 takeback" in alice
    bob = lines[f"<@{table.bob.id}>"]
    assert "2 orders" in bob and "0 missed deadlines" in bob and "0 takebacks" in bob
    assert "Units lost by round" in text and "Angels: 1" in text and "NERV: 0" in text
    assert message.files, "the losses chart comes with the statistics"


async def test_stats_me_adds_up_every_battle_in_a_dm(table: Table) -> None:
    await played(table)
    record = await stored(table)
    reply = await table.discord.slash("stats me", user=table.alice, channel=table.discord.dm_channel(table.alice),
                                      options={})
    text = text_of(reply)
    assert last_message(reply).ephemeral and "Over 1 battle" in text
    assert "1 missed deadline;" in text and "1 takeback" in text and record.id > 0
    nothing = await table.discord.slash("stats me", user=table.carol, channel=table.discord.dm_channel(table.carol),
                                        options={})
    assert "1 order" in text_of(nothing)
    fresh = table.discord.add_user("erin")
    none = await table.discord.slash("stats me", user=fresh, channel=table.discord.dm_channel(fresh), options={})
    assert "You have not given an order in any battle yet." in text_of(none)


async def test_the_end_of_the_battle_posts_its_statistics(table: Table) -> None:
    await played(table)
    before = posted(table)
    await end_battle(table)
    [stats] = [m for m in new_since(table, before) if "Statistics: Test Battle" in message_text(m)]
    assert "Angels: 1" in message_text(stats) and stats.files and not stats.ephemeral
    assert stats.pings.users == set()
