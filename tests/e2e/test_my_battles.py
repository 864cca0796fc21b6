"""/battles: a player's battles waiting for them on every server, privately, in a DM with the bot too."""

from __future__ import annotations

from loopback.models import LoopbackChannel, LoopbackUser
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.turn_helpers import at, confirmed, end_turn, local, message_text, start_side_battle, stored


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


async def test_the_daily_digest_comes_at_each_players_local_hour_once_a_day_across_spring_and_restarts(
        table: Table) -> None:
    new_york, tokyo = "America/New_York", "Asia/Tokyo"
    table.clock.now = at(new_york, 2026, 3, 5, 12, 0)  # a Thursday; New York's clocks go forward on the 8th
    await start_side_battle(table)
    here = await stored(table)
    await table.discord.slash("settings timezone", user=table.alice, channel=table.discord.dm_channel(table.alice),
                              options={"zone": new_york})
    turned_on = await table.discord.slash("settings digest", user=table.alice,
                                          channel=table.discord.dm_channel(table.alice),
                                          options={"mode": "on", "at": "7:30"})
    assert last_message(turned_on).ephemeral and "at **07:30 America/New_York**" in text_of(turned_on)
    # bob keeps the usual hour, 08:00, and sets his zone after turning it on: the next one moves to Tokyo's 08:00.
    await table.discord.slash("settings digest", user=table.bob, channel=table.discord.dm_channel(table.bob),
                              options={"mode": "on"})
    moved = await table.discord.slash("settings timezone", user=table.bob, channel=table.discord.dm_channel(table.bob),
                                      options={"zone": tokyo})
    assert "Your daily digest comes at 08:00 Asia/Tokyo" in text_of(moved)
    await table.discord.slash("settings digest", user=table.carol, channel=table.discord.dm_channel(table.carol),
                              options={"mode": "on"})

    # Six days in half-hour passes, with restarts, and the bot down from Monday 06:30 to Tuesday 05:30.
    down = (at(new_york, 2026, 3, 9, 6, 30), at(new_york, 2026, 3, 10, 5, 30))
    sent: dict[int, list[float]] = {table.alice.id: [], table.bob.id: []}
    step = 0
    while table.clock.now < at(new_york, 2026, 3, 11, 12, 0):
        table.clock.advance(minutes=30)
        if down[0] <= table.clock.now < down[1]:
            continue
        step += 1
        if step % 40 == 0 or table.clock.now == down[1]:
            await table.restart()
        before = {user.id: len(digests_of(table, user)) for user in (table.alice, table.bob)}
        await table.tick()
        for user in (table.alice, table.bob):
            sent[user.id] += [table.clock.now] * (len(digests_of(table, user)) - before[user.id])
        if table.clock.now == at(new_york, 2026, 3, 6, 10, 0):
            # Off and on again the day one came: the next is still tomorrow's.
            dm = table.discord.dm_channel(table.alice)
            await table.discord.slash("settings digest", user=table.alice, channel=dm, options={"mode": "off"})
            await table.discord.slash("settings digest", user=table.alice, channel=dm, options={"mode": "on"})

    alice = [local(moment, new_york) for moment in sent[table.alice.id]]
    assert [(t.day, t.hour, t.minute) for t in alice] == [
        (6, 7, 30), (7, 7, 30), (8, 7, 30),  # the 8th is the first day of daylight time: 07:30 all the same
        (10, 5, 30),  # Monday's, sent when the bot came back, and no second one on Tuesday
        (11, 7, 30)]
    bob = [local(moment, tokyo) for moment in sent[table.bob.id]]
    assert [(t.day, t.hour, t.minute) for t in bob] == [
        (6, 8, 0), (7, 8, 0), (8, 8, 0), (9, 8, 0),
        (10, 18, 30),  # the 10th's, when the bot came back (Tuesday 05:30 in New York)
        (11, 8, 0)]
    [first] = digests_of(table, table.alice)[:1]
    assert "1 battle waiting for you" in first and "Eva-01" in first
    assert f"https://discord.com/channels/{here.guild_id}/{here.channel_id}" in first
    assert digests_of(table, table.carol) == []  # nothing waits for carol: no message at all

    await table.discord.slash("settings digest", user=table.alice, channel=table.discord.dm_channel(table.alice),
                              options={"mode": "off"})
    count = len(digests_of(table, table.alice))
    await table.tick(days=1)
    assert len(digests_of(table, table.alice)) == count


async def test_a_digest_hour_that_is_not_a_clock_hour_is_refused_and_changes_nothing(table: Table) -> None:
    dm = table.discord.dm_channel(table.alice)
    wrong = await table.discord.slash("settings digest", user=table.alice, channel=dm,
                                      options={"mode": "on", "at": "25:00"})
    assert last_message(wrong).ephemeral and "not a clock hour" in text_of(wrong)
    assert await table.db.digests.get(table.alice.id) is None
    assert await table.db.users.get_digest_minute(table.alice.id) is None
