"""/battles: a player's battles waiting for them on every server, privately, in a DM with the bot too."""

from __future__ import annotations

from loopback.models import LoopbackChannel, LoopbackUser
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.turn_helpers import confirmed, end_turn, message_text, start_side_battle, stored


async def other_server_battle(table: Table) -> tuple[LoopbackChannel, LoopbackUser]:
    """Start a battle on a second server: stranger's Blue moves first, then alice's Red."""
    other = table.discord.add_guild("Other Server")
    stranger = table.discord.add_user("stranger", guild=other, manage_guild=True)
    table.discord.join(table.alice, other)
    there = table.discord.channel("general", other)
    await table.settle()

    async def run(command: str, **options: object) -> None:
        await table.discord.slash(command, user=stranger, channel=there, options=options)
        await table.settle()

    await run("battle new", name="Far Hills", ruleset="strategic-e", width=10, height=10)
    await run("unit add", name="Blue-1", side="Blue", at="A1", owner=stranger, ag=40)
    await run("unit add", name="Red-1", side="Red", at="J10", owner=table.alice, ag=40)
    await run("battle start")
    return there, stranger


async def my_battles(table: Table, user: LoopbackUser) -> tuple[str, bool]:
    """Ask /battles in a DM with the bot; return the answer's text and whether it was private."""
    reply = await table.discord.slash("battles", user=user, channel=table.discord.dm_channel(user), options={})
    return text_of(reply), last_message(reply).ephemeral


async def test_battles_lists_where_the_player_is_due_across_servers(table: Table) -> None:
    await start_side_battle(table)
    await table.gm_slash("gm deadline", hours=24)
    here = await stored(table)
    there, stranger = await other_server_battle(table)
    far = await table.db.battles.in_channel(there.guild_id, there.id)
    assert far is not None
    due_at = (await table.db.clocks.get(here.id)).due_at
    assert due_at is not None

    text, private = await my_battles(table, table.alice)
    assert "Waiting for you: 1 battle" in text and private
    assert f"[Test Battle](https://discord.com/channels/{here.guild_id}/{here.channel_id})" in text
    assert "NERV phase" in text and "Eva-01" in text and f"<t:{int(due_at)}:f>" in text
    assert "Far Hills" not in text  # the Blue phase there: alice's Red is not due

    await end_turn(table, user=table.alice)
    text, _ = await my_battles(table, table.alice)
    assert "No battle is waiting for you right now." in text
    text, _ = await my_battles(table, table.bob)
    assert "Test Battle" in text and "Eva-02" in text

    # Blue's phase ends there: now the Far Hills battle waits for alice, with no deadline set.
    ended = await table.discord.slash("turn end", user=stranger, channel=there, options={})
    await confirmed(table, ended, stranger)
    text, _ = await my_battles(table, table.alice)
    assert f"[Far Hills](https://discord.com/channels/{far.guild_id}/{far.channel_id})" in text
    assert "Red phase" in text and "Red-1" in text and "Test Battle" not in text

    text, _ = await my_battles(table, table.carol)
    assert "No battle is waiting for you right now." in text


async def test_battles_in_a_server_channel_answers_privately(table: Table) -> None:
    await start_side_battle(table)
    reply = await table.slash("battles", user=table.bob)
    assert last_message(reply).ephemeral and "Test Battle" in text_of(reply)


def digests_of(table: Table, user: LoopbackUser) -> list[str]:
    """Return the daily digests a user got by direct message, oldest first, as text."""
    return [message_text(m) for m in table.discord.messages(table.discord.dm_channel(user))
            if "Your daily digest" in message_text(m)]


async def test_the_daily_digest_comes_once_a_day_across_restarts(table: Table) -> None:
    await start_side_battle(table)
    await table.gm_slash("gm deadline", hours=48)
    here = await stored(table)
    dm = table.discord.dm_channel(table.alice)
    turned_on = await table.discord.slash("settings digest", user=table.alice, channel=dm, options={"mode": "on"})
    assert last_message(turned_on).ephemeral and "Your daily digest is on" in text_of(turned_on)
    await table.discord.slash("settings digest", user=table.carol, channel=table.discord.dm_channel(table.carol),
                              options={"mode": "on"})

    await table.tick()
    [first] = digests_of(table, table.alice)
    assert "1 battle waiting for you" in first and "Eva-01" in first
    assert f"https://discord.com/channels/{here.guild_id}/{here.channel_id}" in first
    assert digests_of(table, table.carol) == []  # nothing waits for carol: no message at all

    # Later the same day, after a restart, and after turning it off and on again: still one digest that day.
    await table.tick(hours=5)
    await table.restart()
    await table.tick(hours=1)
    await table.discord.slash("settings digest", user=table.alice, channel=dm, options={"mode": "off"})
    again = await table.discord.slash("settings digest", user=table.alice, channel=dm, options={"mode": "on"})
    assert "Your daily digest is on" in text_of(again)
    await table.tick(hours=1)
    assert len(digests_of(table, table.alice)) == 1

    await table.tick(hours=17)
    assert len(digests_of(table, table.alice)) == 2
    await table.discord.slash("settings digest", user=table.alice, channel=dm, options={"mode": "off"})
    await table.tick(days=1)
    assert len(digests_of(table, table.alice)) == 2
    assert digests_of(table, table.carol) == []
