"""Each player's say over their pings: muting a turn, how often they are reminded, and the GM told who stalls.

Time is the fake clock; the scheduler runs when a test ticks. The battle: alice (Eva-01) and bob (Eva-02) play
NERV, the GM plays the Angels; each turn lasts a day with the default reminders at half-time and 1 h before.
"""

from __future__ import annotations

import pytest

from loopback.models import LoopbackChannel, StoredMessage
from tests.e2e.conftest import START_TIME, Table, last_message, text_of
from tests.e2e.turn_helpers import HOUR, end_turn, message_text, new_since, pinged, posted, prompts, stored


def reminders(messages: list[StoredMessage]) -> list[StoredMessage]:
    """Return the reminders among messages."""
    return [m for m in messages if m.content.startswith("\u23f0")]


def stall_reports(messages: list[StoredMessage]) -> list[StoredMessage]:
    """Return the GM's reports of who is stalling among messages."""
    return [m for m in messages if m.content.startswith("\U0001f422")]


async def next_nerv_phase(table: Table) -> list[StoredMessage]:
    """End every turn of round 1 and return what was posted, round 2's NERV ping among it."""
    before = posted(table)
    await end_turn(table, user=table.alice)
    await end_turn(table, user=table.bob)
    await end_turn(table, user=table.gm)
    return new_since(table, before)


async def test_a_muted_turn_is_not_pinged_and_the_next_one_is(table: Table) -> None:
    await table.setup_battle()
    muted = await table.slash("turn mute", user=table.alice)
    assert last_message(muted).ephemeral and "your next turn is muted" in text_of(muted)
    before = posted(table)
    await table.slash("battle start")
    [ping] = prompts(new_since(table, before))
    assert ping.pings.users == {table.bob.id}, "alice muted her next turn"
    assert "Eva-01" in message_text(ping), "a muted player's units still show in the prompt"

    pressed = await table.click(ping, f"bp:mute:{(await stored(table)).id}", user=table.bob)
    assert last_message(pressed).ephemeral and "Muted for this turn" in text_of(pressed)
    before = posted(table)
    fired = await table.tick(hours=12)
    assert [f.action for f in fired] == ["reminded"]
    assert reminders(new_since(table, before)) == [], "both muted this turn: nobody is reminded"

    [ping] = [m for m in prompts(await next_nerv_phase(table)) if "round 2, NERV" in m.content]
    assert ping.pings.users == {table.alice.id, table.bob.id}


async def test_unmuting_and_muting_with_no_turn_running(table: Table) -> None:
    await table.setup_battle()
    refused = await table.slash("turn mute", user=table.alice, off=True)
    assert "Nothing is muted" in text_of(refused)
    await table.slash("turn mute", user=table.alice)
    await table.slash("turn mute", user=table.alice, off=True)
    before = posted(table)
    await table.slash("battle start")
    [ping] = prompts(new_since(table, before))
    assert ping.pings.users == {table.alice.id, table.bob.id}


async def test_each_player_is_reminded_as_often_as_they_chose(table: Table) -> None:
    await table.setup_battle()
    every = await table.slash("turn reminders", user=table.alice, how="every", hours=5)
    assert "every 5 h" in text_of(every)
    await table.slash("turn reminders", user=table.bob, how="off")
    await table.slash("battle start")
    record = await stored(table)
    timers = await table.db.timers.pending(record.id)
    assert sorted(t.due_at - START_TIME for t in timers if t.kind == "reminder") == [
        h * HOUR for h in (5, 10, 12, 15, 20, 23)]

    heard: list[tuple[float, set[int]]] = []
    for hours in (5, 10, 12, 15, 20, 23):
        before = posted(table)
        table.clock.now = START_TIME + hours * HOUR
        await table.tick()
        for message in reminders(new_since(table, before)):
            heard.append((hours, message.pings.users))
    assert heard == [(5, {table.alice.id}), (10, {table.alice.id}), (15, {table.alice.id}), (20, {table.alice.id})]


async def test_once_means_the_first_of_the_battle_reminders(table: Table) -> None:
    await table.setup_battle()
    await table.slash("turn reminders", user=table.alice, how="once")
    await table.slash("battle start")
    pings = []
    for hours in (12, 11):
        before = posted(table)
        await table.tick(hours=hours)
        pings.append(pinged(reminders(new_since(table, before))))
    assert pings == [{table.alice.id, table.bob.id}, {table.bob.id}]


