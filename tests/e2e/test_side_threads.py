"""Each side's private thread: who is in it, what goes there instead of the channel, and DMs when threads are refused.

The battle: alice (Eva-01) and bob (Eva-02) play NERV; the Angels' Sachiel has no player, so it is the GM's.
"""

from __future__ import annotations

from loopback.models import LoopbackChannel, StoredMessage
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.turn_helpers import message_text, new_since, posted, stored


def side_thread(table: Table, side: str) -> LoopbackChannel:
    """Return the private thread of a side under the battle's channel."""
    [found] = [t for t in table.discord.threads(table.channel) if t.name.endswith(f"\u00b7 {side}")]
    assert found.is_private_thread
    return found


def texts(messages: list[StoredMessage]) -> str:
    """Return messages' text with their embeds."""
    return "\n".join(message_text(m) for m in messages)


async def test_each_side_thread_holds_its_players_and_the_gm(table: Table) -> None:
    await table.setup_battle()
    reply = await table.gm_slash("gm side-threads", on=True)
    nerv, angels = side_thread(table, "NERV"), side_thread(table, "Angels")
    assert f"NERV: <#{nerv.id}>" in text_of(reply) and f"Angels: <#{angels.id}>" in text_of(reply)
    bot_id = table.discord.world.bot_user.id
    assert nerv.members == {bot_id, table.alice.id, table.bob.id, table.gm.id}
    assert angels.members == {bot_id, table.gm.id}
    assert not table.discord.can_read(table.bob, angels) and table.discord.can_read(table.bob, nerv)

    # Eva-02 changes hands: bob leaves NERV's thread, carol joins it.
    await table.gm_slash("gm assign", unit="Eva-02", player=table.carol)
    assert nerv.members == {bot_id, table.alice.id, table.carol.id, table.gm.id}
    await table.slash("unit add", name="Ramiel", side="Angels", at="P5", owner=table.bob)
    assert angels.members == {bot_id, table.gm.id, table.bob.id}


async def test_a_sides_map_and_rolls_go_to_its_thread_not_the_channel(table: Table) -> None:
    await table.setup_battle()
    await table.slash("feature points", side="NERV", value=37)
    await table.gm_slash("gm side-threads", on=True)
    nerv, angels = side_thread(table, "NERV"), side_thread(table, "Angels")
    before = posted(table)
    shown = await table.slash("map show", user=table.alice, side="NERV")
    assert last_message(shown).ephemeral and f"posted <#{nerv.id}>" in text_of(shown)
    assert not last_message(shown).files, "the map itself is in the thread"
    [view] = posted(table, nerv)[-1:]
    assert view.files and "NERV's view" in message_text(view)
    assert new_since(table, before) == [], "nothing of NERV's view in the channel"

    rolled = await table.gm_slash("gm roll", dice="1d100", purpose="Operation Yashima", side="NERV")
    assert last_message(rolled).ephemeral and f"NERV only, <#{nerv.id}>" in text_of(rolled)
    assert "Hidden roll for NERV" in texts(posted(table, nerv)) and "Operation Yashima" in texts(posted(table, nerv))
    assert "Operation Yashima" not in texts(posted(table, angels)) + texts(posted(table))
    assert table.discord.dm_messages(table.alice) == []


async def test_where_threads_are_refused_the_side_hears_by_dm_and_the_gm_is_told_once(table: Table) -> None:
    await table.setup_battle()
    table.discord.deny_bot(table.channel, "create_private_threads")
    reply = await table.gm_slash("gm side-threads", on=True)
    assert "NERV: by direct message (the bot lacks the Create Private Threads permission" in text_of(reply)
    assert table.discord.threads(table.channel) == []

    before = posted(table)
    shown = await table.slash("map show", user=table.alice, side="NERV")
    assert "posted by direct message" in text_of(shown)
    for player in (table.alice, table.bob):
        [dm] = table.discord.dm_messages(player)
        assert dm.files and "NERV's view" in message_text(dm)
    assert table.discord.dm_messages(table.carol) == []
    await table.gm_slash("gm roll", dice="1d100", purpose="Operation Yashima", side="NERV")
    gm_dms = texts(table.discord.dm_messages(table.gm))
    assert gm_dms.count("Side threads could not be made") == 1, "the GM is told why once"
    assert "Create Private Threads" in gm_dms and gm_dms.count("Hidden roll for NERV") == 1
    assert "Operation Yashima" in texts(table.discord.dm_messages(table.bob))
    assert new_since(table, before) == []


