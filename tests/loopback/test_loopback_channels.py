"""Channel messages, pins, threads and DMs the bot creates outside the interaction reply."""

from __future__ import annotations

import discord
import pytest

from loopback import LoopbackDiscord

from .demo_bot import DemoBot


async def test_thread_on_a_pinned_opener(running: LoopbackDiscord) -> None:
    gm = running.add_user("gm", manage_guild=True)
    reply = await running.slash("battle", name="Siege", user=gm)
    [thread] = running.threads(running.general)
    assert thread.name == "Siege"
    assert reply.content == f"Opened <#{thread.id}>"
    assert reply.ephemeral

    public = running.messages(running.general)
    opener = next(m for m in public if m.content == "Battle Siege begins")
    assert opener.pinned
    assert thread.id == opener.id  # a thread started on a message shares its id, as on Discord
    notice = public[-1]
    assert notice.type == 6 and notice.message_reference == {
        "message_id": str(opener.id),
        "channel_id": str(running.general.id),
    }
    assert [m.content for m in running.messages(thread)] == ["Turn 1"]
    assert isinstance(running.bot, DemoBot)
    assert running.bot.seen_threads == ["Siege"]


async def test_edit_delete_and_history(running: LoopbackDiscord) -> None:
    reply = await running.slash("scratch")
    contents = [m.content for m in running.messages(running.general)]
    assert contents == ["final / ", "final"]  # the deferred reply sits first, the deleted message is gone
    final = running.messages(running.general)[1]
    assert final.edited and [b.get("content") for b in final.bodies] == ["draft", "final"]
    assert reply.content == "final / "
    assert reply.message is not None and reply.message.id < final.id


async def test_direct_message_and_edited_original(running: LoopbackDiscord) -> None:
    alice = running.add_user("alice")
    reply = await running.slash("remind", text="move Eva-01", user=alice)
    assert reply.content == "sent"
    assert reply.message is not None and reply.message.edited
    [dm] = running.dm_messages(alice)
    assert dm.content == "Reminder: move Eva-01"
    assert running.dm_messages(running.add_user("bob")) == []


async def test_user_messages_reach_the_bot_without_content(running: LoopbackDiscord) -> None:
    alice = running.add_user("alice")
    seen: list[tuple[int, str]] = []
    assert isinstance(running.bot, DemoBot)

    async def on_message(message: discord.Message) -> None:
        seen.append((message.author.id, message.content))

    running.bot.add_listener(on_message)
    await running.post_message(running.general, alice, "hello bot")
    assert seen == [(alice.id, "")]  # no message content intent, as on Discord
    assert running.messages(running.general)[-1].content == "hello bot"


async def test_commands_work_in_direct_messages(running: LoopbackDiscord) -> None:
    alice = running.add_user("alice")
    dm = running.dm_channel(alice)
    reply = await running.slash("demo ping", user=alice, channel=dm)
    assert reply.content == "pong"
    assert "member" not in reply.interaction.payload
    assert reply.interaction.payload["user"]["id"] == str(alice.id)
    assert running.dm_messages(alice) == [reply.message]


async def test_archiving_and_locking_a_thread_as_discord_does(running: LoopbackDiscord) -> None:
    """PATCH /channels/{thread.id}: an archived thread takes only an unarchive; locking needs Manage Threads."""
    assert running.bot is not None
    parent = running.bot.get_channel(running.general.id)
    assert isinstance(parent, discord.TextChannel)
    made = await parent.create_thread(name="Ops", type=discord.ChannelType.private_thread)
    thread = running.threads(running.general)[-1]
    http = running.bot.http
    await http.edit_channel(made.id, archived=True, locked=True)
    assert thread.archived and thread.locked
    with pytest.raises(discord.HTTPException) as archived:
        await http.edit_channel(made.id, name="Renamed")
    assert archived.value.status == 400 and archived.value.code == 50083 and thread.name == "Ops"
    with pytest.raises(discord.Forbidden):
        await made.send("into a locked thread")
    running.deny_bot(running.general, "manage_threads")
    with pytest.raises(discord.Forbidden):
        await http.edit_channel(made.id, archived=False)  # a locked thread reopens only with Manage Threads
    assert thread.archived
    running.general.bot_denied.clear()
    payload = await http.edit_channel(made.id, archived=False, locked=False)
    assert not thread.archived and not thread.locked
    assert payload["thread_metadata"]["archived"] is False
    running.deny_bot(running.general, "manage_threads")
    await http.edit_channel(made.id, archived=True)  # archiving the bot's own thread needs no Manage Threads
    with pytest.raises(discord.Forbidden):
        await http.edit_channel(made.id, archived=False, locked=True)
    with pytest.raises(discord.HTTPException) as wrong:
        await http.edit_channel(running.general.id, archived=True)
    assert wrong.value.status == 400
