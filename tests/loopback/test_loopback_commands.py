"""Slash commands and autocomplete, built from the schema the bot synced."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from loopback import Attachment, InteractionError, LoopbackDiscord
from tests.loopback.demo_cog import red_square_png


async def test_subcommand_answers_in_the_channel(running: LoopbackDiscord) -> None:
    alice = running.add_user("alice")
    reply = await running.slash("demo ping", user=alice)
    assert reply.content == "pong"
    assert reply.response_type == 4
    assert not reply.ephemeral and not reply.deferred
    assert reply.message is not None
    assert reply.message.author_id == running.world.bot_user.id
    assert reply.message.type == 20
    assert running.messages(running.general) == [reply.message]


async def test_integer_and_user_options_are_resolved(running: LoopbackDiscord) -> None:
    alice = running.add_user("alice")
    bob = running.add_user("bob")
    reply = await running.slash("roll", sides=6, who=bob, user=alice)
    assert reply.content == f"<@{bob.id}> rolled 6 on a d6 (asked by alice)"
    sent = reply.interaction.payload["data"]
    assert sent["options"] == [
        {"name": "sides", "type": 4, "value": 6},
        {"name": "who", "type": 6, "value": str(bob.id)},
    ]
    assert set(sent["resolved"]["members"]) == {str(bob.id)}
    assert reply.message is not None
    assert reply.message.pings.users == frozenset({bob.id})


async def test_everyone_in_user_text_pings_nobody(running: LoopbackDiscord) -> None:
    alice = running.add_user("alice")
    gm = running.add_role(running.guild, "GM", mentionable=True)
    reply = await running.slash("demo echo", text=f"@everyone charge! <@&{gm.id}> <@{alice.id}>", user=alice)
    assert reply.message is not None
    assert reply.message.content.startswith("@everyone charge!")
    assert reply.message.allowed_mentions == {"parse": []}
    assert reply.message.pings.nobody


@pytest.mark.parametrize(
    ("command", "options", "complaint"),
    [
        ("nope", {}, "not a synced command"),
        ("demo", {}, "is a group"),
        ("demo pong", {}, "not a subcommand"),
        ("roll", {"sides": 6}, "missing required option"),
        ("roll", {"sides": 6, "who": "bob", "extra": 1}, "has no option 'extra'"),
        ("roll", {"sides": "6", "who": None}, "needs an int"),
        ("roll", {"sides": 1, "who": None}, "outside"),
        ("roll", {"sides": True, "who": None}, "needs an int"),
        (
            "describe",
            {"colour": "green", "where": None, "role": None, "weight": 1.0},
            "not one of the choices",
        ),
    ],
)
async def test_calls_discord_would_not_offer_raise(
    running: LoopbackDiscord, command: str, options: dict[str, object], complaint: str
) -> None:
    alice = running.add_user("alice")
    role = running.add_role(running.guild, "GM")
    filled = {
        key: (
            alice if key == "who" else running.general if key == "where" else role if key == "role" else value
        )
        if value is None
        else value
        for key, value in options.items()
    }
    with pytest.raises(InteractionError, match=complaint):
        await running.slash(command, user=alice, options=filled)
    assert running.messages(running.general) == []


async def test_default_permissions_hide_admin_commands(running: LoopbackDiscord) -> None:
    alice = running.add_user("alice")
    gm = running.add_user("gm", manage_guild=True)
    with pytest.raises(InteractionError, match="hidden from alice"):
        await running.slash("gm undo", user=alice)
    reply = await running.slash("gm undo", user=gm)
    assert (reply.content, reply.ephemeral) == ("undone", True)
    assert running.messages(running.general) == []
    assert running.messages(running.general, include_ephemeral=True) == [reply.message]
    overridden = await running.slash("gm undo", user=alice, bypass_permissions=True)
    assert overridden.content == "undone"
    manage_guild = 1 << 5
    assert int(reply.interaction.payload["member"]["permissions"]) & manage_guild
    assert not int(overridden.interaction.payload["member"]["permissions"]) & manage_guild


async def test_subcommand_groups_are_addressed_by_path(running: LoopbackDiscord) -> None:
    reply = await running.slash("demo admin reset")
    assert reply.content == "reset done"
    assert reply.interaction.payload["data"]["options"] == [
        {"type": 2, "name": "admin", "options": [{"type": 1, "name": "reset", "options": []}]}
    ]


async def test_every_option_type_is_converted(running: LoopbackDiscord) -> None:
    alice = running.add_user("alice")
    battle = running.add_channel(running.guild, "battle-1")
    role = running.add_role(running.guild, "GM")
    reply = await running.slash(
        "describe", colour="red", where=battle, role=role, weight=2.5, loud=True, user=alice, channel=battle
    )
    assert reply.content == "Red|battle-1|GM|2.50|True"
    assert not reply.ephemeral
    assert running.messages(battle)[0].content == reply.content
    with pytest.raises(InteractionError, match="needs an int or float"):
        await running.slash("describe", colour="red", where=battle, role=role, weight=True, user=alice)


async def test_autocomplete_returns_the_bots_choices(running: LoopbackDiscord) -> None:
    alice = running.add_user("alice")
    choices = await running.autocomplete("pick", "unit", "ev", user=alice, note="first")
    assert choices == [{"name": n, "value": n} for n in ("Eva-00", "Eva-01", "Eva-02")]
    with pytest.raises(InteractionError, match="has no autocomplete"):
        await running.autocomplete("pick", "note", "x", user=alice)
    reply = await running.slash("pick", unit="Eva-01", user=alice)
    assert reply.content == "picked Eva-01"


async def test_deferred_reply_is_filled_by_the_followup_with_a_png(running: LoopbackDiscord) -> None:
    alice = running.add_user("alice")
    reply = await running.slash("map", user=alice)
    assert reply.deferred
    assert reply.content == "Here is the map."
    assert reply.embeds[0]["title"] == "Map"
    assert reply.followups == []
    assert reply.message is not None and not reply.message.loading and not reply.message.edited
    [picture] = reply.files
    assert picture.filename == "map.png"
    assert picture.content_type == "image/png"
    image = Image.open(io.BytesIO(picture.data))
    assert image.size == (8, 8)
    assert image.convert("RGB").getpixel((3, 3)) == (255, 0, 0)


async def test_files_keep_their_names_and_bytes_whatever_they_hold(running: LoopbackDiscord) -> None:
    """Names with quotes, a backslash and accents, and bytes that look like a multipart boundary, arrive as sent."""
    alice = running.add_user("alice")
    reply = await running.slash("files", user=alice)
    assert reply.content == "Deux fichiers \u2014 \u0434\u0432\u0430 \u0444\u0430\u0439\u043b\u0430"
    lines, picture = reply.files
    assert lines.filename == 'plan "B" \\ \u00e9t\u00e9.txt'
    assert lines.data == b"\r\n--not-a-boundary\r\n" * 3
    assert picture.filename == "\u043a\u0430\u0440\u0442\u0430.png"
    assert picture.data == red_square_png()


async def test_attachment_option_can_be_downloaded_by_the_bot(running: LoopbackDiscord) -> None:
    alice = running.add_user("alice")
    data = b"[army]\nname = 'Red'\n"
    reply = await running.slash("upload", file=Attachment("army.toml", data), user=alice)
    assert reply.content == f"army.toml: {len(data)} bytes, starts '[army]'"
    resolved = reply.interaction.payload["data"]["resolved"]["attachments"]
    [attachment] = resolved.values()
    assert attachment["size"] == len(data)
    assert attachment["url"].startswith(running.server.base_url)
    tupled = await running.slash("upload", file=("notes.txt", b"hello\nworld"), user=alice)
    assert tupled.content == "notes.txt: 11 bytes, starts 'hello'"