async def test_players_open_their_sides_thread(table: Table) -> None:
    await table.setup_battle()
    off = await table.slash("battle side-thread", user=table.alice)
    assert last_message(off).ephemeral and "/gm side-threads on:True" in text_of(off)
    await table.gm_slash("gm side-threads", on=True)
    nerv = side_thread(table, "NERV")
    mine = await table.slash("battle side-thread", user=table.alice)
    assert text_of(mine) == f"NERV: <#{nerv.id}>"
    stranger = await table.slash("battle side-thread", user=table.carol)
    assert "You command no unit in this battle" in text_of(stranger)
    theirs = await table.slash("battle side-thread", user=table.alice, side="Angels")
    assert "its thread is not yours" in text_of(theirs)
    gm = await table.slash("battle side-thread", side="Angels")
    assert text_of(gm) == f"Angels: <#{side_thread(table, 'Angels').id}>"

    await table.gm_slash("gm side-threads", on=False)
    before = posted(table, nerv)
    shown = await table.slash("map show", user=table.alice, side="NERV")
    assert last_message(shown).files and posted(table, nerv) == before, "off: the view answers only alice again"
    record = await stored(table)
    assert not (await table.db.players.posting(record.id)).side_threads


async def test_turning_threads_off_archives_and_locks_them_and_on_reopens_them(table: Table) -> None:
    await table.setup_battle()
    await table.gm_slash("gm side-threads", on=True)
    nerv, angels = side_thread(table, "NERV"), side_thread(table, "Angels")
    off = await table.gm_slash("gm side-threads", on=False)
    assert "archived and locked until `/gm side-threads on:True`" in text_of(off)
    assert f"NERV: <#{nerv.id}> (archived and locked)" in text_of(off)
    assert all(t.archived and t.locked for t in (nerv, angels))

    # While they are off, Eva-02 changes hands; turning them on again opens the same threads, members caught up.
    await table.gm_slash("gm assign", unit="Eva-02", player=table.carol)
    assert table.alice.id in nerv.members and table.bob.id in nerv.members, "a shut thread is left alone"
    on = await table.gm_slash("gm side-threads", on=True)
    assert f"NERV: <#{nerv.id}>" in text_of(on) and table.discord.threads(table.channel) == [nerv, angels]
    assert not nerv.archived and not nerv.locked and not angels.archived
    bot_id = table.discord.world.bot_user.id
    assert nerv.members == {bot_id, table.alice.id, table.carol.id, table.gm.id}
    assert table.discord.can_read(table.carol, nerv) and not table.discord.can_read(table.bob, nerv)
    await table.slash("map show", user=table.alice, side="NERV")
    assert "NERV's view" in message_text(posted(table, nerv)[-1])


async def test_without_manage_threads_the_threads_are_archived_but_not_locked(table: Table) -> None:
    await table.setup_battle()
    await table.gm_slash("gm side-threads", on=True)
    nerv = side_thread(table, "NERV")
    table.discord.deny_bot(table.channel, "manage_threads")
    off = await table.gm_slash("gm side-threads", on=False)
    assert f"NERV: <#{nerv.id}> (archived, not locked (the bot lacks Manage Threads))" in text_of(off)
    assert nerv.archived and not nerv.locked
    await table.gm_slash("gm side-threads", on=True)
    assert not nerv.archived and side_thread(table, "NERV") is nerv
