"""Track one interaction from dispatch to answer, and present the bot's answer to a test."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from loopback.models import LoopbackUser, MessageStore, StoredFile, StoredMessage

# Interaction types.
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# Interaction callback types.
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9


@dataclass(eq=False)
class InteractionRecord:
    """Hold everything the stand-in knows about one interaction it dispatched."""

    id: int
    token: str
    type: int
    user: LoopbackUser
    channel_id: int
    guild_id: int | None
    payload: dict[str, Any] = field(default_factory=dict)
    command_name: str | None = None
    source_message_id: int | None = None
    response_type: int | None = None
    response_data: dict[str, Any] | None = None
    original_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    rejections: list[str] = field(default_factory=list)
    dispatched_at: float | None = None  # the event loop's time when the bot was sent the interaction
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    completed: asyncio.Event = field(default_factory=asyncio.Event)

    def __repr__(self) -> str:
        return f"<InteractionRecord id={self.id} type={self.type} command={self.command_name!r}>"


class Reply:
    """Present how the bot answered one interaction: its response message, follow-ups, modal or choices."""

    def __init__(self, record: InteractionRecord, world: MessageStore) -> None:
        self.interaction = record
        self._world = world

    @property
    def response_type(self) -> int | None:
        """Return the interaction callback type the bot used (4 message, 5 deferred, 6, 7, 8, 9)."""
        return self.interaction.response_type

    @property
    def deferred(self) -> bool:
        """Say whether the bot deferred before answering."""
        return self.interaction.response_type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE)

    @property
    def message(self) -> StoredMessage | None:
        """Return the response message (for a button, the message the bot updated), as it is now."""
        if self.interaction.original_id is None:
            return None
        return self._world.messages.get(self.interaction.original_id)

    @property
    def followups(self) -> list[StoredMessage]:
        """Return the follow-up messages the bot sent for this interaction and did not delete, oldest first."""
        found = [self._world.messages[mid] for mid in self.interaction.followup_ids]
        return [m for m in found if not m.deleted]

    @property
    def messages(self) -> list[StoredMessage]:
        """Return the response message (if any) followed by every follow-up."""
        first = [self.message] if self.message is not None else []
        return first + self.followups

    @property
    def content(self) -> str:
        """Return the response message's text, or an empty string when there is none."""
        return self.message.content if self.message is not None else ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        """Return the response message's embeds as Discord embed dicts."""
        return self.message.embeds if self.message is not None else []

    @property
    def files(self) -> list[StoredFile]:
        """Return the response message's files (each with .filename and .data)."""
        return self.message.files if self.message is not None else []

    @property
    def components(self) -> list[dict[str, Any]]:
        """Return the response message's raw component list."""
        return self.message.components if self.message is not None else []

    @property
    def ephemeral(self) -> bool:
        """Say whether the response message is visible only to the invoking user."""
        return self.message.ephemeral if self.message is not None else False

    @property
    def modal(self) -> dict[str, Any] | None:
        """Return the modal the bot opened (custom_id, title, components), if it answered with one."""
        if self.interaction.response_type == MODAL:
            return self.interaction.response_data
        return None

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Return the autocomplete choices the bot offered."""
        if self.interaction.response_type != AUTOCOMPLETE_RESULT or self.interaction.response_data is None:
            return []
        return list(self.interaction.response_data.get("choices", []))

    def __repr__(self) -> str:
        return (
            f"<Reply type={self.response_type} ephemeral={self.ephemeral} "
            f"content={self.content[:60]!r} embeds={len(self.embeds)} files={len(self.files)} "
            f"followups={len(self.interaction.followup_ids)}>"
        )
