"""Buttons (including persistent ones across a restart) and modals."""

from __future__ import annotations

import pytest

from loopback import InteractionError, LoopbackDiscord

from .demo_bot import DemoBot


async def test_persistent_button_survives_a_restart(running: LoopbackDiscord) -> None:
    alice = running.add_user("alice")
    posted = await running.slash("counter", start=5, user=alice)
    message = posted.message
    assert message is not None
    assert message.custom_ids() == ["demo:counter:5"]

    clicked = await running.click(message, "demo:counter:5", user=alice)
    assert clicked.response_type == 7
    assert clicked.message is message
    assert message.content == "Count: 6"
    assert message.custom_ids() == ["demo:counter:6"]
    assert message.edited

    await running.stop_bot()
    await running.start_bot(DemoBot())
    again = await running.click(message, "demo:counter:6", user=alice)
    assert again.content == "Count: 7"
    assert running.messages(running.general) == [message]


async def test_clicking_a_component_the_message_lacks_raises(running: LoopbackDiscord) -> None:
    posted = await running.slash("counter", start=1)
    with pytest.raises(InteractionError, match="has no component 'demo:counter:9'"):
        await running.click(posted, "demo:counter:9")


async def test_modal_is_shown_and_submitted(running: LoopbackDiscord) -> None:
    alice = running.add_user("alice")
    opened = await running.slash("feedback", user=alice)
    assert opened.response_type == 9
    assert opened.message is None
    assert opened.modal is not None and opened.modal["title"] == "Feedback"
    with pytest.raises(InteractionError, match="is required"):
        await running.submit_modal(opened, {})
    submitted = await running.submit_modal(opened, {"text": "more maps"})
    assert submitted.content == "Thanks: more maps"
    assert submitted.ephemeral
    assert submitted.interaction.user is alice


async def test_plain_view_button_defers_then_edits_and_dies_with_the_bot(running: LoopbackDiscord) -> None:
    posted = await running.slash("confirm")
    message = posted.message
    assert message is not None and message.custom_ids() == ["demo:confirm", "demo:vote"]
    pressed = await running.click(message, "demo:confirm")
    assert (pressed.response_type, pressed.deferred) == (6, True)
    assert pressed.message is message
    assert (message.content, message.components) == ("Confirmed", [])

    again = await running.slash("confirm")
    await running.stop_bot()
    await running.start_bot(DemoBot())
    with pytest.raises(TimeoutError, match="did not answer component 'demo:confirm'"):
        await running.click(again, "demo:confirm", within=0.2)


async def test_select_menu_values_are_checked_and_delivered(running: LoopbackDiscord) -> None:
    alice = running.add_user("alice")
    posted = await running.slash("confirm", user=alice)
    with pytest.raises(InteractionError, match="offers"):
        await running.select(posted, "demo:vote", ["retreat"], user=alice)
    with pytest.raises(InteractionError, match="is a select menu"):
        await running.click(posted, "demo:vote", user=alice)
    voted = await running.select(posted, "demo:vote", ["hold"], user=alice)
    assert (voted.content, voted.ephemeral) == ("You voted hold", True)
    assert voted.interaction.payload["data"] == {
        "custom_id": "demo:vote",
        "component_type": 3,
        "values": ["hold"],
    }
