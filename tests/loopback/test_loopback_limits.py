"""Discord's message limits and allowed_mentions rules, checked without a bot."""

from __future__ import annotations

import pytest

from loopback.limits import check_choices, check_message_body
from loopback.messages import MessageBody, compute_pings
from loopback.models import Pings, StoredMessage
from loopback.responses import DiscordHTTPError


def rejected(json: dict[str, object], existing: StoredMessage | None = None) -> str:
    with pytest.raises(DiscordHTTPError) as caught:
        check_message_body(MessageBody(json=json), existing, allow_empty=False)
    return caught.value.message


def test_embed_limits() -> None:
    assert "embeds[0].title" in rejected({"embeds": [{"title": "x" * 257}]})
    assert "11 embeds" in rejected({"embeds": [{"title": "x"}] * 11})
    fields = [{"name": "n", "value": "v" * 1000}] * 7
    assert "6000" in rejected({"embeds": [{"fields": fields}]})
    assert "fields[0].value is required" in rejected({"embeds": [{"fields": [{"name": "n", "value": ""}]}]})
    check_message_body(MessageBody(json={"embeds": [{"title": "x" * 256}]}), None, allow_empty=False)


def test_empty_messages_and_duplicate_custom_ids_are_refused() -> None:
    assert rejected({"content": ""}) == "Cannot send an empty message"
    existing = StoredMessage(id=1, channel_id=2, author_id=3, content="kept")
    check_message_body(MessageBody(json={"embeds": []}), existing, allow_empty=False)
    assert rejected({"content": ""}, existing) == "Cannot send an empty message"
    button = {"type": 2, "custom_id": "same", "label": "x", "style": 1}
    assert "used twice" in rejected({"components": [{"type": 1, "components": [button, button]}]})


def test_an_attachments_alt_text_is_capped_at_1024_characters() -> None:
    listed = {"content": "map", "attachments": [{"id": 0, "filename": "map.png", "description": "d" * 1025}]}
    assert "description is 1025 characters; the limit is 1024" in rejected(listed)
    fits = {"content": "map", "attachments": [{"id": 0, "filename": "map.png", "description": "d" * 1024}]}
    check_message_body(MessageBody(json=fits), None, allow_empty=False)


def test_autocomplete_choices_are_capped() -> None:
    check_choices({"choices": [{"name": str(n), "value": str(n)} for n in range(25)]})
    with pytest.raises(DiscordHTTPError, match="26 autocomplete choices"):
        check_choices({"choices": [{"name": str(n), "value": str(n)} for n in range(26)]})


@pytest.mark.parametrize(
    ("allowed", "expected"),
    [
        (None, Pings(everyone=True, users=frozenset({11, 99}), roles=frozenset({22}))),
        ({"parse": []}, Pings()),
        ({"parse": ["users"]}, Pings(users=frozenset({11}))),
        ({"parse": [], "users": ["11"]}, Pings(users=frozenset({11}))),
        (
            {"parse": ["everyone", "roles"], "replied_user": True},
            Pings(True, frozenset({99}), frozenset({22})),
        ),
    ],
)
def test_allowed_mentions_decide_who_is_pinged(allowed: dict[str, object] | None, expected: Pings) -> None:
    # 99 wrote the message being replied to; only replied_user (or no allowed_mentions at all) pings them.
    assert compute_pings("@everyone <@11> and <@&22> look", allowed, replied_author=99) == expected