async def test_bad_reminder_choices_are_refused_and_change_nothing(table: Table) -> None:
    await table.setup_battle()
    missing = await table.slash("turn reminders", user=table.alice, how="every")
    assert last_message(missing).ephemeral and "Say how often with `hours`" in text_of(missing)
    extra = await table.slash("turn reminders", user=table.alice, how="once", hours=4)
    assert "`hours` goes only with `every`" in text_of(extra)
    record = await stored(table)
    assert (await table.db.players.get(record.id, table.alice.id)).remind == "battle"


def gm_thread(table: Table) -> LoopbackChannel:
    """Return the GM's private thread under the battle's channel."""
    [found] = [t for t in table.discord.threads(table.channel) if t.name.endswith("\u00b7 GM")]
    assert found.is_private_thread
    return found


@pytest.mark.parametrize("after", [2, 3])
async def test_the_gm_hears_once_a_turn_who_lets_reminders_pass(table: Table, after: int) -> None:
    await table.setup_battle()
    role = table.discord.add_role(table.discord.guild, "Referees")
    await table.slash("settings gm-role", role=role)
    set_to = await table.gm_slash("gm stall-after", reminders=after)
    assert f"After {after} reminders" in text_of(set_to)
    await table.slash("turn reminders", user=table.alice, how="every", hours=2)
    await table.slash("battle start")
    await end_turn(table, user=table.bob)  # bob acts; alice does not

    heard = []
    for _ in range(6):
        before = posted(table)
        await table.tick(hours=2)
        new = new_since(table, before)
        assert [m.pings.users for m in reminders(new)] == [{table.alice.id}]
        assert stall_reports(new) == [], "no stall report in the battle's channel"
        threads = table.discord.threads(table.channel)
        heard.append(len(stall_reports(posted(table, gm_thread(table)))) if threads else 0)
    assert heard == [0] * (after - 1) + [1] * (7 - after), "the GM hears after exactly that many, and once"
    [report] = stall_reports(posted(table, gm_thread(table)))
    assert report.pings.users == {table.gm.id} and report.pings.roles == {role.id}
    first = int(START_TIME + 2 * HOUR)  # the first reminder alice let pass
    assert (f"<@{table.alice.id}> has not acted after {after} reminders this turn, the first <t:{first}:f> "
            f"(<t:{first}:R>); Eva-01 still due") in report.content

    thread = gm_thread(table)
    assert thread.members == {table.discord.world.bot_user.id, table.gm.id}
    assert table.discord.can_read(table.gm, thread)
    assert not table.discord.can_read(table.alice, thread) and not table.discord.can_read(table.bob, thread)


async def test_where_no_thread_can_be_made_the_gm_hears_by_dm(table: Table) -> None:
    await table.setup_battle()
    table.discord.deny_bot(table.channel, "create_private_threads")
    await table.gm_slash("gm stall-after", reminders=1)
    await table.slash("battle start")
    await end_turn(table, user=table.bob)
    before = posted(table)
    await table.tick(hours=12)
    assert stall_reports(new_since(table, before)) == []
    [dm] = stall_reports(table.discord.dm_messages(table.gm))
    assert f"<@{table.alice.id}> has not acted after 1 reminder this turn" in dm.content
    assert stall_reports(table.discord.dm_messages(table.alice)) == []
    assert table.discord.threads(table.channel) == []


async def test_acting_starts_the_count_again(table: Table) -> None:
    await table.setup_battle()
    await table.gm_slash("gm stall-after", reminders=2)
    await table.slash("turn reminders", user=table.alice, how="every", hours=2)
    await table.slash("battle start")
    await end_turn(table, user=table.bob)
    await table.tick(hours=2)
    await table.slash("move", user=table.alice, unit="Eva-01", to="C2", mode="half")
    await table.tick(hours=2)
    assert table.discord.threads(table.channel) == [], "alice acted after the first reminder: no report yet"
    await table.tick(hours=2)
    [report] = stall_reports(posted(table, gm_thread(table)))
    second = int(START_TIME + 4 * HOUR)  # the count began again with the first reminder after her move
    assert f"after 2 reminders this turn, the first <t:{second}:f>" in report.content
