"""Shared steps of the action button tests: find a button by its label, a menu, and press them."""

from __future__ import annotations

from typing import Any

from loopback.models import StoredMessage, walk_components
from loopback.replies import Reply
from tests.e2e.conftest import Table


def components(message: StoredMessage) -> list[dict[str, Any]]:
    """Return a message's buttons and menus, in the order shown."""
    return [c for c in walk_components(message.components) if "custom_id" in c]


def labels(message: StoredMessage) -> list[str]:
    """Return the labels of a message's buttons."""
    return [c["label"] for c in components(message) if c["type"] == 2]


def button(message: StoredMessage, starts: str) -> dict[str, Any]:
    """Return the one button whose label starts with this text."""
    found = [c for c in components(message) if c["type"] == 2 and c["label"].startswith(starts)]
    assert len(found) == 1, f"expected one button starting {starts!r}, found {labels(message)}"
    return found[0]


def menu(message: StoredMessage) -> dict[str, Any]:
    """Return the one select menu of a message."""
    found = [c for c in components(message) if c["type"] == 3]
    assert len(found) == 1, f"expected one menu on {message!r}, found {len(found)}"
    return found[0]


def option_values(message: StoredMessage) -> list[str]:
    """Return the values a message's menu offers."""
    return [o["value"] for o in menu(message)["options"]]


def option_text(message: StoredMessage) -> list[str]:
    """Return each option of a message's menu as `label: description`."""
    return [f"{o['label']}: {o.get('description', '')}" for o in menu(message)["options"]]


def private(reply: Reply) -> StoredMessage:
    """Return the private message a press answered with."""
    messages = [m for m in reply.messages if m.ephemeral]
    assert messages, f"no private answer: {[m.content for m in reply.messages]}"
    return messages[-1]


def public(reply: Reply) -> StoredMessage:
    """Return the public message a press or choice posted (the result)."""
    messages = [m for m in reply.followups if not m.ephemeral]
    assert messages, f"no public result: {[m.content for m in reply.messages]}"
    return messages[-1]


async def press(table: Table, message: StoredMessage, starts: str, user: Any) -> Reply:
    """Press the button whose label starts with this text, as this user."""
    return await table.click(message, button(message, starts)["custom_id"], user=user)


async def choose(table: Table, message: StoredMessage, value: str, user: Any) -> Reply:
    """Pick a value in the message's one menu, as this user."""
    reply = await table.discord.select(message, menu(message)["custom_id"], [value], user=user)
    await table.settle()
    return reply
