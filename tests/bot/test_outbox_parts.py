"""The outbox's own parts: how long a refused post waits, and a stored message's buttons coming back."""

from __future__ import annotations

import discord

from bot.outbox import MAX_BACKOFF, MAX_FILE, backoff, message_post, rebuilt_view


def test_the_wait_doubles_with_each_refusal_up_to_its_cap() -> None:
    assert [backoff(n, 2.0) for n in (1, 2, 3, 4)] == [2.0, 4.0, 8.0, 16.0]
    assert backoff(0, 2.0) == 2.0
    assert backoff(60, 2.0) == MAX_BACKOFF


async def test_a_stored_messages_buttons_and_menus_come_back_with_their_ids() -> None:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Move", custom_id="bp:do:7:move", style=discord.ButtonStyle.primary))
    view.add_item(discord.ui.Button(label="Docs", url="https://example.org/help"))
    view.add_item(discord.ui.Select(custom_id="bp:pick:7", placeholder="Pick a unit", row=1,
                                    options=[discord.SelectOption(label="Eva-01", value="u1", description="NERV")]))
    post = message_post(5, guild_id=9, content="hi", view=view)
    back = rebuilt_view(post.payload["components"])
    assert back is not None
    assert back.to_components() == view.to_components()


def test_a_message_without_components_has_no_view_and_a_huge_file_is_left_out() -> None:
    post = message_post(5, guild_id=None, content="x", mention=[3], file=b"\0" * (MAX_FILE + 1), filename="map.png")
    assert rebuilt_view(post.payload["components"]) is None
    assert "file" not in post.payload and post.payload["mention"] == [3]
    kept = message_post(5, guild_id=None, file=b"png", filename="map.png", description="the map")
    assert kept.payload["file"]["name"] == "map.png" and kept.payload["file"]["description"] == "the map"
